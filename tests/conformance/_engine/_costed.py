"""A correct env whose every call costs a known amount of time on a fake clock (for the cost meter's tests).

The clock advances only inside the env's own code (and its action space's): constructing it, ``reset``, ``step``,
``render``, ``close``, reading its observation space, and seeding, sampling or asking its action space. A run of the
suite whose meter reads :data:`CLOCK` therefore sees no time pass outside the target's calls: any fake second an item
spends that its record does not count as target time is a call into the target the meter missed.
"""

from __future__ import annotations

from typing import Any

from tests.meta.broken._base import Walk
from tests.meta.broken._spaces import Discrete

__all__ = ["CLOCK", "COSTS", "Costed", "FakeClock"]


class FakeClock:
    """Seconds that pass only when :meth:`advance` is called."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def now(self) -> float:
        """The time so far."""
        return self.seconds

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.seconds += seconds


CLOCK = FakeClock()
COSTS = {"construct": 2.0, "reset": 0.5, "step": 0.25, "render": 0.125, "close": 0.0625, "space": 0.03125}
"""What each kind of call costs on :data:`CLOCK` (binary fractions: sums of them stay exact)."""


class _CostedDiscrete(Discrete):
    def seed(self, seed: int | None = None) -> int:
        CLOCK.advance(COSTS["space"])
        return super().seed(seed)

    def sample(self) -> Any:
        CLOCK.advance(COSTS["space"])
        return super().sample()

    def contains(self, x: object) -> bool:
        CLOCK.advance(COSTS["space"])
        return super().contains(x)


class Costed(Walk):
    """:class:`~tests.meta.broken._base.Walk`, each call costing :data:`COSTS` on :data:`CLOCK`."""

    def __init__(self, render_mode: str | None = None) -> None:
        CLOCK.advance(COSTS["construct"])
        super().__init__(render_mode)
        self.action_space = _CostedDiscrete(3)

    @property
    def observation_space(self) -> Any:
        CLOCK.advance(COSTS["space"])
        return self._observations

    @observation_space.setter
    def observation_space(self, space: Any) -> None:
        self._observations = space

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        CLOCK.advance(COSTS["reset"])
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        CLOCK.advance(COSTS["step"])
        return super().step(action)

    def render(self) -> Any:
        CLOCK.advance(COSTS["render"])
        return super().render()

    def close(self) -> None:
        CLOCK.advance(COSTS["close"])
        super().close()
