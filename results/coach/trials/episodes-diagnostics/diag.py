"""Diagnostic match loop: seat 'S' is an ismcts spec, optionally cheating (true state)."""
import sys, json, time
from functools import partial
from timelord.agents import make_agent
from timelord.core import load
from timelord.core.seating import arrangement, game_seed, seat_rngs
from timelord.core import Rng

def main():
    spec, games, seed, cheat, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "cheat", sys.argv[5]
    lo = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    game = load("episodes", players=4)
    specs = (spec, "heuristic", "heuristic", "heuristic")
    wins = 0.0
    with open(out, "a") as f:
        for i in range(lo, lo + games):
            seats = arrangement(specs, i, True)
            agents = [make_agent(s, game) for s in seats]
            rngs = seat_rngs(game_seed(seed, i), 4)
            state = game.new_game(game_seed(seed, i))
            me = seats.index(spec)
            cpu = 0.0; n = 0
            while not state.is_over:
                seat = state.to_move
                legal = state.legal_actions()
                if seat == me and cheat:
                    true = state
                    def fake(view, rng, _t=true):
                        st = _t._clone(); st.rng = rng.next64(); return st
                    game.sample_state = fake
                t = time.process_time()
                a = agents[seat].act_on(partial(state.view, seat), legal, rngs[seat])
                if seat == me:
                    cpu += time.process_time() - t; n += 1
                if cheat:
                    try: del game.sample_state
                    except AttributeError: pass
                state = state.apply(a)
            w = state.winners()
            share = (1.0 / len(w)) if me in w else 0.0
            wins += share
            f.write(json.dumps({"i": i, "me": me, "share": share, "vp": state.vp, "cpu": cpu, "n": n}) + "\n"); f.flush()
    print(spec, cheat, games, wins / games)

main()
