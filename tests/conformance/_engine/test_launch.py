"""How ``check_env`` names its target to the suite: options for strings and paths, shipments for the rest."""

from __future__ import annotations

import pytest

from conformance._engine.launch import factory_kind, launch_for
from conformance._engine.callables import SPEC
from tests.meta.broken._base import Walk
from tests.meta.broken_func._base import Drift
from tests.meta.broken_vector._base import HopSync
from tests.meta.broken_vector.correct import sync_next_step
from tests.meta.broken_vector.vector import Vec010FourTuple


def _drift() -> Drift:
    return Drift()


def _unresolvable() -> NoSuchType:  # type: ignore[name-defined]  # noqa: F821
    raise NotImplementedError


def test_kinds_read_from_shape() -> None:
    assert [factory_kind(f) for f in (Walk, Drift, Vec010FourTuple, HopSync, sync_next_step)] == [
        "env", "func", "vector", "vector", "vector"]
    assert factory_kind(_drift) == "func"
    assert factory_kind(_unresolvable) == "env"
    assert factory_kind(lambda: Walk()) == "env"


def test_strings_are_what_the_command_line_takes() -> None:
    assert launch_for("CartPole-v1", None, None, None).option == "--env-id"
    gym = launch_for("CartPole-v1", None, "gymnasium", None)
    assert (gym.option, gym.args) == ("--env-id", ("--registry", "gymnasium"))
    vec = launch_for("CartPole-v1", "vector", None, "sync")
    assert (vec.option, vec.spec, vec.args) == ("--vector-env-id", "CartPole-v1", ("--vectorization-mode", "sync"))
    assert launch_for("tests.meta.broken_func._base:Drift", None, None, None).option == "--func-env"
    assert launch_for("tests.meta.broken._base:Walk", "vector", None, None).option == "--vector-env"


def test_importable_objects_go_by_path_and_others_are_shipped() -> None:
    plain = launch_for(Walk, None, None, None)
    assert (plain.option, plain.spec, plain.shipment) == ("--env", "tests.meta.broken._base:Walk", None)
    assert launch_for(sync_next_step, None, None, None).option == "--vector-env"

    class Local(Walk):
        pass

    local = launch_for(Local, None, None, None)
    assert local.spec == SPEC and local.shipment is not None and local.shipment.obj is Local
    assert local.shipment.manifest.callee == "Local" and not local.shipment.manifest.instance
    expected = "test_importable_objects_go_by_path_and_others_are_shipped.<locals>.Local"
    assert local.shipment.manifest.id.endswith(expected)
    instance = launch_for(Walk(render_mode="ansi"), None, None, None)
    assert instance.shipment is not None and instance.option == "--env"
    manifest = instance.shipment.manifest
    assert (manifest.instance, manifest.render_mode) == (True, "ansi")
    assert manifest.id == "tests.meta.broken._base:Walk instance"
    assert launch_for(Drift(), None, None, None).option == "--func-env"


@pytest.mark.parametrize(
    ("target", "kind", "registry", "mode", "error", "match"),
    [
        (Vec010FourTuple(num_envs=2), None, None, None, TypeError, "vector env's class or factory"),
        (Walk(), "vector", None, None, TypeError, "vector env's class or factory"),
        (object(), None, None, None, TypeError, "check_env target must be"),
        (Walk, None, "gymnasium", None, ValueError, "apply to registered ids"),
        ("tests.meta.broken._base:Walk", None, "gymnasium", None, ValueError, "apply to registered ids"),
        ("CartPole-v1", None, None, "sync", ValueError, "kind='vector'"),
        ("CartPole-v1", "vector", None, "threads", ValueError, "vectorization_mode must be one of"),
        ("CartPole-v1", "func", None, None, ValueError, "not FuncEnvs"),
        ("CartPole-v1", None, "no_such_registry_module_xyz", None, ValueError, "--registry must be"),
    ],
)
def test_mistakes_are_refused_before_anything_runs(
    target: object, kind: str | None, registry: str | None, mode: str | None, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        launch_for(target, kind, registry, mode)  # type: ignore[arg-type]
