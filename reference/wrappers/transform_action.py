"""Wrappers that transform the action before it reaches the environment.

* :class:`TransformAction` applies any function (and may declare the new action space).
* :class:`ClipAction` clips to the inner Box bounds (the wrapper accepts any real action).
* :class:`RescaleAction` maps ``[min_action, max_action]`` affinely onto the inner Box.
* :class:`DiscretizeAction` offers the centres of a uniform grid over a bounded inner Box as discrete actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

import gymspec
from reference._wrapper import require_env
from reference.core import ActionWrapper, ActType, ObsType, WrapperActType
from reference.spaces._guards import is_box
from reference.spaces.box import Box
from reference.spaces.space import Space
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._discretize import BoxGrid
from reference.wrappers.utils import BoundError, affine_rescale

__all__ = ["ClipAction", "DiscretizeAction", "RescaleAction", "TransformAction"]

_Array: TypeAlias = "np.ndarray[Any, Any]"


class TransformAction(ActionWrapper[ObsType, WrapperActType, ActType], RecordConstructorArgs):
    """Apply ``func`` to every action before the inner ``step``.

    Args:
        env: The environment to wrap.
        func: Maps the wrapper's actions to the inner environment's actions.
        action_space: The wrapper's action space, or ``None`` to keep the inner one.

    Raises:
        TypeError: If ``func`` is not callable or ``action_space`` is not a space.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Discrete
        >>> env = TransformAction(CartPoleEnv(), lambda a: 1 - a, Discrete(2))
        >>> _ = env.reset(seed=0)
        >>> env.action(0)
        1
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        func: Callable[[WrapperActType], ActType],
        action_space: Space[WrapperActType] | None,
    ) -> None:
        if not callable(func):
            raise TypeError(f"{type(self).__name__} func must be callable, got {func!r}")
        if action_space is not None and not isinstance(action_space, Space):
            raise TypeError(f"{type(self).__name__} action_space must be a Space or None, got {action_space!r}")
        RecordConstructorArgs.__init__(self, func=func, action_space=action_space)
        ActionWrapper.__init__(self, env)
        if action_space is not None:
            self.action_space = action_space
        self.func = func

    def action(self, action: WrapperActType) -> ActType:
        """Transform an action with ``func``.

        Args:
            action: The wrapper's action.

        Returns:
            ``func(action)``.
        """
        return self.func(action)


def _box_action_space(env: gymspec.Env[Any, Any], owner: str) -> Box[Any]:
    require_env(owner, env)
    space = env.action_space
    if not is_box(space):
        raise TypeError(f"{owner} env.action_space must be a Box, got {type(space).__name__}")
    return space


class ClipAction(TransformAction[ObsType, _Array, _Array], RecordConstructorArgs):
    """Clip actions to the inner Box bounds; the wrapper's action space is the unbounded Box of the same shape.

    Args:
        env: The environment to wrap; its action space must be a Box.

    Raises:
        TypeError: If the action space is not a Box.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> env = ClipAction(PendulumEnv())
        >>> env.action_space
        Box(-inf, inf, (1,), float32)
        >>> env.action(np.array([5.0], dtype=np.float32))
        array([2.], dtype=float32)
    """

    def __init__(self, env: gymspec.Env[ObsType, _Array]) -> None:
        inner = _box_action_space(env, "ClipAction")
        RecordConstructorArgs.__init__(self)
        low, high = inner.low, inner.high
        TransformAction.__init__(
            self,
            env=env,
            func=lambda action: np.clip(action, low, high),
            action_space=Box(-np.inf, np.inf, shape=inner.shape, dtype=inner.dtype),
        )


class RescaleAction(TransformAction[ObsType, _Array, _Array], RecordConstructorArgs):
    """Accept actions in ``[min_action, max_action]`` and map them affinely onto the inner Box bounds.

    Args:
        env: The environment to wrap; its action space must be a Box.
        min_action: The wrapper's lower bounds (scalar or array).
        max_action: The wrapper's upper bounds (scalar or array).

    Raises:
        TypeError: If the action space is not a Box or the bounds are not numbers/arrays.
        InvalidBound: If ``min_action == max_action`` somewhere (no inverse; also a ``ValueError``).
        ValueError: If the bounds have the wrong shape or do not line up with infinite inner bounds.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> env = RescaleAction(PendulumEnv(), min_action=-1.0, max_action=1.0)
        >>> env.action_space
        Box(-1.0, 1.0, (1,), float32)
        >>> env.action(np.array([0.5], dtype=np.float32))
        array([1.], dtype=float32)
    """

    def __init__(self, env: gymspec.Env[ObsType, _Array], min_action: object, max_action: object) -> None:
        inner = _box_action_space(env, "RescaleAction")
        RecordConstructorArgs.__init__(self, min_action=min_action, max_action=max_action)
        action_space, _, to_inner = affine_rescale("RescaleAction", inner, (min_action, "min_action"), (max_action, "max_action"))
        if np.any(action_space.low == action_space.high):
            raise BoundError(
                f"RescaleAction min_action must be < max_action elementwise (the rescaling has no inverse where they "
                f"are equal), got min_action={min_action!r} max_action={max_action!r}"
            )
        TransformAction.__init__(self, env=env, func=to_inner, action_space=action_space)


class DiscretizeAction(TransformAction[ObsType, Any, _Array], RecordConstructorArgs):
    """Offer a uniform grid over a bounded Box action space as discrete actions (each cell's centre).

    Each dimension is split into ``bins`` equal cells; an action is one flat cell index (``Discrete``, row-major:
    the first dimension is the most significant) or, with ``multidiscrete``, per-dimension indices
    (``MultiDiscrete``). The inner environment receives the centre of the chosen cell.

    Args:
        env: The environment to wrap; its action space must be a Box with finite bounds.
        bins: Cells per dimension: one int for all, or a tuple with one per dimension.
        multidiscrete: Use a ``MultiDiscrete`` space instead of one flat ``Discrete`` index.

    Raises:
        TypeError: If the action space is not a Box or ``bins`` holds non-integers.
        ValueError: If the Box is unbounded or ``bins`` has the wrong length or a count below 1 or above 2**24.

    Example:
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> env = DiscretizeAction(PendulumEnv(), bins=10)
        >>> env.action_space
        Discrete(10)
        >>> env.action(3).round(3)
        array([-0.6], dtype=float32)
        >>> env.revert_action(np.array([-0.6], dtype=np.float32))
        3
    """

    def __init__(
        self, env: gymspec.Env[ObsType, _Array], bins: int | tuple[int, ...], multidiscrete: bool = False
    ) -> None:
        require_env("DiscretizeAction", env)
        grid = BoxGrid("DiscretizeAction", env.action_space, "action", bins, multidiscrete)
        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        self._grid = grid
        self.bins, self.multidiscrete, self.n_dims = grid.bins, multidiscrete, grid.n_dims
        self.low, self.high = grid.low, grid.high
        inner: Box[Any] = env.action_space  # type: ignore[assignment]  # BoxGrid checked it

        def to_centre(action: Any) -> _Array:
            centre = grid.centres(grid.decode(action))
            return centre.astype(inner.dtype).reshape(inner.shape)

        TransformAction.__init__(self, env=env, func=to_centre, action_space=grid.space)

    def revert_action(self, action: object) -> Any:
        """The discrete action whose cell centres are closest to a continuous ``action``.

        Args:
            action: An action of the inner Box.

        Returns:
            A flat cell index (Python int), or per-dimension indices with ``multidiscrete``.
        """
        flat = np.ravel(np.asarray(action))
        cells = np.array(
            [int(np.argmin(np.abs(self._grid.centres_of(i) - flat[i]))) for i in range(self.n_dims)], dtype=np.int64
        )
        return self._grid.encode(cells)
