"""``SyncVectorEnv``: the sub-environments run one after another in the calling process.

The step loop is kept lean because it runs once per sub-env per step: observations are written straight into a batch
buffer allocated once, rewards and flags into arrays that are returned as they are (no copy), spaces are not
re-checked, infos are merged only when a sub-env reports any, and ``copy=True`` costs one array copy per
observation leaf.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

from gymspec import AutoresetMode
from reference.core import ActType, Env, ObsType, RenderFrame
from reference.error import ClosedEnvironmentError
from reference.spaces import Box, MultiBinary, MultiDiscrete
from reference.vector._buffers import RowSink, is_array_tree, make_row_writer
from reference.vector._common import (
    ObservationMode,
    check_sub_env_spaces,
    copy_batch,
    finished_error,
    resolve_autoreset_mode,
    resolve_observation_spaces,
    resolve_seeds,
)
from reference.vector._info import add_info
from reference.vector.utils import batch_space, concatenate, create_empty_array, iterate, split_reset_mask
from reference.vector.vector_env import VectorEnv

__all__ = ["SyncVectorEnv"]

_empty = np.empty

InfoDict: TypeAlias = dict[str, Any]
Options: TypeAlias = dict[str, Any]
#: Anything returned by a sub-env attribute or method through ``call``/``get_attr``.
AttrValue: TypeAlias = Any
SeedArg: TypeAlias = Any
_SubEnv: TypeAlias = Env[Any, Any]


def _attr(env: _SubEnv, name: str) -> AttrValue:
    # get_wrapper_attr reaches through wrappers; plain objects without it are read directly.
    getter = getattr(env, "get_wrapper_attr", None)
    return getter(name) if getter is not None else getattr(env, name)


class SyncVectorEnv(VectorEnv[ObsType, ActType, NDArray[Any]], Generic[ObsType, ActType]):
    """Run ``num_envs`` sub-environments serially in this process.

    Example::

        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> envs = SyncVectorEnv([CartPoleEnv for _ in range(3)])
        >>> observations, infos = envs.reset(seed=42)
        >>> observations.shape, infos
        ((3, 4), {})
        >>> envs.close()

    Args:
        env_fns: One zero-argument factory per sub-environment.
        copy: Return a copy of the observation batch from ``reset``/``step`` (otherwise the same buffer is
            reused and overwritten by the next call).
        observation_mode: ``"same"`` (all sub-env observation spaces equal), ``"different"`` (same shape and
            dtype, bounds may differ) or a ``(batched_space, single_space)`` pair.
        autoreset_mode: An :class:`~reference.vector.AutoresetMode` or its string value.

    Raises:
        ValueError: ``env_fns`` is empty, or ``observation_mode``/``autoreset_mode`` is invalid.
        RuntimeError: A sub-env's spaces do not match sub-env 0's (or the given single space).
    """

    env_fns: Sequence[Callable[[], _SubEnv]]
    copy: bool
    observation_mode: ObservationMode
    autoreset_mode: AutoresetMode
    envs: list[_SubEnv]

    def __init__(
        self,
        env_fns: Iterable[Callable[[], _SubEnv]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        owner = type(self).__name__
        self.env_fns = env_fns if isinstance(env_fns, Sequence) else list(env_fns)
        self.copy = copy
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(owner, autoreset_mode)
        if len(self.env_fns) == 0:
            raise ValueError(f"{owner} env_fns must contain at least one environment factory, got none")

        self.envs = []
        try:
            for env_fn in self.env_fns:
                self.envs.append(env_fn())
            self._init_spaces(owner)
        except BaseException:
            for env in self.envs:
                env.close()
            raise

        n = self.num_envs
        self._env_obs: list[Any] = [None] * n
        self._observations: Any = create_empty_array(self.single_observation_space, n, np.zeros)
        # Observations of array spaces (and Tuples/Dicts of them) are written straight into their row of the batch
        # buffer, with no stacking pass; other spaces collect them in a list that ``concatenate`` batches.
        self._direct = is_array_tree(self.single_observation_space)
        self._sink: Any = self._env_obs
        if self._direct:
            plain = type(self._observations) is np.ndarray
            writer = None if plain else make_row_writer(self.single_observation_space, self._observations)
            self._sink = self._observations if writer is None else RowSink(writer)
        # Batched Box/MultiDiscrete/MultiBinary actions split by plain indexing (iterate() would yield the same
        # NumPy scalars and row views), which skips building a list every step.
        self._index_actions = type(self.action_space) in (Box, MultiDiscrete, MultiBinary)
        # The loop of the mode, as a plain function: a bound method stored on self would make a reference cycle,
        # delaying the sub-envs' release from "when the last reference goes" to "when the cyclic GC runs".
        loop_name = {
            AutoresetMode.NEXT_STEP: "_step_next",
            AutoresetMode.SAME_STEP: "_step_same",
            AutoresetMode.DISABLED: "_step_disabled",
        }[self.autoreset_mode]
        self._step_loop: Callable[[SyncVectorEnv[Any, Any], Any], InfoDict] = getattr(type(self), loop_name)
        self._disabled = self.autoreset_mode is AutoresetMode.DISABLED
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminations = np.zeros(n, dtype=np.bool_)
        self._truncations = np.zeros(n, dtype=np.bool_)
        # A Python list: it is read once per sub-env per step, where list indexing beats NumPy scalar access.
        self._ended: list[bool] = [False] * n

    def _init_spaces(self, owner: str) -> None:
        self.num_envs = len(self.envs)
        first = self.envs[0]
        # A copy, so the sub-env class's (often class-level) metadata is never modified.
        self.metadata = dict(first.metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first.render_mode
        self.single_action_space = first.action_space
        self.action_space = batch_space(first.action_space, self.num_envs)
        self.single_observation_space, self.observation_space = resolve_observation_spaces(
            owner,
            self.observation_mode,
            first.observation_space,
            lambda: [env.observation_space for env in self.envs],
            self.num_envs,
        )
        for index, env in enumerate(self.envs):
            check_sub_env_spaces(
                owner,
                index,
                self.observation_mode,
                self.single_observation_space,
                self.single_action_space,
                env.observation_space,
                env.action_space,
            )

    @property
    def np_random_seed(self) -> tuple[int, ...]:
        """Every sub-env's ``np_random_seed``."""
        return self.get_attr("np_random_seed")

    @property
    def np_random(self) -> tuple[np.random.Generator, ...]:
        """Every sub-env's generator (the objects themselves)."""
        return self.get_attr("np_random")

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        raise AttributeError(
            f"{type(self).__name__} np_random is read-only (one generator per sub-env); seed with reset(seed=...)"
        )

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(f"{type(self).__name__} must be open to be used, got a call after close()")

    def reset(self, *, seed: SeedArg = None, options: Options | None = None) -> tuple[ObsType, InfoDict]:
        """Reset every sub-environment, or only those selected by ``options["reset_mask"]``.

        Args:
            seed: ``None``, an int ``s`` (sub-env ``i`` gets ``s + i``) or a list of ``num_envs`` ints/``None``.
            options: Passed to every reset sub-env. ``options["reset_mask"]``, a bool array of shape
                ``(num_envs,)``, resets only the selected sub-envs; the others keep their observation and state.
                The caller's dict is never modified.

        Returns:
            ``(observations, info)``.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            TypeError: ``seed`` or the mask has the wrong type.
            ValueError: A seed list or the mask has the wrong length, or the mask selects nothing.
        """
        self._check_open()
        owner = type(self).__name__
        seeds = resolve_seeds(owner, seed, self.num_envs)
        mask, env_options = split_reset_mask(owner, options, self.num_envs)
        selected = range(self.num_envs) if mask is None else np.flatnonzero(mask).tolist()
        env_obs, ended = self._sink, self._ended
        infos: InfoDict = {}
        for i in selected:
            # Each sub-env gets its own copy: one that edits its options must not affect the others (nor the caller).
            own_options = None if env_options is None else dict(env_options)
            env_obs[i], info = self.envs[i].reset(seed=seeds[i], options=own_options)
            ended[i] = False
            if info:
                infos = add_info(infos, info, i, self.num_envs)
        if not self._direct:
            self._observations = concatenate(self.single_observation_space, env_obs, self._observations)
        return (copy_batch(self._observations) if self.copy else self._observations), infos

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], InfoDict]:
        """Step every sub-environment; ended sub-envs are handled as ``autoreset_mode`` says.

        Args:
            actions: An element of :attr:`action_space`.

        Returns:
            ``(observations, rewards, terminations, truncations, info)``.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            ValueError: ``actions`` does not hold ``num_envs`` actions.
            ResetNeeded: Under ``Disabled``, a sub-env whose episode ended was not reset.
        """
        if self.closed:
            self._check_open()
        # The common case (an array of num_envs actions for an array action space) is split by plain indexing.
        batch: Any = actions
        if self._index_actions and type(batch) is np.ndarray and batch.ndim and len(batch) == self.num_envs:
            items = batch
        else:
            items = self._action_items(batch)
        if self._disabled and any(self._ended):
            raise finished_error(type(self).__name__, [i for i, ended in enumerate(self._ended) if ended])
        # Fresh output arrays every step (every entry is written below), so nothing needs copying on return.
        n = self.num_envs
        self._rewards, self._terminations, self._truncations = _empty(n), _empty(n, np.bool_), _empty(n, np.bool_)
        infos = self._step_loop(self, items)
        if self._direct:
            observations = self._observations
        else:
            observations = self._observations = concatenate(
                self.single_observation_space, self._env_obs, self._observations
            )
        if self.copy:
            observations = observations.copy() if type(observations) is np.ndarray else copy_batch(observations)
        return observations, self._rewards, self._terminations, self._truncations, infos

    def _action_items(self, actions: Any) -> Any:
        n = self.num_envs
        items: Any = actions if self._index_actions and type(actions) is np.ndarray and actions.ndim else None
        if items is None:
            items = list(iterate(self.action_space, actions))
        if len(items) != n:
            raise ValueError(f"{type(self).__name__} actions must hold num_envs={n} actions, got {len(items)}")
        return items

    def _step_next(self, items: Any) -> InfoDict:
        n, envs, env_obs, ended = self.num_envs, self.envs, self._sink, self._ended
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        infos: InfoDict = {}
        for i in range(n):
            if ended[i]:
                # The action is ignored: the sub-env starts its next episode instead (unseeded, no options).
                env_obs[i], info = envs[i].reset()
                rewards[i] = 0.0
                terminations[i] = truncations[i] = ended[i] = False
            else:
                env_obs[i], reward, terminated, truncated, info = envs[i].step(items[i])
                rewards[i] = reward
                terminations[i] = terminated
                truncations[i] = truncated
                if terminated or truncated:
                    ended[i] = True
            if info:
                infos = add_info(infos, info, i, n)
        return infos

    def _step_same(self, items: Any) -> InfoDict:
        n, envs, env_obs = self.num_envs, self.envs, self._sink
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        infos: InfoDict = {}
        for i in range(n):
            env = envs[i]
            observation, reward, terminated, truncated, info = env.step(items[i])
            rewards[i] = reward
            terminations[i] = terminated
            truncations[i] = truncated
            if terminated or truncated:
                infos = add_info(infos, {"final_obs": observation, "final_info": info}, i, n)
                observation, info = env.reset()
            env_obs[i] = observation
            if info:
                infos = add_info(infos, info, i, n)
        return infos

    def _step_disabled(self, items: Any) -> InfoDict:
        n, envs, env_obs, ended = self.num_envs, self.envs, self._sink, self._ended
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        infos: InfoDict = {}
        for i in range(n):
            env_obs[i], reward, terminated, truncated, info = envs[i].step(items[i])
            rewards[i] = reward
            terminations[i] = terminated
            truncations[i] = truncated
            if terminated or truncated:
                ended[i] = True
            if info:
                infos = add_info(infos, info, i, n)
        return infos

    def render(self) -> tuple[RenderFrame, ...]:
        """Render every sub-environment.

        Returns:
            One frame (or ``None``) per sub-env.
        """
        self._check_open()
        return tuple(cast("RenderFrame", env.render()) for env in self.envs)

    def call(self, name: str, *args: AttrValue, **kwargs: AttrValue) -> tuple[AttrValue, ...]:
        """Call method ``name`` on every sub-env (through wrappers), or read it if it is not callable.

        Args:
            name: The method or attribute name.
            *args: Positional arguments for the method.
            **kwargs: Keyword arguments for the method.

        Returns:
            One result per sub-env.
        """
        self._check_open()
        results = []
        for env in self.envs:
            value = _attr(env, name)
            results.append(value(*args, **kwargs) if callable(value) else value)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[AttrValue, ...]:
        """Read attribute ``name`` of every sub-env (through wrappers); methods are called without arguments.

        Args:
            name: The attribute name.

        Returns:
            One value per sub-env.
        """
        return self.call(name)

    def set_attr(self, name: str, values: AttrValue) -> None:
        """Set attribute ``name`` on every sub-env (through wrappers).

        Args:
            name: The attribute name.
            values: A list or tuple with one value per sub-env, or any other value to set on all of them.

        Raises:
            ValueError: A list or tuple does not have ``num_envs`` entries.
        """
        self._check_open()
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(
                f"{type(self).__name__} values must have num_envs={self.num_envs} entries when a list or tuple, "
                f"got {len(values)}"
            )
        for env, value in zip(self.envs, values, strict=True):
            setter = getattr(env, "set_wrapper_attr", None)
            if setter is not None:
                setter(name, value)
            else:
                setattr(env, name, value)

    def close_extras(self, **kwargs: AttrValue) -> None:
        """Close every sub-environment (all of them, even if one raises; the first error is re-raised)."""
        first_error: BaseException | None = None
        for env in getattr(self, "envs", []):
            try:
                env.close()
            except Exception as exc:  # noqa: BLE001 - every sub-env must get its close() call
                first_error = first_error or exc
        if first_error is not None:
            raise first_error
