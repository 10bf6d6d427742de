"""Vector environments: ``num_envs`` independent copies of one env, stepped as a batch.

Batching follows Gymnasium's ``batch_space``: a Box of shape ``S`` becomes a Box of shape ``(n, *S)``, a Discrete
becomes a MultiDiscrete, a Tuple or Dict is batched component by component. Per-sub-env infos use the ``_key`` mask
convention: every key ``k`` of the info dict comes with ``info["_k"]``, a boolean array of shape ``(n,)`` that is true
where sub-env ``i`` reported ``k``.

Arrays: Gymnasium's ``VectorEnv`` is generic in its array type, and an env that declares ``metadata["jax"] = True``
(Gymnasium's convention, e.g. ``FunctionalJaxVectorEnv``) returns ``jax.Array`` s. VEC-012 and VEC-013 therefore
accept JAX arrays from such an env (read through ``np.asarray``), and only from it: a consumer can tell from the
declaration that it must convert (``JaxToNumpy``), never from an undeclared one.

The autoreset mode (``metadata["autoreset_mode"]``, an :class:`~gymspec.AutoresetMode` or its string value) decides
what happens to a sub-env whose episode ended; its rules are on :class:`AutoresettingVectorEnv`.

Variance: as for ``Env``, observations are covariant and actions contravariant (``action_space`` is a
``Space[Value]``: the batched spaces are not tied to ``step`` as ``Env``'s are, see :mod:`gymspec.env`). As for ``Env`` too, ``step``'s parameter is positional-only (Gymnasium's ``CartPoleVectorEnv``
names it ``action``), ``metadata`` is left to :class:`~gymspec.HasMetadata` (pyright cannot accept both a
``ClassVar`` and a property for one member) and the methods are declared before the properties, so pyright's
truncated explanation starts with the member that does not match.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from gymspec._typing import ActT_contra, InfoDict, NDArrayAny, ObsT_co, Options, RenderFrame, RenderFrameList, Value
from gymspec.space import Space

__all__ = ["AutoresettingVectorEnv", "VectorEnv"]


@runtime_checkable
class VectorEnv(Protocol[ObsT_co, ActT_contra]):
    """A batch of ``num_envs`` sub-environments that share spaces and are stepped together.

    Rules:
        [VEC-001] MUST expose a positive int ``num_envs`` and the spaces ``single_observation_space``,
            ``single_action_space``, ``observation_space`` and ``action_space``, each satisfying ``Space``.
        [VEC-002] MUST batch the observation space: ``observation_space`` is ``single_observation_space`` batched
            ``num_envs`` times (Box shape ``(n, *shape)`` with tiled bounds and the same dtype, Discrete to
            MultiDiscrete, Tuple and Dict component-wise), so each batch splits into ``num_envs`` elements of the
            single space; this is Gymnasium's default ``observation_mode="same"``, and a vector env built from
            sub-envs with differing spaces (``observation_mode="different"``) is outside this rule.
        [VEC-003] MUST batch the action space the same way from ``single_action_space``.
        [VEC-004] SHOULD declare ``metadata["autoreset_mode"]`` (an ``AutoresetMode`` or its string value);
            without it, consumers assume ``"NextStep"``.
    """

    def step(self, actions: ActT_contra, /) -> tuple[ObsT_co, NDArrayAny, NDArrayAny, NDArrayAny, InfoDict]:
        """Step every sub-environment with its action.

        Returns:
            ``(observations, rewards, terminations, truncations, info)``.

        Rules:
            [VEC-010] MUST return a 5-tuple ``(observations, rewards, terminations, truncations, info)``.
            [VEC-011] MUST return observations in ``observation_space`` on every step.
            [VEC-012] MUST return ``rewards`` as a NumPy array of shape ``(num_envs,)`` with a real (integer or
                floating) dtype (a JAX array if ``metadata["jax"]`` is True).
            [VEC-013] MUST return ``terminations`` and ``truncations`` as NumPy bool arrays of shape
                ``(num_envs,)`` (JAX arrays if ``metadata["jax"]`` is True).
            [VEC-014] MUST return an ``info`` dict in which every key ``k`` that does not start with ``_`` comes
                with a mask ``info["_k"]``, a NumPy bool array of shape ``(num_envs,)``; nested dicts follow the
                same convention.
            [VEC-015] MUST batch info values: an array-valued ``info[k]`` has leading dimension ``num_envs``, and
                entries where ``info["_k"]`` is false are blank (``None``, zero, ``False``, empty or NaN, the
                array's fill value), never a sub-env's data.
            [VEC-016] MUST accept every element of ``action_space``.
            [VEC-017] SHOULD NOT mutate observations it returned earlier (the default ``copy=True`` behaviour).
            [VEC-018] MUST behave like its sub-envs run one by one: when the target exposes its sub-env
                factories, its outputs equal a reference ``SyncVectorEnv`` built from them, for the same seeds and
                actions.
            [VEC-023] SHOULD (when it exposes no ``env_fns`` and seeds its sub-envs as its own ``num_envs=1``
                constructions: after ``reset(seed=s)``, sub-env ``i`` starts as such a construction reset with
                ``s + i``) keep running each sub-env as that construction would, given the same actions: each
                sub-env's randomness is its own, never drawn from a generator shared with the other sub-envs.

        Calibration:
            Gymnasium documents ``VectorEnv`` as running "multiple independent copies of the same environment in
            parallel" and says nothing of generators, and its own ``CartPoleVectorEnv`` draws every sub-env's
            start from one generator, so VEC-023 is a SHOULD, and it applies only to a vector env written directly
            that seeds its sub-envs as copies (``s + i``, as Sync and Async do), which the suite learns from the
            target: a seeded reset whose rows are not all equal and each equal to its copy's (the target's own
            construction with ``num_envs=1``, reset with ``s + i``). For such a target, a user who reproduces one
            sub-env with ``num_envs=1`` and seed ``s + i`` expects the same trajectory; a generator shared with the
            other sub-envs silently breaks that from the first draw after the reset. ``CartPoleVectorEnv`` and
            ``CartPoleJaxVectorEnv`` do not seed as copies, so VEC-023 does not apply to them. A target that
            exposes ``env_fns`` is VEC-018's subject instead. The same copies model such a target for the AUTORESET
            rules: a sub-env seen to draw its own randomness (one of its steps agreed with its copy's) that then
            disagrees on the step another sub-env resets, or after a partial reset of others, breaks
            AUTORESET-004 or AUTORESET-009; before that, a disagreement is VEC-023's. Agreeing steps are no proof
            when the shared draws rarely show (one slip stream shared by the sub-envs, issue 37): before an AUTORESET
            rule is blamed, constructions with ``num_envs=n`` and ``n+1``, given one seed and the same actions, must
            run the first ``n`` sub-envs alike until the extra one first ends; when they do not, the sub-envs share a
            stream and the disagreement is VEC-023's.
        """
        ...

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[ObsT_co, InfoDict]:
        """Reset every sub-environment (or, with ``options["reset_mask"]``, the masked ones).

        Implementations accept ``seed`` as an int, a list of ``num_envs`` ints or ``None`` entries, or ``None``;
        the protocol types it as Gymnasium's base class does.

        Rules:
            [VEC-005] MUST return ``(observations, info)`` with observations in ``observation_space`` and ``info``
                a ``dict``.
            [VEC-006] MUST (when it promises Sync/Async semantics: it exposes ``env_fns``) seed sub-env ``i``
                with ``s + i`` for an int seed ``s``: sub-env ``i``'s observation after ``reset(seed=s)`` equals
                that of ``env_fns[i]()`` reset alone with ``seed=s + i``.
            [VEC-007] MUST (when it promises Sync/Async semantics: it exposes ``env_fns``) accept a list of
                ``num_envs`` seeds (ints or ``None``) and seed sub-env ``i`` with entry ``i``; a list of another
                length raises ``ValueError``.
            [VEC-008] MUST be reproducible: the same seed and the same actions give identical batched
                trajectories (observations, rewards, flags and infos).
            [VEC-009] MUST reset every sub-env on a reset without ``reset_mask``, wherever each is in its episode,
                including sub-envs whose episode ended on the previous step.
            [VEC-021] MUST continue its generators on a reset without a seed: after ``reset(seed=s)``, the
                observations of later unseeded resets (and of the steps after them) are a function of ``s``, as
                for a single env (SEED-003), and a sub-env's own resets (autoresets, partial resets) do not restart
                its generator: when the start is random, its later episodes do not all start where its first did
                (SEED-004).
            [VEC-022] MUST run independent copies: when the single env's start is random (resets with different
                seeds start from different observations), the sub-envs of one seeded reset do not all start from
                the same observation.
            [VEC-024] SHOULD run independent copies on a reset without a seed too: when the single env's start is
                random, the sub-envs of an unseeded reset (a fresh instance's included) do not all start from the
                same observation.

        Calibration:
            VEC-006, VEC-007 and AUTORESET-010 held for every vector env and failed Gymnasium's own
            ``make_vec("CartPole-v1", vectorization_mode="vector_entry_point")`` (``CartPoleVectorEnv``).
            Gymnasium documents ``VectorEnv.reset(seed: int | None)`` and nothing more; seed lists, the ``s + i``
            convention and ``options["reset_mask"]`` are documented on ``SyncVectorEnv`` and ``AsyncVectorEnv``.
            They now hold for a target that promises those semantics, which the suite knows by duck typing: it
            exposes ``env_fns``, one zero-argument factory per sub-env, as both classes (Gymnasium's and the
            reference's) do; for other vector envs the items are not applicable. VEC-005, VEC-008 and VEC-009
            hold for every vector env. A multi-task vector env's sub-envs are different tasks, so sub-env ``i``
            is compared with its own factory's env (``env_fns[i]()``), never with sub-env ``0``.
            VEC-021 and VEC-022 hold for every vector env, written directly or not: ``VectorEnv`` is documented as
            running "multiple independent copies of the same environment", and ``reset``'s ``seed`` is "the
            environment reset seed", which, as for ``Env.reset``, an unseeded reset does not replace with entropy.
            Neither needs ``env_fns``: VEC-021 compares two fresh instances, and VEC-022 learns whether the start is
            random from the target's own rows over several seeds. Sharing one generator among the sub-envs is legal
            (``CartPoleVectorEnv`` draws every sub-env's start from one generator); giving them identical streams is
            not. A correct vector env fails VEC-022 only when all ``n`` rows coincide in each of five seeded resets
            although at least half of the rows seen differ from each other, which for independent starts happens
            with probability far below ``1e-6``.
            VEC-021's second half and VEC-024 came from a vector env written directly that re-creates each
            sub-env's generator from its reset seed (issue 37): its ``num_envs=1`` copies do the same, so the
            autoreset model agrees with it, and only the starts show it, model-free. A restart is concluded when
            each of 16 episodes the sub-envs start by themselves starts where that sub-env's first did, while no
            start holds half of 20 seeded resets' (SEED-004's test: below ``1e-5`` for a correct env). VEC-024 is
            a SHOULD, as SEED-006 is for single envs: what an unseeded reset draws is the implementation's choice,
            but identical sub-envs waste all but one of them.
        """
        ...

    def render(self) -> tuple[RenderFrame, ...] | RenderFrameList | None:
        """Render the sub-environments (one frame each, in a tuple as Gymnasium's base class or a list as its
        ``CartPoleVectorEnv``), or ``None``."""
        ...

    def close(self) -> None:
        """Close every sub-environment and release workers and shared memory.

        Rules:
            [VEC-019] MUST make ``close`` idempotent: a second call does not raise.
            [VEC-020] SHOULD make ``reset`` and ``step`` calls after ``close`` raise ``ClosedEnvironmentError``.
        """
        ...

    @property
    def num_envs(self) -> int:
        """The number of sub-environments."""
        ...

    @property
    def render_mode(self) -> str | None:
        """The sub-environments' render mode."""
        ...

    @property
    def observation_space(self) -> Space[ObsT_co]:
        """The batched observation space."""
        ...

    @property
    def action_space(self) -> Space[Value]:
        """The batched action space."""
        ...

    @property
    def single_observation_space(self) -> Space[object]:
        """One sub-environment's observation space."""
        ...

    @property
    def single_action_space(self) -> Space[object]:
        """One sub-environment's action space."""
        ...


@runtime_checkable
class AutoresettingVectorEnv(VectorEnv[ObsT_co, ActT_contra], Protocol[ObsT_co, ActT_contra]):
    """A vector env seen through its declared autoreset mode.

    The mode is ``metadata["autoreset_mode"]``; the rules of the other modes do not apply.

    Rules:
        [AUTORESET-001] MUST declare a mode whose value is ``"NextStep"``, ``"SameStep"`` or ``"Disabled"``, if it
            declares one.
        [AUTORESET-002] MUST (in every mode) return sub-env ``i``'s real final observation, reward, flags and
            info on the step its episode ends, except where ``"SameStep"`` moves them (observation and info) into
            ``final_obs``/``final_info``.
        [AUTORESET-003] MUST (under ``"NextStep"``) reset sub-env ``i`` on the step after its episode ended: its
            action is ignored, its observation is a fresh initial observation, its reward is 0 and both of its
            flags are false.
        [AUTORESET-004] MUST (under ``"NextStep"``) keep stepping the other sub-envs normally on the step that
            resets sub-env ``i``.
        [AUTORESET-005] MUST (under ``"SameStep"``) reset sub-env ``i`` within the step its episode ends: the
            returned observation is the new episode's first, while reward and flags are the final step's.
        [AUTORESET-006] MUST (under ``"SameStep"``) put the final observations in ``info["final_obs"]`` (an
            object array of length ``num_envs``) with mask ``info["_final_obs"]`` true exactly for the sub-envs
            that ended, each final observation an element of ``single_observation_space``.
        [AUTORESET-007] MUST (under ``"SameStep"``) put the final infos in ``info["final_info"]`` with mask
            ``info["_final_info"]`` true exactly for the sub-envs that ended.
        [AUTORESET-008] MUST (under ``"Disabled"``) never reset a sub-env by itself: after its episode ends, it
            stays ended until the caller resets it (stepping it again may raise or continue the ended episode,
            but never starts a new one).
        [AUTORESET-009] MUST (under ``"Disabled"``) reset exactly the sub-envs where
            ``options["reset_mask"]`` is true, leaving the others' state and observations unchanged.
        [AUTORESET-010] MUST (in every mode, when it promises Sync/Async semantics: it exposes ``env_fns``)
            reject a ``reset_mask`` that is not a NumPy bool array of shape ``(num_envs,)`` with ``TypeError`` or
            ``ValueError``; whether an all-false mask is accepted is left to the implementation.
        [AUTORESET-011] SHOULD NOT (when it promises Sync/Async semantics: it exposes ``env_fns``) mutate the
            caller's ``options`` dict (Gymnasium pops ``reset_mask`` from it).
        [AUTORESET-012] MUST agree with a model of the declared mode built from single-env semantics, for any
            interleaving of steps, full resets and partial resets.
    """
