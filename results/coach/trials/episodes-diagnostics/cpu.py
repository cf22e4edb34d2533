import sys, time
sys.path.insert(0, "bench")
from movetime import positions
import timelord
from timelord import Rng
from timelord.agents import make_agent
spec = sys.argv[1]; games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
game = timelord.load("episodes", players=4)
states = positions(game, games, 1)
agent = make_agent(spec, game)
cpus = []
rng = Rng(5)
for st in states:
    seat = st.to_move; view, legal = st.view(seat), st.legal_actions()
    c = time.process_time(); agent.act(view, legal, rng); d = time.process_time() - c
    if agent.last_sims: cpus.append(d)
cpus.sort()
print(spec, "searched decisions", len(cpus), "of", len(states), "mean %.3f p95 %.3f max %.3f" % (sum(cpus)/len(cpus), cpus[int(0.95*len(cpus))], cpus[-1]))
