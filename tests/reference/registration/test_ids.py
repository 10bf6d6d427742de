"""Tests for the environment id grammar (reference.registration._ids)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import error
from reference.registration import ENV_ID_RE, get_env_id, parse_env_id

_NS = st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)
_NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
_VERSION = st.none() | st.integers(min_value=0, max_value=10_000)


@given(ns=st.none() | _NS, name=_NAME, version=_VERSION)
@settings(max_examples=60, deadline=None)
def test_get_env_id_round_trips_through_parse(ns: str | None, name: str, version: int | None) -> None:
    assert parse_env_id(get_env_id(ns, name, version)) == (ns, name, version)


@pytest.mark.parametrize(
    ("env_id", "expected"),
    [
        ("CartPole-v1", (None, "CartPole", 1)),
        ("CartPole", (None, "CartPole", None)),
        ("ns/Env-v0", ("ns", "Env", 0)),
        ("Name-v01", (None, "Name", 1)),
        ("Env-v1.2", (None, "Env-v1.2", None)),
        ("ALE/Pong-v5", ("ALE", "Pong", 5)),
    ],
)
def test_parse_env_id_quirks_match_gymnasium(env_id: str, expected: tuple[str | None, str, int | None]) -> None:
    assert parse_env_id(env_id) == expected


@pytest.mark.parametrize("env_id", ["ns/sub/Env-v0", "", "Env v0", "/Env-v0"])
def test_parse_env_id_rejects_malformed_ids(env_id: str) -> None:
    with pytest.raises(error.Error, match="Malformed environment ID"):
        parse_env_id(env_id)


def test_parse_env_id_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="must be a str"):
        parse_env_id(3)  # type: ignore[arg-type]


@pytest.mark.gymnasium
@given(env_id=st.text(alphabet="ab:/-v0.1_", max_size=12))
@settings(max_examples=150, deadline=None)
def test_parse_env_id_agrees_with_gymnasium(env_id: str) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    assert ENV_ID_RE.pattern == gym_registration.ENV_ID_RE.pattern
    try:
        expected = gym_registration.parse_env_id(env_id)
    except Exception as gym_exc:  # noqa: BLE001 - any Gymnasium failure must be mirrored
        with pytest.raises(error.Error):
            parse_env_id(env_id)
        assert type(gym_exc).__name__ == "Error"
    else:
        assert parse_env_id(env_id) == expected
