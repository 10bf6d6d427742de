"""Environment ids, specs and the ``make`` entry points of a registry.

The id grammar is part of the specification, so it is given here as data (:data:`ENV_ID_PATTERN`) that any
registry can check ids against.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from gymspec._typing import Value

__all__ = [
    "ENV_ID_PATTERN",
    "EnvSpecLike",
    "SupportsMake",
    "SupportsMakeVec",
]

ENV_ID_PATTERN: re.Pattern[str] = re.compile(r"^(?:(?P<namespace>[\w:-]+)/)?(?P<name>[\w:.-]+?)(?:-v(?P<version>\d+))?$")
"""``[namespace/]Name[-vN]``: an optional namespace, a name, and an optional integer version."""


@runtime_checkable
class EnvSpecLike(Protocol):
    """What an env's ``spec`` records about how it was made.

    Rules:
        [REG-001] MUST carry an ``id`` that matches :data:`ENV_ID_PATTERN` (``[namespace/]Name[-vN]``).
        [REG-002] MUST let the env be made again: making an env again from its ``spec`` gives an env with equal spaces that
            replays the same seeded trajectory.
    """

    @property
    def id(self) -> str:
        """The registered id the env was made from."""
        ...

    @property
    def nondeterministic(self) -> bool:
        """Whether the env's dynamics are not reproducible from a seed (the seeding rules then do not apply)."""
        ...

    @property
    def max_episode_steps(self) -> int | None:
        """The step count at which ``make`` truncates episodes, or ``None`` for no limit."""
        ...

    @property
    def kwargs(self) -> Mapping[str, Any]:
        """The keyword arguments the env's constructor received."""
        ...


@runtime_checkable
class SupportsMake(Protocol):
    """A registry that builds envs from ids (a module such as ``gymnasium`` or ``reference`` satisfies it).

    The keyword arguments are typed ``Value``: a registry's ``make`` names some of them with precise types
    (``max_episode_steps: int | None``), which both checkers reject against ``**kwargs: object``. ``id`` is an
    ordinary parameter, as in Gymnasium (``make(id="CartPole-v1")`` is valid): were it positional-only, a caller
    could pass ``id=`` through ``**kwargs``, which mypy rightly finds incompatible with every registry.
    """

    def make(self, id: str, **kwargs: Value) -> object:
        """Build the env registered under ``id``.

        Rules:
            [REG-003] MUST record the id it was asked for: for a fully specified id (``[ns/]Name-vN``) the env
                it returns has ``spec.id`` equal to that id; for an id without a version, ``spec.id`` is that id
                (registered without a version) or that id with the version it resolved to.
            [REG-004] MUST truncate at the spec's limit: with ``spec.max_episode_steps = k`` (or the
                ``max_episode_steps=k`` keyword), an episode that has not terminated reports ``truncated`` on its
                ``k``-th step at the latest.
            [REG-005] MUST enforce the call order when ``spec.order_enforce`` is true: ``step`` before the first
                ``reset`` raises ``ResetNeeded``.
            [REG-006] MUST raise an ``UnregisteredEnv`` error (``NameNotFound``, ``VersionNotFound`` or
                ``NamespaceNotFound``) for an id that is not registered.
            [REG-007] SHOULD tell the caller about an undeclared ``render_mode`` when making the env, not at the
                first ``render``: raise, or emit a warning whose message names the mode.

        Calibration:
            REG-003 first demanded ``-vN`` of every unversioned request. Gymnasium's registry accepts ids
            registered without a version (``register("tetris_gymnasium/Tetris", ...)``; ``[ns/]Name[-vN]``, the
            version optional), and ``make`` of such an id records exactly the id requested: the rule now accepts
            that, and still fails a registry that drops or changes a requested version.
            REG-007 first asked ``make`` to raise. Gymnasium 1.4's ``make`` warns instead (``logger.warn``: "The
            environment is being initialised with render_mode=... that is not in the possible render_modes"), so
            every id made through it was warned about (all 18 ids of classic control, toy text, Box2D and MuJoCo
            checked before the change; docs/ecosystem.md): a finding about Gymnasium, repeated once per env. A warning at ``make`` gives the
            caller what the rule is for, so it now satisfies the rule; a ``make`` that drops or accepts the mode
            silently still violates it (``tests/meta/broken_registry``: ``Reg007AnyRenderMode``).
        """
        ...


@runtime_checkable
class SupportsMakeVec(Protocol):
    """A registry that builds vector envs from ids."""

    def make_vec(self, id: str, num_envs: int = 1, **kwargs: Value) -> object:
        """Build a vector env of ``num_envs`` copies of the env registered under ``id``.

        Rules:
            [REG-008] MUST return a vector env with ``num_envs`` sub-envs whose single spaces equal the spaces of
                ``make(id)``.
            [REG-009] MUST honour ``num_envs`` for every positive value: ``make_vec(id, num_envs=n)`` returns a vector
                env whose ``num_envs`` is ``n`` and whose ``reset`` returns ``n`` observations (checked for 1, 3
                and 4).

        Calibration:
            REG-008 stays a MUST for every vectorization mode, the id's vector entry point included (``make_vec``'s
            default when the spec names one). Evidence (docs/ecosystem.md): ale-py 0.12's ``AtariVectorEnv`` gives
            ``ALE/Pong-v5`` sub-envs with ``Box(0, 255, (4, 84, 84), uint8)`` observations where ``make`` gives
            ``Box(0, 255, (210, 160, 3), uint8)`` (grayscale, resized, 4 stacked frames, clipped rewards), and no
            keyword restores ``make``'s space (a stack axis remains), so code that sizes a policy from
            ``make(id).observation_space`` breaks on ``make_vec(id)``: one id, two tasks. Gymnasium's own vector
            entry point (``CartPoleVectorEnv``, for ``CartPole-v0``/``-v1``) keeps ``make``'s spaces;
            ``vectorization_mode="sync"`` is the workaround for ALE.
            REG-009: Gymnasium documents ``num_envs`` as the "number of environments to create"; REG-008 asks for
            one value only (the target's, or 2), so a ``make_vec`` that ignores the argument for other values, or
            a vector env whose ``num_envs`` attribute is right while its batches are not, went unseen.
        """
        ...
