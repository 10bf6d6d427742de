"""Envs that break one ENV rule each, by overriding one method of ``Walk``."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from tests.meta.broken._base import Walk, WalkWrapper
from tests.meta.broken._spaces import Discrete


class _NoContains:
    """An action space that lacks ``contains``/``__contains__`` (ENV-001)."""

    def __init__(self) -> None:
        self._inner = Discrete(3)
        self.n, self.start, self.shape, self.dtype = 3, 0, (), np.dtype(np.int64)

    @property
    def np_random(self) -> np.random.Generator:
        return self._inner.np_random

    def seed(self, seed: int | None = None) -> int:
        return self._inner.seed(seed)

    def sample(self) -> np.int64:
        return self._inner.sample()


class Env001NoContains(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.action_space = _NoContains()

    def _push(self, action: Any) -> int:
        return int(action) - 1


class Env002SpaceChanges(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        result = super().step(action)
        self.action_space = Discrete(3, start=0) if self._steps % 2 else Discrete(4)  # ENV-002
        return result

    def _push(self, action: Any) -> int:
        return int(action) % 3 - 1


class Env003MetadataKeys(Walk):
    metadata = {**Walk.metadata, 1: "one"}  # ENV-003: a non-str key


class Env004NoOptions(Walk):
    def reset(self, *, seed: int | None = None) -> tuple[Any, Any]:  # type: ignore[override]  # ENV-004
        return super().reset(seed=seed)


class Env005ResetTriple(Walk):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, info = super().reset(seed=seed, options=options)
        return obs, info, None  # ENV-005


class Env006ResetOutside(Walk):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        obs, info = super().reset(seed=seed, options=options)
        return obs + np.float32(50.0), info  # ENV-006


class Env007ResetInfoList(Walk):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        obs, _ = super().reset(seed=seed, options=options)
        return obs, []  # ENV-007


class Env008FourTuple(Walk):
    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated or truncated, info  # ENV-008: the pre-0.26 API


class Env009StepOutside(Walk):
    def _observation(self) -> Any:
        obs = super()._observation()
        return obs + np.float32(50.0) if self._steps >= 3 else obs  # ENV-009: from the third step on


class Env010Float16(Walk):
    def _observation(self) -> Any:
        return super()._observation().astype(np.float16)  # ENV-010: contained (safe cast) but not float32


class Env011ArrayReward(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, np.array(reward), terminated, truncated, info  # ENV-011: a 0-d array


class Env012NanReward(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, float("nan") if int(action) == 2 else reward, terminated, truncated, info  # ENV-012


class Env013IntTerminated(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, int(terminated), truncated, info  # ENV-013


class Env014ArrayTruncated(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, np.array(truncated), info  # ENV-014


class Env015InfoNone(Walk):
    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, _ = super().step(action)
        return obs, reward, terminated, truncated, None  # ENV-015


class Env016RejectsAction(Walk):
    def _push(self, action: Any) -> int:
        if int(action) == 2:
            raise ValueError("Env016RejectsAction cannot push right")  # ENV-016: 2 is in Discrete(3)
        return super()._push(action)


class Env017AliasedObservation(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._buffer: NDArray[np.float32] = np.zeros(2, dtype=np.float32)

    def _observation(self) -> Any:
        self._buffer[:] = super()._observation()
        return self._buffer  # ENV-017: every call returns (and overwrites) the same array


class Env017ZeroedByResetBesidesRejections(Walk):
    """Two defects: it rejects action 2 of its ``Discrete(3)`` (ENV-016), and its reset zeroes, in place, every
    observation array it returned before (ENV-017), as an env that reuses a pool of buffers might. Gymnasium's
    ``check_env`` finds the second; the suite once skipped ENV-017 as "reported by ENV-016" (issue 37 item 14)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._returned: list[NDArray[np.float32]] = []

    def _push(self, action: Any) -> int:
        if int(action) == 2:
            raise ValueError("Env017ZeroedByResetBesidesRejections cannot push right")  # ENV-016
        return super()._push(action)

    def _observation(self) -> Any:
        obs = super()._observation()
        self._returned.append(obs)
        return obs

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        for obs in self._returned:
            obs[:] = 0.0  # ENV-017: what it returned before changes
        self._returned = []
        return super().reset(seed=seed, options=options)


class Env018SharedInfo(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._shared: dict[str, Any] = {}

    def _info(self) -> Any:
        self._shared["steps"] = self._steps
        return self._shared  # ENV-018: one dict, updated in place


class Env019StepBeforeReset(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._state = np.zeros(2)  # ENV-019: step works before the first reset


class Env020CloseTwice(Walk):
    def close(self) -> None:
        if self.closed:
            raise RuntimeError("Env020CloseTwice is already closed")  # ENV-020
        super().close()


def env_006_wrapped_outside(**kwargs: Any) -> Any:
    """ENV-006's env behind a pass-through wrapper (as ``gymnasium.make`` gives it): the finding is the env's and
    is reported once, by ENV-006 — never repeated by WRAP-001 for the layer or blamed on a wrapper by WRAP-003."""
    return WalkWrapper(Env006ResetOutside(**kwargs))
