"""What an env exposed when its own constructor returned, before anything wrapped it (WRAP-003).

A wrapper must not change the inner env's spaces or metadata. Observations cannot tell whether one did: a bare env
may return observations outside its own space (ENV-006's finding, not a wrapper's), and an env may rebuild its own
spaces on every ``reset`` (highway-env does). So the check compares objects, at the act of wrapping: while a
:class:`ConstructionWatch` is installed on the innermost env's class, every instance of exactly that class is
snapshotted when its ``__init__`` returns; once the wrapped target is built (and before any call), its
``unwrapped`` must still expose the very same objects, unchanged in value.

Reproducers use it too (``watch = ConstructionWatch.of("pkg.module", "EnvClass")`` before the construction, then an
assertion on ``watch.changes(env.unwrapped)``), so this module is importable on its own.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

from conformance._engine.describe import summarize
from conformance.equality import difference

__all__ = ["WATCHED", "ConstructionWatch"]

WATCHED: tuple[str, ...] = ("action_space", "observation_space", "metadata")
"""The attributes WRAP-003 forbids a wrapper to change on its inner env."""

_MISSING = object()


class _Kept:
    """One attribute as the constructor left it: the object itself and a deep copy of its value (``None`` when it
    cannot be copied: identity is then all that is compared)."""

    def __init__(self, obj: object) -> None:
        self.obj = obj
        try:
            self.value: object = copy.deepcopy(obj)
            self.copied = True
        except Exception:  # noqa: BLE001 - an uncopyable attribute is compared by identity only
            self.value, self.copied = None, False


class ConstructionWatch:
    """Snapshots :data:`WATCHED` of every instance of ``cls`` (exactly, not its subclasses) when its ``__init__``
    returns, until :meth:`close`.

    Args:
        cls: The innermost env's class.

    Raises:
        TypeError: If the class does not take a replacement ``__init__`` (a built-in or extension type).
    """

    def __init__(self, cls: type[Any]) -> None:
        self._cls = cls
        self._own = "__init__" in vars(cls)
        original = cls.__init__
        self._original = original
        self._seen: dict[int, dict[str, _Kept]] = {}
        seen = self._seen

        def watched_init(instance: Any, *args: Any, **kwargs: Any) -> None:
            original(instance, *args, **kwargs)
            if type(instance) is cls:
                seen[id(instance)] = {name: _Kept(getattr(instance, name, _MISSING)) for name in WATCHED}

        setattr(cls, "__init__", watched_init)  # noqa: B010 - the class attribute itself is replaced

    @classmethod
    def of(cls, module: str, qualname: str) -> ConstructionWatch:
        """A watch on the class ``module.qualname`` (how a reproducer names it)."""
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
        return cls(found)

    def close(self) -> None:
        """Give the class its own ``__init__`` back."""
        if self._own:
            setattr(self._cls, "__init__", self._original)  # noqa: B010
        else:
            delattr(self._cls, "__init__")

    def seen(self, instance: object) -> bool:
        """Whether ``instance``'s construction was watched."""
        return id(instance) in self._seen

    def changes(self, instance: object) -> str | None:
        """How ``instance``'s :data:`WATCHED` attributes differ from what its constructor left (``None``: they do
        not; an instance whose construction was not watched has nothing to compare)."""
        kept = self._seen.get(id(instance))
        if kept is None:
            return None
        for name in WATCHED:
            before = kept[name]
            now = getattr(instance, name, _MISSING)
            if now is not before.obj:
                return (f"{name} was replaced: the constructor left {_label(before.obj)}, the wrapped target's "
                        f"unwrapped env has {_label(now)}")
            if before.copied:
                found = difference(before.value, now, name)
                if found is not None:
                    return f"{name} was modified in place ({found})"
        return None


def _label(value: object) -> str:
    if value is _MISSING:
        return "no such attribute"
    text = repr(value)
    return text if len(text) <= 120 else summarize(value)
