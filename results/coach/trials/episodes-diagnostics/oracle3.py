"""Paired deviations from the heuristic with their z, and their true-state value."""
import sys, json, math
from functools import partial
from timelord.agents import make_agent
from timelord.agents.episodes.heuristic import rollout, evaluate, EpisodesHeuristic
from timelord.agents.ismcts import play_out, outcome
from timelord.core import load, Rng
from timelord.core.seating import game_seed, seat_rngs

def paired_z(game, view, legal, rng, sims, own):
    me = view["seat"]; k = len(legal); rounds = max(2, sims // k)
    rows = []
    for r in range(rounds):
        st = game.sample_state(view, rng); seed = rng.next64()
        rows.append([outcome(play_out(st.apply_unchecked(a), rollout, 1 << 62, Rng(seed)), evaluate)[me] for a in legal])
    n = len(rows); tot = [sum(r[i] for r in rows) for i in range(k)]
    best = max(range(k), key=lambda i: (tot[i], i == own))
    if best == own: return best, 0.0
    d = [r[best] - r[own] for r in rows]; m = sum(d) / n; var = sum((x - m) ** 2 for x in d) / (n - 1)
    return best, (m / math.sqrt(var / n) if var > 0 else 99.0)

def main():
    sims, games, seed, out, M = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
    game = load("episodes", players=4)
    heur = EpisodesHeuristic(game)
    with open(out, "a") as f:
        for i in range(games):
            rngs = seat_rngs(game_seed(seed, i), 4)
            state = game.new_game(game_seed(seed, i))
            me = i % 4
            n = 0
            while not state.is_over:
                seat = state.to_move
                legal = state.legal_actions()
                a = heur.act_on(partial(state.view, seat), legal, rngs[seat])
                if seat == me and len(legal) > 1:
                    n += 1
                    view = state.view(me)
                    b, z = paired_z(game, view, legal, Rng(i * 1000 + state.turn), sims, legal.index(a))
                    if legal[b] != a:
                        rng = Rng(i * 7919 + state.turn); d = 0.0
                        for k in range(M):
                            st = state._clone(); st.rng = rng.next64(); v = []
                            for x in (legal[b], a):
                                e = play_out(st.apply(x), rollout, 1 << 30, Rng(0))
                                w = e.winners(); v.append((1.0 / len(w)) if me in w else 0.0)
                            d += v[0] - v[1]
                        f.write(json.dumps({"i": i, "turn": state.turn, "phase": view["phase"], "k": len(legal), "s": legal[b].to_json(), "h": a.to_json(), "z": z, "d": d / M}) + "\n"); f.flush()
                state = state.apply(a)
            f.write(json.dumps({"i": i, "decisions": n}) + "\n"); f.flush()

main()
