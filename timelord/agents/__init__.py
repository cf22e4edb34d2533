"""Bots, built by name from a seat spec such as "random", "heuristic:easy" or "ismcts:hard".

- `random`: uniform over the legal actions.
- `rollout`: the policy the coach and the search simulate every seat with, on one world dealt
  from its view (`timelord.agents.rollout_agent`), for measuring it against the table's bots.
- `heuristic[:level]`: the game's own heuristic (from its hooks), else a generic one-ply
  lookahead (`timelord.agents.heuristic`).
- `ismcts[:level]`: single-observer ISMCTS (`timelord.agents.ismcts`); the level is a name
  (easy, medium, hard), a number of simulations, or settings such as "sims=800/time=2".
- `cfr:PATH.json`: a tabular policy, such as CFR's on a small variant
  (`timelord.agents.tabular`, written by `python -m timelord.sim.cfr ... --out DIR`).
- `ppo:FOLDER`: a policy `timelord train` wrote (`timelord.adapters.policy`; needs numpy,
  the `rl` extra, not torch).
- `package.module:ClassName` or `path/to/file.py:ClassName`: your own agent, any subclass of
  `timelord.agents.base.Agent` built as `ClassName(game)`. Since `play`, `simulate` and the
  server build every seat through `make_agent`, all of them take such specs.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from timelord.agents.base import Agent
from timelord.agents.heuristic import make_heuristic
from timelord.agents.hooks import Hooks, hooks_for, register_hooks
from timelord.agents.ismcts import make_ismcts
from timelord.agents.random_agent import RandomAgent
from timelord.agents.rollout_agent import RolloutAgent
from timelord.agents.tabular import make_tabular
from timelord.core import ConfigError, Game

#: wall-clock seconds a bot may think per move at a table on the server (`Agent.time_cap`);
#: under the one second the tables promise, leaving room for the hop to the bot pool
TABLE_TIME_CAP = 0.8


def _trained(game: Game, folder: str | None) -> Agent:
    """A trained policy's seat. Its module lives with the learning adapters and needs numpy,
    so it is imported here, by name, only when a spec asks for it."""
    try:
        policy = importlib.import_module("timelord.adapters.policy")
    except ImportError as exc:
        extra = "ppo seats need the rl extra: pip install 'timelord[rl]'"
        raise ConfigError(f"{extra} ({exc})") from exc
    agent: Agent = policy.make_policy_agent(game, folder)
    return agent


#: name -> factory(game, level) ; level is the text after ":" in a spec, or None.
AGENTS: dict[str, Callable[[Game, str | None], Agent]] = {
    "random": lambda game, level: RandomAgent(game),
    "rollout": lambda game, level: RolloutAgent(game),
    "heuristic": make_heuristic,
    "ismcts": make_ismcts,
    "cfr": make_tabular,
    "ppo": _trained,
}


def make_agent(spec: str, game: Game) -> Agent:
    """Build the agent a seat spec names ("random", "heuristic", "ismcts:hard",
    "mypkg.mymodule:MyAgent", "path/to/file.py:MyAgent"); `ConfigError` if it names none."""
    if not isinstance(spec, str):
        raise ConfigError(f"an agent spec is a string, not {spec!r}")
    name, _, level = spec.partition(":")
    factory = AGENTS.get(name)
    if factory is not None:
        agent = factory(game, level or None)
    elif level:
        agent = _user_agent(spec, game)
    else:
        raise ConfigError(
            f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}, "
            "or your own as package.module:ClassName or path/to/file.py:ClassName"
        )
    agent.name = spec
    return agent


def user_agent_class(spec: str) -> type[Agent]:
    """The `Agent` subclass a "package.module:ClassName" or "path/file.py:ClassName" spec
    names (imported, not built); `ConfigError` if it names none."""
    where, _, class_name = spec.rpartition(":")
    if not where or not class_name.isidentifier():
        raise ConfigError(f"agent spec {spec!r}: write module:ClassName or file.py:ClassName")
    module = _load_file(where) if where.endswith(".py") else _import(where)
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ConfigError(f"agent spec {spec!r}: {where} has no {class_name}")
    if not (inspect.isclass(cls) and issubclass(cls, Agent)) or inspect.isabstract(cls):
        raise ConfigError(
            f"agent spec {spec!r}: {class_name} is not a concrete subclass of "
            "timelord.agents.base.Agent"
        )
    return cls


def _user_agent(spec: str, game: Game) -> Agent:
    """`ClassName(game)` from the module or file `spec` names before its last ':'."""
    cls = user_agent_class(spec)
    try:
        agent: Agent = cls(game)
    except TypeError as exc:
        raise ConfigError(f"agent spec {spec!r}: {cls.__name__}(game) failed: {exc}") from exc
    return agent


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # any failure of foreign code is a bad spec to the caller
        raise ConfigError(f"cannot import agent module {name!r}: {exc}") from exc


def _load_file(path: str) -> ModuleType:
    """The module in file `path`, loaded once per resolved path (under a name made from it,
    so two files of one name do not clash)."""
    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise ConfigError(f"no agent file {path!r}")
    key = "timelord_user_agent_" + hashlib.sha1(str(file).encode()).hexdigest()[:12]
    loaded = sys.modules.get(key)
    if loaded is not None:
        return loaded
    module_spec = importlib.util.spec_from_file_location(key, file)
    if module_spec is None or module_spec.loader is None:
        raise ConfigError(f"cannot load agent file {path!r}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[key] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # any failure of foreign code is a bad spec to the caller
        del sys.modules[key]
        raise ConfigError(f"cannot load agent file {path!r}: {exc}") from exc
    return module


__all__ = [
    "AGENTS",
    "TABLE_TIME_CAP",
    "Agent",
    "Hooks",
    "RandomAgent",
    "hooks_for",
    "make_agent",
    "register_hooks",
]
