"""Recorded, guarded access to the objects under test.

Checks never call a target directly: they call through a :class:`Handle`, which (1) appends the call to the
example's :class:`~conformance._engine.record.Trace`, (2) runs it through the run's
:class:`~conformance._engine.watchdog.Guard` (which knows the render mode of the instance, for crashes of ``human``
rendering), and
(3) turns any exception the target raises into a :class:`TargetError` naming the call, so the check can decide
whether that exception is the violation it looks for or a reason it cannot check anything.
"""

from __future__ import annotations

from typing import Any

from conformance._engine.describe import describe_exception
from conformance._engine.record import Trace
from conformance._engine.source import source
from conformance._engine.watchdog import Guard

__all__ = ["Handle", "TargetError"]


class TargetError(Exception):
    """The target raised while the suite called it.

    Args:
        call: Source of the call, e.g. ``"env.step(np.int64(1))"``.
        method: The method (or ``"construct"``) that raised.
        error: The exception the target raised.
        mode: The render mode of the instance that raised (``""`` for none).
        worked: Whether an earlier call on that instance returned (then its render mode demonstrably works here).
    """

    def __init__(
        self, call: str, method: str, error: BaseException, *, mode: str = "", worked: bool = False
    ) -> None:
        super().__init__(f"{call} raised {describe_exception(error)}")
        self.call = call
        self.method = method
        self.error = error
        self.mode = mode
        self.worked = worked


class Handle:
    """A target object (env, wrapper layer or space) seen through the trace and the guard.

    Args:
        obj: The object under test.
        var: Its variable name in the reproducer (``"env"``, ``"env_b"``, ``"space"``).
        trace: Where calls are recorded.
        guard: What times them.
        mode: The render mode the instance was constructed with (``""`` for none).
    """

    def __init__(self, obj: Any, var: str, trace: Trace, guard: Guard, mode: str = "") -> None:
        self.raw = obj
        self.var = var
        self.mode = mode
        self.worked = False
        self._trace = trace
        self._guard = guard

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
        label = f"{self.var}.{method}()"
        try:
            result = self._guard.call(
                label, lambda: getattr(self.raw, method)(*args, **kwargs), method=method, mode=self.mode
            )
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any exception of the target is data for the check
            raise TargetError(
                self._describe(method, args, kwargs), method, exc, mode=self.mode, worked=self.worked
            ) from exc
        self.worked = True
        return result

    def get(self, name: str) -> Any:
        """Read an attribute under the watchdog (properties can run arbitrary code).

        Raises:
            TargetError: If reading the attribute raised (``AttributeError`` included).
        """
        try:
            return self._guard.call(f"{self.var}.{name}", lambda: getattr(self.raw, name), method=name, mode=self.mode)
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            raise TargetError(f"{self.var}.{name}", name, exc, mode=self.mode, worked=self.worked) from exc

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
