"""Vector envs that each break one VEC rule (everything else is ``HopSync``'s correct behaviour).

Each class takes ``num_envs`` (the suite's vector factory call) and changes one thing, named in its docstring.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.spaces import Box
from reference.vector import VectorWrapper
from tests.meta.broken_vector._base import HopSync

__all__ = [
    "Vec001FloatNumEnvs",
    "Vec001SingleSpaceUnreadable",
    "Vec002UntiledBounds",
    "Vec003ActionsAsBox",
    "Vec004NoAutoresetMode",
    "Vec005InfoNotDict",
    "Vec006SameSeedEverywhere",
    "Vec007SeedListAnyLength",
    "Vec008NoisyRewards",
    "Vec009ResetKeepsAutoresetFlags",
    "Vec010FourTuple",
    "Vec011ObservationsScaled",
    "Vec012RewardColumn",
    "Vec013IntFlags",
    "Vec014MaskMissing",
    "Vec015StaleMaskedEntries",
    "Vec016RejectsAction",
    "Vec017NoCopy",
    "Vec018DoubledRewards",
    "Vec019CloseTwiceRaises",
    "Vec020UsableAfterClose",
]


class Vec001FloatNumEnvs(VectorWrapper[Any, Any, Any, Any, Any]):
    """``num_envs`` is a float."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(HopSync(num_envs))

    @property
    def num_envs(self) -> Any:
        return float(self.env.num_envs)

    @num_envs.setter
    def num_envs(self, value: Any) -> None:
        raise AttributeError("Vec001FloatNumEnvs num_envs is read-only")


class Vec001SingleSpaceUnreadable(VectorWrapper[Any, Any, Any, Any, Any]):
    """Reading ``single_observation_space`` raises ``AttributeError`` (issue 37 item 2: the rules whose strategies
    are drawn from it once failed with the suite's internal ``NotCheckable`` instead of skipping, reported by VEC-001).
    """

    def __init__(self, num_envs: int) -> None:
        super().__init__(HopSync(num_envs))

    @property
    def single_observation_space(self) -> Any:
        raise AttributeError("Vec001SingleSpaceUnreadable has no single_observation_space")

    @single_observation_space.setter
    def single_observation_space(self, space: Any) -> None:
        raise AttributeError("Vec001SingleSpaceUnreadable single_observation_space is read-only")


class Vec002UntiledBounds(HopSync):
    """``observation_space`` has bounds wider than the single space's (not tiled)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self.observation_space = Box(-50.0, 50.0, (num_envs, 2), np.float32)


class Vec003ActionsAsBox(HopSync):
    """``action_space`` batches the Discrete single action space into an integer Box, not a MultiDiscrete."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self.action_space = Box(0, 2, (num_envs,), np.int64)


class Vec004NoAutoresetMode(HopSync):
    """``metadata`` does not declare ``autoreset_mode`` (it behaves as ``NextStep``)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        del self.metadata["autoreset_mode"]


class Vec005InfoNotDict(HopSync):
    """``reset`` returns the info as a list of per-sub-env dicts."""

    def reset(self, **kwargs: Any) -> Any:
        obs, info = super().reset(**kwargs)
        return obs, [info]


class Vec006SameSeedEverywhere(HopSync):
    """``reset(seed=s)`` seeds every sub-env with ``s`` instead of ``s + i``."""

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        if isinstance(seed, int):
            seed = [seed] * self.num_envs
        return super().reset(seed=seed, options=options)


class Vec007SeedListAnyLength(HopSync):
    """A seed list of the wrong length is padded with ``None`` or cut, instead of raising ``ValueError``."""

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        if isinstance(seed, list):
            seed = (seed + [None] * self.num_envs)[: self.num_envs]
        return super().reset(seed=seed, options=options)


class Vec008NoisyRewards(HopSync):
    """Rewards get noise from a fresh, unseeded generator."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs, rewards + np.random.default_rng().normal(0.0, 1e-3, rewards.shape), terms, truncs, info


class Vec009ResetKeepsAutoresetFlags(HopSync):
    """A full ``reset()`` does not clear the autoreset flags: a sub-env whose episode ended at any earlier step is
    reset again by the first step after it.

    (Keeping every flag ever set, not only those of the last step, makes any rollout with an episode end expose the
    bug, so whether the suite catches it does not hang on which rollouts Hypothesis happens to draw.)
    """

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self._ever_ended = [False] * num_envs

    def step(self, actions: Any) -> Any:
        result = super().step(actions)
        self._ever_ended = [a or b for a, b in zip(self._ever_ended, self._ended, strict=True)]
        return result

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        stale = [a or b for a, b in zip(self._ever_ended, self._ended, strict=True)]
        result = super().reset(seed=seed, options=options)
        if options is None or "reset_mask" not in options:
            self._ended[:] = stale
        return result


class Vec010FourTuple(HopSync):
    """``step`` returns the old 4-tuple API (``dones`` instead of terminations and truncations)."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs, rewards, terms | truncs, info


class Vec011ObservationsScaled(HopSync):
    """``step`` returns observations scaled beyond the space's bounds."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs * 100.0 + 60.0, rewards, terms, truncs, info


class Vec012RewardColumn(HopSync):
    """``step`` returns rewards of shape ``(num_envs, 1)``."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs, rewards.reshape(-1, 1), terms, truncs, info


class Vec013IntFlags(HopSync):
    """``step`` returns terminations as an ``int8`` array."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs, rewards, terms.astype(np.int8), truncs, info


class Vec014MaskMissing(HopSync):
    """``step`` drops the ``_steps`` mask of the ``steps`` info key."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        info.pop("_steps", None)
        return obs, rewards, terms, truncs, info


class Vec015StaleMaskedEntries(HopSync):
    """Entries of ``info["edge"]`` whose mask is false hold data instead of zeros."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        if "edge" in info:
            info["edge"][~info["_edge"]] = 7.0
        return obs, rewards, terms, truncs, info


class Vec016RejectsAction(HopSync):
    """``step`` rejects action 2 for sub-env 0."""

    def step(self, actions: Any) -> Any:
        if int(np.asarray(actions).reshape(-1)[0]) == 2:
            raise ValueError("Vec016RejectsAction actions[0] must be 0 or 1, got 2")
        return super().step(actions)


class Vec017NoCopy(HopSync):
    """Observations are returned without a copy (the buffer is overwritten by the next call)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, copy=False)


class Vec018DoubledRewards(HopSync):
    """Rewards are doubled (a vector env that does not behave like its sub-envs run one by one)."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        return obs, rewards * 2.0, terms, truncs, info


class Vec019CloseTwiceRaises(HopSync):
    """A second ``close`` raises."""

    def close(self, **kwargs: Any) -> None:
        if self.closed:
            raise RuntimeError("Vec019CloseTwiceRaises is already closed")
        super().close(**kwargs)


class Vec020UsableAfterClose(HopSync):
    """``reset`` and ``step`` still work after ``close`` (no closed check, as in Gymnasium's Sync)."""

    def _check_open(self) -> None:
        return None
