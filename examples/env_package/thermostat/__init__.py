"""A thermostat env package, the example of adopting the conformance suite (see ``pyproject.toml``)."""

from __future__ import annotations

from .envs import ThermostatEnv

__all__ = ["ThermostatEnv"]
