"""The variance declared for each type variable of the protocols is the variance mypy and pyright infer.

Both checkers compare a protocol's declared variance with what its members imply and name the variance they expect
when the two differ. This test copies ``gymspec`` with every type variable made invariant and collects what each
checker asks for; the answer must be exactly the declared variance (``*_co`` covariant, ``*_contra``
contravariant, the rest invariant). pyright reports one type variable per protocol at a time, so its run repeats
with the reported ones restored until it reports none.

One documented exception: ``Env`` ties ``action_space`` to ``step`` through ``self`` annotations (issue 27, see
``gymspec.env``), from which pyright infers the action parameter invariant while mypy infers it contravariant. It is
declared contravariant and pyright's report is silenced on the two class lines (``Env``, ``Wrapper``); the copy here
drops those silencers, and pyright must name every type variable but ``_PYRIGHT_INVARIANT`` with its declared
variance.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.typing._checkers import ROOT, pyright_executable

_TYPEVAR = re.compile(r'(?P<name>\w+) = TypeVar\("(?P=name)"(?P<variance>, (?:co|contra)variant=True)?')
_MYPY = re.compile(r'Invariant type variable "(?P<name>\w+)" used in protocol where (?P<variance>\w+) one is expected')
_PYRIGHT = re.compile(r'Type variable "(?P<name>\w+)" used in generic Protocol "\w+" should be (?P<variance>\w+)')
_SILENCER = re.compile(r"  # pyright: ignore\[reportInvalidTypeVarUse\].*$", re.MULTILINE)
_PYRIGHT_INVARIANT = frozenset({"WrapperActT_contra"})
"""Declared contravariant, inferred invariant by pyright (and only used where pyright infers so): see above."""


def _declared() -> dict[str, str]:
    declared: dict[str, str] = {}
    for path in sorted((ROOT / "gymspec").glob("*.py")):
        for match in _TYPEVAR.finditer(path.read_text()):
            if match["variance"] is not None:
                declared[match["name"]] = match["variance"].removeprefix(", ").removesuffix("=True")
    return declared


def _copy_invariant(tmp_path: Path, keep: set[str]) -> Path:
    """Copy gymspec under ``tmp_path`` with every type variable but those in ``keep`` made invariant."""
    package = tmp_path / "gymspec"
    if package.exists():
        shutil.rmtree(package)
    shutil.copytree(ROOT / "gymspec", package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in package.glob("*.py"):
        def strip(match: re.Match[str]) -> str:
            return match[0] if match["name"] in keep else f'{match["name"]} = TypeVar("{match["name"]}"'

        path.write_text(_SILENCER.sub("", _TYPEVAR.sub(strip, path.read_text())))
    return package


def test_names_say_the_variance() -> None:
    declared = _declared()
    assert declared, "no type variable with a declared variance was found"
    for name, variance in declared.items():
        assert name.endswith("_co" if variance == "covariant" else "_contra"), name


def test_mypy_infers_the_declared_variance(tmp_path: Path) -> None:
    package = _copy_invariant(tmp_path, keep=set())
    command = [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--python-version", "3.10", "gymspec"]
    result = subprocess.run(command, cwd=package.parent, capture_output=True, text=True, check=False)
    inferred = {m["name"]: m["variance"] for m in _MYPY.finditer(result.stdout)}
    assert inferred == _declared(), result.stdout[-3000:]


def test_pyright_infers_the_declared_variance(tmp_path: Path) -> None:
    executable = pyright_executable()
    if executable is None:
        pytest.skip("pyright is not installed: pip install -e '.[test]' brings basedpyright")
    (tmp_path / "pyrightconfig.json").write_text('{"typeCheckingMode": "strict"}')
    inferred: dict[str, str] = {}
    for _ in range(len(_declared()) + 1):
        _copy_invariant(tmp_path, keep=set(inferred))
        command = [executable, "--pythonpath", sys.executable, "gymspec"]
        output = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False).stdout
        found = {m["name"]: m["variance"] for m in _PYRIGHT.finditer(output)}
        # A restored variable is reported again where pyright infers it invariant (Env's action parameter, see
        # above): the first report, from the protocols that use it plainly, is its variance.
        new = {name: variance for name, variance in found.items() if name not in inferred}
        if not new:
            break
        inferred.update(new)
    expected = {name: variance for name, variance in _declared().items() if name not in _PYRIGHT_INVARIANT}
    assert inferred == expected
