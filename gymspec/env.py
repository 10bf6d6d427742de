"""The single-agent environment: ``reset``, ``step``, ``render``, ``close`` and the attributes that describe them.

``Env[ObsT_co, ActT_contra]`` is the contract every environment meets. It is composed of small building blocks
(``SupportsStep``, ``SupportsReset``, ``SupportsRender``, ``SupportsClose``, ``HasSpaces``), and the optional parts
are more of them (``HasMetadata``, ``HasNpRandom``, ``HasSpec``, ``HasUnwrapped``, ``SupportsWrapperAttrs``), so code
can ask for exactly what it uses. Gymnasium's ``gymnasium.Env`` and a class with no base class at all both satisfy
``Env`` when their signatures match.

Variance (declared): observations are covariant (they only flow out); actions are contravariant (they only flow
into ``step``). See :mod:`gymspec._typing` for how ``action_space`` is tied to ``step`` without giving that up.

How the types are solved, and why (issue 27):

* the observation type is solved from ``reset`` and ``step`` alone; ``observation_space`` is a ``Space[Value]``.
  Joining it in made a ``FrozenLakeEnv`` (``int`` observations, a ``Discrete`` space of ``np.int64``) an
  ``Env[int | np.int64, ...]``, which no ``Callable[[int], ...]`` policy fits, and rejected Gymnasium's wrappers,
  whose ``observation_space`` is typed ``Space[ObsType] | Space[WrapperObsType]``;
* ``action_space`` and ``step`` are tied statically (rule ENV-016: every element of the action space is an action
  ``step`` accepts) through ``self`` annotations on ``Env``'s own ``step`` and ``action_space``: the checker binds
  ``self`` to the object being checked, so the element type of *its* ``action_space`` must be a type *its* ``step``
  takes. An env with a float ``Box`` action space and a ``step(action: int)`` is no ``Env`` of any type. pyright
  checks the tie on ``step`` (``_ActionsFit``), mypy on ``action_space`` (``_StepTakes``); each ignores the other's
  form. Seen from a value typed ``Env[O, A]``, ``action_space`` is a ``Space[A]``. pyright infers the action
  parameter invariant because of that, mypy contravariant; it is declared contravariant (an env that takes ``int``
  is an ``Env[..., bool]``), and pyright's report is silenced on the class line;
* ``terminated`` and ``truncated`` are typed ``bool``, not ``bool | np.bool_`` (what rules ENV-013/ENV-014 accept
  at run time, :data:`gymspec.Flag`): consumer code written as Gymnasium's docs write it (``done = False`` ...
  ``done = terminated or truncated``) type-checks, and an implementation annotated ``np.bool_`` must convert with
  ``bool(...)`` (README.md, "Typing trade-offs").
* a plain ``Env`` whose ``step`` returns 0-d JAX (or other non-NumPy) arrays as reward and flags breaks ENV-011,
  ENV-013 and ENV-014, even if it declares ``metadata["jax"] = True``; that declaration relaxes only the vector
  rules VEC-012/013 and the FuncEnv rules, whose types Gymnasium leaves generic (``VectorEnv`` is generic in its
  array type, ``FuncEnv`` in ``RewardType`` and ``TerminalType``). ``Env.step`` documents ``reward: SupportsFloat``
  and ``terminated``/``truncated: bool``; a 0-d array is neither a ``bool`` nor a scalar (``reward + 1`` is an
  array, ``isinstance(terminated, bool)`` is false, Gymnasium's own env checker rejects it), and Gymnasium's own
  ``FunctionalJaxEnv`` converts with ``float(reward)`` and ``bool(terminated)`` for exactly this reason.
  Observations may be JAX arrays wherever the observation space contains them (ENV-006 and ENV-009 ask the
  space).

How the two checkers agree (each point below is a place where they would otherwise differ or mislead):

* parameters whose names carry no meaning (``step``'s action) are positional-only, because pyright matches
  parameter names against the protocol's and mypy does not;
* ``metadata`` is not a member of ``Env``: pyright accepts ``metadata: ClassVar[...]`` (what ruff's RUF012 asks
  for) only for a ``ClassVar`` protocol member, which rejects an instance attribute or a property (Gymnasium's
  wrappers), while mypy accepts all three for a property. :class:`HasMetadata` offers it as a building block, and
  rule ENV-003 is checked at run time by the conformance suite;
* the building blocks are listed with the methods first: pyright prints the first lines of its explanation only,
  and a property that returns a protocol (the spaces) adds a line even when it matches;
* mypy lists no member when more than two are missing; assigning the object to each building block names them.
"""

from __future__ import annotations

from typing import Any, Protocol, SupportsFloat, TypeVar, runtime_checkable

import numpy as np
from typing_extensions import TypeAlias

from gymspec._typing import ActT_contra, InfoDict, Metadata, ObsT_co, Options, RenderResult, Value
from gymspec.registry import EnvSpecLike
from gymspec.space import Space

__all__ = [
    "AnyEnv",
    "Env",
    "HasMetadata",
    "HasNpRandom",
    "HasSpaces",
    "HasSpec",
    "HasUnwrapped",
    "StepResult",
    "SupportsClose",
    "SupportsRender",
    "SupportsReset",
    "SupportsStep",
    "SupportsWrapperAttrs",
]

_SpaceActT = TypeVar("_SpaceActT")
"""The element type of an env's ``action_space``, solved per env from its ``step`` (see :class:`Env`)."""

StepResult: TypeAlias = tuple[ObsT_co, SupportsFloat, bool, bool, InfoDict]
"""``(observation, reward, terminated, truncated, info)``, generic in the observation type."""


@runtime_checkable
class SupportsStep(Protocol[ObsT_co, ActT_contra]):
    """An env that advances by one step per action."""

    def step(self, action: ActT_contra, /) -> tuple[ObsT_co, SupportsFloat, bool, bool, InfoDict]:
        """Advance the environment by one step.

        Args:
            action: An element of ``action_space``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``. ``terminated`` means the MDP reached a terminal
            state; ``truncated`` means the episode was cut short for a reason outside the MDP (usually a time
            limit). Either one ends the episode: the caller must ``reset`` before stepping again.

        Rules:
            [ENV-008] MUST return a 5-tuple ``(observation, reward, terminated, truncated, info)``.
            [ENV-009] MUST return an observation that is an element of ``observation_space`` on every step, not
                only the first, across episode ends.
            [ENV-010] SHOULD return observations with exactly the dtype and shape of ``observation_space`` when
                the space declares them.
            [ENV-011] MUST return a reward that is a real scalar: a Python ``int`` or ``float``, or a NumPy integer
                or floating scalar (not a ``bool``, not an array).
            [ENV-012] MUST return a finite reward (neither NaN nor infinite).
            [ENV-013] MUST return ``terminated`` as a ``bool`` or ``numpy.bool_``.
            [ENV-014] MUST return ``truncated`` as a ``bool`` or ``numpy.bool_``.
            [ENV-015] MUST return an ``info`` that is a ``dict``.
            [ENV-016] MUST accept every element of ``action_space`` without raising.
            [ENV-017] MUST NOT mutate observations it returned earlier: a returned observation keeps its value
                through later ``step`` and ``reset`` calls (no aliasing of internal buffers).
            [ENV-018] MUST NOT share memory between returned ``info`` values and later results: an info (and
                every value in it) keeps the value it was returned with through later ``step`` and ``reset`` calls.
            [ENV-019] SHOULD raise (ideally ``ResetNeeded``) when called before the first ``reset`` instead of
                returning a result.
            [ENV-022] MUST report a declared step limit as truncation: with ``spec.max_episode_steps = k``, the
                ``k``-th step of an episode that has not ended before returns ``truncated`` true.
            [ENV-023] SHOULD keep the two flags' meanings apart: ``terminated`` for a terminal state of the MDP,
                ``truncated`` for an end outside it — not both true on every terminal step, and not ``terminated``
                on every episode that reaches the declared step limit.
            [ENV-024] MUST NOT reset by itself inside ``step``: the observation returned with ``terminated`` true
                is the terminal state's, not the first observation of a next episode.
            [ENV-027] SHOULD NOT mutate its ``action`` argument: the caller's action keeps its value through
                ``step``.
            [SEED-008] MUST draw all randomness from the env's own generator: the global NumPy and ``random``
                generators neither influence the trajectory nor are advanced by ``reset`` and ``step``.
            [SEED-009] MUST keep generators per instance: each instance's results (of ``reset`` with and without a
                seed, ``step``, ``render`` and its spaces' ``seed`` and ``sample``) are a function of its own calls
                alone, whatever calls other live instances take in between and whichever instance is seeded first —
                no generator, space or other state shared through class attributes, module globals or the global
                NumPy and ``random`` generators.
            [SEED-010] MUST NOT couple its dynamics to its spaces' generators: sampling from ``action_space`` or
                ``observation_space`` between steps does not change the trajectory.

        Calibration:
            ENV-018 was a SHOULD. Gymnasium 1.4's ``Env.step`` says "each call must return new observation and info
            objects rather than modifying and returning the same buffer" (users keep every step's data in replay
            and rollout buffers, and ``check_env`` checks it), so an info that changes after it was returned breaks
            a documented promise as much as an observation does (ENV-017): it is a MUST NOT. The Gymnasium
            envs of the ecosystem tier all return a new info on every call.
            ENV-022, ENV-023 and ENV-024 observe the meaning of the flags, which ``step`` documents: ``terminated``
            is "whether the agent reaches the terminal state (as defined under the MDP of the task)", ``truncated``
            "whether the truncation condition outside the scope of the MDP is satisfied. Typically, this is a
            timelimit", and ``EnvSpec.max_episode_steps`` is "the max number of steps that the environment can take
            before truncation". A limit the env declares is therefore a truncation (ENV-022, a MUST: the env itself
            says the end is outside the MDP). Where no limit is declared the suite cannot tell a time limit from a
            finite-horizon MDP, so ENV-023 is a SHOULD and fires only on a pattern no correct env shows: both flags
            true on every one of at least three terminal steps before the declared limit (or with none declared: a
            terminal state on the limit's step sets both legally), or ``terminated`` on every one of at least two
            episodes that reach the declared limit (under ``TimeLimit`` both flags are true there, so ENV-022 passes
            while bootstrapping learners stop at a time limit). ENV-024: the returned observation is "the next
            observation due to the agent actions", and a caller must ``reset`` after an end; an env that restarts
            inside ``step`` hands the next episode's first observation to the learner as the terminal one. The check
            deep-copies the env before a terminating step and resets the copy without a seed: an internal restart
            draws the very start the copy's ``reset`` gives. Equal is no evidence by itself (issue 37): a terminal
            observation may equal a reset's draw by chance (one of six cells), by design (a contextual bandit's
            observations are fresh draws, as its resets are), or because an episode ends where every one starts (a
            fixed start). So the terminal observation must keep following the draw when the copy's ``np_random`` is
            moved on (six times; the draw must change with it, which a fixed start never does), and the step before
            it, which ended nothing, must not return a reset's draw too. Only ``terminated`` ends are checked (a
            truncation may stop anywhere, the start included) and an env that cannot be deep-copied is not checked.
            ENV-027: Gymnasium's docs are silent on the action argument, so it is a SHOULD NOT; an env that clips
            or normalises the caller's array in place corrupts the action a learner stores with the transition.
        """
        ...


@runtime_checkable
class SupportsReset(Protocol[ObsT_co]):
    """An env whose episodes start with a seeded ``reset``."""

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[ObsT_co, InfoDict]:
        """Start a new episode.

        An unseeded reset continues the generator. Gymnasium's ``Env.reset`` documents it without hedging ("if
        the environment already has a random number generator and ``reset()`` is called with ``seed=None``, the
        RNG is not reset"; "if you pass an integer, the PRNG will be reset even if it already exists") and tells
        users to seed once, right after construction, "and then never again" — so a generator restarted by an
        unseeded reset makes every episode of a training run start alike, silently. SEED-003 and SEED-004 are
        MUST rules for that reason: SEED-003 checks the "function of the seed" half (two instances agree), SEED-004
        the "not reset" half, which reproducibility alone cannot see (an env that reseeds with a constant, or with
        its last seed, on ``seed=None`` is perfectly reproducible). SEED-004 was a SHOULD that compared unseeded
        starts with the seeded one only, and so missed the constant-reseed shape; it became the MUST below.

        How SEED-004 is checked, and how often a correct env fails it: ``k = 20`` resets with the seeds
        ``s .. s+19`` establish that the start is random (no start is seen in half of them or more; otherwise the
        start is treated as fixed — FrozenLake, CliffWalking — and the env is exempt); then one instance resets with
        ``seed=s`` followed by ``k`` unseeded resets, and the check fails when all ``k`` unseeded starts are equal.
        For an env whose starts are independent draws with a most likely start of probability ``p``, both happen
        with probability at most ``p**(k-1) * P[Binomial(k, p) <= k/2 - 1]``, below ``2e-5`` for every ``p``
        (largest near ``p = 0.7``), so below ``1e-4`` for the few seeds the suite tries. Gymnasium's toy-text envs
        are far from that worst case (over 2000 seeds: Blackjack-v1 248 starts, the likeliest at ``p = 0.03``;
        Taxi 300 starts, ``p = 0.007``) or exempt (FrozenLake, CliffWalking: one start). Targets whose spec says
        ``nondeterministic=True`` skip the check. Starts alone miss an env whose start is fixed (or drawn from a
        stream of its own) while the randomness of its steps restarts, so the same test runs on whole episodes too:
        the start and five steps under one action sequence drawn from ``s``, with the same bound (issue 37).

        Args:
            seed: Reseeds the env's generator when an int; ``None`` keeps the current generator (creating one from
                entropy if there is none).
            options: Env-specific reset options.

        Returns:
            ``(observation, info)``.

        Rules:
            [ENV-004] MUST accept the keyword arguments ``seed`` and ``options``, each defaulting to ``None``.
            [ENV-005] MUST return a 2-tuple ``(observation, info)``.
            [ENV-006] MUST return an observation that is an element of ``observation_space``.
            [ENV-007] MUST return an ``info`` that is a ``dict``.
            [SEED-001] MUST make episodes reproducible: two fresh instances reset with the same ``seed`` and given
                the same actions produce identical observations, rewards, flags and infos.
            [SEED-002] MUST replay: ``reset(seed=s)`` a second time on the same instance replays the episode the
                first ``reset(seed=s)`` started, given the same actions.
            [SEED-003] MUST continue the generator when ``seed`` is ``None``: after ``reset(seed=s)``, the episodes
                started by later unseeded resets are a function of ``s`` (reproducible across instances).
            [SEED-004] MUST NOT restart the generator on an unseeded reset: when the initial state is random (resets
                with different seeds start from different observations), the unseeded resets that follow
                ``reset(seed=s)`` do not all start from the same state, and when the episodes are random (under one
                action sequence), they do not all start the same episode (checked over 20 of them; a correct env
                fails with probability below 2e-5, see above).
            [SEED-005] MUST reseed on every integer seed: after any history, ``reset(seed=s2)`` starts the same
                episode as a fresh instance's ``reset(seed=s2)``.
            [SEED-006] SHOULD seed a fresh generator from entropy: when the initial state is random (resets with
                different seeds start from different observations), two fresh instances reset without a seed start
                from different states.
            [SEED-007] SHOULD accept every non-negative Python int as a seed, including values of ``2**32`` and
                more.
            [ENV-031] MUST accept an empty ``options`` dict: ``reset(seed=s, options={})`` and
                ``reset(options={})`` do not raise.
            [SEED-012] MUST make episodes reproducible across processes: an instance made in a fresh interpreter
                whose ``PYTHONHASHSEED`` differs, reset with the same ``seed`` and given the same actions, produces
                the same first episode (no randomness drawn from ``hash()`` of a ``str`` or ``bytes``, nor from the
                iteration order of a set of strings).
            [SEED-013] SHOULD make the generator's stream depend on the seed: when the initial state (or the
                episode, under one action sequence) is random, the unseeded resets that follow ``reset(seed=a)`` and
                those that follow ``reset(seed=b)``, ``a != b``, do not start the same sequence of states (or of
                episodes) (checked over 10 of them). An env that ignores the seed's value is random when its unseeded
                episodes vary.
            [SEED-014] SHOULD treat ``options={}`` as no options: ``reset(seed=s, options={})`` starts the episode
                ``reset(seed=s)`` starts.

        Grounds of the rules above that go beyond one instance in one process:
            ENV-031: Gymnasium documents ``options`` as "additional information to specify how the environment is
            reset (optional, depending on the specific environment)"; an empty dict specifies nothing, so every
            env must take it (wrappers and vector envs forward ``options`` as a dict they build). An options dict
            with a key the env does not know is not checked: the docs leave the keys to each env, and refusing an
            unknown key (a typo) is as defensible as ignoring it. SEED-014 is a SHOULD because the docs do not say
            that ``{}`` and ``None`` mean the same, though every Gymnasium env treats them alike. A reset with no
            ``options`` parameter at all (or one that refuses ``None``) breaks ENV-004, and rejects ``{}`` for that
            cause alone: ENV-031 and SEED-014 are then not checked, one cause giving one failure.
            SEED-012: SEED-001's "same seed, same episode" is what makes a seeded experiment repeatable, and an
            experiment is repeated in another process. CPython salts ``hash()`` of ``str`` and ``bytes`` per process
            (``PYTHONHASHSEED``), so an env that seeds from ``hash(name)`` or picks from an unordered set of
            strings passes every check made in one process and still gives another episode in the next run. The
            check runs the first episode in a fresh interpreter with another ``PYTHONHASHSEED`` and compares.
            SEED-013: Gymnasium's ``reset`` seeds "the environment's PRNG" with ``seed``, and unseeded resets
            continue that PRNG; that different seeds give different streams is implied rather than said, hence a
            SHOULD. An env that draws unseeded starts from a second generator seeded with a constant is
            reproducible (SEED-003) and continues (SEED-004), yet every run of a seed sweep sees the same starts
            after the first episode. A correct env whose starts are independent draws, the likeliest with
            probability ``p``, fails with probability at most ``p**10``; the check applies only when 20 seeded
            starts show no start in half of them or more (SEED-004's test of a random start). A generator restarted
            from one constant on every unseeded reset gives every seed the same stream too; that is SEED-004's
            finding (the unseeded resets all start from one state), and SEED-013 is then not checked.
        """
        ...


@runtime_checkable
class SupportsRender(Protocol):
    """An env that renders in the mode fixed at construction."""

    @property
    def render_mode(self) -> str | None:
        """The render mode chosen at construction, or ``None``.

        Rules:
            [RENDER-001] MUST fix ``render_mode`` at construction: it equals the ``render_mode`` the constructor received
                (without one, whatever the env chose at construction) and stays unchanged through ``reset``,
                ``step`` and ``render``.
            [RENDER-002] MUST keep ``render_mode`` ``None`` or one of ``metadata["render_modes"]``, with and without
                a ``render_mode`` argument, and MUST NOT take up an undeclared mode silently: given one at
                construction, the env raises, warns (a warning naming the mode), keeps ``render_mode`` ``None`` or
                declared, or refuses to render in it (``reset`` or ``render`` raises).
            [RENDER-003] SHOULD refuse, at construction, a mode that ``metadata["render_modes"]`` does not declare:
                raise (``ValueError`` or ``UnsupportedMode``; the ``AssertionError`` of an ``assert`` on
                ``render_modes``, Gymnasium's custom-env idiom, counts too) or at least warn naming the mode,
                rather than fail at the first ``render()`` or drop the mode.
            [RENDER-018] SHOULD default ``render_mode`` to ``None``: a construction that receives no ``render_mode``
                renders nothing until asked to.

        Calibration:
            RENDER-018 was the "(``None`` by default)" of RENDER-001, a MUST. Gymnasium documents ``render_mode`` as
            set at construction and its own envs default it to ``None``, but no document forbids another default,
            and packages that render by default (panda-gym's ``PandaReach-v3`` and gym-pusht default to
            ``"rgb_array"``) break no caller: the mode is fixed and declared. Costing every caller who never looks
            at a frame, it is a SHOULD of its own; RENDER-001 keeps the MUST part (the mode is fixed), and
            RENDER-005, about ``render()`` with ``render_mode`` ``None``, does not apply to such an env (its
            message names the mode the env had). RENDER-001's construction with ``render_mode=None`` given
            explicitly fails a constructor that rejects it only when the env declares a mode: one that declares
            ``render_modes == []`` and takes no ``render_mode`` parameter renders nothing whatever it is given, and
            its ``TypeError`` is RENDER-003's concern, a SHOULD (issue 37).
            RENDER-003 first asked every construction with an undeclared mode to raise. Gymnasium's own envs do
            not: their constructors store any string, and ``gymnasium.make`` warns ("The environment is being
            initialised with render_mode=... that is not in the possible render_modes") and lets the
            ``PassiveEnvChecker`` fail the first ``render()`` — so the SHOULD warned on every classic-control and
            toy-text id (9 of 9 on main, and on every id of the ecosystem tier), a finding about Gymnasium repeated
            per env. A warning naming the mode tells the caller what the rule is for, so it now satisfies
            RENDER-003 (as it does REG-007): ids made through ``gymnasium.make`` or the reference's ``make`` (which
            raises ``UnsupportedRenderMode``) pass. What an undeclared mode must never do is go unnoticed, so
            RENDER-002 (MUST) now constructs with one too and fails an env that stores it with no error and no
            warning and then renders in it: Gymnasium's classes constructed directly (``CartPoleEnv(render_mode=
            "rgb-array")`` renders ``None`` without a word) and the storing shapes of ``tests/meta/broken/render.py``
            (a class, a forwarding factory, a registered id, an undeclared default). An env that stores it
            silently but refuses at the first ``reset``/``render`` only warns, on RENDER-003. Two packages of the
            ecosystem tier still warn, and keep warning by decision: ALE refuses with the base
            ``gymnasium.error.Error`` and popgym's render-less envs with a ``TypeError`` (no ``render_mode``
            parameter). Both refuse, but not with an exception a caller can catch as "unsupported mode"
            (``except (ValueError, UnsupportedMode)`` misses both); counting any exception naming the mode would
            pass a ``TypeError`` raised for an undeclared mode, the very defect the rule names.
        """
        ...

    def render(self) -> RenderResult:
        """Render the current state in the mode chosen at construction.

        Returns:
            ``None`` for ``render_mode`` ``None`` and ``"human"``; an ``(H, W, 3)`` uint8 array for
            ``"rgb_array"``; a ``str`` for ``"ansi"``; a 2-D array for ``"depth_array"``; a list of such frames
            for the ``"*_list"`` modes.

        Rules:
            [RENDER-004] MUST make ``render`` callable without arguments in every declared mode (a construction
                with ``render_mode`` one of ``metadata["render_modes"]``); the mode comes from ``render_mode``.
            [RENDER-005] SHOULD return ``None`` when ``render_mode`` is ``None`` (a warning is fine), neither
                raising nor returning a frame; an env that declares no render mode at all may raise
                ``NotImplementedError`` instead.
            [RENDER-006] MUST (for ``"rgb_array"``) return a ``numpy.ndarray`` of dtype ``uint8`` and shape
                ``(H, W, 3)`` with ``H, W > 0``.
            [RENDER-007] MUST (for ``"ansi"``) return a ``str``.
            [RENDER-008] MUST (for ``"human"``) return ``None`` (the env draws to its own display during
                ``reset`` and ``step``).
            [RENDER-009] MUST (for ``"depth_array"``) return a 2-D ``numpy.ndarray``.
            [RENDER-010] MUST (for a ``"<mode>_list"`` mode) return a ``list`` whose items each satisfy the frame
                rule of ``<mode>``.
            [RENDER-011] SHOULD (for a ``"<mode>_list"`` mode) hold one frame per ``reset`` and ``step`` since the
                previous ``render`` call or the latest ``reset``, and return an empty list when called again straight
                away.
            [RENDER-012] SHOULD return ``"rgb_array"`` frames of one constant shape for the env's lifetime.
            [RENDER-013] MUST NOT mutate a frame it returned earlier (no aliasing of the drawing buffer).
            [RENDER-014] MUST NOT influence the dynamics: with the same ``render_mode``, a seeded trajectory is
                identical with and without ``render`` calls between steps.

        Calibration:
            RENDER-004 first also called ``render()`` on an env made with no ``render_mode``, so a ``render`` that
            raises there failed a MUST. Gymnasium's ``MujocoEnv`` (every MuJoCo env) and the Gymnasium-Robotics
            MuJoCo envs raise there (``MujocoRenderer.render(None)`` has no mode to draw in), and so do
            Gymnasium's classic-control and toy-text envs constructed without ``make`` (a bare ``AssertionError``
            on ``spec``), while each renders correctly in every mode it declares: the MUST made the most-used envs
            in the field look broken over a call that asks for no frame (docs/ecosystem.md). RENDER-004 now checks
            the declared modes only, and ``render()`` with no mode is RENDER-005's concern: a SHOULD, which
            Gymnasium's own convention (warn and return ``None``) satisfies. An env with an empty
            ``metadata["render_modes"]`` that keeps ``gymnasium.Env.render``'s default (``NotImplementedError``)
            says truthfully that it renders nothing (popgym's ``RepeatPrevious``, ``Autoencode``, ... envs), so
            RENDER-005 allows that one exception there. An env that cannot even ``reset`` in a declared mode
            cannot render in it either: RENDER-004 reports that reset (rware's ``"human"`` mode draws before its
            warehouse exists and raises ``AttributeError``), unless the reset raises without a ``render_mode`` too,
            which is ENV-004's finding.
        """
        ...


@runtime_checkable
class SupportsClose(Protocol):
    """An env that holds resources until ``close``."""

    def close(self) -> None:
        """Release every resource the env holds (windows, processes, files).

        Rules:
            [ENV-020] MUST make ``close`` idempotent: calling it twice, or before any ``reset``, does not raise.
            [RENDER-015] MUST ``close`` cleanly in every declared render mode, after rendering.
            [ENV-030] MUST release only its own resources: after ``close()`` on one instance, ``reset``, ``step``
                and ``render`` on other live instances of the same target do not raise (what they return is
                SEED-009's concern: it interleaves ``close`` with the other calls).

        Grounds:
            ENV-030: Gymnasium's ``close`` "contains the code necessary to clean up the environment" — the one it
            is called on. Training code closes and rebuilds envs while others run (a vector env replacing a crashed
            sub-env, an evaluation env closed beside the training env), so a ``close`` that tears down a class-level
            renderer, simulator handle or cache breaks an instance its caller never touched. A ``close`` that
            raises itself is not this rule's finding but ENV-020's, or RENDER-015's on an instance made with a
            render mode; nor is a call on another instance that raises for its own cause (an action it rejects:
            ENV-016).
        """
        ...


@runtime_checkable
class HasSpaces(Protocol):
    """An env that declares the spaces its observations and actions belong to."""

    @property
    def observation_space(self) -> Space[Value]:
        """The space every observation belongs to."""
        ...

    @property
    def action_space(self) -> Space[Value]:
        """The space every valid action belongs to."""
        ...


class _StepTakes(Protocol[ActT_contra]):
    """What ``Env.action_space`` binds ``self`` to: an object whose ``step`` takes ``ActT_contra`` actions."""

    def step(self, action: ActT_contra, /) -> object: ...


class _ActionsFit(Protocol[_SpaceActT]):
    """What ``Env.step`` binds ``self`` to: an object whose ``step`` takes every element of its ``action_space``."""

    @property
    def action_space(self) -> Space[_SpaceActT]: ...

    def step(self, action: _SpaceActT, /) -> object: ...


@runtime_checkable
class Env(  # pyright: ignore[reportInvalidTypeVarUse]  (action_space's self binding; see the module docstring)
    SupportsStep[ObsT_co, ActT_contra],
    SupportsReset[ObsT_co],
    SupportsRender,
    SupportsClose,
    HasSpaces,
    Protocol[ObsT_co, ActT_contra],
):
    """A single-agent environment with seeded resets and a fixed render mode.

    The members come from the building blocks it is composed of; ``metadata`` is required by rule ENV-003 but is
    not a static member (see the module docstring): ask for ``HasMetadata`` as well where code reads it.

    ENV-021 is a SHOULD, not a MUST. Gymnasium's own tools need several live instances of one env in one process:
    ``SyncVectorEnv`` (``make_vec``'s ``"sync"`` mode) builds ``num_envs`` of them side by side, and a training loop
    that evaluates keeps an evaluation env open beside the training one. But nothing in ``Env``'s API promises it,
    and an env that cannot (an emulator with process-wide state) is still usable one instance per process, as
    ``AsyncVectorEnv``'s worker processes use it: a limitation users must know of before they vectorize, not an API
    break. The suite reports it once, as ENV-021, and checks every other rule that needs two live instances with
    the second one in a process of its own.

    Rules:
        [ENV-001] MUST expose ``action_space`` and ``observation_space`` that satisfy the ``Space`` protocol.
        [ENV-002] MUST keep its spaces fixed: ``action_space`` and ``observation_space`` compare equal before and
            after any sequence of ``reset`` and ``step`` calls (or, for spaces without equality, remain the same
            unmodified objects).
        [ENV-003] MUST expose ``metadata`` as a mapping with string keys.
        [ENV-021] SHOULD allow several live instances in one process: a second instance constructed while the
            first is open constructs, resets and steps, and the first keeps working beside it.
        [ENV-025] SHOULD NOT change class-level ``metadata`` when constructed: the ``metadata`` a class (or a base
            class, ``gymnasium.Env`` included) declares keeps its value however many instances are built, and one
            instance's ``metadata`` does not change when another is built.
        [ENV-026] MUST return the same space objects on every access: reading ``action_space`` or
            ``observation_space`` twice gives one object, so ``env.action_space.seed(s)`` seeds the space that
            later reads sample from.

    Calibration:
        ENV-025: Gymnasium documents ``metadata`` as a class-level description (``metadata: dict[str, Any] =
        {"render_modes": []}`` on ``Env``, "the metadata of the environment") and says nothing of changing it, so
        it is a SHOULD NOT. A constructor that writes into the dict it inherits (``self.metadata["render_fps"] =
        ...``) changes it for every instance of the class, and for every env in the process when the dict is
        ``gymnasium.Env.metadata``; an env that needs per-instance metadata assigns a new dict. The check
        re-executes the defining module of every class on the instance's MRO that declares ``metadata`` (a fresh
        copy, never imported into ``sys.modules``) and compares the declared value with the live one, then builds
        a second instance and compares again; a module that cannot be re-executed (an extension module) is not
        checked.
        ENV-026: Gymnasium's ``Env`` says "to get reproducible sampling of actions, a seed can be set with
        ``env.action_space.seed(123)``", which only works on a space that outlives the attribute read. The check
        reads each space twice and, when the two reads are different objects, seeds one read and samples another
        twice; it fails when the samples are not reproducible (a property that builds an equal space with its own
        generator each time defeats the documented idiom, whatever the space's value).
    """

    def step(
        self: _ActionsFit[_SpaceActT], action: ActT_contra, /
    ) -> tuple[ObsT_co, SupportsFloat, bool, bool, InfoDict]:
        """Advance the environment by one step (see :meth:`SupportsStep.step`).

        The ``self`` annotation ties ``step`` to ``action_space`` for pyright (see the module docstring).
        """
        ...

    @property
    def action_space(self: _StepTakes[_SpaceActT]) -> Space[_SpaceActT]:
        """The space every valid action belongs to: each element is an action ``step`` accepts.

        The ``self`` annotation ties ``action_space`` to ``step`` for mypy (see the module docstring).
        """
        ...


AnyEnv: TypeAlias = "Env[Any, Any]"
"""An env whose observation and action types are not known statically (what ``unwrapped`` gives back)."""


@runtime_checkable
class HasMetadata(Protocol):
    """An env (or vector env) whose ``metadata`` is read statically.

    Under pyright a ``metadata: ClassVar[...]`` declaration does not satisfy this property; declare it without
    ``ClassVar`` (as Gymnasium does) where code needs this protocol.
    """

    @property
    def metadata(self) -> Metadata:
        """Static facts: ``render_modes``, ``render_fps`` and free-form entries."""
        ...


@runtime_checkable
class HasNpRandom(Protocol):
    """An env that exposes its random generator."""

    @property
    def np_random(self) -> np.random.Generator:
        """The generator every random decision of the env draws from (created lazily).

        Rules:
            [SEED-011] SHOULD report the seed it was built from: after ``reset(seed=s)``, ``np_random_seed`` equals
                ``s`` when the env exposes ``np_random_seed``.
        """
        ...


@runtime_checkable
class HasSpec(Protocol):
    """An env that knows how it was made (``None`` when constructed directly)."""

    @property
    def spec(self) -> EnvSpecLike | None:
        """The spec ``make`` used, or ``None``."""
        ...


@runtime_checkable
class HasUnwrapped(Protocol):
    """An env that can strip its wrappers."""

    @property
    def unwrapped(self) -> AnyEnv:
        """The innermost, unwrapped env (``self`` for an env that is not a wrapper)."""
        ...


@runtime_checkable
class SupportsWrapperAttrs(Protocol):
    """Explicit attribute access through a wrapper stack (Gymnasium 1.x has no implicit forwarding)."""

    def has_wrapper_attr(self, name: str, /) -> bool:
        """Whether any layer, outermost first, defines ``name``."""
        ...

    def get_wrapper_attr(self, name: str, /) -> object:
        """The value of ``name`` on the outermost layer that defines it."""
        ...

    def set_wrapper_attr(self, name: str, value: object, /, *, force: bool = True) -> bool:
        """Set ``name`` on the outermost layer that defines it (or on this layer when ``force``)."""
        ...
