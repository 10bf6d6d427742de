"""The :class:`PassiveEnvChecker` wrapper, which ``make`` applies innermost (re-exported by ``common``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias


import gymspec
from gymspec import RenderResult
from reference import logger
from reference.core import ActType, ObsType, Wrapper
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.utils._space_checks import (
    check_action_space,
    check_observation_space,
    explain_observation,
    observation_fast_test,
)
from reference.utils._result_checks import (
    check_flag,
    check_info,
    check_render_metadata,
    check_render_return,
    check_reset_result,
    check_reset_signature,
    check_reward,
    check_step_result,
    data_shares_objects,
)
from reference.wrappers.utils import derived_spec, read_only_spec

if TYPE_CHECKING:
    from reference.registration import EnvSpec

__all__ = ["PassiveEnvChecker"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


class PassiveEnvChecker(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Check that every ``reset``, ``step`` and ``render`` follows the API, without changing any data.

    Unlike Gymnasium's checker, which inspects only the first call of each method, this one checks every call;
    the per-call checks are compiled at construction so a well-behaved environment pays for a handful of type
    and bound comparisons. Problems Gymnasium warns about are warnings (``reference.logger.warn``); problems it
    asserts on raise (``TypeError``/``ValueError``/:class:`~reference.error.Error`).

    Checked on every call: the step result is a 5-tuple; flags are ``bool``/``np.bool_``; the reward is a finite
    int/float; ``info`` is a dict; the observation is in ``observation_space``; a rendered frame matches the
    render mode. Checked once, as in Gymnasium: the ``reset`` signature, the render metadata, and that the first
    two steps do not return data sharing memory (``np.shares_memory``) with the call before.

    Observations are checked when they are returned, so a warning comes from the call that caused it. Deferring
    the bounds check (keeping the last K observations and validating them in one NumPy pass) was measured and
    rejected: for small observations, gathering K arrays costs NumPy more per observation than the compiled test.

    Args:
        env: The environment to wrap.

    Raises:
        AttributeError: If the environment has no action or observation space (Gymnasium's class).
        TypeError: If ``env`` has no ``reset`` or ``step``, or a space is not a space.
        AssertionError: If a space is structurally broken (also a ``ValueError``).

    Example:
        >>> import warnings
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.wrappers import TransformReward
        >>> env = PassiveEnvChecker(TransformReward(CartPoleEnv(), lambda r: float("nan")))
        >>> _ = env.reset(seed=0)
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     _ = env.step(0)
        >>> "The reward is a NaN value." in str(caught[0].message)
        True
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        if not (callable(getattr(env, "reset", None)) and callable(getattr(env, "step", None))):
            raise TypeError(f"PassiveEnvChecker env must be an environment (with reset and step), got {describe(env)}")
        for space in ("action_space", "observation_space"):
            # Gymnasium's checker reports a missing space as an AttributeError, before any other check.
            if not hasattr(env, space):
                raise AttributeError(
                    f"PassiveEnvChecker env must specify an {space}, got {type(env).__name__} without one; set it "
                    "in the environment's __init__ (see https://gymnasium.farama.org/introduction/create_custom_env/)"
                )
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        check_action_space(env.action_space)
        check_observation_space(env.observation_space)
        self._checked_space = env.observation_space
        self._obs_ok = observation_fast_test(env.observation_space)
        self.checked_reset = False
        self.checked_step = False
        self.checked_render = False
        self.close_called = False
        # Buffer-reuse checks (np.shares_memory) run on reset->first step and first->second step, as in Gymnasium.
        self._reuse_checks_left = 0
        self._last_obs: object = None
        self._last_info: object = None

    def _check_reuse(self, obs: object, info: object, previous: str, current: str) -> None:
        """Warn if ``obs``/``info`` share memory with the previous call's (reset->step, then step->step)."""
        self._reuse_checks_left -= 1
        if data_shares_objects(self._last_obs, obs):
            logger.warn(
                f"The observations returned by `{previous}` and the following `{current}` share an object, "
                "therefore, modifying one will modify the other. Environments should return new observation "
                "data on every call as users commonly keep the data returned to them.",
                stacklevel=3,
            )
        if data_shares_objects(self._last_info, info):
            logger.warn(
                f"The infos returned by `{previous}` and the following `{current}` share an object, therefore, "
                "modifying one will modify the other. Environments should return new info data on every call "
                "as users commonly keep the data returned to them.",
                stacklevel=3,
            )
        if self._reuse_checks_left:
            self._last_obs, self._last_info = obs, info
        else:  # done checking: do not keep the env's data alive
            self._last_obs = self._last_info = None

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and check the result.

        Args:
            action: Passed through unchecked (some environments accept out-of-space actions on purpose).

        Returns:
            The inner step result, unchanged.

        Raises:
            TypeError: If the result is not a tuple or ``info`` is not a dict.
            Error: If the result does not have five elements.
        """
        result = self.env.step(action)
        # Typed loosely: the checks exist precisely for environments that break their declared types.
        untrusted: tuple[object, ...] = result
        if untrusted.__class__ is not tuple:
            check_step_result(untrusted)
        try:
            obs, reward, terminated, truncated, info = untrusted
        except ValueError:
            check_step_result(untrusted)
            raise
        # bool has exactly two instances, and two identity tests are cheaper than reading __class__.
        if terminated is not False and terminated is not True:
            check_flag(terminated, "terminated")
        if truncated is not False and truncated is not True:
            check_flag(truncated, "truncated")
        # ``r - r`` is NaN for NaN and for +-inf, so one comparison covers finiteness.
        if reward.__class__ is not float or reward - reward != 0.0:  # pyright: ignore[reportOperatorIssue]
            check_reward(reward)
        if info.__class__ is not dict:
            check_info(info, "step")
        if not self._obs_ok(obs):
            explain_observation(self._checked_space, obs, "step")
        if self._reuse_checks_left:
            self._check_reuse(obs, info, "step" if self.checked_step else "reset", "step")
            self.checked_step = True
        return result

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and check the result.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result, unchanged.

        Raises:
            TypeError: If ``info`` is not a dict.
        """
        if not self.checked_reset:
            check_reset_signature(self.env)
        result = self.env.reset(seed=seed, options=options)
        untrusted: object = result
        if (untrusted.__class__ is tuple and len(result) == 2 and result[1].__class__ is dict) or check_reset_result(
            result
        ):
            obs, info = result
            if not self._obs_ok(obs):
                explain_observation(self._checked_space, obs, "reset")
            if not self.checked_reset:
                self._reuse_checks_left = 2
                self._last_obs, self._last_info = obs, info
        self.checked_reset = True
        return result

    def render(self) -> RenderResult:
        """Render the inner environment and check the frame against the render mode.

        Returns:
            The inner frame(s), unchanged.

        Raises:
            ValueError: If ``metadata["render_fps"]`` is not positive (first call).
            UnsupportedMode: If ``render_mode`` is not a declared mode (first call).
        """
        if not self.checked_render:
            check_render_metadata(self.env)
            self.checked_render = True
        frame = self.env.render()
        check_render_return(self.env.render_mode, frame)
        return frame

    def close(self) -> None:
        """Close the inner environment; warn if a second ``close`` raises (closing twice must be allowed)."""
        if not self.close_called:
            self.close_called = True
            self.env.close()
            return
        try:
            self.env.close()
        except Exception:
            logger.warn(
                "Calling `env.close()` on the closed environment should be allowed, but it raised the following "
                "exception."
            )
            raise

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with ``disable_env_checker=False``."""
        return derived_spec(self, disable_env_checker=False)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        raise read_only_spec(self)
