"""Objects that must NOT satisfy a gymspec protocol: each tagged line must be rejected by mypy and by pyright.

This file is excluded from the repository-wide mypy and pyright runs (mypy.ini, ``[tool.pyright]``);
``test_negative_cases.py`` type-checks it alone with each checker and asserts that every line tagged
``# rejects: <member>[, <member>...]`` is an error whose explanation names each member, and that no other line is an
error. A tag may end with ``[mypy names none]``: mypy lists no member when more than two, or all, of a protocol's
members are missing (a fixed limit of mypy's), so for such a line only pyright is held to naming them. Then the
error itself names the protocol, and the single-member building blocks (``SupportsStep``, ``SupportsClose``, ...)
are named after their member.

Each case breaks one thing the rules forbid, so that loosening a protocol (to accept the real envs of
``tests/typing/positive``) cannot silently accept these too.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import gymspec
from gymspec._typing import InfoDict, Options
from reference.spaces import Discrete, MultiDiscrete
from tests.typing._duck import DuckEnv, DuckSpace

Frame = NDArray[np.uint8]
Batch = NDArray[np.int64]
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
