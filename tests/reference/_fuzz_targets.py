"""The public callables the fuzz test of :mod:`tests.reference.test_fuzz_public_api` calls, with valid arguments.

Small environments to wrap, the junk strategies, and one :class:`_Target` per public constructor or function of
``reference`` (spaces and their methods, ``spaces.utils``, registration, every wrapper, vector wrappers, vector
envs): the table the test draws from, kept apart from how an example is run and judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, SupportsFloat, TypeAlias

import numpy as np
from hypothesis import strategies as st

import reference
from reference import spaces, wrappers
from reference.core import Env
from reference.spaces import utils as space_utils
from reference.vector import AsyncVectorEnv, SyncVectorEnv
from reference.wrappers import vector as vector_wrappers
from tests.reference.wrappers._envs import BoxEnv, DictEnv, DiscreteEnv, TupleEnv

_Value: TypeAlias = Any
_Kwargs: TypeAlias = dict[str, Any]
_Info: TypeAlias = dict[str, Any]
_Image: TypeAlias = "np.ndarray[Any, np.dtype[np.uint8]]"


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
# Lengths for the (length, feature mask) pairs of Sequence.sample and Text.sample, past the space's limits and past
# the platform's: huge ints, and 1-D arrays of them (Sequence draws a length from an array). As for _HUGE, lengths
# this machine could hold (2**31 items) are left out: accepting one is not wrong, but sampling it takes an hour.
_huge_length_arrays = st.sampled_from(
    [np.array([10**12]), np.array([2**62], dtype=np.int64), np.array([2**64 - 1], dtype=np.uint64)]
).map(np.copy)
_length_masks = st.tuples(st.one_of(_ints, st.just(10**12), _huge_length_arrays), st.none())
_junk = st.one_of(
    _junk_values, _junk_values.map(_returning), _length_masks, st.builds(_box_env), st.builds(_sync)
)


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
        pinned: Junk every run tries, before Hypothesis draws: one dict per example, giving the junk parameters
            (and a value for each parameter drawn from a strategy, such as the receiver of a method).
    """

    name: str
    call: Callable[..., object]
    valid: dict[str, _Valid] = field(default_factory=dict)
    examples: int = 25
    fixed: frozenset[str] = frozenset()
    pinned: tuple[_Kwargs, ...] = ()

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
    _Target(
        "Box",
        spaces.Box,
        {"low": _const(0.0), "high": _const(1.0), "shape": _const((2,)), "dtype": _omit, "seed": _omit},
        pinned=({"shape": (1,) * 40}, {"shape": (2**62, 4)}, {"shape": (2**61,)}, {"shape": (2**40,)}),
    ),
    _Target(
        "Discrete",
        spaces.Discrete,
        {"n": _const(3), "seed": _omit, "start": _omit, "dtype": _omit},
        pinned=({"n": 2**63}, {"n": 2**70}, {"n": 2**64, "start": -(2**63)}),
    ),
    _Target(
        "MultiDiscrete",
        spaces.MultiDiscrete,
        {"nvec": _const([2, 3]), "dtype": _omit, "seed": _omit, "start": _omit},
        pinned=({"nvec": [[]]}, {"nvec": []}, {"nvec": [2**70]}, {"nvec": np.full((1,) * 40, 2)}),
    ),
    _Target(
        "MultiBinary",
        spaces.MultiBinary,
        {"n": _const(3), "seed": _omit},
        pinned=({"n": 2**70}, {"n": []}, {"n": [2**40, 2**40]}, {"n": [1] * 40}, {"n": 2**63}),
    ),
    _Target(
        "Text",
        spaces.Text,
        {"max_length": _const(4), "min_length": _omit, "charset": _omit, "seed": _omit},
        pinned=({"max_length": 2**40}, {"max_length": 2**70}, {"max_length": 2**70, "min_length": 2**69}),
    ),
    _Target("Tuple", spaces.Tuple, {"spaces": _const([spaces.Discrete(2)]), "seed": _omit}),
    _Target("Dict", spaces.Dict, {"spaces": _const({"a": spaces.Discrete(2)}), "seed": _omit, "sort_keys": _omit}),
    _Target("Sequence", spaces.Sequence, {"space": _space, "seed": _omit, "stack": _omit}),
    _Target("Graph", spaces.Graph, {"node_space": _space, "edge_space": _const(None), "seed": _omit}),
    _Target("OneOf", spaces.OneOf, {"spaces": _const([spaces.Discrete(2), spaces.Discrete(3)]), "seed": _omit}),
    _Target(
        "Space.sample",
        _method("sample"),
        {"space": _any_space, "mask": _omit, "probability": _omit},
        40,
        _SELF,
        pinned=(
            # mask and length arguments beyond the space's limits
            {"space": spaces.Tuple([spaces.Discrete(2)] * 2), "mask": (None,) * 5},
            {"space": spaces.Dict({"a": spaces.Discrete(2)}), "mask": {"a": None, "b": None}},
            {"space": spaces.OneOf([spaces.Discrete(2), spaces.Discrete(3)]), "mask": (None, None, None)},
            {"space": spaces.MultiDiscrete([2, 3]), "mask": (None,) * 9},
            {"space": spaces.Discrete(3), "mask": np.ones(10**6, np.int8)},
            {"space": spaces.Text(5, charset="abc"), "mask": (3, np.ones(10**6, np.int8))},
            {"space": spaces.Text(5), "mask": (10**12, None)},
            {"space": spaces.Text(5), "probability": (2**70, None)},
            # lengths beyond the platform's limits (a Sequence has no length limit of its own)
            {"space": spaces.Sequence(spaces.Discrete(2)), "mask": (10**12, None)},
            {"space": spaces.Sequence(spaces.Discrete(2)), "mask": (2**70, None)},
            {"space": spaces.Sequence(spaces.Discrete(2)), "probability": (10**12, None)},
            {"space": spaces.Sequence(spaces.Discrete(2)), "mask": (np.array([10**12]), None)},
            {"space": spaces.Sequence(spaces.Discrete(2)), "mask": (np.array([2**64 - 1], dtype=np.uint64), None)},
            {"space": spaces.Sequence(spaces.Box(0.0, 1.0, (2,), np.float32), stack=True), "mask": (2**40, None)},
        ),
    ),
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
        pinned=(
            {"num_edges": 2**70},
            {"num_edges": 2**62},
            {"num_edges": 2**40},
            {"num_nodes": 2**70},
            {"num_nodes": 2**40},
            {"num_nodes": 2**70, "num_edges": 1},
            {"num_nodes": 2**62, "num_edges": 1},
            {"num_nodes": 2**40, "num_edges": 1},
        ),
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
# RecordVideo's arguments but the env, shared by the single and the vector wrapper (the vector one has two more).
_RECORD_VIDEO: dict[str, _Valid] = {
    "video_folder": _const("videos"),
    "episode_trigger": _omit,
    "step_trigger": _omit,
    "video_length": _omit,
    "name_prefix": _omit,
    "fps": _omit,
    "disable_logger": _omit,
    "gc_trigger": _omit,
    "video_format": _const("png"),
}
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
        {"env": _BOX, **_RECORD_VIDEO},
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
        {"env": _VBOX, **_RECORD_VIDEO, "video_aspect_ratio": _omit, "record_first_only": _omit},
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
