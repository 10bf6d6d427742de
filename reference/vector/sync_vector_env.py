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
from reference._framework import require_bool
from reference._narrowing import is_list_or_tuple
from reference.core import ActType, ObsType, RenderFrame
from reference.error import ClosedEnvironmentError
from reference.spaces import Box, MultiBinary, MultiDiscrete
from reference.vector._autoreset import IndexedInfos, reset_envs, step_envs
from reference.vector._base_env import InfoDict, Options, VectorEnv, VectorSeed
from reference.vector._common import (
    ObservationMode,
    RowSink,
    SubEnv,
    check_sub_env_spaces,
    copy_batch,
    factory_sequence,
    finished_error,
    is_array_tree,
    make_row_writer,
    require_sub_env,
    resolve_autoreset_mode,
    resolve_observation_spaces,
    resolve_seeds,
)
from reference.vector._info import add_info
from reference.vector.utils import batch_space, concatenate, create_empty_array, iterate, split_reset_mask

__all__ = ["SyncVectorEnv"]

_empty = np.empty

#: Anything a sub-env attribute or method holds or returns (``call``/``get_attr``/``set_attr``).
AttrValue: TypeAlias = Any


def _attr(env: SubEnv, name: str) -> AttrValue:
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

    env_fns: Sequence[Callable[[], SubEnv]]
    copy: bool
    observation_mode: ObservationMode
    autoreset_mode: AutoresetMode
    envs: list[SubEnv]

    def __init__(
        self,
        env_fns: Iterable[Callable[[], SubEnv]],
        copy: bool = True,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        owner = type(self).__name__
        self.env_fns = factory_sequence(owner, env_fns)
        require_bool(owner, copy=copy)
        self.copy = copy
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(owner, autoreset_mode)
        if len(self.env_fns) == 0:
            raise ValueError(f"{owner} env_fns must contain at least one environment factory, got none")

        self.envs = []
        try:
            for index, env_fn in enumerate(self.env_fns):
                self.envs.append(require_sub_env(owner, env_fn(), index))
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
            raise ClosedEnvironmentError(
                f"{type(self).__name__} must be open to be used, got a call after close(); create a new vector env"
            )

    def reset(self, *, seed: VectorSeed = None, options: Options | None = None) -> tuple[ObsType, InfoDict]:
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
        infos = self._merge(reset_envs(self.envs, selected, seeds, env_options, self._ended, self._sink))
        if not self._direct:
            self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
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
        infos = self._merge(
            step_envs(
                self.autoreset_mode,
                self.envs,
                items,
                self._ended,
                self._sink,
                self._rewards,
                self._terminations,
                self._truncations,
            )
        )
        if self._direct:
            observations = self._observations
        else:
            observations = self._observations = concatenate(
                self.single_observation_space, self._env_obs, self._observations
            )
        if self.copy:
            observations = observations.copy() if type(observations) is np.ndarray else copy_batch(observations)
        # The batch buffers are built from single_observation_space at run time: no static type ties them to ObsType.
        return cast(ObsType, observations), self._rewards, self._terminations, self._truncations, infos

    def _merge(self, indexed: IndexedInfos) -> InfoDict:
        infos: InfoDict = {}
        for i, info in indexed:
            infos = add_info(infos, info, i, self.num_envs)
        return infos

    def _action_items(self, actions: Any) -> Any:
        n = self.num_envs
        items: Any = actions if self._index_actions and type(actions) is np.ndarray and actions.ndim else None
        if items is None:
            items = list(iterate(self.action_space, actions))
        if len(items) != n:
            raise ValueError(f"{type(self).__name__} actions must hold num_envs={n} actions, got {len(items)}")
        return items

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
        results: list[AttrValue] = []
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
        per_env = values if is_list_or_tuple(values) else [values] * self.num_envs
        if len(per_env) != self.num_envs:
            raise ValueError(
                f"{type(self).__name__} values must have num_envs={self.num_envs} entries when a list or tuple, "
                f"got {len(per_env)}"
            )
        for env, value in zip(self.envs, per_env, strict=True):
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
