"""Every public constructor and function of ``reference`` rejects bad input cleanly (issue 17, part 3).

Each target below is one public callable (a space, a space method, a ``spaces.utils`` function, a registration
function, a wrapper, a vector wrapper or a vector env) with a *valid* value for every parameter. An example replaces
one or more parameters with junk drawn from broad strategies (``None``, huge and negative ints, NaN and infinities,
strings, bytes, containers, arrays of odd dtypes, spaces, callables returning junk) and makes the call; when it
succeeds and returns an environment, the environment is reset, stepped and closed. Every step must either succeed
or raise

* ``TypeError`` or ``ValueError`` raised by ``reference`` itself (not inside NumPy or the standard library) whose
  message names a parameter that was replaced (or, after construction, states what ``must`` hold), or
* one of Gymnasium's documented error classes (``reference.error.Error`` subclasses such as ``NameNotFound``),

never ``AttributeError``/``IndexError``/``KeyError``/``ZeroDivisionError``/``OverflowError``/``MemoryError``, never
NumPy's own message, and never a hang (each call has a time limit). NaN bounds and absurd sizes listed in the issue
must be rejected, not accepted: :func:`test_listed_failures_are_clean` pins every case the issue names.
``_ALLOWED`` lists the exceptions to these rules, each with its reason. An error raised by the test's own
environments (after a junk function handed them junk) is theirs, not ``reference``'s, and is not judged.
"""

from __future__ import annotations

import math
import os
import re
import signal
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from types import FrameType
from typing import Any, SupportsFloat, TypeAlias, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gymspec
import reference
from reference import error, spaces, wrappers
from reference.core import Env
from reference.registration import registry
from reference.spaces import utils as space_utils
from reference.vector import AsyncVectorEnv, SyncVectorEnv, VectorEnv
from reference.wrappers import vector as vector_wrappers
from tests.reference.wrappers._envs import BoxEnv, DictEnv, DiscreteEnv, TupleEnv

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


# --- small environments ----------------------------------------------------------------------------------------


class _ImageEnv(Env[_Image, _Value]):
    """RGB image observations (and frames), so the image wrappers have something to work on."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}  # noqa: RUF012 (Env declares it so)

    def __init__(self, render_mode: str | None = "rgb_array") -> None:
        self.observation_space = spaces.Box(0, 255, (8, 6, 3), np.uint8)
        self.action_space = spaces.Discrete(2)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[_Image, _Info]:
        super().reset(seed=seed)
        return np.zeros((8, 6, 3), np.uint8), {}

    def step(self, action: _Value) -> tuple[_Image, SupportsFloat, bool, bool, _Info]:
        return np.full((8, 6, 3), 7, np.uint8), 1.0, False, False, {}

    def render(self) -> _Image:
        return np.full((8, 6, 3), 9, np.uint8)


class _Ale:
    """The part of ``ale_py``'s interface ``AtariPreprocessing`` reads."""

    def lives(self) -> int:
        return 3

    def getScreenRGB(self, out: _Image) -> None:  # ale_py's name
        out[...] = 5

    def getScreenGrayscale(self, out: _Image) -> None:  # ale_py's name
        out[...] = 5


class _AtariEnv(_ImageEnv):
    """An ALE-like environment with frame skipping off, as ``AtariPreprocessing`` requires.

    Its episodes end after 5 frames, as every game does eventually: a huge ``frame_skip`` is then as many frames as
    the episode has, not a hang.
    """

    def __init__(self) -> None:
        super().__init__()
        self.ale = _Ale()
        self._frameskip = 1
        self.frames = 0

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[_Image, _Info]:
        self.frames = 0
        return super().reset(seed=seed, options=options)

    def step(self, action: _Value) -> tuple[_Image, SupportsFloat, bool, bool, _Info]:
        self.frames += 1
        obs, reward, _, truncated, info = super().step(action)
        return obs, reward, self.frames >= 5, truncated, info

    def get_action_meanings(self) -> list[str]:
        return ["NOOP", "FIRE"]


def _box_env() -> BoxEnv:
    return BoxEnv(render_mode="rgb_array")


def _sync(factory: Callable[[], Env[Any, Any]] = _box_env) -> SyncVectorEnv[Any, Any]:
    return SyncVectorEnv([factory, factory])


# --- junk --------------------------------------------------------------------------------------------------------


def _returning(value: _Value) -> Callable[..., _Value]:
    def junk_callable(*args: _Value, **kwargs: _Value) -> _Value:
        return value

    junk_callable.__qualname__ = f"returning({value!r:.40})"
    return junk_callable


_SPACE_FACTORIES: tuple[Callable[[], spaces.Space[Any]], ...] = (
    lambda: spaces.Discrete(3),
    lambda: spaces.Discrete(4, start=-2),
    lambda: spaces.Box(0.0, 1.0, (2,), np.float32),
    lambda: spaces.Box(-np.inf, np.inf, (2, 1), np.float64),
    lambda: spaces.Box(0, 5, (3,), np.int64),
    lambda: spaces.MultiDiscrete([2, 3]),
    lambda: spaces.MultiBinary(3),
    lambda: spaces.Text(4, charset="abc"),
    lambda: spaces.Tuple([spaces.Discrete(2), spaces.Box(0.0, 1.0, (1,), np.float32)]),
    lambda: spaces.Dict({"a": spaces.Discrete(3), "b": spaces.Box(0.0, 1.0, (2,), np.float32)}),
    lambda: spaces.Dict({"t": spaces.Text(3), "s": spaces.Sequence(spaces.Discrete(2))}),
    lambda: spaces.Sequence(spaces.Discrete(2)),
    lambda: spaces.Sequence(spaces.Box(0.0, 1.0, (2,), np.float32), stack=True),
    lambda: spaces.Graph(spaces.Box(0.0, 1.0, (2,), np.float32), spaces.Discrete(2)),
    lambda: spaces.Graph(spaces.Discrete(3), None),
    lambda: spaces.OneOf([spaces.Discrete(2), spaces.Box(0.0, 1.0, (2,), np.float32)]),
)
_any_space = st.sampled_from(_SPACE_FACTORIES).map(lambda factory: factory())

# Sizes that cannot be allocated fail at once. Sizes that can (around 2**31) are left out: accepting one is not
# wrong, but it would fill this machine's memory.
_HUGE = (2**40, 2**63, 2**64, 2**70, -(2**63) - 1, -(2**70), 10**30)
_ints = st.one_of(st.integers(-3, 8), st.sampled_from(_HUGE))
_floats = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, 0.5, 1.0]),
    st.floats(-10, 10, allow_nan=False),
)
# No path separators or dots: strings become folder names (RecordVideo) and must stay inside the scratch folder.
_text = st.text(st.characters(codec="utf-8", exclude_characters="/\\."), max_size=6)
_strings = st.one_of(
    st.sampled_from(["", "::", "-v0", "x", "a:b", "CartPole-v1", "ns/Y-v0", "rgb_array", "human", "\x00", "NaN"]),
    _text,
)
_arrays = st.sampled_from(
    [
        np.array(False),
        np.array(2),
        np.array(np.nan),
        np.array([]),
        np.zeros((0, 2)),
        np.array([1, 2, 3]),
        np.array([0.5, np.nan]),
        np.array([np.inf, -np.inf]),
        np.array([1 + 2j]),
        np.array(["a", "b"]),
        np.array([None, 1], dtype=object),
        np.array([[1, 0], [0, 1]], dtype=np.int8),
        np.array([True, False]),
        np.array([300], dtype=np.uint16),
        np.zeros(3, dtype=np.float16),
        np.array(["2020-01-01"], dtype="datetime64[D]"),
    ]
).map(np.copy)
_types = st.sampled_from([int, float, str, object, np.float32, np.uint8, np.bool_, np.object_, np.complex64, "int8"])
_leaves = st.one_of(
    st.none(),
    st.booleans(),
    _ints,
    _floats,
    _strings,
    st.binary(max_size=4),
    _arrays,
    _types,
    _any_space,
    st.builds(object),
)
_junk_values = st.recursive(
    _leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(_strings, children, max_size=2),
    ),
    max_leaves=4,
)
_junk = st.one_of(_junk_values, _junk_values.map(_returning), st.builds(_box_env), st.builds(_sync))


# --- targets -----------------------------------------------------------------------------------------------------

_Valid: TypeAlias = "Callable[[_Kwargs], _Value] | st.SearchStrategy[_Value]"
_OMIT: _Value = object()
"""A valid "value" meaning: leave the parameter out (its default is valid)."""


def _omit(kwargs: _Kwargs) -> _Value:
    return _OMIT


def _const(value: _Value) -> _Valid:
    return lambda kwargs: value


def _sample_of(kwargs: _Kwargs) -> _Value:
    space = kwargs.get("space")
    return space.sample() if isinstance(space, spaces.Space) else 1


def _flat_sample_of(kwargs: _Kwargs) -> _Value:
    space = kwargs.get("space")
    if isinstance(space, spaces.Space):
        return space_utils.flatten(space, space.sample())
    return np.array([0.0, 1.0])


def _space(kwargs: _Kwargs) -> _Value:
    return _SPACE_FACTORIES[0]()


@dataclass(frozen=True)
class _Target:
    """A public callable and a valid value for each of its parameters.

    Attributes:
        name: The test id.
        call: Calls the callable with the keyword arguments (already without the omitted ones).
        valid: One valid value per parameter, in order: a function of the arguments built so far, or a strategy
            drawing valid values.
        examples: The Hypothesis budget (expensive callables get fewer).
        fixed: Parameters never replaced (the receiver of a method).
    """

    name: str
    call: Callable[..., object]
    valid: dict[str, _Valid] = field(default_factory=dict)
    examples: int = 25
    fixed: frozenset[str] = frozenset()

    @property
    def fuzzed(self) -> list[str]:
        """The parameters an example may replace."""
        return sorted(set(self.valid) - self.fixed)


_SELF = frozenset({"space"})


def _method(name: str) -> Callable[..., object]:
    def call(space: _Value, **kwargs: _Value) -> object:
        return getattr(space, name)(**kwargs)

    return call


def _positional(function: Callable[..., object]) -> Callable[..., object]:
    """Pass the arguments positionally: the ``singledispatch`` functions dispatch on the first positional one."""

    def call(**kwargs: _Value) -> object:
        return function(*kwargs.values())

    return call


def _register_then_make(**kwargs: _Value) -> object:
    reference.register(**kwargs)
    return reference.make(kwargs["id"])


def _env(factory: Callable[[], object]) -> _Valid:
    return lambda kwargs: factory()


_W = wrappers
_V = vector_wrappers
_TARGETS: tuple[_Target, ...] = (
    # spaces
    _Target("Box", spaces.Box, {"low": _const(0.0), "high": _const(1.0), "shape": _const((2,)), "dtype": _omit, "seed": _omit}),
    _Target("Discrete", spaces.Discrete, {"n": _const(3), "seed": _omit, "start": _omit, "dtype": _omit}),
    _Target("MultiDiscrete", spaces.MultiDiscrete, {"nvec": _const([2, 3]), "dtype": _omit, "seed": _omit, "start": _omit}),
    _Target("MultiBinary", spaces.MultiBinary, {"n": _const(3), "seed": _omit}),
    _Target("Text", spaces.Text, {"max_length": _const(4), "min_length": _omit, "charset": _omit, "seed": _omit}),
    _Target("Tuple", spaces.Tuple, {"spaces": _const([spaces.Discrete(2)]), "seed": _omit}),
    _Target("Dict", spaces.Dict, {"spaces": _const({"a": spaces.Discrete(2)}), "seed": _omit, "sort_keys": _omit}),
    _Target("Sequence", spaces.Sequence, {"space": _space, "seed": _omit, "stack": _omit}),
    _Target("Graph", spaces.Graph, {"node_space": _space, "edge_space": _const(None), "seed": _omit}),
    _Target("OneOf", spaces.OneOf, {"spaces": _const([spaces.Discrete(2), spaces.Discrete(3)]), "seed": _omit}),
    _Target("Space.sample", _method("sample"), {"space": _any_space, "mask": _omit, "probability": _omit}, 40, _SELF),
    _Target(
        "Graph.sample",
        _method("sample"),
        {
            "space": _const(spaces.Graph(spaces.Box(0.0, 1.0, (2,), np.float32), spaces.Discrete(2))),
            "mask": _omit,
            "probability": _omit,
            "num_nodes": _const(3),
            "num_edges": _omit,
        },
        fixed=_SELF,
    ),
    _Target("Space.contains", _method("contains"), {"space": _any_space, "x": _sample_of}, 40, _SELF),
    _Target("Space.seed", _method("seed"), {"space": _any_space, "seed": _const(0)}, fixed=_SELF),
    # spaces.utils
    _Target("flatten", _positional(space_utils.flatten), {"space": _any_space, "x": _sample_of}, 40),
    _Target("unflatten", _positional(space_utils.unflatten), {"space": _any_space, "x": _flat_sample_of}, 40),
    _Target("flatdim", _positional(space_utils.flatdim), {"space": _space}),
    _Target("flatten_space", _positional(space_utils.flatten_space), {"space": _space}),
    _Target(
        "is_space_dtype_shape_equiv",
        _positional(space_utils.is_space_dtype_shape_equiv),
        {"space_1": _space, "space_2": _space},
    ),
    # registration
    _Target(
        "register+make",
        _register_then_make,
        {
            "id": _const("Fuzz-v0"),
            "entry_point": _const(_box_env),
            "reward_threshold": _omit,
            "nondeterministic": _omit,
            "max_episode_steps": _omit,
            "order_enforce": _omit,
            "disable_env_checker": _omit,
            "additional_wrappers": _omit,
            "vector_entry_point": _omit,
            "kwargs": _omit,
        },
        40,
    ),
    _Target(
        "make",
        reference.make,
        {"id": _const("CartPole-v1"), "max_episode_steps": _omit, "disable_env_checker": _omit, "render_mode": _omit},
        40,
    ),
    _Target(
        "make_vec",
        reference.make_vec,
        {
            "id": _const("CartPole-v1"),
            "num_envs": _const(2),
            "vectorization_mode": _const("sync"),
            "vector_kwargs": _omit,
            "wrappers": _omit,
        },
        40,
    ),
    _Target("spec", reference.spec, {"env_id": _const("CartPole-v1")}),
    _Target(
        "pprint_registry",
        reference.pprint_registry,
        {"print_registry": _omit, "num_cols": _omit, "exclude_namespaces": _omit, "disable_print": _const(True)},
    ),
    # vector environments
    _Target(
        "SyncVectorEnv",
        SyncVectorEnv,
        {"env_fns": _const([_box_env, _box_env]), "copy": _omit, "observation_mode": _omit, "autoreset_mode": _omit},
    ),
    _Target(
        "AsyncVectorEnv",
        AsyncVectorEnv,
        {
            "env_fns": _const([_box_env, _box_env]),
            "shared_memory": _omit,
            "copy": _omit,
            "context": _omit,
            "daemon": _omit,
            "worker": _omit,
            "observation_mode": _omit,
            "autoreset_mode": _omit,
            "max_concurrency": _omit,
            "num_workers": _const(1),
        },
        6,
    ),
)

_BOX = _env(_box_env)
_IMAGE = _env(_ImageEnv)
_WRAPPER_TARGETS: tuple[_Target, ...] = (
    _Target("AddRenderObservation", _W.AddRenderObservation, {"env": _BOX, "render_only": _omit, "render_key": _omit, "obs_key": _omit}),
    _Target("AddWhiteNoise", _W.AddWhiteNoise, {"env": _IMAGE, "probability_of_noise_per_pixel": _const(0.1), "is_noise_grayscale": _omit}),
    _Target(
        "AtariPreprocessing",
        _W.AtariPreprocessing,
        {
            "env": _env(_AtariEnv),
            "noop_max": _const(2),
            "frame_skip": _const(2),
            "screen_size": _const(4),
            "terminal_on_life_loss": _omit,
            "grayscale_obs": _omit,
            "grayscale_newaxis": _omit,
            "scale_obs": _omit,
        },
    ),
    _Target("Autoreset", _W.Autoreset, {"env": _BOX}),
    _Target("ClipAction", _W.ClipAction, {"env": _BOX}),
    _Target("ClipReward", _W.ClipReward, {"env": _BOX, "min_reward": _const(0.0), "max_reward": _const(1.0)}),
    _Target("DelayObservation", _W.DelayObservation, {"env": _BOX, "delay": _const(2)}),
    _Target("DiscretizeAction", _W.DiscretizeAction, {"env": _BOX, "bins": _const(3), "multidiscrete": _omit}),
    _Target("DiscretizeObservation", _W.DiscretizeObservation, {"env": _BOX, "bins": _const(3), "multidiscrete": _omit}),
    _Target("DtypeObservation", _W.DtypeObservation, {"env": _BOX, "dtype": _const(np.float64)}),
    _Target("FilterObservation", _W.FilterObservation, {"env": _env(DictEnv), "filter_keys": _const(["pos"])}),
    _Target("FlattenObservation", _W.FlattenObservation, {"env": _env(TupleEnv)}),
    _Target("FrameStackObservation", _W.FrameStackObservation, {"env": _BOX, "stack_size": _const(2), "padding_type": _omit}),
    _Target("GrayscaleObservation", _W.GrayscaleObservation, {"env": _IMAGE, "keep_dim": _omit}),
    _Target("HumanRendering", _W.HumanRendering, {"env": _BOX}, 10),
    _Target("MaxAndSkipObservation", _W.MaxAndSkipObservation, {"env": _BOX, "skip": _const(2)}),
    _Target("NormalizeObservation", _W.NormalizeObservation, {"env": _BOX, "epsilon": _omit}),
    _Target("NormalizeReward", _W.NormalizeReward, {"env": _BOX, "gamma": _omit, "epsilon": _omit}),
    _Target(
        "ObstructView",
        _W.ObstructView,
        {"env": _IMAGE, "obstructed_pixels_ratio": _const(0.1), "obstruction_width": _const(2), "is_noise_grayscale": _omit},
    ),
    _Target("OrderEnforcing", _W.OrderEnforcing, {"env": _BOX, "disable_render_order_enforcing": _omit}),
    _Target("PassiveEnvChecker", _W.PassiveEnvChecker, {"env": _BOX}),
    _Target("RecordEpisodeStatistics", _W.RecordEpisodeStatistics, {"env": _BOX, "buffer_length": _omit, "stats_key": _omit}),
    _Target(
        "RecordVideo",
        _W.RecordVideo,
        {
            "env": _BOX,
            "video_folder": _const("videos"),
            "episode_trigger": _omit,
            "step_trigger": _omit,
            "video_length": _omit,
            "name_prefix": _omit,
            "fps": _omit,
            "disable_logger": _omit,
            "gc_trigger": _omit,
            "video_format": _const("png"),
        },
    ),
    _Target("RenderCollection", _W.RenderCollection, {"env": _BOX, "pop_frames": _omit, "reset_clean": _omit}),
    _Target("RepeatAction", _W.RepeatAction, {"env": _BOX, "num_repeats": _const(2)}),
    _Target("RescaleAction", _W.RescaleAction, {"env": _BOX, "min_action": _const(-0.5), "max_action": _const(0.5)}),
    _Target("RescaleObservation", _W.RescaleObservation, {"env": _BOX, "min_obs": _const(0.0), "max_obs": _const(1.0)}),
    _Target("ReshapeObservation", _W.ReshapeObservation, {"env": _BOX, "shape": _const((3, 1))}),
    _Target("ResizeObservation", _W.ResizeObservation, {"env": _IMAGE, "shape": _const((4, 4))}),
    _Target(
        "StickyAction",
        _W.StickyAction,
        {"env": _env(DiscreteEnv), "repeat_action_probability": _const(0.5), "repeat_action_duration": _omit},
    ),
    _Target(
        "TimeAwareObservation",
        _W.TimeAwareObservation,
        {"env": _env(lambda: _W.TimeLimit(_box_env(), 5)), "flatten": _omit, "normalize_time": _omit, "dict_time_key": _omit},
    ),
    _Target("TimeLimit", _W.TimeLimit, {"env": _BOX, "max_episode_steps": _const(3)}),
    _Target("TransformAction", _W.TransformAction, {"env": _BOX, "func": _const(lambda a: a), "action_space": _const(None)}),
    _Target(
        "TransformObservation",
        _W.TransformObservation,
        {"env": _BOX, "func": _const(lambda o: o), "observation_space": _const(None)},
    ),
    _Target("TransformReward", _W.TransformReward, {"env": _BOX, "func": _const(lambda r: r)}),
)



def _lazy(module: object, name: str) -> Callable[..., object]:
    """The wrapper ``module.name``, looked up at call time: the array-conversion wrappers import PyTorch or JAX on
    first access and raise DependencyNotInstalled (Gymnasium's class) without them."""

    def call(**kwargs: _Value) -> object:
        return getattr(module, name)(**kwargs)

    return call


_CONVERSION_TARGETS: tuple[_Target, ...] = tuple(
    _Target(f"{prefix}{name}", _lazy(module, name), {"env": env, **valid}, 5)
    for prefix, module, env in (("", _W, _BOX), ("vector.", _V, _env(_sync)))
    for name, valid in (
        ("ArrayConversion", {"env_xp": _const(np), "target_xp": _const(np)}),
        ("NumpyToTorch", {"device": _omit}),
        ("JaxToNumpy", {}),
        ("JaxToTorch", {"device": _omit}),
    )
)

_VBOX = _env(_sync)
_VIMAGE = _env(lambda: _sync(_ImageEnv))
_VECTOR_WRAPPER_TARGETS: tuple[_Target, ...] = (
    _Target("vector.ClipAction", _V.ClipAction, {"env": _VBOX}),
    _Target("vector.ClipReward", _V.ClipReward, {"env": _VBOX, "min_reward": _const(0.0), "max_reward": _const(1.0)}),
    _Target("vector.DictInfoToList", _V.DictInfoToList, {"env": _VBOX}),
    _Target("vector.DtypeObservation", _V.DtypeObservation, {"env": _VBOX, "dtype": _const(np.float64)}),
    _Target("vector.FilterObservation", _V.FilterObservation, {"env": _env(lambda: _sync(DictEnv)), "filter_keys": _const(["pos"])}),
    _Target("vector.FlattenObservation", _V.FlattenObservation, {"env": _env(lambda: _sync(TupleEnv))}),
    _Target("vector.GrayscaleObservation", _V.GrayscaleObservation, {"env": _VIMAGE, "keep_dim": _omit}),
    _Target("vector.HumanRendering", _V.HumanRendering, {"env": _VBOX, "screen_size": _omit}, 10),
    _Target("vector.NormalizeObservation", _V.NormalizeObservation, {"env": _VBOX, "epsilon": _omit}),
    _Target("vector.NormalizeReward", _V.NormalizeReward, {"env": _VBOX, "gamma": _omit, "epsilon": _omit}),
    _Target("vector.RecordEpisodeStatistics", _V.RecordEpisodeStatistics, {"env": _VBOX, "buffer_length": _omit, "stats_key": _omit}),
    _Target(
        "vector.RecordVideo",
        _V.RecordVideo,
        {
            "env": _VBOX,
            "video_folder": _const("videos"),
            "video_aspect_ratio": _omit,
            "record_first_only": _omit,
            "episode_trigger": _omit,
            "step_trigger": _omit,
            "video_length": _omit,
            "name_prefix": _omit,
            "fps": _omit,
            "disable_logger": _omit,
            "gc_trigger": _omit,
            "video_format": _const("png"),
        },
    ),
    _Target("vector.RescaleAction", _V.RescaleAction, {"env": _VBOX, "min_action": _const(-0.5), "max_action": _const(0.5)}),
    _Target("vector.RescaleObservation", _V.RescaleObservation, {"env": _VBOX, "min_obs": _const(0.0), "max_obs": _const(1.0)}),
    _Target("vector.ReshapeObservation", _V.ReshapeObservation, {"env": _VBOX, "shape": _const((3, 1))}),
    _Target("vector.ResizeObservation", _V.ResizeObservation, {"env": _VIMAGE, "shape": _const((4, 4))}),
    _Target(
        "vector.TransformAction",
        _V.TransformAction,
        {"env": _VBOX, "func": _const(lambda a: a), "action_space": _omit, "single_action_space": _omit},
    ),
    _Target(
        "vector.TransformObservation",
        _V.TransformObservation,
        {"env": _VBOX, "func": _const(lambda o: o), "observation_space": _omit, "single_observation_space": _omit},
    ),
    _Target("vector.TransformReward", _V.TransformReward, {"env": _VBOX, "func": _const(lambda r: r)}),
    _Target(
        "vector.VectorizeTransformAction",
        _V.VectorizeTransformAction,
        {"env": _VBOX, "wrapper": _const(_W.ClipAction)},
    ),
    _Target(
        "vector.VectorizeTransformObservation",
        _V.VectorizeTransformObservation,
        {"env": _VBOX, "wrapper": _const(_W.FlattenObservation)},
    ),
    _Target(
        "vector.VectorizeTransformReward",
        _V.VectorizeTransformReward,
        {"env": _VBOX, "wrapper": _const(_W.ClipReward), "min_reward": _const(0.0), "max_reward": _const(1.0)},
    ),
)

ALL_TARGETS = _TARGETS + _WRAPPER_TARGETS + _VECTOR_WRAPPER_TARGETS + _CONVERSION_TARGETS


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
def _time_limit(seconds: float) -> Iterator[None]:
    def overrun(signum: int, frame: FrameType | None) -> None:
        raise _Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
            with _time_limit(_CALL_SECONDS):
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
    "register(id='-v0')": (
        lambda: reference.register(id="-v0", entry_point=_box_env),
        error.Error,
        r"^Malformed environment ID: '-v0'\. register id must have a name starting with a letter",
    ),
}


@pytest.mark.parametrize("case", sorted(_LISTED))
def test_listed_failures_are_clean(case: str) -> None:
    call, expected, message = _LISTED[case]
    with _scratch_state(), pytest.raises(expected, match=message):
        call()


def test_tuple_contains_a_0d_array_is_false() -> None:
    space = spaces.Tuple([spaces.Discrete(2), spaces.Discrete(2)])
    assert space.contains(np.array(False)) is False
