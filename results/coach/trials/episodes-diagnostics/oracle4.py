"""At heuristic positions: deviations of paired z=1.5 under two rewards (blend vs win-only),
and the true-state worth of each deviation."""
import sys, json, math
from functools import partial
from timelord.agents.episodes.heuristic import rollout, EpisodesHeuristic
from timelord.agents.ismcts import play_out, outcome
from timelord.core import load, Rng
from timelord.core.seating import game_seed, seat_rngs

def win(st, me):
    w = st.winners(); return (1.0 / len(w)) if me in w else 0.0

def paired(game, view, legal, rng, sims, own, z):
    me = view["seat"]; k = len(legal); rounds = max(2, -(-sims // k))
    rows = []
    for r in range(rounds):
        st = game.sample_state(view, rng); seed = rng.next64()
        ends = [play_out(st.apply_unchecked(a), rollout, 1 << 62, Rng(seed)) for a in legal]
        rows.append(([outcome(e, None)[me] for e in ends], [win(e, me) for e in ends]))
    out = []
    for j in (0, 1):
        tot = [sum(r[j][i] for r in rows) for i in range(k)]
        best = max(range(k), key=lambda i: (tot[i], i == own))
        if best == own: out.append(own); continue
        d = [r[j][best] - r[j][own] for r in rows]; n = len(d); m = sum(d) / n
        var = sum((x - m) ** 2 for x in d) / (n - 1)
        out.append(best if m > z * math.sqrt(var / n) else own)
    return out

def main():
    games, seed, out, M = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    game = load("episodes", players=4); heur = EpisodesHeuristic(game)
    with open(out, "a") as f:
        for i in range(games):
            rngs = seat_rngs(game_seed(seed, i), 4); state = game.new_game(game_seed(seed, i)); me = i % 4
            while not state.is_over:
                seat = state.to_move; legal = state.legal_actions()
                a = heur.act_on(partial(state.view, seat), legal, rngs[seat])
                if seat == me and len(legal) > 1:
                    view = state.view(me); own = legal.index(a)
                    picks = paired(game, view, legal, Rng(i * 1000 + state.turn), 200, own, 1.5)
                    ds = []
                    for b in picks:
                        if b == own: ds.append(0.0); continue
                        rng = Rng(i * 7919 + state.turn); d = 0.0
                        for k in range(M):
                            st = state._clone(); st.rng = rng.next64()
                            d += win(play_out(st.apply(legal[b]), rollout, 1 << 30, Rng(0)), me) - win(play_out(st.apply(a), rollout, 1 << 30, Rng(0)), me)
                        ds.append(d / M)
                    if any(b != own for b in picks):
                        f.write(json.dumps({"i": i, "phase": view["phase"], "blend": ds[0], "win": ds[1], "dev": [b != own for b in picks]}) + "\n"); f.flush()
                state = state.apply(a)
            f.write(json.dumps({"i": i, "done": 1}) + "\n"); f.flush()
main()
