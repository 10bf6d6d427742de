"""The reproducer: the record of what one check did to its target, rendered as a script that replays it, with values
rendered as Python source.

**The trace.** The record of what one check did to its target, rendered as a script that replays it.

Every construction and every call the suite makes through a :class:`~conformance._engine.handles.Handle` is appended
to the current :class:`Trace`. When a rule fails, the trace *of the shrunk example* becomes the reproducer: imports,
constructions, then the calls, with runs of ``step`` calls folded into a ``for`` loop over literal actions.

**Values as source.** Render values as Python source, so a failure's reproducer can be pasted into a script and run.

Only the value kinds that actions, seeds, options and constructor kwargs take are rendered exactly (NumPy arrays and
scalars, Python scalars, strings, tuples, lists, dicts); anything else becomes ``not_literal('<repr>')``, which
fails loudly when run, because a reproducer that says "this part is not literal" beats one that silently lies.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance._engine.describe import (
    is_array,
    is_dict,
    is_list,
    is_mapping,
    is_scalar,
    is_tuple,
    rebuilt_dict,
    rebuilt_tuple,
)

__all__ = [
    "Trace",
    "copied",
    "returned",
    "snapshot",
    "source",
]


# --- The trace -----------------------------------------------------------------------------------------------------

_ACTIONS_PER_LINE = 6


# Values that cannot change after the fact: every call's action or seed is one, so they are told apart first.
_ATOMS = (int, float, complex, str, bytes, type(None), np.generic)


def _atom(value: object) -> bool:
    """Whether ``value`` cannot change after the fact (a number, a string, a NumPy scalar, ``None``)."""
    return isinstance(value, _ATOMS)


def snapshot(value: Any) -> Any:
    """Copy the mutable parts (arrays, containers) of a value the target might modify after the fact."""
    if _atom(value):
        return value
    if is_array(value):
        return value.copy()
    if type(value) is tuple:
        return tuple([snapshot(item) for item in value])  # pyright: ignore[reportUnknownVariableType]
    if is_tuple(value):
        return rebuilt_tuple(value, (snapshot(item) for item in value))
    if is_list(value):
        return [snapshot(item) for item in value]
    if is_dict(value):
        # The dict's own type: a defaultdict copied as a plain dict would compare as a changed value.
        return rebuilt_dict(value, ((key, snapshot(item)) for key, item in value.items()))
    return value


def returned(var: str, method: str = "") -> str:
    """The expression of the list of what ``var.method`` returned in a reproducer, for its expectations
    (:meth:`Trace.expect`): ``results['env']`` for ``reset`` and ``step`` (one list, in order), else
    ``results['space.sample']``. A call other than ``reset``/``step`` is recorded into its list only when an
    expectation reads it (names that expression)."""
    return f"results[{_key(var, method)!r}]"


def _key(var: str, method: str) -> str:
    return var if method in ("", "reset", "step") else f"{var}.{method}"


def copied(var: str, method: str = "", part: str = "") -> str:
    """The expression of the list of copies a reproducer takes of what ``var.method`` returned (its ``part``, e.g.
    ``"[0]"`` for the observation of a ``step``), each right after the call, for expectations that compare what a
    call returned with what it holds later (a buffer the target reuses): ``copies['env[0]']`` beside
    ``results['env']``. The script takes them only when an expectation names that expression."""
    return f"copies[{_key(var, method) + part!r}]"


_COPIES = re.compile(r"copies\['([^']*)'\]")


@dataclass
class _Entry:
    kind: str  # "construct" | "call" | "line"
    var: str = ""
    method: str = ""
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict[str, Any])
    text: str = ""
    raised: str = ""  # a call that raised and was passed over: why, for the script's comment


class Trace:
    """An append-only log of constructions and calls.

    Args:
        imports: Import lines the target's construction needs.
    """

    def __init__(self, imports: tuple[str, ...] = ()) -> None:
        self._imports = ["import random", "import numpy as np", *imports]
        self._entries: list[_Entry] = []
        self._checks: list[str] = []
        self._dropped: set[str] = set()
        self.steps = 0
        """How many ``step`` calls were recorded (for the run's statistics)."""
        self.seed: int | None = None
        """The seed of the first ``reset(seed=...)`` recorded: a failure names it, so no check has to."""

    def expect(self, *lines: str, imports: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> None:
        """End the script with ``lines``: an assertion that fails while the defect exists and passes once it is
        fixed. They may read ``results[var]``, the list of what ``var.reset``/``var.step`` returned, in order,
        the list of what another method returned (:func:`returned`; the script then records them) and copies of
        what a call returned, taken right after it (:func:`copied`). ``drop``: variables whose construction and
        calls leave the replay, because ``lines`` make that construction themselves (a fixed target raises there).
        """
        for line in imports:
            self.require(line)
        self._checks.extend(lines)
        self._dropped.update(drop)

    def __len__(self) -> int:
        return len(self._entries)

    def require(self, import_line: str) -> None:
        """Add an import line to the script (once)."""
        if import_line not in self._imports:
            self._imports.append(import_line)

    def construct(self, var: str, expression: str) -> None:
        """Record ``var = expression``."""
        self._entries.append(_Entry("construct", var=var, text=expression))

    def call(self, var: str, method: str, *args: Any, **kwargs: Any) -> None:
        """Record ``var.method(*args, **kwargs)`` (arguments are snapshotted)."""
        if method == "step":
            self.steps += 1
        seed = kwargs.get("seed")
        if method == "reset" and self.seed is None and isinstance(seed, int) and not isinstance(seed, bool):
            self.seed = seed
        kept = args if all(_atom(arg) for arg in args) else snapshot(args)  # an action is mostly one value
        kwargs_kept: dict[str, Any] = snapshot(kwargs) if kwargs else {}
        self._entries.append(_Entry("call", var=var, method=method, args=kept, kwargs=kwargs_kept))

    def raised(self, why: str) -> None:
        """Mark the latest call as one that raised and was passed over (an action the env rejects, avoided by a rule
        that does not own ``step``): the script makes it inside ``try``, so it replays past it."""
        for entry in reversed(self._entries):
            if entry.kind == "call":
                entry.raised = why
                return

    def line(self, text: str) -> None:
        """Record a literal source line (e.g. a global-RNG reseed a check performs)."""
        self._entries.append(_Entry("line", text=text))

    def _call_source(self, entry: _Entry) -> str:
        args = [source(arg) for arg in entry.args]
        args += [f"{key}={source(value)}" for key, value in entry.kwargs.items()]
        return f"{entry.var}.{entry.method}({', '.join(args)})"

    def _step_loop(self, var: str, actions: list[Any]) -> list[str]:
        entry = _Entry("call", var=var, method="step")
        if len(actions) == 1:
            return self._captured(entry, f"{var}.step({source(actions[0])})")
        rendered = [source(action) for action in actions]
        rows = [", ".join(rendered[i : i + _ACTIONS_PER_LINE]) for i in range(0, len(rendered), _ACTIONS_PER_LINE)]
        lines = ["for action in ["]
        lines += [f"    {row}," for row in rows]
        lines += ["]:", *(f"    {line}" for line in self._captured(entry, f"{var}.step(action)"))]
        return lines

    def _copied_parts(self, key: str) -> list[str]:
        """The parts of ``key``'s results the expectations read copies of (:func:`copied`)."""
        names = dict.fromkeys(name for line in self._checks for name in _COPIES.findall(line))
        return [name[len(key):] for name in names if name == key or name.startswith(f"{key}[")]

    def _captured(self, entry: _Entry, call: str) -> list[str]:
        if not self._checks:
            return [call]
        key = _key(entry.var, entry.method)
        parts = self._copied_parts(key)
        # reset/step always (the rollout comparisons read them); another method only when an expectation does.
        if not (entry.method in ("reset", "step") or parts
                or any(returned(entry.var, entry.method) in line for line in self._checks)):
            return [call]
        lines = [f"results.setdefault({key!r}, []).append({call})"]
        for part in parts:
            # Taken at once: what the call returned may be a buffer the target writes again later.
            lines.append(f"copies.setdefault({key + part!r}, []).append(copy.deepcopy(results[{key!r}][-1]{part}))")
        return lines

    def script(self) -> str:
        """The trace as a runnable script (one statement per line, consecutive steps folded), ending with the
        expectations (:meth:`expect`) when the failing check gave any.

        The global generators are pinned first: a target that reads them replays the same way every run."""
        # Pinned before the target is imported: a target that draws from them at import replays too.
        copies = any(_COPIES.search(line) for line in self._checks)
        first = ["import copy"] if copies and "import copy" not in self._imports else []
        lines = [*first, *self._imports[:2], "np.random.seed(0)", "random.seed(0)", *self._imports[2:]]
        if self._checks:
            lines.append("results = {}  # what each env's reset and step returned, in order")
        if copies:
            lines.append("copies = {}  # copies of what some calls returned, taken right after each call")
        entries = [entry for entry in self._entries if entry.var not in self._dropped or entry.kind == "line"]
        i = 0
        while i < len(entries):
            entry = entries[i]
            if entry.kind == "construct":
                lines.append(f"{entry.var} = {entry.text}")
            elif entry.kind == "line":
                lines.append(entry.text)
            elif entry.raised:
                lines += ["try:", f"    {self._call_source(entry)}", f"except Exception:  # {entry.raised}",
                          "    pass"]
            elif entry.method == "step" and len(entry.args) == 1 and not entry.kwargs:
                actions = [entry.args[0]]
                while (
                    i + 1 < len(entries)
                    and entries[i + 1].kind == "call"
                    and entries[i + 1].var == entry.var
                    and entries[i + 1].method == "step"
                    and len(entries[i + 1].args) == 1
                    and not entries[i + 1].raised
                ):
                    i += 1
                    actions.append(entries[i].args[0])
                lines += self._step_loop(entry.var, actions)
            else:
                lines += self._captured(entry, self._call_source(entry))
            i += 1
        lines += self._checks
        return "\n".join(lines)


# --- Values as source ----------------------------------------------------------------------------------------------

def _not_literal(value: object) -> str:
    return f"not_literal({repr(value)!r})"


def _float(value: float) -> str:
    if math.isnan(value):
        return "float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "-float('inf')"
    return repr(value)


def _nested(value: object) -> str:
    """Source of the nested lists ``ndarray.tolist()`` produces, spelling non-finite floats out."""
    if is_list(value):
        return "[" + ", ".join(_nested(item) for item in value) + "]"
    if isinstance(value, float):
        return _float(value)
    return repr(value)


def _array(value: np.ndarray[Any, Any]) -> str:
    if value.dtype.kind not in "biufcU":
        return _not_literal(value)
    return f"np.array({_nested(value.tolist())}, dtype=np.{value.dtype.name})"


def source(value: object) -> str:
    """Return Python source that evaluates to ``value`` (given ``import numpy as np``).

    Args:
        value: The value to render.

    Returns:
        A source expression; values that cannot be written literally are rendered with ``repr`` followed by a
        ``# not literal`` comment.
    """
    # NumPy first: np.float64 is also a Python float.
    if is_array(value):
        return _array(value)
    if is_scalar(value) and isinstance(value, np.bool_):
        return f"np.bool_({bool(value)})"
    if is_scalar(value) and value.dtype.kind in "iuf":
        item = value.item()
        text = _float(item) if isinstance(item, float) else repr(item)
        return f"np.{value.dtype.name}({text})"
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return repr(value)
    if isinstance(value, float):
        return _float(value)
    if is_tuple(value):
        inner = ", ".join(source(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if is_list(value):
        return "[" + ", ".join(source(item) for item in value) + "]"
    if is_mapping(value):
        return "{" + ", ".join(f"{source(k)}: {source(v)}" for k, v in value.items()) + "}"
    return _not_literal(value)
