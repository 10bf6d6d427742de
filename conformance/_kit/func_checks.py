"""Driving a ``FuncEnv`` by direct calls, with a reproducer that names every state it passes along.

A functional env is driven with the kind of ``rng`` its functions take (:mod:`conformance._kit.func_rng`): NumPy
``Generator`` s (what the reference adapter passes), one generator for every call, or JAX PRNG keys, a fresh key
split off the stream for each step (what Gymnasium's ``FunctionalJaxEnv`` does). Each call
goes through the target's :class:`~conformance._engine.handles.Handle` unrecorded, and the :class:`Driver` writes
its own reproducer lines instead (``state_1 = func.transition(state_0, np.int64(1), rng)``), because states and
generators are not literals but variables of the script.

Exceptions of a function are violations of the rule that owns that function (``OWNERS['func']`` in
:mod:`conformance._engine.verdicts`) and make the other rules skip, naming it; ``initial`` (which no rule owns)
rejecting the rng it is given makes every rule that needs a state an error: not checked, saying which rngs the suite
drives.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from conformance._engine.case import Case
from conformance._engine.describe import describe_exception
from conformance._engine.handles import Handle, TargetError
from conformance._engine.record import source
from conformance._kit.func_rng import RngKind, rng_kind
from conformance.equality import difference

__all__ = [
    "Driver",
    "Step",
    "deep_snapshot",
    "describe",
    "generators_built",
    "truthy",
    "unchanged",
]

def truthy(value: Any) -> bool:
    """Whether a terminal flag is set (values with no truth value count as "no"; FUNC-009 reports them)."""
    try:
        return bool(value)
    except Exception:  # noqa: BLE001
        return False


@dataclass(frozen=True)
class Step:
    """One transition of a directly driven episode.

    Attributes:
        state: The state before the step (``state_k``).
        action: The action.
        next_state: The state after it.
        observation: ``observation(next_state)``.
        reward: ``reward(state, action, next_state)``.
        terminal: ``terminal(next_state)``.
    """

    state: Any
    action: Any
    next_state: Any
    observation: Any
    reward: Any
    terminal: Any


class Driver:
    """Calls a functional env's functions and writes the reproducer lines for them.

    Args:
        case: The item (for notes and the watchdog).
        func: The target instance.
        params: Passed as ``params=`` to every call when given (otherwise the functions' defaults apply).
        on_call: Called with ``(name, args, result)`` after every call.
        before_call: Called with ``(name, args)`` before every call (and before its reproducer line, so the lines
            it notes come first).
        kind: The kind of rng to drive with (default: the target's, :func:`~conformance._kit.func_rng.rng_kind`).
    """

    _NO_PARAMS: Any = object()

    def __init__(
        self,
        case: Case,
        func: Handle,
        *,
        params: Any = _NO_PARAMS,
        on_call: Callable[[str, tuple[Any, ...], Any], None] | None = None,
        before_call: Callable[[str, tuple[Any, ...]], None] | None = None,
        kind: RngKind | None = None,
    ) -> None:
        self.case = case
        self.func = func
        self.params = params
        self.on_call = on_call
        self.before_call = before_call
        self._names: dict[int, str] = {}
        self._keep: list[Any] = []  # keeps named objects alive, so their ids are not reused
        self._count = 0
        self.kind: RngKind = rng_kind(case) if kind is None else kind

    def name(self, value: Any, var: str) -> Any:
        """Call ``value`` by ``var`` in later reproducer lines."""
        self._names[id(value)] = var
        self._keep.append(value)
        return value

    def rng(self, seed: int, var: str = "rng") -> Any:
        """A new rng of the target's kind seeded with ``seed`` (``var = np.random.default_rng(seed)``)."""
        rng, expr = self.kind.new(seed)
        self.case.note(f"{var} = {expr}", imports=self.kind.imports)
        self.name(rng, var)
        return rng

    def copy_rng(self, rng: Any, var: str) -> Any:
        """An equal copy of ``rng`` (``var = copy.deepcopy(rng)``; a JAX key is its own copy)."""
        copied, expr = self.kind.copy(rng, self.src(rng))
        self.case.note(f"{var} = {expr}", imports=("import copy",) if not self.kind.is_jax else ())
        if copied is not rng:
            self.name(copied, var)
        return copied

    def child_rng(self, rng: Any, var: str) -> Any:
        """An independent child stream of ``rng`` that leaves ``rng`` as it was (``rng.spawn(1)[0]``)."""
        child, expr = self.kind.child(rng)
        self.case.note(f"{var} = {expr.format(src=self.src(rng))}")
        self.name(child, var)
        return child

    def key(self, stream: Any) -> tuple[Any, Any]:
        """The rng of one step's calls and the stream's continuation.

        A ``Generator`` is passed to every call as it is; a JAX stream is split
        (``key_1, rng_2 = jax.random.split(rng)``, as ``FunctionalJaxEnv`` does per step). The continuation gets a
        new name, so a later line that passes the original stream still means the original.
        """
        if not self.kind.is_jax:
            return stream, stream
        key, rest = self.kind.split(stream)
        name, rest_name = self.fresh("key"), self.fresh("rng")
        self.case.note(f"{name}, {rest_name} = jax.random.split({self.src(stream)})")
        self.name(key, name)
        self.name(rest, rest_name)
        return key, rest

    def src(self, value: Any) -> str:
        """How the reproducer names ``value``: its variable, else its literal source."""
        return self._names.get(id(value)) or source(value)

    def call(self, name: str, *args: Any, out: str | None = None) -> Any:
        """``func.name(*args)`` (plus ``params`` when set); the result is named ``out`` in the reproducer."""
        kwargs = {} if self.params is Driver._NO_PARAMS else {"params": self.params}
        shown = [self.src(arg) for arg in args] + [f"params={self.src(value)}" for value in kwargs.values()]
        target = f"{out} = " if out else ""
        call = f"{self.func.var}.{name}({', '.join(shown)})"
        if self.before_call is not None:
            self.before_call(name, args)
        self.case.note(target + call)
        try:
            result = self.func.call(name, *args, record=False, **kwargs)
        except TargetError as error:
            raise TargetError(call, error.method, error.error) from error.error
        if out:
            self.name(result, out)
        if self.on_call is not None:
            self.on_call(name, args, result)
        return result

    def fresh(self, prefix: str) -> str:
        """A new variable name."""
        self._count += 1
        return f"{prefix}_{self._count}"

    def initial(self, rng: Any) -> Any:
        """``state_0 = func.initial(rng)``."""
        return self.call("initial", rng, out="state_0")

    def episode(self, rng: Any, actions: Sequence[Any], *, until_terminal: bool = True) -> list[Step]:
        """Drive ``initial`` then ``transition``/``reward``/``terminal``/``observation`` per action.

        Args:
            rng: A ``Generator`` every call receives, or a JAX key stream split once per step (:meth:`key`).
            actions: The actions, in order.
            until_terminal: Stop after the first terminal state.

        Returns:
            The steps (the initial state is ``steps[0].state``, or see :meth:`initial`).
        """
        key, stream = self.key(rng)
        state = self.initial(key)
        self.call("observation", state, key, out="obs_0")
        steps: list[Step] = []
        for k, action in enumerate(actions, start=1):
            key, stream = self.key(stream)
            next_state = self.call("transition", state, action, key, out=f"state_{k}")
            reward = self.call("reward", state, action, next_state, key, out=f"reward_{k}")
            terminal = self.call("terminal", next_state, key, out=f"terminal_{k}")
            obs = self.call("observation", next_state, key, out=f"obs_{k}")
            steps.append(Step(state, action, next_state, obs, reward, terminal))
            state = next_state
            if until_terminal and truthy(terminal):
                break
        return steps


def unchanged(before: Any, after: Any, what: str) -> str | None:
    """Describe how ``after`` differs from the snapshot ``before`` (``None`` when equal)."""
    try:
        return difference(after, before, what)
    except Exception:  # noqa: BLE001 - values the suite cannot compare are not reported as mutated
        return None


def deep_snapshot(value: Any) -> Any:
    """A deep copy for later comparison (the value itself when it cannot be copied)."""
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001
        return value


def describe(error: TargetError) -> str:
    """``"func.transition(...) raised ValueError: ..."``."""
    return f"{error.call} raised {describe_exception(error.error)}"



# The factories a function would call to build a generator of its own instead of using ``rng``: (module, name,
# how a message shows the call). Only functions are replaced, never classes, so ``isinstance`` checks in the
# target keep working while they are watched.
_FACTORIES = (("numpy.random", "default_rng", "np.random.default_rng"), ("jax.random", "PRNGKey", "jax.random.PRNGKey"),
              ("jax.random", "key", "jax.random.key"))


@contextlib.contextmanager
def generators_built() -> Generator[list[str], None, None]:
    """Watch the generator factories (``np.random.default_rng``, ``jax.random.PRNGKey``/``key``) while the block runs.

    Yields:
        A list that receives one entry per factory call, such as ``"np.random.default_rng(0)"``. JAX's are watched
        only if JAX is already imported (the suite never imports it for a target).
    """
    made: list[str] = []
    saved: list[tuple[Any, str, Any]] = []
    for module_name, name, shown in _FACTORIES:
        module = sys.modules.get(module_name)
        original = getattr(module, name, None) if module is not None else None
        if original is None:
            continue

        def watched(*args: Any, _original: Any = original, _shown: str = shown, **kwargs: Any) -> Any:
            made.append(f"{_shown}({', '.join([*map(repr, args), *(f'{k}={v!r}' for k, v in kwargs.items())])})")
            return _original(*args, **kwargs)

        saved.append((module, name, original))
        setattr(module, name, watched)
    try:
        yield made
    finally:
        for module, name, original in saved:
            setattr(module, name, original)
