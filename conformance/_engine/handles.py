"""Recorded, watchdog-guarded access to the objects under test.

Checks never call a target directly: they call through a :class:`Handle`, which (1) appends the call to the
example's :class:`~conformance._engine.record.Trace`, (2) runs it under the :class:`~conformance._engine.watchdog.Watchdog`, and
(3) turns any exception the target raises into a :class:`TargetError` naming the call, so the check can decide
whether that exception is the violation it looks for or a reason it cannot check anything.
"""

from __future__ import annotations

from typing import Any

from conformance._engine.describe import describe_exception
from conformance._engine.record import Trace
from conformance._engine.source import source
from conformance._engine.watchdog import Watchdog

__all__ = ["Handle", "TargetError"]


class TargetError(Exception):
    """The target raised while the suite called it.

    Args:
        call: Source of the call, e.g. ``"env.step(np.int64(1))"``.
        method: The method (or ``"construct"``) that raised.
        error: The exception the target raised.
    """

    def __init__(self, call: str, method: str, error: BaseException) -> None:
        super().__init__(f"{call} raised {describe_exception(error)}")
        self.call = call
        self.method = method
        self.error = error


class Handle:
    """A target object (env, wrapper layer or space) seen through the trace and the watchdog.

    Args:
        obj: The object under test.
        var: Its variable name in the reproducer (``"env"``, ``"env_b"``, ``"space"``).
        trace: Where calls are recorded.
        watchdog: What times them.
    """

    def __init__(self, obj: Any, var: str, trace: Trace, watchdog: Watchdog) -> None:
        self.raw = obj
        self.var = var
        self._trace = trace
        self._watchdog = watchdog

    def call(self, method: str, *args: Any, record: bool = True, **kwargs: Any) -> Any:
        """Call ``obj.method(*args, **kwargs)``, recorded and guarded.

        Args:
            method: The method name.
            *args: Positional arguments.
            record: Whether the call goes into the reproducer.
            **kwargs: Keyword arguments.

        Returns:
            What the method returned.

        Raises:
            TargetError: If the method (or looking it up) raised.
        """
        if record:
            self._trace.call(self.var, method, *args, **kwargs)
        label = f"{self.var}.{method}"
        try:
            return self._watchdog.call(label, lambda: getattr(self.raw, method)(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - any exception of the target is data for the check
            raise TargetError(self._describe(method, args, kwargs), method, exc) from exc

    def get(self, name: str) -> Any:
        """Read an attribute under the watchdog (properties can run arbitrary code).

        Raises:
            TargetError: If reading the attribute raised (``AttributeError`` included).
        """
        try:
            return self._watchdog.call(f"{self.var}.{name}", lambda: getattr(self.raw, name))
        except Exception as exc:  # noqa: BLE001
            raise TargetError(f"{self.var}.{name}", name, exc) from exc

    def has(self, name: str) -> bool:
        """Whether the attribute exists (reading it does not raise)."""
        try:
            self.get(name)
        except TargetError:
            return False
        return True

    def _describe(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        parts = [source(arg) for arg in args] + [f"{key}={source(value)}" for key, value in kwargs.items()]
        text = ", ".join(parts)
        if len(text) > 200:
            text = text[:200] + "..."
        return f"{self.var}.{method}({text})"

    # --- the Env API -------------------------------------------------------------------------------------------

    def reset(self, **kwargs: Any) -> Any:
        """``env.reset(**kwargs)``."""
        return self.call("reset", **kwargs)

    def step(self, action: Any) -> Any:
        """``env.step(action)``."""
        return self.call("step", action)

    def render(self) -> Any:
        """``env.render()``."""
        return self.call("render")

    def close(self) -> None:
        """``env.close()``."""
        self.call("close")
