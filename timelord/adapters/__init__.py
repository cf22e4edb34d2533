"""Research interfaces: timelord games as Gymnasium, PettingZoo and OpenSpiel environments.

`timelord.adapters.space` gives every game a fixed action index (built on
`Game.action_space`) and `timelord.adapters.encode` a fixed-size observation of one seat's
view (and a perfect-recall one); `gym` (one learning seat), `vector` (many tables),
`pettingzoo` and `openspiel` wrap the engine with them. The simulations build on them
(`timelord.sim.dataset` writes self-play games as learning arrays, `timelord.sim.cfr` and
`timelord.sim.headtohead` run OpenSpiel's algorithms through them); they import nothing of
`sim`. They need the `rl` extra (numpy, gymnasium, pettingzoo, supersuit, open_spiel).
"""
