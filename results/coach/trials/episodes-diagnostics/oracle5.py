"""At the positions of all-heuristic games (seat i % 4 of game i): the moves of several ismcts
specs, each valued from the true state (M full heuristic playouts per move, common random
numbers). Lines: per decision where some spec leaves the heuristic, each spec's true-state
gain over the heuristic's move."""
import sys, json
from functools import partial
from timelord.agents import make_agent
from timelord.agents.episodes.heuristic import rollout, EpisodesHeuristic
from timelord.agents.ismcts import play_out
from timelord.core import load, Rng
from timelord.core.seating import game_seed, seat_rngs

def win(st, me):
    w = st.winners(); return (1.0 / len(w)) if me in w else 0.0

def main():
    games, seed, out, M, first = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    specs = sys.argv[6:]
    game = load("episodes", players=4); heur = EpisodesHeuristic(game)
    agents = [make_agent(s, game) for s in specs]
    with open(out, "a") as f:
        for i in range(first, first + games):
            rngs = seat_rngs(game_seed(seed, i), 4); state = game.new_game(game_seed(seed, i)); me = i % 4
            while not state.is_over:
                seat = state.to_move; legal = state.legal_actions()
                a = heur.act_on(partial(state.view, seat), legal, rngs[seat])
                if seat == me and len(legal) > 1:
                    view = state.view(me)
                    picks = [ag.act(view, legal, Rng(i * 1000 + state.turn * 10 + len(state.hands[me]))) for ag in agents]
                    moves = sorted({legal.index(p) for p in picks} - {legal.index(a)})
                    if moves:
                        rng = Rng(i * 7919 + state.turn); gain = {m: 0.0 for m in moves}
                        for k in range(M):
                            st = state._clone(); st.rng = rng.next64()
                            base = win(play_out(st.apply(a), rollout, 1 << 30, Rng(0)), me)
                            for m in moves:
                                gain[m] += win(play_out(st.apply(legal[m]), rollout, 1 << 30, Rng(0)), me) - base
                        g = [gain[legal.index(p)] / M if p != a else 0.0 for p in picks]
                        f.write(json.dumps({"i": i, "phase": view["phase"], "gain": g}) + "\n"); f.flush()
                state = state.apply(a)
            f.write(json.dumps({"i": i, "done": 1}) + "\n"); f.flush()
main()
