"""Build timelord, compiling the rules core (`timelord/build.py`) with mypyc where it can.

Everything else is in pyproject.toml. With `TIMELORD_PURE=1`, without a C compiler or the
Python headers, or when mypyc or the compiler fails, the build is pure Python, and one line
says so.
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


def _can_compile() -> str:
    """Why not, or "" when mypyc, a C compiler and the Python headers are here."""
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


def _remove_stale_extensions() -> None:
    """An extension module that an earlier in-place build left beside a module no longer
    compiled would shadow that module's `.py` file: remove it."""
    import importlib.machinery

    package = ROOT / "timelord"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in package.rglob("*" + suffix):
            source = path.with_name(path.name[: -len(suffix)] + ".py")
            module = ".".join(["timelord", *source.relative_to(package).with_suffix("").parts])
            if source.exists() and module not in _build.COMPILED_MODULES:
                path.unlink()


def _extensions() -> list[object]:
    if not _BUILDS & set(sys.argv[1:]):
        return []
    _remove_stale_extensions()
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
