"""Active environment checks: :func:`check_env` exercises an environment and reports where it breaks the API.

Gymnasium's ``utils.env_checker``, with its signature and behaviour: warnings (``reference.logger``) for what is
suspicious, errors for what is broken. Where Gymnasium asserts, the errors here are ``AssertionError`` s (that are
also the ``TypeError``/``ValueError`` the problem calls for), so code written against Gymnasium's checker catches
them unchanged.

Example:
    >>> import reference
    >>> from reference.utils.env_checker import check_env, data_equivalence
    >>> check_env(reference.make("FrozenLake-v1").unwrapped, skip_render_check=True)
    >>> data_equivalence({"a": (1, 2.0)}, {"a": (1, 2.0)})
    True
"""

from __future__ import annotations

import inspect
from copy import deepcopy
from itertools import combinations
from typing import Any

import numpy as np

from reference import error, logger
from reference._narrowing import is_array, is_dict, is_list_or_tuple
from reference.core import Env
from reference.spaces._guards import is_box, is_dict_space, is_tuple_space
from reference.utils._check_errors import CheckTypeError, CheckValueError
from reference.utils._result_checks import data_shares_objects
from reference.utils._space_checks import describe
from reference.utils.passive_env_checker import (
    check_action_space,
    check_observation_space,
    env_render_passive_checker,
    env_reset_passive_checker,
    env_step_passive_checker,
)

__all__ = [
    "check_env",
    "check_reset_options",
    "check_reset_return_info_deprecation",
    "check_reset_return_type",
    "check_reset_seed_determinism",
    "check_returned_data_not_reused",
    "check_seed_deprecation",
    "check_space_limit",
    "check_step_determinism",
    "data_equivalence",
]

_AnyEnv = Env[Any, Any]
_SEE = "See https://gymnasium.farama.org/introduction/create_custom_env/ for more info."


def data_equivalence(data_1: object, data_2: object, exact: bool = False) -> bool:
    """Tell whether two pieces of environment data (observations, actions, infos) are equivalent.

    Containers compare recursively and must have the same type; arrays must have the same shape and dtype and
    equal values (within ``rtol = atol = 1e-5`` unless ``exact``); anything else compares with ``==``.

    Args:
        data_1: The first value.
        data_2: The second value.
        exact: Compare array values exactly instead of with ``np.allclose``.

    Returns:
        Whether they are equivalent.
    """
    if type(data_1) is not type(data_2):
        return False
    if is_dict(data_1) and is_dict(data_2):
        return data_1.keys() == data_2.keys() and all(data_equivalence(data_1[k], data_2[k], exact) for k in data_1)
    if is_list_or_tuple(data_1) and is_list_or_tuple(data_2):
        return len(data_1) == len(data_2) and all(data_equivalence(a, b, exact) for a, b in zip(data_1, data_2))
    if is_array(data_1) and is_array(data_2):
        if data_1.shape != data_2.shape or data_1.dtype != data_2.dtype:
            return False
        if data_1.dtype == object:
            return all(data_equivalence(a, b, exact) for a, b in zip(data_1, data_2))
        if exact:
            return bool(np.all(data_1 == data_2))
        return bool(np.allclose(data_1, data_2, rtol=1e-5, atol=1e-5))
    return bool(data_1 == data_2)


def _accepts_keyword(env: _AnyEnv, name: str) -> bool:
    params = inspect.signature(env.reset).parameters
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _require(condition: bool, message: str) -> None:
    # The checks below mirror assertions in Gymnasium's checker, so they fail with an AssertionError subclass.
    if not condition:
        raise CheckValueError(message)


def _rng_state(env: _AnyEnv) -> object:
    rng = getattr(env.unwrapped, "_np_random", None)
    return None if rng is None else rng.bit_generator.state


def check_reset_seed_determinism(env: _AnyEnv) -> None:
    """Check that ``reset(seed=...)`` seeds ``np_random``, is deterministic, and that ``seed`` defaults to ``None``.

    Args:
        env: The environment.

    Raises:
        Error: If ``reset`` takes neither ``seed`` nor ``**kwargs``.
        AssertionError: If seeding does not make ``reset`` reproducible (also a ``ValueError``).
    """
    if not _accepts_keyword(env, "seed"):
        raise error.Error("The `reset` method does not provide a `seed` or `**kwargs` keyword argument.")
    space = env.observation_space
    obs_1, _ = env.reset(seed=123)
    _require(obs_1 in space, "The observation returned by `env.reset(seed=123)` is not within the observation space.")
    _require(
        getattr(env.unwrapped, "_np_random", None) is not None,
        "Expects the random number generator to have been generated given a seed was passed to reset. Most "
        "likely the environment reset function does not call `super().reset(seed=seed)`.",
    )
    state_1 = deepcopy(_rng_state(env))
    obs_1 = deepcopy(obs_1)  # an environment may refill one buffer in place
    obs_2, _ = deepcopy(env.reset())
    _require(obs_2 in space, "The observation returned by `env.reset()` is not within the observation space.")
    obs_3, _ = deepcopy(env.reset(seed=123))
    _require(obs_3 in space, "The observation returned by `env.reset(seed=123)` is not within the observation space.")
    state_3 = deepcopy(_rng_state(env))
    obs_4, _ = env.reset()
    _require(obs_4 in space, "The observation returned by `env.reset()` is not within the observation space.")

    if env.spec is not None and env.spec.nondeterministic is False:
        _require(
            data_equivalence(obs_1, obs_3),
            "Using `env.reset(seed=123)` is non-deterministic as the observations are not equivalent.",
        )
        _require(
            data_equivalence(obs_2, obs_4),
            "Using `env.reset(seed=123)` then `env.reset()` is non-deterministic as the observations are not "
            "equivalent.",
        )
        if not data_equivalence(obs_1, obs_3, exact=True):
            logger.warn("Using `env.reset(seed=123)` observations are not equal although similar.")
        if not data_equivalence(obs_2, obs_4, exact=True):
            logger.warn("Using `env.reset(seed=123)` then `env.reset()` observations are not equal although similar.")
    _require(
        state_1 == state_3,
        "Most likely the environment reset function does not call `super().reset(seed=seed)` as the random "
        "generates are not same when the same seeds are passed to `env.reset`.",
    )
    obs_5, _ = env.reset(seed=456)
    _require(obs_5 in space, "The observation returned by `env.reset(seed=456)` is not within the observation space.")
    _require(
        _rng_state(env) != state_1,
        "Most likely the environment reset function does not call `super().reset(seed=seed)` as the random number "
        "generators are not different when different seeds are passed to `env.reset`.",
    )
    seed_param = inspect.signature(env.reset).parameters.get("seed")
    if seed_param is not None and seed_param.default is not None:
        logger.warn(
            "The default seed argument in reset should be `None`, otherwise the environment will by default always "
            f"be deterministic. Actual default: {seed_param.default}"
        )


def check_reset_options(env: _AnyEnv) -> None:
    """Check that ``reset`` accepts ``options``.

    Args:
        env: The environment.

    Raises:
        Error: If ``reset`` takes neither ``options`` nor ``**kwargs``.
    """
    if not _accepts_keyword(env, "options"):
        raise error.Error("The `reset` method does not provide an `options` or `**kwargs` keyword argument.")
    env.reset(options={})


def check_step_determinism(env: _AnyEnv, seed: int = 123) -> None:
    """Check that the same seed and action give the same first step (skipped for nondeterministic specs).

    Args:
        env: The environment.
        seed: The seed for ``reset`` and the action space.

    Raises:
        AssertionError: If the two steps differ, ``np_random`` is not advanced consistently, or the environment
            truncates after one step (also a ``ValueError``).
    """
    if env.spec is not None and env.spec.nondeterministic is True:
        return
    env.action_space.seed(seed)
    action = env.action_space.sample()
    env.reset(seed=seed)
    first = deepcopy(env.step(action))
    state = deepcopy(_rng_state(env))
    _require(state is not None, "env.reset() should have initialized env._np_random")
    env.reset(seed=seed)
    second = env.step(action)
    _require(_rng_state(env) == state, "The `.np_random` is not properly been updated after step.")
    (obs_0, rew_0, term_0, trunc_0, info_0), (obs_1, rew_1, term_1, trunc_1, info_1) = first, second
    for noun, value_0, value_1 in (("observations", obs_0, obs_1), ("rewards", rew_0, rew_1)):
        _require(
            data_equivalence(value_0, value_1),
            f"Deterministic step {noun} are not equivalent for the same seed and action",
        )
        if not data_equivalence(value_0, value_1, exact=True):
            logger.warn(f"Step {noun} are not equal although similar given the same seed and action")
    _require(
        data_equivalence(term_0, term_1, exact=True),
        "Deterministic step termination are not equivalent for the same seed and action",
    )
    _require(
        trunc_0 is False and trunc_1 is False, "Environment truncates after 1 step, something has gone very wrong."
    )
    _require(
        data_equivalence(info_0, info_1), "Deterministic step info are not equivalent for the same seed and action"
    )
    if not data_equivalence(info_0, info_1, exact=True):
        logger.warn("Step info are not equal although similar given the same seed and action")


def check_returned_data_not_reused(env: _AnyEnv, seed: int = 123) -> None:
    """Check that no two ``reset``/``step`` calls return observations or infos sharing a mutable object.

    Args:
        env: The environment.
        seed: The seed for ``reset`` and the action space.

    Raises:
        AssertionError: If two calls' observations or infos share an object (also a ``ValueError``).
    """
    env.action_space.seed(seed)
    calls: list[tuple[str, object, object]] = [("env.reset() (call 1)", *env.reset(seed=seed))]
    for _ in range(2):
        obs, _, terminated, truncated, info = env.step(env.action_space.sample())
        calls.append((f"env.step() (call {len(calls) + 1})", obs, info))
        if terminated or truncated:
            break
    calls.append((f"env.reset() (call {len(calls) + 1})", *env.reset(seed=seed)))
    for (source_1, obs_1, info_1), (source_2, obs_2, info_2) in combinations(calls, 2):
        pairs = (("observations", "observation", obs_1, obs_2), ("infos", "info", info_1, info_2))
        for noun, kind, value_1, value_2 in pairs:
            _require(
                not data_shares_objects(value_1, value_2),
                f"The {noun} returned by `{source_1}` and `{source_2}` share an object, therefore, modifying one "
                f"will modify the other. Environments must return new {kind} data on every call as users keep the "
                "data returned to them.",
            )


def check_reset_return_info_deprecation(env: _AnyEnv) -> None:
    """Warn if ``reset`` still takes the ``return_info`` argument removed in Gymnasium 0.26.

    Args:
        env: The environment.
    """
    if "return_info" in inspect.signature(env.reset).parameters:
        logger.warn(
            "`return_info` is deprecated as an optional argument to `reset`. `reset`"
            "should now always return `obs, info` where `obs` is an observation, and `info` is a dictionary"
            "containing additional information."
        )


def check_seed_deprecation(env: _AnyEnv) -> None:
    """Warn if the environment still has a callable ``seed`` method (seed through ``reset(seed=...)``).

    Args:
        env: The environment.
    """
    if callable(getattr(env, "seed", None)):
        logger.warn(
            "Official support for the `seed` function is dropped. Standard practice is to reset gymnasium "
            "environments using `env.reset(seed=<desired seed>)`"
        )


def check_reset_return_type(env: _AnyEnv) -> None:
    """Check that ``reset()`` returns a tuple ``(obs, info)`` with ``obs`` in the space and ``info`` a dict.

    Args:
        env: The environment.

    Raises:
        AssertionError: If it does not (also a ``TypeError`` for a wrong type, a ``ValueError`` otherwise).
    """
    result: object = env.reset()
    if not isinstance(result, tuple):
        raise CheckTypeError(
            "check_env reset() result must be a tuple (obs, info), where obs is an observation and info a dict "
            f"of additional information, got {describe(result)} of type {type(result).__name__}"
        )
    _require(len(result) == 2, f"check_env reset() result must have 2 elements (obs, info), got {len(result)}")
    obs, info = result
    _require(
        obs in env.observation_space,
        f"check_env reset() observation must be within the observation space {env.observation_space}, "
        f"got {describe(obs)}",
    )
    if not isinstance(info, dict):
        raise CheckTypeError(f"check_env reset() info must be a dict, got {describe(info)}")


def check_space_limit(space: object, space_type: str) -> None:
    """Warn about infinite Box bounds, and about action Boxes not normalised to ``[-1, 1]`` or ``[0, 1]``.

    Args:
        space: The space (Tuple and Dict spaces are searched).
        space_type: ``"action"`` or ``"observation"``.
    """
    if is_box(space):
        if np.any(np.equal(space.low, -np.inf)):
            logger.warn(f"A Box {space_type} space minimum value is -infinity. This is probably too low.")
        if np.any(np.equal(space.high, np.inf)):
            logger.warn(f"A Box {space_type} space maximum value is infinity. This is probably too high.")
        low, high = space.low, space.high
        asymmetric = np.any((low != 0) & (np.abs(low) != np.abs(high)))
        if space_type == "action" and len(space.shape) == 1 and (asymmetric or np.any(low < -1) or np.any(high > 1)):
            logger.warn(
                "For Box action spaces, we recommend using a symmetric and normalized space (range=[-1, 1] or "
                "[0, 1]). See https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html for more "
                "information."
            )
    elif is_dict_space(space):
        for subspace in space.spaces.values():
            check_space_limit(subspace, space_type)
    elif is_tuple_space(space):
        for subspace in space.spaces:
            check_space_limit(subspace, space_type)


def check_env(
    env: _AnyEnv, warn: bool | None = None, skip_render_check: bool = False, skip_close_check: bool = False
) -> None:
    """Check that an environment follows the Gymnasium API by calling it with a variety of arguments.

    Checks the spaces, ``reset`` (return type, seeding, options), ``step`` (return types, determinism, fresh data
    on every call), every declared render mode (through ``env.spec.make``) and that ``close`` may be called twice.

    Args:
        env: The environment; best unwrapped (``env.unwrapped``), as wrappers can hide problems.
        warn: Ignored (it used to silence some warnings); passing it warns.
        skip_render_check: Skip the render checks.
        skip_close_check: Skip the double-``close`` check.

    Raises:
        TypeError: If ``env`` is not a :class:`~reference.Env`.
        AttributeError: If it has no action or observation space.
        AssertionError: If a check fails (also a ``TypeError``/``ValueError``).
        Error: If ``reset`` cannot take ``seed`` or ``options``, or ``step`` returns neither 4 nor 5 values.
    """
    if warn is not None:
        logger.warn("`check_env(warn=...)` parameter is now ignored.")
    if not isinstance(env, Env):
        raise TypeError(
            f"check_env env must be an instance of a reference.Env (gymnasium.Env) subclass, got "
            f"{describe(env)} of type {type(env).__name__}. {_SEE}"
        )
    if env.unwrapped is not env:
        logger.warn(
            f"The environment ({env}) is different from the unwrapped version ({env.unwrapped}). This could effect "
            "the environment checker as the environment most likely has a wrapper applied to it. We recommend "
            "using the raw environment for `check_env` using `env.unwrapped`."
        )
    for space_type, check in (("action", check_action_space), ("observation", check_observation_space)):
        space = getattr(env, f"{space_type}_space", None)
        if space is None:
            raise AttributeError(f"check_env env must specify an {space_type}_space. {_SEE}")
        check(space)
        check_space_limit(space, space_type)

    check_seed_deprecation(env)
    check_reset_return_info_deprecation(env)
    check_reset_return_type(env)
    check_reset_seed_determinism(env)
    check_reset_options(env)

    env_reset_passive_checker(env)
    env_step_passive_checker(env, env.action_space.sample())
    check_step_determinism(env)
    check_returned_data_not_reused(env)

    if not skip_render_check:
        _check_render(env)
    if not skip_close_check and env.spec is not None:
        closed = env.spec.make()
        closed.close()
        try:
            closed.close()
        except Exception as exc:  # noqa: BLE001 - reported, as Gymnasium does, not raised
            logger.warn(
                f"Calling `env.close()` on the closed environment should be allowed, but it raised an exception: {exc}"
            )


def _check_render(env: _AnyEnv) -> None:
    if env.render_mode is not None:
        env_render_passive_checker(env)
    if env.spec is None:
        logger.warn(
            "Not able to test alternative render modes due to the environment not having a spec. Try instantiating "
            "the environment through `reference.make`"
        )
        return
    for render_mode in env.metadata.get("render_modes", []):
        rendering = env.spec.make(render_mode=render_mode)
        rendering.reset()
        env_render_passive_checker(rendering)
        rendering.close()
