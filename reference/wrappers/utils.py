"""Helpers shared by the wrappers: running statistics, zero elements, affine Box rescaling, derived specs."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from copy import deepcopy
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference import error, logger
from reference._narrowing import is_array
from reference.core import Wrapper
from reference.spaces._guards import is_box, is_discrete
from reference.spaces.box import Box
from reference.utils._format import describe

if TYPE_CHECKING:
    from reference.registration import EnvSpec

__all__ = [
    "BoundError",
    "ProbabilityError",
    "RunningMeanStd",
    "affine_rescale",
    "create_zero_array",
    "derived_spec",
    "read_only_spec",
    "rescale_box",
    "space_kind",
    "update_mean_var_count_from_moments",
]

_Array: TypeAlias = NDArray[Any]
_Element: TypeAlias = Any
_Value: TypeAlias = Any
_Moments: TypeAlias = "tuple[_Array | float, _Array | float, float]"

_REFERENCE_SPACES = frozenset(
    {"Box", "Dict", "Discrete", "Graph", "MultiBinary", "MultiDiscrete", "OneOf", "Sequence", "Text", "Tuple"}
)


class BoundError(error.InvalidBound, ValueError):
    """Unusable bounds (``min > max``, a negative epsilon): Gymnasium's ``InvalidBound`` and a ``ValueError``."""


class ProbabilityError(error.InvalidProbability, ValueError):
    """A probability outside its interval: Gymnasium's ``InvalidProbability`` and a ``ValueError``."""


def space_kind(space: object) -> str:
    """Name the reference space class ``space`` is, or derives from (its own class name otherwise).

    Matching by name keeps the wrappers independent of which optional space modules are loaded.

    Args:
        space: A space.

    Returns:
        ``"Box"``, ``"Tuple"``, ... or the class name of a foreign space.
    """
    for cls in type(space).__mro__:
        if cls.__module__.startswith("reference.spaces") and cls.__name__ in _REFERENCE_SPACES:
            return cls.__name__
    return type(space).__name__


class RunningMeanStd:
    """Running mean and variance of batches of arrays (parallel algorithm of Chan et al.).

    Args:
        epsilon: The initial pseudo-count, which keeps the first update from dividing by zero.
        shape: The shape of one sample.
        dtype: The dtype of the mean and variance.

    Example:
        >>> rms = RunningMeanStd(shape=(2,))
        >>> rms.update(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> np.round(rms.mean, 3).tolist(), np.round(rms.var, 3).tolist()
        ([2.0, 3.0], [1.0, 1.0])
    """

    def __init__(self, epsilon: float = 1e-4, shape: tuple[int, ...] = (), dtype: Any = np.float64) -> None:
        self.mean: _Array = np.zeros(shape, dtype=dtype)
        self.var: _Array = np.ones(shape, dtype=dtype)
        self.count: float = epsilon

    def update(self, x: _Array) -> None:
        """Fold a batch (first axis) of samples into the statistics.

        Args:
            x: The batch.
        """
        self.update_from_moments(np.mean(x, axis=0), np.var(x, axis=0), x.shape[0])

    def update_from_moments(self, batch_mean: _Array, batch_var: _Array, batch_count: float) -> None:
        """Fold a batch given by its moments into the statistics.

        Args:
            batch_mean: The batch mean.
            batch_var: The batch variance.
            batch_count: The batch size.
        """
        # No cast back to the initial dtype: the moments' dtype propagates, exactly as in Gymnasium.
        mean, var, self.count = update_mean_var_count_from_moments(
            self.mean, self.var, self.count, batch_mean, batch_var, batch_count
        )
        self.mean = np.asarray(mean)
        self.var = np.asarray(var)


def update_mean_var_count_from_moments(
    mean: _Array | float,
    var: _Array | float,
    count: float,
    batch_mean: _Array | float,
    batch_var: _Array | float,
    batch_count: float,
) -> _Moments:
    """Combine running moments with a batch's moments.

    Args:
        mean: The running mean.
        var: The running variance.
        count: The running count.
        batch_mean: The batch mean.
        batch_var: The batch variance.
        batch_count: The batch size.

    Returns:
        The new ``(mean, var, count)``.
    """
    delta = np.subtract(batch_mean, mean)
    tot_count = count + batch_count
    new_mean = mean + delta * batch_count / tot_count
    m2 = np.multiply(var, count) + np.multiply(batch_var, batch_count) + np.square(delta) * count * batch_count / tot_count
    return new_mean, m2 / tot_count, tot_count


def _zero_box(space: Box[Any]) -> _Array:
    zeros = np.zeros(space.shape, dtype=space.dtype)
    zeros = np.where(space.low > 0, space.low, zeros)
    return np.where(space.high < 0, space.high, zeros).astype(space.dtype)


def create_zero_array(space: object) -> _Element:
    """Return the element of ``space`` closest to "zero" (bounds-clamped zeros, ``start`` values, empty text).

    Args:
        space: A reference space.

    Returns:
        A fresh element of the space.

    Raises:
        CustomSpaceError: If the space is not one of the reference spaces.
    """
    if is_box(space):
        return _zero_box(space)
    if is_discrete(space):
        return space.start
    kind = space_kind(space)
    attr = getattr
    if kind == "MultiDiscrete":
        return np.array(attr(space, "start"), copy=True, dtype=attr(space, "dtype"))
    if kind == "MultiBinary":
        return np.zeros(attr(space, "shape"), dtype=attr(space, "dtype"))
    if kind == "Tuple":
        return tuple(create_zero_array(sub) for sub in attr(space, "spaces"))
    if kind == "Dict":
        return {key: create_zero_array(sub) for key, sub in attr(space, "spaces").items()}
    if kind == "Sequence":
        return create_zero_array(attr(space, "stacked_feature_space")) if attr(space, "stack") else ()
    if kind == "Text":
        return attr(space, "characters")[0] * attr(space, "min_length")
    if kind == "OneOf":
        return (0, create_zero_array(attr(space, "spaces")[0]))
    if kind == "Graph":
        return _zero_graph(space)
    raise error.CustomSpaceError(
        f"create_zero_array space must be a reference space, got {type(space).__name__}; "
        "a custom space needs its own zero element"
    )


def _zero_graph(space: object) -> _Element:
    # One node (and one edge): the zero of the node space batched once, so composite node spaces (Dict, Tuple)
    # give a dict or tuple of length-1 arrays, as Graph elements hold them.
    batch_space = importlib.import_module("reference.vector.utils").batch_space

    def one_node(sub: object) -> _Element:
        return create_zero_array(batch_space(sub, 1))

    graph_instance = importlib.import_module("reference.spaces.graph").GraphInstance
    edge_space = getattr(space, "edge_space")
    nodes = one_node(getattr(space, "node_space"))
    if edge_space is None:
        return graph_instance(nodes=nodes, edges=None, edge_links=None)
    return graph_instance(nodes=nodes, edges=one_node(edge_space), edge_links=np.zeros((1, 2), dtype=np.int64))


def _as_bound(owner: str, value: object, shape: tuple[int, ...], name: str) -> _Array:
    if is_array(value):
        if value.dtype.kind not in "iuf":
            raise TypeError(f"{owner} {name} must be an int, float or numeric array, got {describe(value)}")
        if value.shape != shape:
            raise ValueError(f"{owner} {name} must have the Box shape {shape}, got array shape {value.shape}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{owner} {name} must be an int, float or numpy array, got {describe(value)}")
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        # Beyond int64 NumPy would make an object array; as a float the bound is exact enough for a scale.
        try:
            value = float(value)
        except OverflowError:
            raise ValueError(f"{owner} {name} must be within the float64 range, got {value!r}") from None
    return np.full(shape, value)


def rescale_box(
    box: Box[Any], new_min: object, new_max: object
) -> tuple[Box[Any], Callable[[_Array], _Array], Callable[[_Array], _Array]]:
    """Build the affine map from ``box`` onto ``[new_min, new_max]`` (elementwise) and its inverse.

    Components unbounded in ``box`` must stay unbounded (same infinity) in the target; a component bounded on
    one side only is shifted, not scaled.

    Args:
        box: The source Box.
        new_min: Target lower bounds (scalar or array of the box's shape).
        new_max: Target upper bounds.

    Returns:
        ``(new_box, forward, backward)``: ``forward`` maps ``box`` elements into ``new_box``.

    Raises:
        TypeError: If the bounds are not numbers or arrays, or ``box`` is not a Box.
        ValueError: If shapes differ, infinite bounds do not line up, or ``new_min > new_max``.
    """
    return affine_rescale("rescale_box", box, (new_min, "new_min"), (new_max, "new_max"))


def affine_rescale(
    owner: str, box: Box[Any], new_min: tuple[object, str], new_max: tuple[object, str]
) -> tuple[Box[Any], Callable[[_Array], _Array], Callable[[_Array], _Array]]:
    """:func:`rescale_box` for a wrapper: messages name ``owner`` and the bounds by the wrapper's parameter names.

    Args:
        owner: The caller, for messages.
        box: The source Box.
        new_min: Target lower bounds and the name of the parameter that gave them.
        new_max: Target upper bounds and its parameter's name.

    Returns:
        As :func:`rescale_box`.
    """
    if not is_box(box):
        raise TypeError(f"{owner} box must be a Box, got {type(box).__name__}")
    (min_value, min_name), (max_value, max_name) = new_min, new_max
    low_t = _as_bound(owner, min_value, box.shape, min_name)
    high_t = _as_bound(owner, max_value, box.shape, max_name)
    if not np.all((low_t == box.low)[np.isinf(low_t) | np.isinf(box.low)]):
        raise ValueError(
            f"{owner} {min_name} must equal the Box low where either is infinite (unbounded components stay "
            f"unbounded), got {min_name}={low_t!r} for low={box.low!r}; pass the same infinite bounds"
        )
    if not np.all((high_t == box.high)[np.isinf(high_t) | np.isinf(box.high)]):
        raise ValueError(
            f"{owner} {max_name} must equal the Box high where either is infinite (unbounded components stay "
            f"unbounded), got {max_name}={high_t!r} for high={box.high!r}; pass the same infinite bounds"
        )
    if not np.all(low_t <= high_t):
        raise ValueError(
            f"{owner} {min_name} must be <= {max_name} elementwise (and not NaN), got {min_name}={low_t!r} "
            f"{max_name}={high_t!r}"
        )

    min_finite = np.isfinite(low_t)
    max_finite = np.isfinite(high_t)
    both_finite = min_finite & max_finite
    # Extended precision for the source range so that e.g. float32 boxes spanning the whole dtype do not overflow.
    source_range = np.asarray(box.high[both_finite], dtype=np.longdouble) - np.asarray(
        box.low[both_finite], dtype=np.longdouble
    )
    gradient = np.ones_like(low_t, dtype=box.dtype)
    gradient[both_finite] = (high_t[both_finite] - low_t[both_finite]) / source_range
    intercept = np.zeros_like(low_t, dtype=box.dtype)
    intercept[max_finite] = high_t[max_finite] - box.high[max_finite]
    intercept[min_finite] = gradient[min_finite] * -box.low[min_finite] + low_t[min_finite]
    # The bounds are cast explicitly: the target box has the source dtype by design, so no precision warning.
    new_box = Box(low=low_t.astype(box.dtype), high=high_t.astype(box.dtype), shape=box.shape, dtype=box.dtype)

    def forward(x: _Array) -> _Array:
        result: _Array = gradient * x + intercept
        return result

    def backward(x: _Array) -> _Array:
        result: _Array = (x - intercept) / gradient
        return result

    return new_box, forward, backward


def derived_spec(wrapper: Wrapper[Any, Any, Any, Any], **changes: _Value) -> EnvSpec | None:
    """The inner spec with ``changes`` applied (cached): how the make-applied wrappers describe themselves.

    These wrappers are recorded as spec fields (``max_episode_steps``, ``order_enforce``, ``disable_env_checker``)
    rather than as ``additional_wrappers`` entries, so ``make(env.spec)`` rebuilds the same stack.
    """
    if wrapper._cached_spec is not None:  # pyright: ignore[reportPrivateUsage]
        return wrapper._cached_spec  # pyright: ignore[reportPrivateUsage]
    env_spec = getattr(wrapper.env, "spec", None)
    if env_spec is not None:
        try:
            env_spec = deepcopy(env_spec)
            for name, value in changes.items():
                setattr(env_spec, name, value)
        except Exception as exc:  # a foreign or odd spec must not break attribute access
            logger.warn(f"An exception occurred ({exc!r}) while copying the environment spec={env_spec!r}")
            return None
    wrapper._cached_spec = env_spec  # pyright: ignore[reportPrivateUsage]
    return env_spec


def read_only_spec(wrapper: Wrapper[Any, Any, Any, Any]) -> AttributeError:
    """The error for assigning ``spec`` on a wrapper whose spec is derived from the inner environment."""
    return AttributeError(
        f"{type(wrapper).__name__}.spec is derived from the inner environment; set it on env.unwrapped instead"
    )
