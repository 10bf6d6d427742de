"""Envs whose action or observation space breaks one SPACE rule (the env itself is ``Walk``)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from tests.meta.broken._base import Walk
from tests.meta.broken._spaces import Box, Discrete, MultiBinary, MultiDiscrete, TupleSpace


def _with(action: Callable[[], Any] | None = None, observation: Callable[[], Any] | None = None) -> Callable[..., Walk]:
    def factory(**kwargs: Any) -> Walk:
        env = Walk(**kwargs)
        if action is not None:
            env.action_space = action()
        if observation is not None:
            env.observation_space = observation()
        return env

    return factory


class _IdentityEq(Discrete):
    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = None


class _StringDtype(Discrete):
    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.dtype = "int64"  # type: ignore[assignment]  # SPACE-003: a str, not a numpy.dtype


class _SeedOnce(Discrete):
    def seed(self, seed: int | None = None) -> int:
        if self._rng is None:
            return super().seed(seed)
        return 0 if seed is None else seed  # SPACE-004: later seeds are ignored


class _Shared(Discrete):
    _shared = np.random.default_rng(0)

    def seed(self, seed: int | None = None) -> int:
        type(self)._shared = np.random.default_rng(seed)  # SPACE-005: one generator for every instance
        return 0 if seed is None else seed

    @property
    def np_random(self) -> np.random.Generator:
        return type(self)._shared


class _OffByOne(Discrete):
    def sample(self) -> np.int64:
        value: np.int64 = np.int64(self.start + int(self.np_random.integers(self.n + 1)))  # SPACE-007: may be n
        return value


class _TouchesGlobal(Discrete):
    def sample(self) -> np.int64:
        np.random.random()  # SPACE-008: advances numpy's global generator
        random.random()
        return super().sample()


class _IntContains(Discrete):
    def contains(self, x: object) -> bool:
        return int(super().contains(x))  # type: ignore[return-value]  # SPACE-010: returns 0/1


class _BadJson(Discrete):
    def from_jsonable(self, values: list[Any]) -> list[Any]:
        return [np.int64(v + 1) for v in values]  # SPACE-012


class _ShortBounds(Box):
    def __init__(self) -> None:
        super().__init__(-10.0, 10.0, (2,))
        self.low = self.low[:1]  # SPACE-013: bounds of shape (1,) for a (2,) box


class _ShapedDiscrete(Discrete):
    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.shape = (1,)  # SPACE-015


class _WrongShapeMulti(MultiDiscrete):
    def __init__(self) -> None:
        super().__init__([3, 3])
        self.shape = (3,)  # SPACE-016: nvec has shape (2,)


class _NotASpace:
    """A 'subspace' with only a sample method."""

    def sample(self) -> int:
        return 0


class _PicklingForgetsSeed(Discrete):
    def __deepcopy__(self, memo: dict[int, Any]) -> _PicklingForgetsSeed:
        twin = _PicklingForgetsSeed(self.n)
        twin._rng = copy.deepcopy(self._rng, memo)
        return twin

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.seed = lambda seed=None: 0  # type: ignore[method-assign]  # SPACE-002: restored copies ignore seed()


class _FixedEntropy(Discrete):
    def seed(self, seed: int | None = None) -> int:
        return super().seed(7 if seed is None else seed)  # SPACE-006


class _WideSamples(Box):
    def sample(self) -> Any:
        return super().sample().astype(np.float16)  # SPACE-009: float16 samples of a float32 box

    def contains(self, x: object) -> bool:
        return isinstance(x, np.ndarray) and x.shape == self.shape and bool(np.all((x >= self.low) & (x <= self.high)))


class _RaisingContains(Discrete):
    def contains(self, x: object) -> bool:
        return bool(self.start <= int(x) < self.start + self.n)  # type: ignore[call-overload]  # SPACE-011


space_001_identity_equality = _with(action=lambda: _IdentityEq(3))
space_002_pickle_loses_seeding = _with(action=lambda: _PicklingForgetsSeed(3))
space_003_dtype_not_dtype = _with(action=lambda: _StringDtype(3))
space_004_seed_ignored = _with(action=lambda: _SeedOnce(3))
space_005_shared_generator = _with(action=lambda: _Shared(3))
space_006_fixed_entropy = _with(action=lambda: _FixedEntropy(3))
space_007_sample_outside = _with(action=lambda: _OffByOne(3))
space_008_global_generator = _with(action=lambda: _TouchesGlobal(3))
space_009_sample_dtype = _with(observation=lambda: _WideSamples(-10.0, 10.0, (2,)))
space_010_contains_int = _with(action=lambda: _IntContains(3))
space_011_contains_raises = _with(action=lambda: _RaisingContains(3))
space_012_json_round_trip = _with(action=lambda: _BadJson(3))
space_013_bounds_shape = _with(observation=_ShortBounds)
space_014_degenerate_box = _with(observation=lambda: _Degenerate())
space_015_discrete_shape = _with(action=lambda: _ShapedDiscrete(3))
space_016_nvec_shape = _with(action=_WrongShapeMulti)
space_017_zero_dimension = _with(action=lambda: MultiBinary([2, 0]))
space_018_empty_tuple = _with(action=lambda: TupleSpace(()))
space_018_subspace_not_space = _with(action=lambda: TupleSpace((Discrete(3), _NotASpace())))


class _Degenerate(Box):
    def __init__(self) -> None:
        super().__init__(-10.0, 10.0, (2,))
        self.low = np.array([-10.0, 0.0], dtype=np.float32)
        self.high = np.array([10.0, 0.0], dtype=np.float32)  # SPACE-014: the second component is constant

    def contains(self, x: object) -> bool:
        if not isinstance(x, np.ndarray) or x.shape != self.shape:
            return False
        return bool(np.all(x[:1] >= -10) and np.all(x[:1] <= 10))
