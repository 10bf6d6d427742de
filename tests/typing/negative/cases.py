"""Objects that must NOT satisfy a gymspec protocol: each tagged line must be rejected by mypy and by pyright.

This file is excluded from the repository-wide mypy and pyright runs (mypy.ini, ``[tool.pyright]``);
``test_negative_cases.py`` type-checks it alone with each checker and asserts that every line tagged
``# rejects: <member>[, <member>...]`` is an error whose explanation names each member, and that no other line is an
error. A tag may end with ``[mypy names none]``: mypy lists no member when more than two, or all, of a protocol's
members are missing (a fixed limit of mypy's), so for such a line only pyright is held to naming them. Then the
error itself names the protocol, and the single-member building blocks (``SupportsStep``, ``SupportsClose``, ...)
are named after their member. A tag may end with ``[pyright names <member>]`` instead: the ``action_space``/``step``
tie is checked by mypy on ``action_space`` and by pyright on ``step`` (see :mod:`gymspec.env`), so each names its
own side. A case may be a call (mypy's ``[arg-type]``) as well as an assignment.

Each case breaks one thing the rules forbid, so that loosening a protocol (to accept the real envs of
``tests/typing/positive``) cannot silently accept these too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat, TypeVar

import gymnasium
import numpy as np
from gymnasium.wrappers import RecordEpisodeStatistics as GymRecordEpisodeStatistics
from numpy.typing import NDArray

import gymspec
import reference
from gymspec._typing import InfoDict, Options
from reference.envs.toy_text.frozen_lake import FrozenLakeEnv
from reference.spaces import Box, Discrete, MultiDiscrete
from reference.wrappers import TimeLimit
from tests.typing._duck import DuckEnv, DuckSpace

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
Frame = NDArray[np.uint8]
Batch = NDArray[np.int64]
U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
IntFuncEnv = gymspec.FuncEnv[int, int, int, float, bool, None, None]


class FourTupleStep(DuckEnv):
    def step(self, action: int) -> tuple[int, float, bool, InfoDict]:  # type: ignore[override]
        return action, 1.0, False, {}


class KeywordOnlyAction(DuckEnv):
    def step(self, *, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:  # type: ignore[override]
        return action, 1.0, False, False, {}


class StepNeedsTwoArguments(DuckEnv):
    def step(  # type: ignore[override]
        self, action: int, extra: int
    ) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}


class StringActions(DuckEnv):
    def step(self, action: str) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:  # type: ignore[override]
        return 0, 1.0, False, False, {}


class ResetWithoutSeed(DuckEnv):
    def reset(self, *, options: Options | None = None) -> tuple[int, InfoDict]:  # type: ignore[override]
        return 0, {}


class ResetWithoutOptions(DuckEnv):
    def reset(self, *, seed: int | None = None) -> tuple[int, InfoDict]:  # type: ignore[override]
        return 0, {}


class ResetReturnsOnlyObservation(DuckEnv):
    def reset(self, *, seed: int | None = None, options: Options | None = None) -> int:  # type: ignore[override]
        return 0


class IntTerminated(DuckEnv):
    def step(self, action: int) -> tuple[int, SupportsFloat, int, bool, InfoDict]:  # type: ignore[override]
        return action, 1.0, 0, False, {}


class ArrayTruncated(DuckEnv):
    def step(  # type: ignore[override]
        self, action: int
    ) -> tuple[int, SupportsFloat, bool, NDArray[np.bool_], InfoDict]:
        return action, 1.0, False, np.zeros(1, dtype=np.bool_), {}


class StringReward(DuckEnv):
    def step(self, action: int) -> tuple[int, str, bool, bool, InfoDict]:  # type: ignore[override]
        return action, "1.0", False, False, {}


class ListInfo(DuckEnv):
    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, list[str]]:  # type: ignore[override]
        return action, 1.0, False, False, []


class TupleOfFrames(DuckEnv):
    def render(self) -> tuple[Frame, ...]:  # type: ignore[override]
        return ()


class ListOfInts(DuckEnv):
    def render(self) -> list[int]:  # type: ignore[override]
        return []


class _NoRenderNoClose:
    metadata: InfoDict = {}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.action_space = DuckSpace()
        self.observation_space = DuckSpace()

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}


class NoRender(_NoRenderNoClose):
    def close(self) -> None:
        return None


class NoClose(_NoRenderNoClose):
    def render(self) -> None:
        return None


class NoObservationSpace:
    metadata: InfoDict = {}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.action_space = DuckSpace()

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


class OnlyResetAndSpaces:
    def __init__(self) -> None:
        self.action_space = DuckSpace()
        self.observation_space = DuckSpace()

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}


class ListMetadata(DuckEnv):
    metadata: list[str] = []  # type: ignore[assignment]


class NoSample:
    shape: tuple[int, ...] | None = ()
    dtype: np.dtype[np.int64] | None = np.dtype(np.int64)

    def __init__(self) -> None:
        self.np_random = np.random.default_rng(0)

    def seed(self, seed: int | None = None) -> int | None:
        return seed

    def contains(self, x: object) -> bool:
        return False

    def __contains__(self, x: object) -> bool:
        return False


class KeywordOnlySeed(DuckSpace):
    def seed(self, *, seed: int | None = None) -> int | None:  # type: ignore[override]
        return seed


class StringContains(DuckSpace):
    def contains(self, x: object) -> str:  # type: ignore[override]
        return ""


class _VectorBase:
    """Real spaces, whose members are properties: pyright adds a line per space to its explanation."""

    metadata: InfoDict = {}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.observation_space = MultiDiscrete([2, 2])
        self.action_space = MultiDiscrete([2, 2])
        self.single_observation_space = Discrete(2)
        self.single_action_space = Discrete(2)

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Batch, InfoDict]:
        return np.zeros(2, dtype=np.int64), {}


class FloatRewards(_VectorBase):
    num_envs = 2

    def step(self, actions: Batch) -> tuple[Batch, float, Batch, Batch, InfoDict]:
        return actions, 0.0, np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), {}


class NoNumEnvs(_VectorBase):
    def step(self, actions: Batch) -> tuple[Batch, Batch, Batch, Batch, InfoDict]:
        return actions, np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), {}


class _FuncBase:
    observation_space = DuckSpace()
    action_space = DuckSpace()

    def transition(self, state: int, action: int, rng: object, params: None = None) -> int:
        return state

    def observation(self, state: int, rng: object, params: None = None) -> int:
        return state

    def reward(self, state: int, action: int, next_state: int, rng: object, params: None = None) -> float:
        return 0.0

    def terminal(self, state: int, rng: object, params: None = None) -> bool:
        return False

    def state_info(self, state: int, params: None = None) -> InfoDict:
        return {}

    def transition_info(self, state: int, action: int, next_state: int, params: None = None) -> InfoDict:
        return {}

    def transform(self, func: Any) -> None:
        return None

    def render_image(self, state: int, render_state: None, params: None = None) -> tuple[None, Frame]:
        return None, np.zeros((1, 1, 3), dtype=np.uint8)

    def render_close(self, render_state: None, params: None = None) -> None:
        return None


class ParamsRequired(_FuncBase):
    def initial(self, rng: object, params: None) -> int:
        return 0

    def render_init(self, params: None = None) -> None:
        return None


class RenderInitNeedsSize(_FuncBase):
    def initial(self, rng: object, params: None = None) -> int:
        return 0

    def render_init(self, params: None = None, *, size: int) -> None:
        return None


class NoInnerEnv(DuckEnv):
    """Everything a wrapper has, except ``env``."""

    @property
    def unwrapped(self) -> DuckEnv:
        return self

    def has_wrapper_attr(self, name: str) -> bool:
        return hasattr(self, name)

    def get_wrapper_attr(self, name: str) -> object:
        return getattr(self, name)

    def set_wrapper_attr(self, name: str, value: object, *, force: bool = True) -> bool:
        setattr(self, name, value)
        return True


class MakeWithoutKwargs:
    def make(self, id: str) -> object:
        return None


class MakeWithPositionalName:
    def make(self, name: str, /, **kwargs: Any) -> object:
        return None


class FloatBoxIntStep:
    """ENV-016 broken statically: a float32 ``Box`` action space, a ``step`` that takes ``int``."""

    metadata: InfoDict = {"render_modes": []}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.action_space = Box(-1.0, 1.0, (2,), np.float32)
        self.observation_space = Discrete(2)

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


class NumpyFlags(DuckEnv):
    """Flags annotated ``np.bool_``: the other side of the flag trade-off (docs/guide/typing.md)."""

    def step(self, action: int) -> tuple[int, SupportsFloat, np.bool_, np.bool_, InfoDict]:  # type: ignore[override]
        return action, 1.0, np.bool_(False), np.bool_(False), {}


class Frames(reference.Env[U8, np.int64]):
    def __init__(self) -> None:
        self.observation_space = Box(0, 255, (4, 4), np.uint8)
        self.action_space = Discrete(2)


class ToFloat(reference.ObservationWrapper[F32, np.int64, U8]):
    def __init__(self, env: gymspec.Env[U8, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = Box(0.0, 1.0, (4, 4), np.float32)

    def observation(self, observation: U8) -> F32:
        return (observation / 255).astype(np.float32)


class GymFrames(gymnasium.Env[U8, np.int64]):
    def __init__(self) -> None:
        self.observation_space = gymnasium.spaces.Box(0, 255, (4, 4), np.uint8)
        self.action_space = gymnasium.spaces.Discrete(2)


class GymToFloat(gymnasium.ObservationWrapper[F32, np.int64, U8]):
    def __init__(self, env: gymnasium.Env[U8, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (4, 4), np.float32)

    def observation(self, observation: U8) -> F32:
        return (observation / 255).astype(np.float32)


def collect(env: gymspec.Env[ObsT, ActT], policy: Callable[[ObsT], ActT], steps: int) -> list[ObsT]:
    return [env.reset(seed=0)[0] for _ in range(steps)]


def int_policy(obs: int) -> int:
    return obs


def str_policy(obs: str) -> int:
    return len(obs)


def frames_policy(obs: U8) -> np.int64:
    action: np.int64 = np.int64(obs.size % 2)
    return action


limited = TimeLimit(ToFloat(Frames()), 9)
gym_stats = GymRecordEpisodeStatistics(GymToFloat(GymFrames()))

four_tuple: gymspec.Env[int, int] = FourTupleStep()  # rejects: step
keyword_action: gymspec.Env[int, int] = KeywordOnlyAction()  # rejects: step
two_arguments: gymspec.Env[int, int] = StepNeedsTwoArguments()  # rejects: step
string_actions: gymspec.Env[int, int] = StringActions()  # rejects: step
no_seed: gymspec.Env[int, int] = ResetWithoutSeed()  # rejects: reset
no_options: gymspec.Env[int, int] = ResetWithoutOptions()  # rejects: reset
only_obs: gymspec.Env[int, int] = ResetReturnsOnlyObservation()  # rejects: reset
int_terminated: gymspec.Env[int, int] = IntTerminated()  # rejects: step
array_truncated: gymspec.Env[int, int] = ArrayTruncated()  # rejects: step
str_reward: gymspec.Env[int, int] = StringReward()  # rejects: step
list_info: gymspec.Env[int, int] = ListInfo()  # rejects: step
tuple_frames: gymspec.Env[int, int] = TupleOfFrames()  # rejects: render
int_frames: gymspec.Env[int, int] = ListOfInts()  # rejects: render
no_render: gymspec.Env[int, int] = NoRender()  # rejects: render
no_close: gymspec.Env[int, int] = NoClose()  # rejects: close
no_obs_space: gymspec.Env[int, int] = NoObservationSpace()  # rejects: observation_space
str_observations: gymspec.Env[str, int] = DuckEnv()  # rejects: reset
three_missing: gymspec.Env[int, int] = OnlyResetAndSpaces()  # rejects: step, render, close [mypy names none]
missing_step: gymspec.SupportsStep[int, int] = OnlyResetAndSpaces()  # rejects: step [mypy names none]
missing_render: gymspec.SupportsRender = OnlyResetAndSpaces()  # rejects: render [mypy names none]
missing_close: gymspec.SupportsClose = OnlyResetAndSpaces()  # rejects: close [mypy names none]
list_metadata: gymspec.HasMetadata = ListMetadata()  # rejects: metadata
no_sample: gymspec.Space[int] = NoSample()  # rejects: sample
keyword_seed: gymspec.Space[int] = KeywordOnlySeed()  # rejects: seed
str_contains: gymspec.Space[int] = StringContains()  # rejects: contains
float_rewards: gymspec.VectorEnv[Batch, Batch] = FloatRewards()  # rejects: step
no_num_envs: gymspec.VectorEnv[Batch, Batch] = NoNumEnvs()  # rejects: num_envs
params_required: IntFuncEnv = ParamsRequired()  # rejects: initial
render_init_size: IntFuncEnv = RenderInitNeedsSize()  # rejects: render_init
no_kwargs: gymspec.SupportsMake = MakeWithoutKwargs()  # rejects: make
positional_name: gymspec.SupportsMake = MakeWithPositionalName()  # rejects: make
not_a_wrapper: gymspec.Wrapper[int, int, int, int] = DuckEnv()  # rejects: env, unwrapped [mypy names none]
no_inner_env: gymspec.Wrapper[int, int, int, int] = NoInnerEnv()  # rejects: env
box_int_step: gymspec.Env[int, int] = FloatBoxIntStep()  # rejects: action_space [pyright names step]
box_int_collect = collect(FloatBoxIntStep(), int_policy, 3)  # rejects: action_space [pyright names step]
numpy_flags: gymspec.Env[int, int] = NumpyFlags()  # rejects: step
chain_claims_u8: gymspec.Env[U8, np.int64] = ToFloat(Frames())  # rejects: step
chain_resets_u8: gymspec.SupportsReset[U8] = ToFloat(Frames())  # rejects: reset
limit_claims_u8: gymspec.SupportsStep[U8, np.int64] = limited  # rejects: step [mypy names none]
gym_stats_claims_u8: gymspec.Env[U8, np.int64] = gym_stats  # rejects: step [mypy names none]
gym_stats_resets_u8: gymspec.SupportsReset[U8] = gym_stats  # rejects: reset [mypy names none]
gym_wrapper_claims_u8: gymspec.Env[U8, np.int64] = GymToFloat(GymFrames())  # rejects: step, reset
float_actions: gymspec.Env[F32, np.float32] = GymToFloat(GymFrames())  # rejects: step
frames_into_u8_policy = collect(ToFloat(Frames()), frames_policy, 3)  # rejects: policy [mypy names none]
lake_into_str_policy = collect(FrozenLakeEnv(), str_policy, 3)  # rejects: policy [mypy names none]
typed_env: gymspec.Env[int, int] = DuckEnv()
typed_env.step("0")  # rejects: action [mypy names none]
