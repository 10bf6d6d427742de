"""Private pieces that several wrapper modules share; not part of the Gymnasium-mirrored API.

* :func:`is_int` is the check for count-like arguments (Python or NumPy integers, never ``bool``);
  :func:`require_real` rejects anything but a real number (for rates, probabilities and bounds) by name.
* :class:`StatisticsToggle` is the ``update_running_mean`` switch of the normalising wrappers, single and vector.
* :class:`AfterCallWrapper` passes ``reset`` and ``step`` through and runs a hook after each, the shape of the
  wrappers that act on every new frame (collecting, showing or recording it).
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import numpy as np

from reference.core import ActType, ObsType, Wrapper
from reference.utils._format import describe

__all__ = ["AfterCallWrapper", "StatisticsToggle", "is_int", "is_real", "require_real"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


def is_int(value: object) -> bool:
    """Whether ``value`` is a Python or NumPy integer; ``bool`` is excluded although it subclasses ``int``.

    Args:
        value: The argument to check.

    Returns:
        ``True`` for ``3`` or ``np.int64(3)``, ``False`` for ``True``, ``3.0`` or ``"3"``.
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """Whether ``value`` is a Python or NumPy integer or float; ``bool`` is excluded although it subclasses ``int``.

    Args:
        value: The argument to check.

    Returns:
        ``True`` for ``0.5``, ``3``, ``np.float32(0.5)`` or ``nan``; ``False`` for ``True``, ``"0.5"`` or an array.
    """
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def require_real(owner: str, name: str, value: object) -> None:
    """Reject a non-number before it is compared with a bound (which would fail with an unnamed ``TypeError``).

    NaN passes: the caller's range check, written so that NaN fails it, names the bound it misses.

    Args:
        owner: The wrapper's name, for the message.
        name: The parameter's name.
        value: The argument.

    Raises:
        TypeError: ``value`` is not a real number.
    """
    if not is_real(value):
        raise TypeError(f"{owner} {name} must be a real number, got {describe(value)}")


class StatisticsToggle:
    """Mixin for wrappers that keep running statistics: the ``update_running_mean`` switch.

    The class sets ``self._update_running_mean = True`` in its ``__init__`` and reads the flag before each update.
    """

    _update_running_mean: bool

    @property
    def update_running_mean(self) -> bool:
        """Whether new samples update the running statistics; ``False`` freezes them (e.g. for evaluation)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        self._update_running_mean = setting


class AfterCallWrapper(Wrapper[ObsType, ActType, ObsType, ActType]):
    """A wrapper that returns the inner ``reset`` and ``step`` results unchanged, running a hook after each.

    The hooks run after the inner call so they see the state the result describes (e.g. render its frame).
    Subclasses override :meth:`_after_reset` and :meth:`_after_step`; both do nothing by default.
    """

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment, then run the wrapper's reset hook.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        result = self.env.reset(seed=seed, options=options)
        self._after_reset()
        return result

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment, then run the wrapper's step hook.

        Args:
            action: Passed through.

        Returns:
            The inner step result.
        """
        result = self.env.step(action)
        self._after_step()
        return result

    def _after_reset(self) -> None:
        """Act on the environment just reset."""

    def _after_step(self) -> None:
        """Act on the environment just stepped."""
