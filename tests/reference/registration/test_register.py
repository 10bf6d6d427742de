"""Tests for register, namespace and the lookups (spec, find_highest_version, load_env_creator, pprint_registry)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import reference.registration as registration
from reference import error
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.registration import (
    EnvSpec,
    find_highest_version,
    load_env_creator,
    namespace,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)

_ENTRY = "tests.reference.registration.test_register:_make_nothing"


def _make_nothing() -> None:
    """An entry point that is never called by these tests."""


def test_register_requires_an_entry_point() -> None:
    with pytest.raises(ValueError, match="entry_point or vector_entry_point must be given"):
        register("RegNoEntry-v0")


@pytest.mark.parametrize(
    ("steps", "error"), [(0, ValueError), (-3, ValueError), (2**63, ValueError), (1.5, TypeError), (True, TypeError)]
)
def test_register_rejects_bad_max_episode_steps(steps: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="^register max_episode_steps must be"):
        register("RegBadSteps-v0", entry_point=_ENTRY, max_episode_steps=steps)  # type: ignore[arg-type]


def test_register_copies_kwargs_and_overrides_with_a_warning() -> None:
    kwargs = {"a": 1}
    register("RegCopy-v0", entry_point=_ENTRY, kwargs=kwargs)
    registry["RegCopy-v0"].kwargs["a"] = 2
    assert kwargs == {"a": 1}
    with pytest.warns(UserWarning, match="Overriding environment RegCopy-v0"):
        register("RegCopy-v0", entry_point=_ENTRY, reward_threshold=3.0)
    assert spec("RegCopy-v0").reward_threshold == 3.0


def test_versioned_and_unversioned_ids_cannot_coexist() -> None:
    register("RegMixed-v0", entry_point=_ENTRY)
    with pytest.raises(error.RegistrationError, match="Can't register the unversioned environment"):
        register("RegMixed", entry_point=_ENTRY)
    register("RegPlain", entry_point=_ENTRY)
    with pytest.raises(error.RegistrationError, match="Can't register the versioned environment"):
        register("RegPlain-v1", entry_point=_ENTRY)


def _current_namespace() -> str | None:
    return registration.current_namespace


def test_namespace_context_manager_prefixes_and_restores() -> None:
    assert _current_namespace() is None
    with namespace("reg_ns"):
        assert _current_namespace() == "reg_ns"
        register("Inner-v0", entry_point=_ENTRY)
        with pytest.warns(UserWarning, match="is being overridden by namespace"):
            register("other/Inner-v1", entry_point=_ENTRY, kwargs={"namespace": "other"})
    assert _current_namespace() is None
    assert {"reg_ns/Inner-v0", "reg_ns/Inner-v1"} <= set(registry)
    with pytest.raises(RuntimeError), namespace("broken"):
        raise RuntimeError
    assert _current_namespace() is None


def test_find_highest_version() -> None:
    for version in (0, 3, 1):
        register(f"reg_hv/Env-v{version}", entry_point=_ENTRY)
    assert find_highest_version("reg_hv", "Env") == 3
    assert find_highest_version("reg_hv", "Missing") is None
    assert find_highest_version(None, "Env") is None


def _register_lookup_fixture(register_fn: Callable[..., None]) -> None:
    register_fn(id="lk_ns/Walker-v1", entry_point=_ENTRY)
    register_fn(id="lk_ns/Walker-v3", entry_point=_ENTRY)
    register_fn(id="lk_ns/Plain", entry_point=_ENTRY)
    register_fn(id="LkTopLevel-v0", entry_point=_ENTRY)


_BAD_IDS = [
    ("lk_nz/Walker-v1", error.NamespaceNotFound, "Did you mean: `lk_ns`?"),
    ("zz_unknown_ns/Walker-v1", error.NamespaceNotFound, "Have you installed the proper package"),
    ("lk_ns/Walkr-v1", error.NameNotFound, "Did you mean: `Walker`?"),
    ("LkTopLevl-v0", error.NameNotFound, "Did you mean: `LkTopLevel`?"),
    ("lk_ns/Walker-v9", error.VersionNotFound, "[ `v1`, `v3` ]"),
    ("lk_ns/Walker-v2", error.DeprecatedEnv, "Please use `lk_ns/Walker-v3` instead"),
    ("lk_ns/Plain-v1", error.DeprecatedEnv, "It provides the default version `lk_ns/Plain`"),
    ("lk_ns/Walker", error.Error, "No registered env with id: lk_ns/Walker"),
]


@pytest.mark.parametrize(("env_id", "exc_type", "fragment"), _BAD_IDS)
def test_spec_explains_missing_ids(env_id: str, exc_type: type[Exception], fragment: str) -> None:
    _register_lookup_fixture(register)
    with pytest.raises(exc_type) as info:
        spec(env_id)
    assert fragment in str(info.value)


@pytest.mark.gymnasium
@pytest.mark.parametrize(("env_id", "exc_type", "fragment"), _BAD_IDS)
def test_spec_errors_match_gymnasium(env_id: str, exc_type: type[Exception], fragment: str) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    saved = dict(gym_registration.registry)
    try:
        # Only our synthetic ids, so suggestions are computed from the same candidates in both registries.
        gym_registration.registry.clear()
        registry.clear()
        _register_lookup_fixture(gym_registration.register)
        _register_lookup_fixture(register)
        with pytest.raises(Exception) as theirs:
            gym_registration.spec(env_id)
        with pytest.raises(exc_type) as ours:
            spec(env_id)
        assert type(ours.value).__name__ == type(theirs.value).__name__
        assert str(ours.value) == str(theirs.value)
    finally:
        gym_registration.registry.clear()
        gym_registration.registry.update(saved)


def test_load_env_creator() -> None:
    assert load_env_creator(_ENTRY) is _make_nothing
    with pytest.raises(ValueError, match="must be of the form 'module.path:attr'"):
        load_env_creator("no_colon")
    with pytest.raises(AttributeError, match="names no attribute 'missing'"):
        load_env_creator("tests.reference.registration.test_register:missing")
    with pytest.raises(ModuleNotFoundError):
        load_env_creator("no_such_module_xyz:attr")


@pytest.mark.gymnasium
@pytest.mark.parametrize("num_cols", [1, 3])
def test_pprint_registry_matches_gymnasium(num_cols: int, capsys: pytest.CaptureFixture[str]) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ids = {
        "Alpha-v0": "reference.envs.classic_control.cartpole:CartPoleEnv",
        "Beta-v1": "reference.envs.toy_text.frozen_lake:FrozenLakeEnv",
        "Gamma-v0": "shimmy.atari_env:AtariEnv",
        "Delta-v0": "local:Delta",
        "pp_ns/Long_name_env-v2": "pkg:Env",
    }
    ours = {i: EnvSpec(i, entry_point=e) for i, e in ids.items()}
    theirs = {i: gym_registration.EnvSpec(i, entry_point=e) for i, e in ids.items()}
    # A callable entry point names no package: both group it under "None".
    ours["Callable-v0"] = EnvSpec("Callable-v0", entry_point=CartPoleEnv)
    theirs["Callable-v0"] = gym_registration.EnvSpec("Callable-v0", entry_point=CartPoleEnv)
    for exclude in (None, ["classic_control"]):
        text = pprint_registry(ours, num_cols=num_cols, exclude_namespaces=exclude, disable_print=True)
        assert text == gym_registration.pprint_registry(
            theirs, num_cols=num_cols, exclude_namespaces=exclude, disable_print=True
        )
    assert pprint_registry(ours, num_cols=num_cols) is None
    assert "===== classic_control =====" in capsys.readouterr().out
    with pytest.raises(ValueError, match="num_cols must be a positive int"):
        pprint_registry(ours, num_cols=0)


def test_register_envs_is_a_no_op() -> None:
    before = dict(registry)
    register_envs(registration)
    assert registry == before
