"""Tests for :mod:`conformance._engine.defaults`."""

from __future__ import annotations

from conformance._engine.defaults import FUNC_TARGETS, VECTOR_TARGETS, reference_func_targets, reference_vector_targets
from conformance._engine.targets import VECTOR_NUM_ENVS
from gymspec import AutoresetMode


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
