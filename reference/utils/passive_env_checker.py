"""Passive API checks: call ``reset``/``step``/``render`` once, check what comes back, return it unchanged.

These are Gymnasium's ``utils.passive_env_checker`` functions. They share their checks with
:class:`~reference.wrappers.PassiveEnvChecker` (which runs them on every call, compiled): problems Gymnasium warns
about are ``reference.logger`` warnings with Gymnasium's text; problems it asserts on raise an exception that is
an ``AssertionError`` (as Gymnasium's) and also the ``TypeError``/``ValueError`` the problem calls for.

Example:
    >>> from reference.envs.classic_control.cartpole import CartPoleEnv
    >>> from reference.utils.passive_env_checker import env_reset_passive_checker, env_step_passive_checker
    >>> env = CartPoleEnv()
    >>> obs, info = env_reset_passive_checker(env, seed=0)
    >>> obs.shape, info
    ((4,), {})
    >>> len(env_step_passive_checker(env, 0))
    5
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias, TypeVar, cast

import numpy as np

from gymspec import RenderResult
from reference import logger
from reference._narrowing import is_tuple
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
from reference.utils._space_checks import check_action_space, check_observation_space, check_space, explain_observation

if TYPE_CHECKING:
    from reference.core import Env

__all__ = [
    "check_action_space",
    "check_obs",
    "check_observation_space",
    "check_space",
    "data_shares_objects",
    "env_data_reuse_passive_checker",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]

_ObsT = TypeVar("_ObsT")
_ActT = TypeVar("_ActT")
_Info: TypeAlias = dict[str, Any]
_ResetKwargs: TypeAlias = Any  # passed through to reset (seed, options, and whatever else an env takes)


def check_obs(obs: object, observation_space: object, method_name: str) -> None:
    """Check an observation against its space: warnings for the wrong type or an out-of-space value.

    Args:
        obs: The observation.
        observation_space: Its space.
        method_name: The method that returned it (``"reset"``, ``"step"``), for the messages.

    Raises:
        AssertionError: If a Tuple/Dict observation has the wrong arity, keys or container type (also a
            ``TypeError``/``ValueError``).
    """
    explain_observation(observation_space, obs, method_name)


def env_reset_passive_checker(env: Env[_ObsT, Any], **kwargs: _ResetKwargs) -> tuple[_ObsT, _Info]:
    """Call ``env.reset(**kwargs)``, check the signature and the result, and return the result unchanged.

    Args:
        env: The environment.
        **kwargs: Passed to ``reset`` (``seed``, ``options``).

    Returns:
        What ``reset`` returned.

    Raises:
        AssertionError: If the info is not a dict (also a ``TypeError``).
    """
    check_reset_signature(env)
    result = env.reset(**kwargs)
    if check_reset_result(result):
        check_obs(result[0], env.observation_space, "reset")
    return result


def env_step_passive_checker(
    env: Env[_ObsT, _ActT], action: _ActT
) -> tuple[_ObsT, SupportsFloat, bool, bool, _Info]:
    """Call ``env.step(action)``, check the result, and return it unchanged.

    The action is not checked: some environments accept actions outside their space on purpose. A pre-0.26
    4-tuple ``(obs, reward, done, info)`` is accepted with a ``DeprecationWarning``, as Gymnasium does.

    Args:
        env: The environment.
        action: The action.

    Returns:
        What ``step`` returned.

    Raises:
        AssertionError: If the result is not a tuple or ``info`` is not a dict (also a ``TypeError``).
        Error: If the result has neither four nor five elements.
    """
    result = env.step(action)
    # An old-API env returns 4 elements whatever its annotations say: the result is inspected as a plain object
    # (an annotated 5-tuple would make the 4-element branch unreachable to the type checker).
    untrusted = cast(object, result)
    if is_tuple(untrusted) and len(untrusted) == 4:
        logger.deprecation(
            "Core environment is written in old step API which returns one bool instead of two. "
            "It is recommended to rewrite the environment with new step API. "
        )
        obs, reward, done, info = untrusted
        if not isinstance(done, (bool, np.bool_)):
            logger.warn(f"Expects `done` signal to be a boolean, actual type: {type(done)}")
    else:
        check_step_result(untrusted)
        obs, reward, terminated, truncated, info = result
        check_flag(terminated, "terminated")
        check_flag(truncated, "truncated")
    check_obs(obs, env.observation_space, "step")
    check_reward(reward)
    check_info(info, "step")
    return result


def env_render_passive_checker(env: Env[Any, Any]) -> RenderResult:
    """Check the render metadata, call ``env.render()``, check the frame against the mode, and return it.

    Args:
        env: The environment.

    Returns:
        What ``render`` returned.

    Raises:
        AssertionError: If ``render_fps`` is not positive (also a ``ValueError``) or ``render_mode`` is not
            declared in ``metadata["render_modes"]`` (also an :class:`~reference.error.UnsupportedMode`).
    """
    check_render_metadata(env)
    frame = env.render()
    check_render_return(env.render_mode, frame)
    return frame


def env_data_reuse_passive_checker(
    previous_data: tuple[object, object], data: tuple[object, object], previous_source: str, source: str
) -> None:
    """Warn if two calls returned observations or infos that share a mutable object.

    Users keep what an environment returns (replay buffers), so an environment that refills and returns the
    same array corrupts data the user still holds.

    Args:
        previous_data: ``(obs, info)`` of the earlier call.
        data: ``(obs, info)`` of the later call.
        previous_source: The earlier call, for the message (``"reset"``).
        source: The later call, for the message (``"step"``).
    """
    for index, noun, kind in ((0, "observations", "observation"), (1, "infos", "info")):
        if data_shares_objects(previous_data[index], data[index]):
            logger.warn(
                f"The {noun} returned by `{previous_source}` and the following `{source}` share an object, "
                "therefore, modifying one will modify the other. Environments should return new "
                f"{kind} data on every call as users commonly keep the data returned to them."
            )
