"""Gymnasium's ``experimental`` package: :mod:`reference.experimental.functional` (the ``FuncEnv`` base class)."""

from __future__ import annotations

from reference.experimental import functional

__all__ = ["functional"]
