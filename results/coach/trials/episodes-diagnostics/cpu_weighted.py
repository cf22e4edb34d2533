"""CPU seconds per ismcts decision (time.process_time) against three heuristics, 4 players."""
import sys, time, statistics
from timelord.core.registry import load
from timelord.agents import make_agent
from timelord.core.seating import seat_rngs
game = load("episodes", players=4)
spec = sys.argv[1]; games = int(sys.argv[2]); seed = int(sys.argv[3])
times = []
for g in range(games):
    agents = [make_agent(spec if s == g % 4 else "heuristic", game) for s in range(4)]
    rngs = seat_rngs(seed + g, 4)
    st = game.new_game(seed + g)
    while not st.is_over:
        s = st.to_move; legal = st.legal_actions()
        t = time.process_time()
        a = agents[s].act(st.view(s), legal, rngs[s])
        if s == g % 4 and len(legal) > 1:
            times.append(time.process_time() - t)
        st = st.apply(a)
times.sort()
print(spec, "decisions", len(times), "mean %.3f p95 %.3f max %.3f" % (statistics.mean(times), times[int(0.95 * len(times))], times[-1]))
