"""Vector wrappers that transform every batch of actions before it reaches the environment.

* :class:`TransformAction` applies a function to the whole batch.
* :class:`VectorizeTransformAction` applies a single-env action wrapper to each sub-env's action; the named
  wrappers below are that, for the single-env wrapper of the same name: :class:`ClipAction`,
  :class:`RescaleAction`.

Each updates both ``action_space`` and ``single_action_space`` and never modifies the caller's action batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from reference.core import ActionWrapper, ActType, ObsType, WrapperActType
from reference.spaces import Space
from reference.vector.utils import batch_space, concatenate, create_empty_array, iterate
from reference.vector.vector_env import ArrayType, VectorActionWrapper, VectorEnv
from reference.wrappers import transform_action
from reference.wrappers.vector._utils import (
    SingleEnv,
    check_callable,
    check_optional_spaces,
    check_single_wrapper,
    resolve_spaces,
)

__all__ = ["ClipAction", "RescaleAction", "TransformAction", "VectorizeTransformAction"]

_Batch: TypeAlias = Any
_Value: TypeAlias = Any
_AnySpace: TypeAlias = "Space[Any]"
_AnyVectorEnv: TypeAlias = "VectorEnv[ObsType, Any, ArrayType]"
_SingleWrapper: TypeAlias = "ActionWrapper[Any, Any, Any]"


class TransformAction(VectorActionWrapper[ObsType, WrapperActType, ActType, ArrayType]):
    """Apply ``func`` to every batch of actions before the inner ``step``.

    Args:
        env: The vector environment to wrap.
        func: Maps the wrapper's action batch to the inner environment's action batch.
        action_space: The wrapper's batched action space; ``None`` batches ``single_action_space`` (or keeps the
            inner space when that is ``None`` too).
        single_action_space: The wrapper's single action space; ``None`` derives it from ``action_space`` when
            that is an unambiguous batch, else keeps the inner one (with a warning if they disagree).

    Raises:
        TypeError: ``func`` is not callable or a space argument is not a space.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.spaces import Box
        >>> from reference.vector import SyncVectorEnv
        >>> envs = SyncVectorEnv([PendulumEnv] * 2)
        >>> unit = Box(-1.0, 1.0, shape=(1,), dtype=np.float32)
        >>> envs = TransformAction(envs, lambda actions: 2.0 * actions, single_action_space=unit)
        >>> envs.action_space
        Box(-1.0, 1.0, (2, 1), float32)
        >>> _ = envs.reset(seed=0)
        >>> obs, rewards, *_ = envs.step(np.array([[0.5], [-0.5]], dtype=np.float32))
        >>> rewards.round(3)
        array([-0.763, -0.088])
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        func: Callable[[WrapperActType], ActType],
        action_space: _AnySpace | None = None,
        single_action_space: _AnySpace | None = None,
    ) -> None:
        owner = type(self).__name__
        check_callable(owner, "func", func)
        check_optional_spaces(owner, "action", action_space, single_action_space)
        super().__init__(env)
        batched, single = resolve_spaces(owner, env, "action", action_space, single_action_space)
        self.action_space = batched
        self.single_action_space = single
        self.func = func

    def actions(self, actions: WrapperActType) -> ActType:
        """Transform a batch of actions with ``func``.

        Args:
            actions: The wrapper's batch.

        Returns:
            ``func(actions)``.
        """
        return self.func(actions)


class VectorizeTransformAction(VectorActionWrapper[ObsType, _Batch, _Batch, ArrayType]):
    """Apply a single-env action wrapper to each sub-environment's action.

    ``wrapper`` is built around a stand-in environment with the inner single spaces, so it computes the new single
    action space exactly as it would on one environment; the batched space is that space batched. Every batch is
    split with ``iterate``, transformed with the wrapper's ``action`` and stacked into a fresh batch.

    Args:
        env: The vector environment to wrap.
        wrapper: A single-env :class:`~reference.core.ActionWrapper` class (e.g.
            :class:`reference.wrappers.TransformAction`).
        **kwargs: The wrapper's constructor arguments other than ``env``.

    Raises:
        TypeError: ``wrapper`` is not an ActionWrapper class; the wrapper's own errors propagate.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformAction as SingleTransform
        >>> envs = SyncVectorEnv([CartPoleEnv] * 2)
        >>> envs = VectorizeTransformAction(envs, SingleTransform, func=lambda a: 1 - a, action_space=None)
        >>> envs.action_space
        MultiDiscrete([2 2])
        >>> envs.actions(np.array([0, 1]))
        array([1, 0])
        >>> envs.close()
    """

    wrapper: _SingleWrapper

    def __init__(self, env: _AnyVectorEnv, wrapper: type[_SingleWrapper], **kwargs: _Value) -> None:
        check_single_wrapper(type(self).__name__, wrapper, ActionWrapper)
        super().__init__(env)
        self.wrapper = wrapper(SingleEnv.of(env), **kwargs)
        self.single_action_space = self.wrapper.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def actions(self, actions: _Batch) -> _Batch:
        """Transform each sub-environment's action and stack the results for the inner environment.

        Args:
            actions: The wrapper's batch (not modified).

        Returns:
            A new batch of inner actions.
        """
        inner_space = self.env.single_action_space
        transformed = [self.wrapper.action(action) for action in iterate(self.action_space, actions)]
        return concatenate(inner_space, transformed, create_empty_array(inner_space, self.num_envs))


class ClipAction(VectorizeTransformAction[ObsType, ArrayType]):
    """Clip each action to the inner Box bounds; the wrapper's action space is the unbounded Box of that shape.

    Args:
        env: The vector environment to wrap; its single action space must be a Box.

    Raises:
        TypeError: The single action space is not a Box.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = ClipAction(SyncVectorEnv([PendulumEnv] * 3))
        >>> envs.single_action_space, envs.action_space
        (Box(-inf, inf, (1,), float32), Box(-inf, inf, (3, 1), float32))
        >>> envs.actions(np.array([[5.0], [-5.0], [1.0]], dtype=np.float32))
        array([[ 2.],
               [-2.],
               [ 1.]], dtype=float32)
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv) -> None:
        super().__init__(env, transform_action.ClipAction)


class RescaleAction(VectorizeTransformAction[ObsType, ArrayType]):
    """Accept actions in ``[min_action, max_action]`` and map them affinely onto the inner Box bounds.

    Args:
        env: The vector environment to wrap; its single action space must be a Box.
        min_action: The wrapper's lower bounds (scalar or array of the single shape).
        max_action: The wrapper's upper bounds.

    Raises:
        TypeError: The single action space is not a Box or the bounds are not numbers/arrays.
        InvalidBound: ``min_action == max_action`` somewhere (also a ``ValueError``).
        ValueError: The bounds have the wrong shape or do not line up with infinite inner bounds.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = RescaleAction(SyncVectorEnv([PendulumEnv] * 2), min_action=0.0, max_action=1.0)
        >>> envs.action_space
        Box(0.0, 1.0, (2, 1), float32)
        >>> envs.actions(np.array([[0.0], [0.75]], dtype=np.float32))
        array([[-2.],
               [ 1.]], dtype=float32)
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, min_action: object, max_action: object) -> None:
        super().__init__(env, transform_action.RescaleAction, min_action=min_action, max_action=max_action)
