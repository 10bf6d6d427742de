"""Project-wide test configuration.

Rendering tests must never open a real window or an audio device, so SDL is pointed at its dummy drivers before
any test module can import pygame.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# The project's own Hypothesis tests run on a loaded 2-core CI machine beside forked suite runs: an example's
# wall time says nothing about the code, so no test may fail for a deadline (the health checks stay on).
settings.register_profile("gymspec-tests", deadline=None)
settings.load_profile("gymspec-tests")


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "dist", None) == "load":
        # The meta-tests run the whole suite once per module in a child process (a module-scoped fixture): spread
        # over two xdist workers, each worker would run it again. Load-group scheduling keeps the items that share
        # such a fixture on one worker (pytest_collection_modifyitems marks them); every other item spreads as usual.
        config.option.dist = "loadgroup"
    if hasattr(config, "workerinput"):
        # A worker takes its options from the command line, where the scheduling above is not: it must still name
        # the marked items by their group ("node id@group"), which is how the controller keeps a group together.
        config.option.loadgroup = True


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's worker names the items by the groups marked here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        shared = sorted(_module_fixtures(item))
        if shared:
            item.add_marker(pytest.mark.xdist_group(f"{item.nodeid.split('::')[0]}:{','.join(shared)}"))


def _module_fixtures(item: pytest.Item) -> Iterator[str]:
    """The module-scoped fixtures of ``item``'s own module that it uses, with the parameter it uses them with."""
    info: Any = getattr(item, "_fixtureinfo", None)  # pytest keeps what an item's fixtures are on this attribute
    if info is None:
        return
    module = item.nodeid.split("::")[0]
    callspec: Any = getattr(item, "callspec", None)
    for name in info.names_closure:
        definitions = info.name2fixturedefs.get(name) or ()
        if definitions and definitions[-1].scope == "module" and definitions[-1].baseid == module:
            param = callspec.params.get(name) if callspec is not None else None
            yield name if param is None else f"{name}={param}"
