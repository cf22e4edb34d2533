"""Research interfaces: timelord games as PettingZoo and OpenSpiel environments.

`timelord.adapters.space` gives every game a fixed action index (built on
`Game.action_space`) and `timelord.adapters.encode` a fixed-size observation of one seat's
view; `pettingzoo` and `openspiel` wrap the engine with them. Nothing in the package
imports these modules; they need the `rl` extra (numpy, pettingzoo, open_spiel).
"""
