import collections
from timelord.core.registry import load
from timelord.core import Rng
from timelord.agents.episodes.heuristic import decide, hand_shape, HOOKS
from timelord.agents.hooks import Hooks
from timelord.agents.ismcts import dealer
game = load("episodes", players=4)
flat = Hooks(plausible=lambda view: (lambda st: 1.0))
st = game.new_game(77)
while st.turn < 9:
    s = st.to_move
    st = st.apply(decide(st.hands[s], st.vp, [len(h) for h in st.hands], st.legal_actions()))
view = st.view(st.to_move)
for name, d in (("uniform", dealer(game, view, HOOKS, 0)), ("flat8", dealer(game, view, flat, 8))):
    rng = Rng(1); c = collections.Counter(); draws = collections.Counter()
    for _ in range(3000):
        w = d(rng)
        for o in range(4):
            if o != st.to_move: c[hand_shape(w.hands[o])[0]] += 1
        # the world's own future: the first card the next draw takes
        w2 = w.apply(decide(w.hands[w.to_move], w.vp, [len(h) for h in w.hands], w.legal_actions()))
        draws[len(w2.deck)] += 1
    print(name, sorted(c.items()), sorted(draws.items())[:5])
