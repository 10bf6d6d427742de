"""Registers ``MkModuleEnv-v0`` on import, for the ``make("module:Id")`` test."""

from __future__ import annotations

from reference.registration import register

register("MkModuleEnv-v0", entry_point="tests.reference.wrappers._envs:BoxEnv")
