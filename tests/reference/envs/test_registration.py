"""Tests for reference.envs.registration, Gymnasium's module path of the registry."""

from __future__ import annotations

import reference
import reference.envs.registration as registration
import reference.registration as canonical


def test_names_are_the_canonical_objects() -> None:
    for name in registration.__all__:
        assert getattr(registration, name) is getattr(canonical, name), name
    assert registration.registry is reference.registry


def _current() -> object:
    return registration.current_namespace


def test_current_namespace_follows_namespace_blocks() -> None:
    assert _current() is None
    with registration.namespace("alias_ns"):
        assert _current() == "alias_ns"
        registration.register(id="Probe-v0", entry_point="reference.envs.classic_control.cartpole:CartPoleEnv")
    assert _current() is None
    try:
        assert "alias_ns/Probe-v0" in reference.registry
    finally:
        del reference.registry["alias_ns/Probe-v0"]


def test_unknown_names_raise_attribute_error() -> None:
    assert not hasattr(registration, "no_such_name")
