"""Vector envs that each break one AUTORESET rule (everything else is ``HopSync``'s correct behaviour).

Each class takes ``num_envs`` and declares the mode whose rule it breaks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gymspec import AutoresetMode
from tests.meta.broken_vector._base import HopSync

__all__ = [
    "Autoreset001UnknownMode",
    "Autoreset002FlagsMerged",
    "Autoreset002NoFinalReward",
    "Autoreset003RewardOnResetStep",
    "Autoreset004OthersWait",
    "Autoreset005FinalObsReturned",
    "Autoreset006NoFinalObs",
    "Autoreset007FinalInfoUnmasked",
    "Autoreset008ResetsByItself",
    "Autoreset009ResetsEverything",
    "Autoreset010AnyMask",
    "Autoreset011PopsMask",
    "Autoreset012UnseededResetReplays",
]


class Autoreset001UnknownMode(HopSync):
    """Declares ``metadata["autoreset_mode"] = "next_step"`` (no such mode; it behaves as ``NextStep``)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self.metadata["autoreset_mode"] = "next_step"


class Autoreset002NoFinalReward(HopSync):
    """``NextStep``: the step on which a sub-env ends reports reward 0 instead of the real final reward."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        rewards[terms | truncs] = 0.0
        return obs, rewards, terms, truncs, info


class Autoreset002FlagsMerged(HopSync):
    """``NextStep``: ``terminations`` and ``truncations`` are one array, each sub-env's ``done`` (gymnax's vector
    wrapper): a sub-env that terminated reports a truncation too, and one that timed out a termination (issue 37
    item 9). Its single envs (``env_fns``) report the real flags, so AUTORESET-002 sees it; written directly, with no
    model, no rule of the catalog does (ENV-023's pattern is about single envs)."""

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        done = terms | truncs
        return obs, rewards, done.copy(), done.copy(), info


class Autoreset003RewardOnResetStep(HopSync):
    """``NextStep``: the reset step reports reward 1 instead of 0."""

    def step(self, actions: Any) -> Any:
        resetting = np.array(self._ended)
        obs, rewards, terms, truncs, info = super().step(actions)
        rewards[resetting] = 1.0
        return obs, rewards, terms, truncs, info


class Autoreset004OthersWait(HopSync):
    """``NextStep``: on a step that resets a sub-env, the others are not stepped (they repeat their observation)."""

    def step(self, actions: Any) -> Any:
        if not any(self._ended):
            return super().step(actions)
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            if self._ended[i]:
                self._sink[i], info = env.reset()
                self._ended[i] = False
                infos = self._add_info(infos, info, i)
        n = self.num_envs
        return self._observations.copy(), np.zeros(n), np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_), infos


class Autoreset005FinalObsReturned(HopSync):
    """``SameStep``: the ending step returns the final observation instead of the new episode's first."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="SameStep")

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        for i in np.flatnonzero(info.get("_final_obs", np.zeros(self.num_envs, dtype=bool))):
            obs[i] = info["final_obs"][i]
        return obs, rewards, terms, truncs, info


class Autoreset006NoFinalObs(HopSync):
    """``SameStep``: ``final_obs`` and its mask are left out of the info."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="SameStep")

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        info.pop("final_obs", None)
        info.pop("_final_obs", None)
        return obs, rewards, terms, truncs, info


class Autoreset007FinalInfoUnmasked(HopSync):
    """``SameStep``: ``info["_final_info"]`` is all false even when sub-envs ended."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="SameStep")

    def step(self, actions: Any) -> Any:
        obs, rewards, terms, truncs, info = super().step(actions)
        if "_final_info" in info:
            info["_final_info"] = np.zeros(self.num_envs, dtype=bool)
        return obs, rewards, terms, truncs, info


class Autoreset008ResetsByItself(HopSync):
    """Declares ``Disabled`` but resets ended sub-envs on the next step, as ``NextStep`` does."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="NextStep")
        self.metadata["autoreset_mode"] = AutoresetMode.DISABLED


class Autoreset009ResetsEverything(HopSync):
    """``Disabled``: a partial reset resets every sub-env, whatever the mask."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="Disabled")

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        if options is not None and "reset_mask" in options:
            options = {key: value for key, value in options.items() if key != "reset_mask"}
        return super().reset(seed=seed, options=options)


class Autoreset010AnyMask(HopSync):
    """Any ``reset_mask`` is accepted: it is coerced to a bool array of ``num_envs`` entries."""

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        if options is not None and "reset_mask" in options:
            mask = np.resize(np.asarray(options["reset_mask"], dtype=bool).reshape(-1), self.num_envs)
            mask[0] = True
            options = {**options, "reset_mask": mask}
        return super().reset(seed=seed, options=options)


class Autoreset011PopsMask(HopSync):
    """Pops ``reset_mask`` from the caller's options dict (as Gymnasium does)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs, autoreset_mode="Disabled")

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        result = super().reset(seed=seed, options=options)
        if options is not None:
            options.pop("reset_mask", None)
        return result


class Autoreset012UnseededResetReplays(HopSync):
    """An unseeded ``reset()`` reseeds every sub-env with the previous seed, replaying its first episode."""

    _last_seed: Any = None

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        if options is None or "reset_mask" not in options:
            if seed is None:
                seed = self._last_seed
            self._last_seed = seed
        return super().reset(seed=seed, options=options)
