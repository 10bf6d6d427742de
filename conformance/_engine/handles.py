"""Recorded, guarded access to the objects under test.

Checks never call a target directly: they call through a :class:`Handle`, which (1) appends the call to the
example's :class:`~conformance._engine.record.Trace`, (2) runs it through the run's
:class:`~conformance._engine.watchdog.Guard` (which knows the render mode of the instance, for crashes of ``human``
rendering), and
(3) turns any exception the target raises into a :class:`TargetError` naming the call, so the check can decide
whether that exception is the violation it looks for or a reason it cannot check anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeAlias

from conformance._engine.describe import describe_exception, is_mapping
from conformance._engine.evidence import Tally
from conformance._engine.outcomes import NotCheckable
from conformance._engine.record import Trace, source
from conformance._engine.remote import Remote
from conformance._engine.watchdog import Guard

__all__ = ["Binder", "ConstructionFailed", "Handle", "TargetError"]


class TargetError(Exception):
    """The target raised while the suite called it.

    Args:
        call: Source of the call, e.g. ``"env.step(np.int64(1))"``.
        method: The method (or ``"construct"``) that raised.
        error: The exception the target raised.
        mode: The render mode of the instance that raised (``""`` for none).
        worked: Whether the instance's render mode demonstrably works here: an earlier call on it returned (in
            ``"human"`` mode, where ``reset`` and ``step`` draw too), or an earlier ``render()`` did (another mode).
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


class ConstructionFailed(BaseException):
    """A construction deferred to the first use of its handle raised (:data:`Binder`).

    It is no :class:`Exception`, so a check that catches the target's errors around that first call (``step`` before
    ``reset`` must raise, say) does not take the construction's failure for the call's:
    :class:`~conformance._engine.case.Case` translates it as it translates a failed construction.

    Args:
        error: The construction's failure.
    """

    def __init__(self, error: TargetError) -> None:
        super().__init__(str(error))
        self.error = error


Binder: TypeAlias = Callable[[bool], Any]
"""Builds (or finds) the instance a deferred handle stands for, on its first use; the argument says whether that use
is a seeded ``reset`` (which a recycled instance may serve). Raises :class:`ConstructionFailed`."""


def _alone() -> bool:
    return False


class Handle:
    """A target object (env, wrapper layer or space) seen through the trace and the guard.

    A handle of a costly target's construction may be *deferred* (``binder``): its instance is chosen on its first
    use, untouched or recycled (:mod:`conformance._engine.shelf`). Whether the check closed the instance, saw a
    call on it raise, or took the raw object is remembered: only an instance with none of these may be recycled.

    Args:
        obj: The object under test (``None`` for a deferred handle).
        var: Its variable name in the reproducer (``"env"``, ``"env_b"``, ``"space"``).
        trace: Where calls are recorded.
        guard: What times them.
        mode: The render mode the instance was constructed with (``""`` for none).
        binder: For a deferred handle, what finds its instance on first use.
        tally: Where the calls that return are counted (the item's evidence).
        instance: Whether it is one of the target's instances (not a layer or a space of one).
    """

    def __init__(
        self, obj: Any, var: str, trace: Trace, guard: Guard, mode: str = "", binder: Binder | None = None, *,
        tally: Tally | None = None, instance: bool = False,
    ) -> None:
        self._obj = obj
        self._tally = tally
        self.instance = instance
        self.on_rejected: Callable[[TargetError], None] | None = None
        """What a rollout does with a ``step`` that raised on an element of the action space (the env rejects it)
        before it steps on with another action; ``None``: the error ends the rollout (the rule owns ``step``)."""
        self._binder = binder
        self.var = var
        self.mode = mode
        self.worked = False
        self.closed = False
        """Whether the check called ``close`` on it."""
        self.exposed = False
        """Whether the check took the raw object (and may have done anything with it)."""
        self.failed = False
        """Whether a call on it raised or did not return."""
        self.key: str | None = None
        """A deferred handle's construction kwargs, as the shelf keys them (``None``: never recycled)."""
        self.beside: Callable[[], bool] = _alone
        """Whether another instance of the target is live in this process beside this one now (the case that made
        it says): a call made then has a shape of its own (:func:`~conformance._engine.watchdog.call_shape`)."""
        self.remote: Remote | None = obj if isinstance(obj, Remote) else None
        """Where the instance lives when it lives in a process of its own (:mod:`conformance._engine.remote`)."""
        if self.remote is not None:
            self._obj = None
        self._trace = trace
        self._guard = guard

    @property
    def raw(self) -> Any:
        """The object itself (a deferred handle's first use: a fresh or untouched instance).

        Raises:
            NotCheckable: The instance lives in another process (a target allowing one live instance, ENV-021).
        """
        obj = self._bind(reusable=False)
        if self.remote is not None:
            raise NotCheckable(
                f"{self.var} lives in a process of its own (the target allows one live instance per process, "
                "ENV-021), and this check needs the object itself"
            )
        self.exposed = True  # whatever the check does with it, the suite no longer knows its state
        return obj

    @property
    def tally(self) -> Tally | None:
        """Where its calls are counted (``None``: nowhere)."""
        return self._tally

    @property
    def bound(self) -> bool:
        """Whether the handle has its instance (a deferred one gets it on its first use)."""
        return self._binder is None

    @property
    def held(self) -> Any:
        """The instance, for the suite's own cleanup (``None`` when a deferred handle was never used)."""
        return self._obj

    def _bind(self, *, reusable: bool) -> Any:
        if self._binder is not None:
            found = self._binder(reusable)
            self._binder = None
            if isinstance(found, Remote):
                self.remote = found
            else:
                self._obj = found
        return self._obj

    def _do(self, obj: Any, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        remote = self.remote
        if remote is not None:
            return remote.call(method, args, kwargs)
        return getattr(obj, method)(*args, **kwargs)

    def _read(self, obj: Any, name: str) -> Any:
        remote = self.remote
        return remote.get(name) if remote is not None else getattr(obj, name)

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
        seed = kwargs.get("seed")
        obj = self._bind(reusable=method == "reset" and isinstance(seed, int) and not isinstance(seed, bool))
        if method == "close":
            self.closed = True
        counted: dict[str, Any] = kwargs
        options: Any = kwargs.get("options")
        if self._tally is not None and is_mapping(options):
            # The options as given: a target may take entries out of the caller's dict (Gymnasium's vector envs pop
            # reset_mask, AUTORESET-011's finding), and the tally reads which sub-envs a partial reset chose.
            counted = {**kwargs, "options": {**options}}
        started = time.perf_counter()
        try:
            result = self._guard.call(
                label, lambda: self._do(obj, method, args, kwargs), method=method, mode=self.mode, arguments=kwargs,
                beside=self.beside(),
            )
        except BaseException as exc:
            self.failed = True
            if not isinstance(exc, (Exception, SystemExit)):
                raise
            raise TargetError(
                self._describe(method, args, kwargs), method, exc, mode=self.mode, worked=self.worked
            ) from exc
        if self._tally is not None:
            self._tally.returned(self, method, counted, result, self.mode, instance=self.instance,
                                 seconds=time.perf_counter() - started)
        # Outside human mode only render() draws: a reset that returned says nothing about the display.
        self.worked = self.worked or method == "render" or self.mode == "human"
        return result

    def passed_over(self, why: str) -> None:
        """The latest call raised and the check goes on past it: the reproducer makes it inside ``try``."""
        self._trace.raised(why)

    def get(self, name: str) -> Any:
        """Read an attribute under the watchdog (properties can run arbitrary code).

        Raises:
            TargetError: If reading the attribute raised (``AttributeError`` included).
        """
        obj = self._bind(reusable=False)
        try:
            return self._guard.call(f"{self.var}.{name}", lambda: self._read(obj, name), method=name, mode=self.mode)
        except BaseException as exc:
            self.failed = True
            if not isinstance(exc, (Exception, SystemExit)):
                raise
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
