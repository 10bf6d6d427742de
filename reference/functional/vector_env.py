"""``FunctionalVectorEnv``: run a batch-capable ``FuncEnv`` as a ``VectorEnv``, one function call per step.

The ``FuncEnv``'s functions must accept a leading batch dimension (states ``(num_envs, ...)``, one action per
state) and, as ``rng``, a :class:`~reference.functional.BatchedGenerator`. Nothing loops over sub-environments on
the step path: ended sub-environments are reset with array masks (``NEXT_STEP`` autoreset), and only when some
sub-environment ended on the previous step.

Sub-env ``i`` behaves exactly like a :class:`~reference.functional.FunctionalEnv` reset with seed ``s + i`` and
fed the same actions (plus ``TimeLimit(max_episode_steps)``), random streams included:

* each sub-env has its own generator, created from its seed like ``Env.np_random``; batched ``initial`` calls
  draw from these generators row by row through a ``BatchedGenerator`` (vectorised, with read-ahead), so
  initial states, on reset and on autoreset, are the ones the single env draws;
* each (auto)reset of sub-env ``i`` starts a new episode generator, the same ``SeedSequence`` child that
  ``FunctionalEnv.reset`` spawns; it is only built if a function actually draws from it, so deterministic
  dynamics (CartPole, Pendulum) never pay for it. The functions are called in ``FunctionalEnv``'s order
  (``transition``, ``reward``, ``terminal``, then ``observation`` of the post-autoreset state), so stochastic
  dynamics match too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, SupportsFloat, cast

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

import gymspec
from gymspec import AutoresetMode, autoreset_mode_of
from reference._narrowing import is_mapping
from reference.error import ClosedEnvironmentError, ResetNeeded
from reference.functional._batching import add_batched_info, tree_copy, tree_scatter, tree_take
from reference.functional.batched_rng import BatchedGenerator
from reference.functional._adapter import FuncEnvAdapter, check_render_mode
from reference.functional.func_env import ActT, ObsT, ParamsT, RenderStateT, StateT
from reference.utils import seeding
from reference.vector._common import resolve_seeds  # shared seeding rules of the vector package
from reference.vector.utils import batch_space, split_reset_mask
from reference.vector._base_env import VectorSeed
from reference.vector.vector_env import VectorEnv

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces.space import Space

__all__ = ["FunctionalVectorEnv"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Reward: TypeAlias = SupportsFloat  # anything float() accepts
_Terminal: TypeAlias = object  # anything bool() accepts
_CloseOption: TypeAlias = Any  # whatever close() takes, passed through
_Array: TypeAlias = NDArray[Any]


class FunctionalVectorEnv(
    VectorEnv[ObsT, ActT, _Array],
    FuncEnvAdapter[StateT, ObsT, ActT, RenderStateT, ParamsT],
    Generic[StateT, ObsT, ActT, RenderStateT, ParamsT],
):
    """``num_envs`` copies of a batch-capable ``FuncEnv`` with ``NEXT_STEP`` autoreset (Gymnasium's jax one).

    Rewards are float64, flags bool, all of shape ``(num_envs,)``. Infos follow the vector layout (``info[k]``
    with a ``info["_k"]`` mask); on an autoreset step the reset sub-envs report ``state_info`` of their new
    state, the others ``transition_info``.

    Args:
        func_env: The functional environment; its functions must accept batches (see the module docstring).
        num_envs: The number of sub-environments.
        max_episode_steps: Truncate a sub-env's episode after this many steps; 0 never truncates.
        metadata: Copied; ``autoreset_mode`` is added as ``NEXT_STEP`` (another mode is an error).
        render_mode: ``None`` or a declared ``"rgb_array"`` (``render`` returns one frame per sub-env).
        spec: The ``EnvSpec`` that ``make_vec`` records.
        params: Passed to every function; default ``func_env.default_params`` (``None``: not passed at all).
        prefetch: Doubles each sub-env's generators read ahead for batched draws (see ``BatchedGenerator``).

    Raises:
        ValueError: If ``num_envs`` or ``max_episode_steps`` is invalid, or ``metadata`` declares another mode.
        UnsupportedRenderMode: If ``render_mode`` is not ``None`` or a declared ``"rgb_array"``.
    """

    def __init__(
        self,
        func_env: gymspec.FuncEnv[StateT, ObsT, ActT, _Reward, _Terminal, RenderStateT, ParamsT],
        num_envs: int,
        max_episode_steps: int = 0,
        metadata: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        spec: EnvSpec | None = None,
        *,
        params: ParamsT | None = None,
        prefetch: int = 512,
    ) -> None:
        owner = type(self).__name__
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs <= 0:
            raise ValueError(f"{owner} num_envs must be a positive int, got {num_envs!r}")
        if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, int) or max_episode_steps < 0:
            raise ValueError(f"{owner} max_episode_steps must be an int >= 0 (0: no limit), got {max_episode_steps!r}")
        meta = self._adopt(func_env, metadata, params)
        declared = meta.setdefault("autoreset_mode", AutoresetMode.NEXT_STEP)
        if autoreset_mode_of(declared) is not AutoresetMode.NEXT_STEP:
            raise ValueError(f"{owner} metadata['autoreset_mode'] must be AutoresetMode.NEXT_STEP, got {declared!r}")

        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = cast("Space[Any]", func_env.observation_space)
        self.single_action_space = cast("Space[Any]", func_env.action_space)
        self.observation_space = cast("Space[ObsT]", batch_space(self.single_observation_space, num_envs))
        self.action_space = cast("Space[ActT]", batch_space(self.single_action_space, num_envs))
        self.metadata = meta
        self.render_mode = check_render_mode(owner, render_mode, meta)
        self.spec = spec

        # Sub-env i's generator (its Env.np_random) and how many episode generators were split off it.
        self._generators: list[np.random.Generator | None] = [None] * num_envs
        self._spawned = np.zeros(num_envs, dtype=np.int64)
        self._initial_rngs = BatchedGenerator(num_envs, self._sub_env_generator, prefetch=prefetch)
        self._episode_rngs = BatchedGenerator(num_envs, self._episode_generator, prefetch=prefetch)

        self._state: StateT | None = None
        self._observations: ObsT | None = None  # kept for partial resets, which leave other rows unchanged
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._prev_done = np.zeros(num_envs, dtype=np.bool_)
        self._any_done = False

    @property
    def state(self) -> StateT | None:
        """The batched state (``None`` before the first reset)."""
        return self._state

    def _sub_env_generator(self, i: int) -> np.random.Generator:
        gen = self._generators[i]
        if gen is None:
            # Like Env.np_random: a sub-env never seeded draws its seed from the operating system.
            gen = self._generators[i] = seeding.np_random()[0]
        return gen

    def _episode_generator(self, i: int) -> np.random.Generator:
        parent = self._sub_env_generator(i)
        seq = parent.bit_generator.seed_seq
        if not isinstance(seq, np.random.SeedSequence):
            raise TypeError(f"{type(self).__name__} sub-env generators must be built from a SeedSequence, got {seq!r}")
        # The child FunctionalEnv.reset spawned for this episode (Generator.spawn's construction).
        child = np.random.SeedSequence(
            seq.entropy, spawn_key=(*seq.spawn_key, int(self._spawned[i]) - 1), pool_size=seq.pool_size
        )
        return np.random.Generator(type(parent.bit_generator)(child))

    def _check_usable(self, method: str) -> StateT:
        if self.closed:
            raise ClosedEnvironmentError(f"{type(self).__name__} {method}() must not be called after close()")
        if self._state is None:
            raise ResetNeeded(f"{type(self).__name__} {method}() must be preceded by reset(), got a never-reset env")
        return self._state

    def reset(self, *, seed: VectorSeed = None, options: _Options | None = None) -> tuple[ObsT, _Info]:
        """Reset every sub-env, or those selected by ``options["reset_mask"]``.

        Args:
            seed: ``None`` (continue each sub-env's generator), an int ``s`` (sub-env ``i`` gets ``s + i``) or a
                list of ``num_envs`` ints/``None``.
            options: ``reset_mask`` (a bool array of shape ``(num_envs,)``) limits the reset; other options are
                ignored, as ``FuncEnv.initial`` takes none.

        Returns:
            ``(observations, info)``; with a mask, unmasked sub-envs keep their last observation.

        Raises:
            ClosedEnvironmentError: After :meth:`close`.
            ResetNeeded: If a masked reset comes before the first full reset.
            TypeError, ValueError: If ``seed`` or ``reset_mask`` is malformed.
        """
        owner = type(self).__name__
        if self.closed:
            raise ClosedEnvironmentError(f"{owner} reset() must not be called after close()")
        seeds = resolve_seeds(owner, seed, self.num_envs)
        mask, _ = split_reset_mask(owner, options, self.num_envs)
        if mask is not None and self._state is None:
            raise ResetNeeded(f"{owner} reset(options={{'reset_mask': ...}}) must follow a full reset()")
        rows = None if mask is None else np.flatnonzero(mask)
        selected = range(self.num_envs) if rows is None else rows.tolist()
        # Build every generator first, so an invalid seed leaves the env untouched.
        reseeded = {i: seeding.np_random(seeds[i])[0] for i in selected if seeds[i] is not None}
        super().reset(seed=seed)
        for i, gen in reseeded.items():
            self._generators[i] = gen
        if reseeded:
            at = np.fromiter(reseeded, dtype=np.intp, count=len(reseeded))
            self._spawned[at] = 0
            self._initial_rngs.rows(at).invalidate()

        func, kw = self.func_env, self._kw
        target = slice(None) if rows is None else rows
        initial_rngs = self._initial_rngs if rows is None else self._initial_rngs.rows(rows)
        episode_rngs = self._episode_rngs if rows is None else self._episode_rngs.rows(rows)
        initial = func.initial(initial_rngs, **kw)
        self._spawned[target] += 1
        episode_rngs.invalidate()
        observations = func.observation(initial, episode_rngs, **kw)
        info = add_batched_info({}, func.state_info(initial, **kw), rows, self.num_envs, owner)
        if rows is not None:
            state = tree_scatter(tree_copy(self._state), rows, initial)
            observations = tree_scatter(tree_copy(self._observations), rows, observations)
        else:
            state = initial
        self._state = state
        self._observations = observations
        self._steps[target] = 0
        self._prev_done[target] = False
        self._any_done = bool(self._prev_done.any())
        return observations, info

    def step(self, actions: ActT) -> tuple[ObsT, _Array, _Array, _Array, _Info]:
        """Step every sub-env with one batched call of each function.

        Sub-envs whose episode ended on the previous step are reset instead: their action is ignored, they
        return their new initial observation, reward 0 and both flags false.

        Args:
            actions: One action per sub-env (an element of :attr:`action_space`).

        Returns:
            ``(observations, rewards, terminations, truncations, info)``.

        Raises:
            ClosedEnvironmentError: After :meth:`close`.
            ResetNeeded: Before the first :meth:`reset`.
            ValueError: If the ``FuncEnv`` returns rewards or flags of the wrong shape.
        """
        state = self._check_usable("step")
        func, kw, rng, n = self.func_env, self._kw, self._episode_rngs, self.num_envs
        next_state = func.transition(state, actions, rng, **kw)
        rewards = np.array(func.reward(state, actions, next_state, rng, **kw), dtype=np.float64)
        terminations = np.array(func.terminal(next_state, rng, **kw), dtype=np.bool_)
        step_info = func.transition_info(state, actions, next_state, **kw)
        if rewards.shape != (n,) or terminations.shape != (n,):
            raise ValueError(
                f"{type(self).__name__} func_env reward and terminal must return one value per state, shape "
                f"({n},), got shapes {rewards.shape} and {terminations.shape}"
            )
        steps = self._steps
        steps += 1
        limit = self.max_episode_steps
        truncations = steps >= limit if limit > 0 else np.zeros(n, dtype=np.bool_)

        if self._any_done:
            rows = self._prev_done.nonzero()[0]
            initial = func.initial(self._initial_rngs._select(rows), **kw)  # pyright: ignore[reportPrivateUsage]
            if next_state is state:
                next_state = tree_copy(next_state)
            next_state = tree_scatter(next_state, rows, initial)
            self._spawned[rows] += 1
            self._episode_rngs._select(rows).invalidate()  # pyright: ignore[reportPrivateUsage]
            steps[rows] = 0
            rewards[rows] = 0.0
            terminations[rows] = False
            truncations[rows] = False
            info: _Info = {}
            if step_info:
                kept = np.flatnonzero(~self._prev_done)
                add_batched_info(info, _rows_of(step_info, kept), kept, n)
            add_batched_info(info, func.state_info(initial, **kw), rows, n)
        else:
            info = add_batched_info({}, step_info, None, n) if step_info else {}

        done = terminations | truncations
        self._prev_done = done
        self._any_done = bool(np.count_nonzero(done))
        observations = func.observation(next_state, rng, **kw)
        self._state = next_state
        self._observations = observations
        return observations, rewards, terminations, truncations, info

    def render(self) -> tuple[gymspec.RenderFrame, ...] | None:
        """Draw every sub-env's state with ``render_image`` (sharing one render state).

        Returns:
            One ``uint8`` frame per sub-env in ``rgb_array`` mode; ``None`` (with a warning) without a mode.

        Raises:
            ResetNeeded: Before the first :meth:`reset`.
        """
        if not self._can_render():
            return None
        state = self._check_usable("render")
        return tuple(self._draw(tree_take(state, i) for i in range(self.num_envs)))

    def close_extras(self, **kwargs: _CloseOption) -> None:
        """Release the render state with ``render_close``.

        Args:
            **kwargs: Ignored.
        """
        self._close_render_state()


def _rows_of(info: Mapping[str, Any], rows: NDArray[np.intp]) -> _Info:
    """The entries of a batched info dict for ``rows`` only."""
    return {
        key: _rows_of(value, rows) if is_mapping(value) else np.asarray(value)[rows]
        for key, value in info.items()
    }
