"""Target options become factories plus reproducer source, without importing or constructing anything.

Tests for :mod:`conformance._engine.targets`.
"""

from __future__ import annotations

import sys
import types

import pytest

from conformance._engine.targets import (
    FUNC_TARGETS,
    VECTOR_NUM_ENVS,
    VECTOR_TARGETS,
    Target,
    TargetSpecError,
    TargetsRequest,
    default_targets,
    parse_kwargs,
    reference_func_targets,
    reference_vector_targets,
    registry_module,
    resolve_targets,
)
from gymspec import AutoresetMode

# --- Targets -------------------------------------------------------------------------------------------------------

def test_env_target_builds_with_kwargs_and_renders_source() -> None:
    (target,) = resolve_targets(TargetsRequest(envs=["tests.meta.broken._base:Walk"], env_kwargs={"render_mode": None}))
    assert (target.id, target.kind) == ("tests.meta.broken._base:Walk", "env")
    assert target.imports == ("from tests.meta.broken._base import Walk",)
    assert target.constructor_source(render_mode="ansi") == "Walk(render_mode='ansi')"
    env = target.construct(render_mode="ansi")
    assert type(env).__name__ == "Walk" and env.render_mode == "ansi"


def test_id_targets_per_registry() -> None:
    reference, gym = resolve_targets(TargetsRequest(env_ids=["CartPole-v1"])) + resolve_targets(
        TargetsRequest(env_ids=["mymod:Thing-v0"], registry="gymnasium", env_kwargs={"max_episode_steps": 5})
    )
    assert reference.id == "CartPole-v1"
    assert reference.constructor_source() == "make('CartPole-v1')"
    assert reference.imports == ("from reference.registration import make",)
    assert gym.id == "gymnasium/mymod:Thing-v0"
    assert gym.imports == ("import mymod", "import gymnasium")
    assert gym.constructor_source() == "gymnasium.make('Thing-v0', max_episode_steps=5)"


def test_namespaced_ids_are_not_mistaken_for_modules() -> None:
    (target,) = resolve_targets(TargetsRequest(env_ids=["ALE/Pong-v5"]))
    assert target.constructor_source() == "make('ALE/Pong-v5')"


def test_vector_targets_get_num_envs() -> None:
    (target,) = resolve_targets(TargetsRequest(vector_env_ids=["CartPole-v1"], vectorization_mode="sync"))
    assert target.kind == "vector"
    assert target.constructor_source() == "make_vec('CartPole-v1', vectorization_mode='sync', num_envs=4)"


def test_ids_are_made_unique() -> None:
    ids = [t.id for t in resolve_targets(TargetsRequest(envs=["a.b:C", "a.b:C"]))]
    assert ids == ["a.b:C", "a.b:C#2"]


def test_malformed_options_are_reported() -> None:
    with pytest.raises(TargetSpecError, match="'pkg.module:attr'"):
        resolve_targets(TargetsRequest(envs=["not-a-path"]))
    with pytest.raises(TargetSpecError, match="JSON object"):
        parse_kwargs("[1, 2]")
    with pytest.raises(TargetSpecError, match="JSON object"):
        parse_kwargs("{nope")
    assert parse_kwargs('{"a": 1}') == {"a": 1}


def test_broken_import_surfaces_at_construction_not_parsing() -> None:
    (target,) = resolve_targets(TargetsRequest(envs=["no_such_module_anywhere:Env"]))
    with pytest.raises(ModuleNotFoundError):
        target.construct()


def test_default_targets_say_why_when_the_reference_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "reference.registration", None)  # makes the import fail
    (placeholder,) = default_targets({})
    assert placeholder.unavailable is not None and "reference.registration" in placeholder.unavailable
    assert placeholder.id == "no-target"


def test_registry_may_be_a_module_path() -> None:
    assert registry_module("reference") == "reference.registration"
    assert registry_module("reference.registration", vector=True) == "reference.registration"
    env_target, vector_target = resolve_targets(
        TargetsRequest(env_ids=["CartPole-v1"], vector_env_ids=["CartPole-v1"], registry="reference.registration",
                       vectorization_mode="sync")
    )
    assert env_target.id == "reference.registration/CartPole-v1"
    assert env_target.registry == "reference.registration"
    assert env_target.imports == ("from reference.registration import make",)
    assert env_target.constructor_source() == "make('CartPole-v1')"
    assert vector_target.imports == ("from reference.registration import make_vec",)
    env = env_target.construct()
    try:
        assert env.spec.id == "CartPole-v1"
    finally:
        env.close()


def test_unusable_registry_modules_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TargetSpecError, match=r"^--registry must be one of \['gymnasium', 'reference'\] or an "
                                              r"importable module path, got 'not/a/module'$"):
        registry_module("not/a/module")
    with pytest.raises(TargetSpecError, match="got 'no_such_registry_xyz' .importing it raised ModuleNotFoundError"):
        resolve_targets(TargetsRequest(env_ids=["CartPole-v1"], registry="no_such_registry_xyz"))
    with pytest.raises(TargetSpecError, match=r"^--registry must be a module with a callable make, got 'json' "
                                              r"\(it has no callable make\)\. Hint: .*--registry reference\."):
        resolve_targets(TargetsRequest(env_ids=["CartPole-v1"], registry="json"))
    make_only = types.ModuleType("make_only_registry")
    make_only.make = lambda env_id, **kwargs: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "make_only_registry", make_only)
    assert resolve_targets(TargetsRequest(env_ids=["X-v0"], registry="make_only_registry"))[0].env_id == "X-v0"
    with pytest.raises(TargetSpecError, match="callable make and make_vec, got 'make_only_registry' .it has no "
                                              "callable make_vec.*make_vec.id, num_envs"):
        resolve_targets(TargetsRequest(vector_env_ids=["X-v0"], registry="make_only_registry"))


def test_a_bound_render_mode_is_what_a_plain_construction_receives() -> None:
    (bound,) = resolve_targets(TargetsRequest(envs=["a.b:C"], env_kwargs={"render_mode": "ansi"}))
    (plain,) = resolve_targets(TargetsRequest(envs=["a.b:C"], env_kwargs={"render_mode": None}))
    assert (bound.default_render_mode, plain.default_render_mode) == ("ansi", None)


def test_a_fixed_target_shows_no_arguments() -> None:
    (target,) = resolve_targets(TargetsRequest(envs=["a.b:C"], env_kwargs={"render_mode": "ansi"}))
    fixed = Target(**{**target.__dict__, "fixed": True, "callee": "copy.deepcopy", "call_args": ("instance",)})
    assert target.constructor_source(render_mode="human") == "C(render_mode='human')"
    assert fixed.constructor_source(render_mode="human") == "copy.deepcopy(instance)"


# --- Default targets -----------------------------------------------------------------------------------------------

def test_vector_targets_cover_every_mode_of_sync_and_async() -> None:
    targets = reference_vector_targets()
    assert len({target.id for target in targets}) == len(VECTOR_TARGETS)
    assert all(target.kind == "vector" and target.env_id is not None for target in targets)
    for kind in ("sync", "async"):
        modes = {t.kwargs["vector_kwargs"]["autoreset_mode"] for t in targets if f"/{kind}/" in t.id}
        assert modes == {mode.value for mode in AutoresetMode}


def test_a_vector_target_builds_and_reproduces_as_one_call() -> None:
    target = next(t for t in reference_vector_targets() if t.id == "FrozenLake-v1/sync/SameStep")
    env = target.construct()
    try:
        assert env.num_envs == VECTOR_NUM_ENVS
        assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    finally:
        env.close()
    assert target.constructor_source().startswith("make_vec('FrozenLake-v1', num_envs=4, vectorization_mode='sync'")


def test_func_targets_build_func_envs() -> None:
    targets = reference_func_targets()
    assert [target.id for target in targets] == list(FUNC_TARGETS)
    for target in targets:
        func = target.construct()
        assert callable(func.initial) and callable(func.transition)
