"""The gymspec package surface: sorted exports, errors, aliases and the small pure helpers."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gymspec
from gymspec import errors
from gymspec._typing import AutoresetMode, autoreset_mode_of
from gymspec.registry import ENV_ID_PATTERN
from gymspec.render import base_render_mode


def _modules() -> list[str]:
    return ["gymspec"] + [f"gymspec.{info.name}" for info in pkgutil.iter_modules(gymspec.__path__)]


@pytest.mark.parametrize("module_name", _modules())
def test_all_is_sorted_and_resolvable(module_name: str) -> None:
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    if exported is None:
        pytest.skip(f"{module_name} has no public names")
    assert list(exported) == sorted(exported), f"{module_name}.__all__ is not sorted"
    for name in exported:
        assert hasattr(module, name), f"{module_name}.__all__ names missing {name!r}"


def test_api_state_errors_share_one_root() -> None:
    for name in errors.__all__:
        obj = getattr(errors, name)
        if isinstance(obj, type):
            assert issubclass(obj, errors.Error)
    assert issubclass(errors.NameNotFound, errors.UnregisteredEnv)


def test_pending_call_errors_keep_the_call_name() -> None:
    assert errors.AlreadyPendingCallError("busy", "step").name == "step"
    assert errors.NoAsyncCallError("idle", "reset").name == "reset"


def test_matches_recognises_foreign_errors_by_name() -> None:
    class ResetNeeded(Exception):
        """Stands in for another library's error of the same name."""

    assert errors.matches(ResetNeeded(), errors.ResetNeeded)
    assert errors.matches(errors.NameNotFound("x"), errors.UnregisteredEnv)
    assert not errors.matches(ValueError(), errors.ResetNeeded)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_autoreset_mode_of_accepts_enum_value_and_foreign_enum(mode: AutoresetMode) -> None:
    class Foreign:
        value = mode.value

    assert autoreset_mode_of(mode) is mode
    assert autoreset_mode_of(mode.value) is mode
    assert autoreset_mode_of(Foreign()) is mode


@pytest.mark.parametrize("value", [None, "nextstep", 3, object()])
def test_autoreset_mode_of_rejects_unknown(value: object) -> None:
    assert autoreset_mode_of(value) is None


def test_autoreset_values_are_gymnasiums() -> None:
    assert [m.value for m in AutoresetMode] == ["NextStep", "SameStep", "Disabled"]


@pytest.mark.parametrize(
    ("mode", "base"),
    [("rgb_array_list", "rgb_array"), ("ansi_list", "ansi"), ("rgb_array", None), ("_list", None), ("", None)],
)
def test_base_render_mode(mode: str, base: str | None) -> None:
    assert base_render_mode(mode) == base


@pytest.mark.parametrize(
    ("env_id", "parts"),
    [
        ("CartPole-v1", (None, "CartPole", "1")),
        ("phys2d/CartPole-v0", ("phys2d", "CartPole", "0")),
        ("MyEnv", (None, "MyEnv", None)),
        ("Env-v1.2", (None, "Env-v1.2", None)),
    ],
)
def test_env_id_pattern(env_id: str, parts: tuple[str | None, str, str | None]) -> None:
    match = ENV_ID_PATTERN.match(env_id)
    assert match is not None
    assert (match["namespace"], match["name"], match["version"]) == parts


@pytest.mark.parametrize("env_id", ["ns/sub/Env-v0", "", "bad id", "Env-v1/"])
def test_env_id_pattern_rejects_malformed(env_id: str) -> None:
    assert ENV_ID_PATTERN.match(env_id) is None


@given(
    namespace=st.none() | st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True),
    name=st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True),
    version=st.none() | st.integers(0, 99),
)
def test_env_id_pattern_round_trips(namespace: str | None, name: str, version: int | None) -> None:
    env_id = (f"{namespace}/" if namespace else "") + name + (f"-v{version}" if version is not None else "")
    match = ENV_ID_PATTERN.match(env_id)
    assert match is not None
    assert match["namespace"] == namespace and match["name"] == name
    assert match["version"] == (None if version is None else str(version))
    assert re.fullmatch(ENV_ID_PATTERN, env_id)
