"""A registry over the broken library, for the catalog's registered-id targets (``--registry`` names this module).

``make("<module>/<Class>-v0", **kwargs)`` calls ``tests.meta.broken.<module>:<Class>`` with the keyword arguments
as given — no spec, no wrappers, no checks of its own — so an id made here behaves exactly as its entry point does.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

__all__ = ["make"]

_ID = re.compile(r"^(?P<module>\w+)/(?P<name>\w+)-v\d+$")


def make(id: str, **kwargs: Any) -> Any:
    """Make the env registered as ``id`` (``"<module>/<Class>-v<N>"``) with ``kwargs``."""
    found = _ID.match(id)
    if found is None:
        raise ValueError(f"make id must be '<module>/<Class>-v<N>' naming a class of tests.meta.broken, got {id!r}")
    entry_point = getattr(importlib.import_module(f"tests.meta.broken.{found['module']}"), found["name"])
    return entry_point(**kwargs)
