"""Space and observation checks for :class:`~reference.wrappers.PassiveEnvChecker` and the checker functions.

* Space checks run once, at wrapper construction (:func:`check_action_space`, :func:`check_observation_space`).
* Observation checks are *compiled* once per space by :func:`observation_fast_test` into a predicate whose common
  case (a correctly typed, in-bounds observation) costs a few comparisons, so it can run on every call; only when
  it fails does :func:`explain_observation` work out what is wrong and warn.
The reset/step/render result checks live in :mod:`reference.utils._result_checks`; structural errors are the
:mod:`reference.utils._check_errors` classes (``AssertionError`` s, as Gymnasium's checker raises).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias, cast

import numpy as np

from reference import logger
from reference.spaces._guards import is_box
from reference.spaces.box import Box
from reference.utils._check_errors import CheckTypeError, CheckValueError
from reference.spaces.discrete import Discrete
from reference.spaces.space import Space
from reference.wrappers.utils import space_kind

__all__ = [
    "ObsTest",
    "check_action_space",
    "check_observation_space",
    "check_space",
    "describe",
    "explain_observation",
    "observation_fast_test",
]

ObsTest: TypeAlias = Callable[[object], bool]
"""``test(obs)``: ``True`` when ``obs`` is certainly in the space (the cheap per-call check)."""

# Bounds of at most this many elements are checked with Python floats, which beats NumPy's per-call overhead.
_SMALL_BOX = 16


def describe(value: object) -> str:
    """Summarise a value for a message: arrays by shape and dtype, everything else by ``repr``.

    Args:
        value: The value.

    Returns:
        A short description.
    """
    if isinstance(value, np.ndarray):
        return f"array(shape={value.shape}, dtype={value.dtype})"  # pyright: ignore[reportUnknownMemberType]
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


# --- spaces (construction time) ---------------------------------------------------------------------------------


def _check_space(space: object, space_type: str, warn_inverted: bool) -> None:
    if not isinstance(space, Space):
        if callable(getattr(space, "contains", None)) and callable(getattr(space, "sample", None)):
            return  # a foreign space (Gymnasium's, say): only the generic per-call checks apply
        raise TypeError(
            f"PassiveEnvChecker {space_type}_space must be a reference.spaces.Space (or have contains and sample), "
            f"got {describe(space)} of type {type(space).__name__}"
        )
    if is_box(space):  # pyright: ignore[reportUnknownArgumentType]
        for name, bound in (("low", space.low), ("high", space.high)):
            if bound.shape != space.shape:
                raise CheckValueError(
                    f"PassiveEnvChecker {space_type}_space Box {name} must have the space's shape {space.shape}, "
                    f"got {describe(bound)}"
                )
        if np.any(space.low == space.high):
            logger.warn(f"A Box {space_type} space maximum and minimum values are equal.")
        elif warn_inverted and np.any(space.high < space.low):
            logger.warn(f"A Box {space_type} space low value is greater than a high value.")
    elif isinstance(space, Discrete):
        if not space.n > 0:  # pyright: ignore[reportUnknownMemberType]
            raise CheckValueError(f"PassiveEnvChecker {space_type}_space Discrete n must be positive, got {space.n!r}")  # pyright: ignore[reportUnknownMemberType]
    else:
        _check_composite_space(space, space_type, warn_inverted)  # pyright: ignore[reportUnknownArgumentType]


def _check_composite_space(space: Space[Any], space_type: str, warn_inverted: bool) -> None:
    kind = space_kind(space)
    if kind == "MultiDiscrete":
        nvec = np.asarray(getattr(space, "nvec"))
        if space.shape != nvec.shape or not np.all(nvec > 0):
            raise CheckValueError(
                f"PassiveEnvChecker {space_type}_space MultiDiscrete nvec must be positive with the space's shape "
                f"{space.shape}, got {describe(nvec)}"
            )
    elif kind == "MultiBinary":
        if not np.all(np.asarray(space.shape) > 0):
            raise CheckValueError(
                f"PassiveEnvChecker {space_type}_space MultiBinary shape must be positive, got {space.shape!r}"
            )
    elif kind in ("Tuple", "Dict"):
        children = getattr(space, "spaces")
        subspaces = list(children.values()) if isinstance(children, Mapping) else list(children)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        if not subspaces:
            raise CheckValueError(f"PassiveEnvChecker {space_type}_space must not be an empty {kind} space")
        for subspace in subspaces:  # pyright: ignore[reportUnknownVariableType]
            _check_space(subspace, space_type, warn_inverted)  # pyright: ignore[reportUnknownArgumentType]


def check_space(space: object, space_type: str) -> None:
    """Check an action or observation space is usable (construction-time).

    Args:
        space: The space.
        space_type: ``"action"`` or ``"observation"`` (an inverted Box warns only for observations).

    Raises:
        TypeError: If it is not a space.
        AssertionError: If it is structurally broken (also a ``ValueError``).
    """
    _check_space(space, space_type, warn_inverted=space_type == "observation")


def check_observation_space(space: object) -> None:
    """Check an observation space is usable (construction-time; errors for broken spaces, warnings for odd ones).

    Args:
        space: The observation space.

    Raises:
        TypeError: If it is not a space.
        AssertionError: If it is structurally broken: bound shapes, empty composite, non-positive sizes (also a
            ``ValueError``).
    """
    _check_space(space, "observation", warn_inverted=True)


def check_action_space(space: object) -> None:
    """Check an action space is usable (construction-time).

    Args:
        space: The action space.

    Raises:
        TypeError: If it is not a space.
        AssertionError: If it is structurally broken (also a ``ValueError``).
    """
    _check_space(space, "action", warn_inverted=False)


# --- observations (every call) ----------------------------------------------------------------------------------


def _warn_not_in_space(obs: object, space: object, method_name: str, detail: str = "") -> None:
    logger.warn(
        f"The obs returned by the `{method_name}()` method is not within the observation space: "
        f"got {describe(obs)}, space {space!r}{detail}",
        stacklevel=4,
    )


def _generic_contains(space: Space[Any], obs: object, method_name: str) -> None:
    try:
        inside = space.contains(obs)
    except Exception as exc:  # noqa: BLE001 - a buggy contains must not mask the env's own output
        _warn_not_in_space(obs, space, method_name, f" (contains raised {exc!r})")
        return
    if not inside:
        _warn_not_in_space(obs, space, method_name)


def _check_structure(obs: object, space: object, method_name: str) -> None:
    """Gymnasium's ``check_obs`` type checks: warnings for the wrong container type, errors for wrong arity/keys."""
    pre = f"The obs returned by the `{method_name}()` method"
    kind = space_kind(space)
    if isinstance(space, Discrete):
        if not isinstance(obs, (int, np.int64)):  # pyright: ignore[reportArgumentType]
            logger.warn(f"{pre} should be an int or np.int64, actual type: {type(obs)}", stacklevel=4)
    elif is_box(space):
        if space.shape != ():
            if not isinstance(obs, np.ndarray):
                logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}", stacklevel=4)
            elif obs.dtype != space.dtype:  # pyright: ignore[reportUnknownMemberType]
                logger.warn(
                    f"{pre} was expecting numpy array dtype to be {space.dtype}, actual type: {obs.dtype}",  # pyright: ignore[reportUnknownMemberType]
                    stacklevel=4,
                )
    elif kind in ("MultiBinary", "MultiDiscrete"):
        if not isinstance(obs, np.ndarray):
            logger.warn(f"{pre} was expecting a numpy array, actual type: {type(obs)}", stacklevel=4)
    elif kind == "Tuple":
        children = tuple(getattr(space, "spaces"))
        if not isinstance(obs, tuple):
            logger.warn(f"{pre} was expecting a tuple, actual type: {type(obs)}", stacklevel=4)
        if not hasattr(obs, "__len__") or len(obs) != len(children):  # pyright: ignore[reportArgumentType, reportUnknownArgumentType]
            raise CheckValueError(
                f"PassiveEnvChecker {method_name}() observation must have {len(children)} elements like the "
                f"Tuple observation space, got {describe(obs)}"  # pyright: ignore[reportUnknownArgumentType]
            )
        for sub_obs, sub_space in zip(obs, children):  # type: ignore[call-overload]
            _check_structure(sub_obs, sub_space, method_name)  # pyright: ignore[reportUnknownArgumentType]
    elif kind == "Dict":
        children_map: Mapping[str, object] = getattr(space, "spaces")
        if not isinstance(obs, dict):
            raise CheckTypeError(
                f"PassiveEnvChecker {method_name}() observation must be a dict for a Dict observation space, "
                f"got {describe(obs)}"
            )
        if obs.keys() != children_map.keys():
            raise CheckValueError(
                f"PassiveEnvChecker {method_name}() observation keys must be the Dict space's keys "
                f"{list(children_map)}, got {list(obs)}"  # pyright: ignore[reportUnknownArgumentType]
            )
        for key, sub_space in children_map.items():
            _check_structure(obs[key], sub_space, method_name)  # pyright: ignore[reportUnknownArgumentType]


def _unpack_target(shape: tuple[int, ...], names: list[str]) -> str:
    """The assignment target that unpacks ``ndarray.tolist()`` of exactly ``shape`` into ``names`` (C order)."""
    if not shape:
        return names[0]
    stride = len(names) // shape[0]
    parts = [_unpack_target(shape[1:], names[i * stride : (i + 1) * stride]) for i in range(shape[0])]
    return f"[{', '.join(parts)}]"


def _literal(bound: float) -> str:
    """Source text for a bound: ``repr`` round-trips floats and ints exactly; ``1e999`` is the constant inf."""
    if bound == math.inf:
        return "1e999"
    if bound == -math.inf:
        return "-1e999"
    return repr(bound)


def _small_box_test(space: Box[Any]) -> ObsTest:
    """Compile ``obs -> obs is an in-bounds array of the space's dtype and shape`` into straight-line code.

    This runs on every step and reset, so it avoids both NumPy's per-call overhead (a ufunc call costs more than
    a CartPole step) and ``obs.shape`` (which builds a tuple): the generated function checks the exact class and
    the dtype (by identity; NumPy's builtin dtypes are singletons), then unpacks ``obs.tolist()`` into one name
    per element with a target nested like the shape, and compares every element with its constant bounds. (Plain
    comparisons in an ``if`` let CPython 3.11 specialise each into a float compare-and-branch, which a chained
    comparison or a returned ``and`` chain does not; that saves about a fifth of the test's cost.)

    The unpacking doubles as the shape test: a wrong length raises ``ValueError``, and any extra axis leaves a
    list where a number is expected, so the element's comparison raises ``TypeError``; both mean "not in the
    space". That needs a comparison on every element, so an unbounded element is tested with ``-inf <= v``, which
    also rejects NaN, as ``Box.contains`` does. Empty boxes have nothing to unpack and test the shape instead.
    """
    return _compiled_small_box_test(space.dtype, space.shape, tuple(space.low.ravel().tolist()),
                                    tuple(space.high.ravel().tolist()))


@functools.lru_cache(maxsize=256)
def _compiled_small_box_test(
    dtype: np.dtype[Any], shape: tuple[int, ...], low: tuple[float, ...], high: tuple[float, ...]
) -> ObsTest:
    # Cached: every construction of an env builds its checker, and compiling costs about a millisecond, more than
    # many envs' whole construction. The test holds nothing but constants, so equal boxes share one.
    namespace: dict[str, object] = {"ndarray": np.ndarray, "dtype": dtype, "shape": shape}
    if not low:
        empty: ObsTest = eval(  # noqa: S307 - constant source
            "lambda o: o.__class__ is ndarray and o.dtype is dtype and o.shape == shape", namespace
        )
        return empty
    names = [f"v{index}" for index in range(len(low))]
    bounds: list[str] = []
    for value, lo, hi in zip(names, low, high):
        # Only a -inf low and a +inf high bound nothing (a +inf low or -inf high bounds to exactly that value).
        lo_bounds, hi_bounds = lo != -math.inf, hi != math.inf
        if lo_bounds and hi_bounds:
            bounds.append(f"{_literal(lo)} <= {value} and {value} <= {_literal(hi)}")
        elif lo_bounds:
            bounds.append(f"{_literal(lo)} <= {value}")
        elif hi_bounds:
            bounds.append(f"{value} <= {_literal(hi)}")
        else:
            bounds.append(f"-1e999 <= {value}")
    source = (
        "def test(o):\n"
        "    if o.__class__ is ndarray and o.dtype is dtype:\n"
        "        try:\n"
        f"            {_unpack_target(shape, names)} = o.tolist()\n"
        f"            if {' and '.join(bounds)}:\n"
        "                return True\n"
        "        except (TypeError, ValueError):\n"
        "            pass\n"
        "    return False\n"
    )
    exec(source, namespace)  # noqa: S102 - built from numbers only
    return cast(ObsTest, namespace["test"])


def _large_box_test(space: Box[Any]) -> ObsTest:
    dtype, shape, low, high = space.dtype, space.shape, space.low, space.high
    # Integer boxes spanning the whole dtype need no bounds check (images: uint8 in [0, 255]).
    full_range = dtype.kind == "b" or (
        dtype.kind in "iu"
        and bool(np.all(low == np.iinfo(dtype).min) and np.all(high == np.iinfo(dtype).max))
    )

    def test(obs: object) -> bool:
        if obs.__class__ is not np.ndarray or obs.dtype is not dtype or obs.shape != shape:  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
            return False
        return full_range or bool((obs >= low).all() and (obs <= high).all())

    return test


def _never(obs: object) -> bool:
    return False


def observation_fast_test(space: object) -> ObsTest:
    """Compile the per-call fast test for ``space``: ``True`` means the observation is certainly fine.

    ``False`` means "look closer": the caller then runs :func:`explain_observation`, which warns or raises.

    Args:
        space: The observation space (already validated by :func:`check_observation_space`).

    Returns:
        ``test(obs) -> bool``; exact for Box and Discrete spaces, always ``False`` for the others.
    """
    if is_box(space):
        return _small_box_test(space) if int(np.prod(space.shape)) <= _SMALL_BOX else _large_box_test(space)
    if isinstance(space, Discrete):
        start = int(space.start)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
        stop = start + int(space.n)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
        return lambda obs: obs.__class__ is int and start <= obs < stop  # pyright: ignore[reportOperatorIssue, reportUnknownLambdaType]
    return _never


def explain_observation(space: object, obs: object, method_name: str) -> None:
    """Check ``obs`` against ``space`` the slow way, with Gymnasium's warnings (and errors for structure).

    Args:
        space: The observation space.
        obs: The observation.
        method_name: ``"reset"`` or ``"step"``, for the message.

    Raises:
        AssertionError: If a Dict observation is not a dict (also a ``TypeError``) or a Tuple/Dict observation has
            the wrong arity or keys (also a ``ValueError``).
    """
    _check_structure(obs, space, method_name)
    _generic_contains(space, obs, method_name)  # type: ignore[arg-type]
