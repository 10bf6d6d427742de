"""Every public constructor and function of ``reference`` rejects bad input cleanly (issue 17, part 3).

Each target (the table is :mod:`tests.reference._fuzz_targets`) is one public callable (a space, a space method, a
``spaces.utils`` function, a registration function, a wrapper, a vector wrapper or a vector env) with a *valid*
value for every parameter. An example replaces
one or more parameters with junk drawn from broad strategies (``None``, huge and negative ints, NaN and infinities,
strings, bytes, containers, arrays of odd dtypes, spaces, callables returning junk) and makes the call; when it
succeeds and returns an environment, the environment is reset, stepped and closed. Every step must either succeed
or raise

* ``TypeError`` or ``ValueError`` raised by ``reference`` itself (not inside NumPy or the standard library) whose
  message names a parameter that was replaced (or, after construction, states what ``must`` hold), or
* one of Gymnasium's documented error classes (``reference.error.Error`` subclasses such as ``NameNotFound``),

never ``AttributeError``/``IndexError``/``KeyError``/``ZeroDivisionError``/``OverflowError``/``MemoryError``, never
NumPy's own message, and never a hang (each call has a time limit). NaN bounds and absurd sizes listed in the issue
must be rejected, not accepted: :func:`test_listed_failures_are_clean` pins every case the issues name (17 and 27),
with its message. Each target's ``pinned`` junk (sizes past the platform's limits, mask and length arguments past
the space's) is tried on every run by :func:`test_pinned_junk_is_rejected_cleanly`, before Hypothesis draws more.
``_ALLOWED`` lists the exceptions to these rules, each with its reason. An error raised by the test's own
environments (after a junk function handed them junk) is theirs, not ``reference``'s, and is not judged.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any, TypeAlias, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gymspec
import reference
from reference import error, spaces
from reference.core import Env
from reference.registration import registry
from reference.spaces import utils as space_utils
from reference.vector import SyncVectorEnv, VectorEnv
from tests.reference._fuzz_targets import (
    _OMIT,
    _W,
    ALL_TARGETS,
    _box_env,
    _junk,
    _Target,
)
from tests.reference._limits import within
from tests.reference.wrappers._envs import BoxEnv

_Value: TypeAlias = Any
_Kwargs: TypeAlias = dict[str, Any]
_Info: TypeAlias = dict[str, Any]
_Image: TypeAlias = "np.ndarray[Any, np.dtype[np.uint8]]"

_CALL_SECONDS = 10.0
"""The per-call time limit: far above any legitimate call here (the slowest start two worker processes)."""
_PACKAGES = tuple(str(Path(module.__file__ or "").parent) + os.sep for module in (reference, gymspec))
_TESTS = str(Path(__file__).parent) + os.sep
_UNCLEAN = (AttributeError, IndexError, KeyError, ZeroDivisionError, OverflowError, MemoryError, RecursionError)


class _Hang(BaseException):
    """Raised by the alarm when a call overruns its time limit (a BaseException, so no ``except`` swallows it)."""


# --- allow-list ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Allowed:
    """An outcome accepted although it breaks the rules: on targets matching ``target`` (a regex), an ``error``
    whose message matches ``message``, for ``reason``."""

    target: str
    error: type[BaseException]
    message: str
    reason: str


_ALLOWED: tuple[_Allowed, ...] = (
    _Allowed(
        "make|make_vec",
        ModuleNotFoundError,
        "Environment registration via importing a module failed",
        "an id's 'module:' prefix names a module for make to import; a missing one is Python's ModuleNotFoundError "
        "naming it, as in Gymnasium",
    ),
    _Allowed(
        r"register\+make",
        ModuleNotFoundError,
        "^No module named",
        "a 'module:attr' entry point is imported by make; a missing module is Python's ModuleNotFoundError naming "
        "it, as in Gymnasium",
    ),
)


def _allowed(target: str, exc: BaseException) -> bool:
    return any(
        re.fullmatch(entry.target, target) and isinstance(exc, entry.error) and re.search(entry.message, str(exc))
        for entry in _ALLOWED
    )


# --- running one example -------------------------------------------------------------------------------------------


@contextmanager
def _scratch_state() -> Iterator[None]:
    """Run in a scratch folder with the registry restored afterwards and warnings silenced."""
    saved = dict(registry)
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings(), redirect_stdout(StringIO()):
        warnings.simplefilter("ignore")
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(cwd)
            registry.clear()
            registry.update(saved)


_ALIASES = {"env": ("env", "observation", "action", "render_mode", "observation_space", "action_space")}
"""What a message may name instead of a parameter: a wrapper rejects an environment for its spaces or modes."""


def _origin(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    return frames[-1].filename if frames else "?"


def _verdict(exc: BaseException, names: Sequence[str], phase: str) -> str | None:
    """Why ``exc`` is not a clean rejection of the junk in ``names`` (``None`` if it is)."""
    origin = _origin(exc)
    summary = f"{phase}: {type(exc).__name__}: {exc} (raised in {origin})"
    if isinstance(exc, _Hang):
        return summary
    if origin.startswith(_TESTS):
        return None  # the test's own environment rejected what a junk function made of its action
    if isinstance(exc, error.Error) and not isinstance(exc, (TypeError, ValueError)):
        return None  # Gymnasium's documented classes keep Gymnasium's wording
    if isinstance(exc, _UNCLEAN) or not isinstance(exc, (TypeError, ValueError)):
        return summary
    if not origin.startswith(_PACKAGES):
        return f"{summary}: not raised by reference"
    message = str(exc)
    words = [word for name in names for word in _ALIASES.get(name, (name,))]
    named = any(re.search(rf"(?<![A-Za-z_]){re.escape(word)}(?![A-Za-z_])", message) for word in words)
    # Once constructed, the junk may surface inside the environment: the message must then say what must hold.
    if not named and (phase == "call" or " must " not in message):
        return f"{summary}: the message names none of {list(names)}"
    return None


def _exercise(result: object) -> None:
    """Reset, step and close what a call returned, if it is an environment."""
    if isinstance(result, (Env, VectorEnv)):
        try:
            result.reset(seed=0)
            result.step(result.action_space.sample())
        finally:
            result.close()


@dataclass(frozen=True)
class _Example:
    """One call's drawn arguments: junk for the parameters in ``junk``, drawn valid values for the others."""

    drawn: dict[str, _Value]
    junk: tuple[str, ...]

    def __repr__(self) -> str:
        return ", ".join(f"{name}={self.drawn[name]!r:.80}" for name in self.junk)


def run_example(target: _Target, example: _Example) -> str | None:
    """Call ``target`` with ``example``'s arguments; why the outcome is unclean (``None`` if it is clean)."""
    kwargs: _Kwargs = {}
    for name, valid in target.valid.items():
        value = example.drawn[name] if name in example.drawn else cast("Callable[[_Kwargs], _Value]", valid)(kwargs)
        if value is not _OMIT:
            kwargs[name] = value
    with _scratch_state():
        phase = "call"
        try:
            with within(_CALL_SECONDS, _Hang):
                result = target.call(**kwargs)
                phase = "use"
                _exercise(result)
        except BaseException as exc:  # every outcome is judged, _Hang included
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            if _allowed(target.name, exc):
                return None
            return _verdict(exc, example.junk, phase)
    return None


@st.composite
def examples(draw: st.DrawFn, target: _Target) -> _Example:
    """Junk for one or two of ``target``'s parameters, and a value for each parameter drawn from a strategy."""
    junk = tuple(sorted(draw(st.sets(st.sampled_from(target.fuzzed), min_size=1, max_size=2))))
    drawn = {name: draw(_junk, label=name) for name in junk}
    for name, valid in target.valid.items():
        if name not in drawn and isinstance(valid, st.SearchStrategy):
            drawn[name] = draw(valid, label=name)
    return _Example(drawn, junk)


_PINNED = [(target, pinned) for target in ALL_TARGETS for pinned in target.pinned]


@pytest.mark.parametrize(
    ("target", "pinned"), _PINNED, ids=[f"{target.name}-{index}" for index, (target, _) in enumerate(_PINNED)]
)
def test_pinned_junk_is_rejected_cleanly(target: _Target, pinned: _Kwargs) -> None:
    """The sizes past the platform's limits and the masks past the space's, tried on every run (issue 27)."""
    example = _Example(dict(pinned), tuple(sorted(set(pinned) - target.fixed)))
    problem = run_example(target, example)
    assert problem is None, f"{target.name}({example!r}) -> {problem}"


@pytest.mark.parametrize("target", ALL_TARGETS, ids=lambda target: target.name)
def test_public_callables_reject_junk_cleanly(target: _Target) -> None:
    @settings(
        max_examples=target.examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(example=examples(target))
    def check(example: _Example) -> None:
        problem = run_example(target, example)
        assert problem is None, f"{target.name}({example!r}) -> {problem}"

    check()


# --- the failures issue 17 lists ------------------------------------------------------------------------------------


class _TextEnv(BoxEnv):
    """Declares a Text observation space but returns a string with characters outside its charset."""

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = spaces.Text(5, charset="abc")  # type: ignore[assignment]

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> Any:
        super().reset(seed=seed)
        return "ab!", {}


def _register_then_make_with_int_entry_point() -> object:
    reference.register("X-v1", entry_point=5)  # type: ignore[arg-type]
    return reference.make("X-v1")


def _make_spec_with_int_entry_point() -> object:
    return reference.make(reference.registration.EnvSpec("X-v1", entry_point=5))  # type: ignore[arg-type]


_LISTED: dict[str, tuple[Callable[[], object], type[Exception], str]] = {
    "flatdim(None)": (
        lambda: space_utils.flatdim(None),  # type: ignore[arg-type]
        TypeError,
        r"^flatdim space must be a Space, got None$",
    ),
    "FlattenObservation(None)": (
        lambda: _W.FlattenObservation(None),  # type: ignore[arg-type]
        TypeError,
        r"^FlattenObservation env must be an environment .*got None",
    ),
    "SyncVectorEnv([lambda: None])": (
        lambda: SyncVectorEnv([lambda: None]),  # type: ignore[list-item, return-value]
        TypeError,
        r"^SyncVectorEnv env_fns\[0\] must return an environment .*got None",
    ),
    "flatten(Discrete(3), 3)": (
        lambda: space_utils.flatten(spaces.Discrete(3), 3),
        ValueError,
        r"^flatten x must be an element of Discrete\(3\), got 3$",
    ),
    "flatten(Dict, missing key)": (
        lambda: space_utils.flatten(spaces.Dict({"a": spaces.Discrete(3)}), {"b": 1}),
        ValueError,
        r"^flatten x must be a dict with the keys \['a'\], got \{'b': 1\}$",
    ),
    "unflatten(Discrete(3), None)": (
        lambda: space_utils.unflatten(spaces.Discrete(3), None),  # type: ignore[arg-type]
        ValueError,
        r"^unflatten x must be a 1-D array of 3 numbers for Discrete\(3\), got None$",
    ),
    "register(entry_point=5), make": (
        _register_then_make_with_int_entry_point,
        TypeError,
        r"^register entry_point must be a 'module:attr' str, a callable or None, got 5$",
    ),
    "make(EnvSpec(entry_point=5))": (
        _make_spec_with_int_entry_point,
        TypeError,
        r"^make entry_point of 'X-v1' must be a 'module:attr' str or a callable, got 5$",
    ),
    "FlattenObservation(Text env).reset()": (
        lambda: _W.FlattenObservation(_TextEnv()).reset(),
        ValueError,
        r"^flatten x must be a string of the characters of Text\(1, 5, charset=abc\), got 'ab!'$",
    ),
    "NormalizeReward(gamma='x')": (
        lambda: _W.NormalizeReward(_box_env(), gamma="x"),  # type: ignore[arg-type]
        TypeError,
        r"^NormalizeReward gamma must be a real number, got 'x'$",
    ),
    "make('::')": (lambda: reference.make("::"), ValueError, r"^Environment id '::' must name a module before ':'"),
    "make_vec(num_envs=2**70)": (
        lambda: reference.make_vec("CartPole-v1", num_envs=2**70),
        ValueError,
        r"^make_vec num_envs must be in \[1, 16777216\]",
    ),
    "ClipReward(nan, 1.0)": (
        lambda: _W.ClipReward(_box_env(), math.nan, 1.0),
        error.InvalidBound,
        r"^ClipReward min_reward must not be NaN, got nan$",
    ),
    "Graph.sample(num_edges=nan)": (
        lambda: spaces.Graph(spaces.Discrete(2), spaces.Discrete(2)).sample(num_edges=math.nan),  # type: ignore[arg-type]
        TypeError,
        r"^Graph.sample num_edges must be an int or None, got nan$",
    ),
    "make(max_episode_steps=2**70)": (
        lambda: reference.make("CartPole-v1", max_episode_steps=2**70),
        ValueError,
        r"^make max_episode_steps must be positive and at most 2\*\*63 - 1",
    ),
    "TimeLimit(max_episode_steps=2**63)": (
        lambda: _W.TimeLimit(_box_env(), 2**63),
        ValueError,
        r"^TimeLimit max_episode_steps must be positive and at most 2\*\*63 - 1",
    ),
    "register(max_episode_steps=2**63)": (
        lambda: reference.register("Y-v0", entry_point=_box_env, max_episode_steps=2**63),
        ValueError,
        r"^register max_episode_steps must be positive and at most 2\*\*63 - 1",
    ),
    # issue 27: sizes past the platform's limits, lengths past the space's; each raised at construction or call
    "Sequence(Discrete(2)).sample(mask=(10**12, None))": (
        lambda: spaces.Sequence(spaces.Discrete(2)).sample(mask=(10**12, None)),
        ValueError,
        r"^Sequence\.sample mask length must be at most \d+ \(a sample of that many items needs 8 bytes each of "
        r"this machine's \d+ bytes of memory\), got 1000000000000$",
    ),
    "Sequence(...).sample(mask=(array([10**12]), None))": (
        lambda: spaces.Sequence(spaces.Discrete(2)).sample(mask=(np.array([10**12]), None)),
        ValueError,
        r"^Sequence\.sample mask lengths must be at most \d+ ",
    ),
    "MultiBinary(2**70)": (
        lambda: spaces.MultiBinary(2**70),
        ValueError,
        r"^MultiBinary n must describe an array of at most 2\*\*63 - 1 bytes \(NumPy's limit\), "
        r"got 1180591620717411303424$",
    ),
    "MultiBinary([1] * 40)": (
        lambda: spaces.MultiBinary([1] * 40),
        ValueError,
        r"^MultiBinary n must have at most 32 dimensions \(NumPy's limit\), got 40 dimensions",
    ),
    "Text(max_length=2**40)": (
        lambda: spaces.Text(max_length=2**40),
        ValueError,
        r"^Text max_length must be at most \d+ \(a sample of that many characters needs 8 bytes each of this "
        r"machine's \d+ bytes of memory\), got 1099511627776$",
    ),
    "MultiBinary([])": (
        lambda: spaces.MultiBinary([]),
        ValueError,
        r"^MultiBinary n must be a positive int or a non-empty sequence of them, got \[\]$",
    ),
    "MultiDiscrete([[]])": (
        lambda: spaces.MultiDiscrete([[]]),
        ValueError,
        r"^MultiDiscrete nvec must hold at least one entry, got \[\[\]\] of shape \(1, 0\); an empty space",
    ),
    "MultiDiscrete([2**70])": (
        lambda: spaces.MultiDiscrete([2**70]),
        ValueError,
        r"^MultiDiscrete nvec must fit dtype int64, got \[1180591620717411303424\]$",
    ),
    "Graph.sample(num_edges=2**70)": (
        lambda: spaces.Graph(spaces.Box(0.0, 1.0, (2,), np.float32), spaces.Discrete(2)).sample(num_edges=2**70),
        ValueError,
        r"^Graph\.sample num_edges must describe an array of at most 2\*\*63 - 1 bytes \(NumPy's limit\), "
        r"got 1180591620717411303424$",
    ),
    "Graph.sample(num_nodes=2**40, num_edges=1)": (
        lambda: spaces.Graph(spaces.Discrete(3), spaces.Discrete(2)).sample(num_nodes=2**40, num_edges=1),
        ValueError,
        r"^Graph\.sample num_nodes must be at most 2147483648 when edges are sampled \(edge links are int32\)",
    ),
    "Box(shape=(1,) * 40)": (
        lambda: spaces.Box(0.0, 1.0, (1,) * 40),
        ValueError,
        r"^Box shape must have at most 32 dimensions \(NumPy's limit\), got 40 dimensions",
    ),
    "Discrete(2**63)": (
        lambda: spaces.Discrete(2**63),
        ValueError,
        r"^Discrete n must fit dtype int64 \(at most 9223372036854775807\), got 9223372036854775808$",
    ),
    "register(id='-v0')": (
        lambda: reference.register(id="-v0", entry_point=_box_env),
        error.Error,
        r"^Malformed environment ID: '-v0'\. register id must have a name starting with a letter",
    ),
}


@pytest.mark.parametrize("case", sorted(_LISTED))
def test_listed_failures_are_clean(case: str) -> None:
    call, expected, message = _LISTED[case]
    with _scratch_state(), pytest.raises(expected, match=message), within(_CALL_SECONDS, _Hang):
        call()


def test_tuple_contains_a_0d_array_is_false() -> None:
    space = spaces.Tuple([spaces.Discrete(2), spaces.Discrete(2)])
    assert space.contains(np.array(False)) is False
