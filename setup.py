"""Build timelord; with TIMELORD_COMPILE=1 the rules core (`timelord/build.py`) is compiled
with mypyc where it can be.

Everything else is in pyproject.toml. Without it, with `TIMELORD_PURE=1`, no C compiler, no
Python headers or a failed compile, the build is pure Python.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _load_build_module() -> ModuleType:
    """timelord/build.py itself, without importing the package (not built yet)."""
    spec = importlib.util.spec_from_file_location("_timelord_build", ROOT / "timelord" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_build = _load_build_module()


#: Opt in to the compiled build: it does not pass the suite yet (README, "The compiled build").
COMPILE_ENV = "TIMELORD_COMPILE"


def _can_compile() -> str:
    """Why not, or "" when asked to and mypyc, a C compiler and the Python headers are here."""
    if os.environ.get(COMPILE_ENV, "") in ("", "0"):
        return f"set {COMPILE_ENV}=1 for the experimental compiled build"
    if os.environ.get(_build.PURE_ENV, "") not in ("", "0"):
        return f"{_build.PURE_ENV} is set"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(os.environ.get("CC", cc).split()[0]) is None:
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return ""


class BuildExt(build_ext):
    """The groups (one per game) compiled in parallel; a failed compile leaves the
    pure-Python build, with one line saying so."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler error of any kind: fall back, do not fail
            print(f"timelord: compiling the rules core failed ({exc}); pure Python", flush=True)
            (ROOT / "timelord" / _build.BUILD_FILE).unlink(missing_ok=True)
            self.extensions = []


#: The commands that build extension modules; pip runs setup.py for metadata too, and
#: generating the C code there as well would triple the build time.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def _extensions() -> list[object]:
    if not _BUILDS & set(sys.argv[1:]):
        return []
    build_file = ROOT / "timelord" / _build.BUILD_FILE
    why_not = _can_compile()
    if why_not:
        print(f"timelord: building pure Python ({why_not})", flush=True)
        build_file.unlink(missing_ok=True)
        return []
    import mypyc
    from mypyc.build import mypycify

    groups = [
        (
            [
                str(_build.source_path(m, ROOT / "timelord").relative_to(ROOT))
                for m in _build.COMPILED_MODULES
                if _build.group_of(m) == group
            ],
            group,
        )
        for group in _build.GROUPS
    ]
    build_file.write_text(
        json.dumps(
            {
                "digest": _build.source_digest(_build.COMPILED_MODULES, ROOT / "timelord"),
                "mypyc": getattr(mypyc, "__version__", None) or _mypy_version(),
            }
        )
    )
    paths = [path for files, _ in groups for path in files]
    try:
        return list(mypycify(paths, opt_level="2", separate=groups))
    except (Exception, SystemExit) as exc:  # mypyc refuses the code: build it pure
        print(f"timelord: mypyc failed ({exc!r}); building pure Python", flush=True)
        build_file.unlink(missing_ok=True)
        return []


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
