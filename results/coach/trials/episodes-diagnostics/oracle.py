"""At hard-seat decisions where search (2000) and heuristic disagree, estimate each choice's
value four ways: {true state, sampled} x {full heuristic playout, cutoff-8 + evaluate}."""
import sys, json, time
from functools import partial
from timelord.agents import make_agent
from timelord.agents.episodes.heuristic import rollout, evaluate, EpisodesHeuristic
from timelord.agents.ismcts import play_out, outcome
from timelord.core import load, Rng
from timelord.core.seating import arrangement, game_seed, seat_rngs

M = int(sys.argv[4]) if len(sys.argv) > 4 else 200

def value(game, view, true, action, me, mode, seed):
    rng = Rng(seed)
    tot = 0.0
    for k in range(M):
        if mode[0] == "true":
            st = true._clone(); st.rng = rng.next64()
        else:
            st = game.sample_state(view, rng)
        st = st.apply(action)
        if mode[1] == "full":
            end = play_out(st, rollout, 1 << 30, rng)
            w = end.winners(); tot += (1.0 / len(w)) if me in w else 0.0
        else:
            tot += outcome(play_out(st, rollout, 8, rng), evaluate)[me]
    return tot / M

def main():
    games, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    game = load("episodes", players=4)
    specs = ("ismcts:hard", "heuristic", "heuristic", "heuristic")
    search = make_agent("ismcts:hard/sims=2000", game)
    heur = EpisodesHeuristic(game)
    with open(out, "a") as f:
        for i in range(games):
            seats = arrangement(specs, i, True)
            agents = [make_agent(s, game) for s in seats]
            rngs = seat_rngs(game_seed(seed, i), 4)
            state = game.new_game(game_seed(seed, i))
            me = seats.index("ismcts:hard")
            while not state.is_over:
                seat = state.to_move
                legal = state.legal_actions()
                a = agents[seat].act_on(partial(state.view, seat), legal, rngs[seat])
                if seat == me and len(legal) > 1:
                    view = state.view(me)
                    s_act = search.act(view, legal, Rng(i * 1000 + state.turn))
                    h_act = heur.act(view, legal, Rng(0))
                    if s_act != h_act:
                        rec = {"i": i, "turn": state.turn, "vp": state.vp, "phase": view["phase"],
                               "hand": view["hand"], "s": s_act.to_json(), "h": h_act.to_json()}
                        for mode in (("true", "full"), ("true", "cut"), ("samp", "full"), ("samp", "cut")):
                            key = "-".join(mode)
                            sd = i * 7919 + state.turn
                            rec[key] = [value(game, view, state, x, me, mode, sd) for x in (s_act, h_act)]
                        f.write(json.dumps(rec) + "\n"); f.flush()
                state = state.apply(a)

main()
