"""Every broken registry (:class:`tests.meta.catalog.Broken`): module ``reg_NNN`` breaks rule ``REG-NNN``.

A registry breaks one rule in how it makes envs, so there is nothing a change could break alongside it: no
collateral. The meta-test names each with ``--registry`` and makes a correct env's id from it as an env and as a
vector env (:mod:`tests.meta.test_broken_registries`).
"""

from __future__ import annotations

from tests.meta.catalog import Broken

__all__ = ["BROKEN"]

BROKEN: tuple[Broken, ...] = tuple(
    Broken(f"REG-{n:03d}", f"tests.meta.broken_registry.reg_{n:03d}", "--registry") for n in range(1, 10)
)
