import sys, collections
from timelord.core.registry import load
from timelord.core import Rng
from timelord.agents.episodes.heuristic import decide, hand_shape, HOOKS
from timelord.agents.ismcts import dealer
game=load("episodes", players=4)
rng=Rng(3)
T=collections.Counter(); S=collections.Counter(); U=collections.Counter()
for g in range(int(sys.argv[1])):
    st=game.new_game(9000+g)
    while not st.is_over:
        legal=st.legal_actions(); s=st.to_move
        active=st.turn%4
        view=st.view(s)
        d=dealer(game, view, HOOKS, int(sys.argv[2]))
        w=d(rng); u=game.sample_state(view, rng)
        for o in range(4):
            if o==s or o==active or o>=st.turn: continue
            T[hand_shape(st.hands[o])[0::2]]+=1; S[hand_shape(w.hands[o])[0::2]]+=1; U[hand_shape(u.hands[o])[0::2]]+=1
        st=st.apply(decide(st.hands[s], st.vp, [len(h) for h in st.hands], legal))
for k in sorted(T): print(k, T[k], S[k], U[k])
