import sys, collections
from timelord.core.registry import load
from timelord.core import Rng
from timelord.agents.episodes.heuristic import decide, _best, top_threat
game=load("episodes", players=4)
rng=Rng(11)
T=collections.Counter(); S=collections.Counter()
def key(h):
    b=_best(h); cov=6-b.count(0)
    ep = cov==6 and top_threat(h, b[0]+b[1]+b[2])>=0
    return (cov, len(h), ep)
for g in range(int(sys.argv[1])):
    st=game.new_game(int(sys.argv[2])+g)
    while not st.is_over:
        legal=st.legal_actions(); s=st.to_move
        n=4; active=st.turn%n
        view=st.view(s)
        for o in range(n):
            if o==s or o==active or o>=st.turn: continue
            T[key(st.hands[o])]+=1
            for _ in range(4):
                w=game.sample_state(view, rng); S[key(w.hands[o])]+=0.25
        st=st.apply(decide(st.hands[s], st.vp, [len(h) for h in st.hands], legal))
for k in sorted(set(T)|set(S)):
    print(k, T[k], round(S[k]), round(T[k]/S[k],3) if S[k] else None)
