"""Import paths as a fresh interpreter sees them, and the names a reproducer gives what has none.

Shipped targets: a fresh copy per construction, an instance held to its own render mode, clear failures.


How ``check_env`` names its target to the suite: options for strings and paths, shipments for the rest.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import threading
import types
from collections.abc import Iterator
from pathlib import Path

import cloudpickle
import pytest

from conformance._engine.callables import (
    ENV_VAR,
    SPEC,
    Manifest,
    call_name,
    factory_kind,
    import_path,
    launch_for,
    location,
    module_importable,
    pickled_target,
    ship,
    unimportable_modules,
)
from conformance._engine.outcomes import NotCheckable
from conformance._engine.targets import TargetsRequest, resolve_targets
from tests.meta.broken._base import Walk
from tests.meta.broken_func._base import Drift
from tests.meta.broken_vector._base import HopSync
from tests.meta.broken_vector.correct import sync_next_step
from tests.meta.broken_vector.vector import Vec010FourTuple

# --- Import paths --------------------------------------------------------------------------------------------------

class Outer:
    """A class with a nested one, reachable by its dotted qualified name."""

    class Inner:
        """Nested."""


def _line() -> int:
    return sys._getframe(1).f_lineno


@pytest.fixture
def loose_module(tmp_path: Path) -> Iterator[types.ModuleType]:
    """A module loaded from a file under a name no finder knows (what pytest's importlib mode does)."""
    source = tmp_path / "loose.py"
    source.write_text("class Loose:\n    pass\n")
    spec = importlib.util.spec_from_file_location("loose_conformance_module", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_importable_objects_have_paths() -> None:
    assert import_path(Walk) == "tests.meta.broken._base:Walk"
    assert import_path(Outer.Inner) == f"{__name__}:Outer.Inner"
    assert import_path(json.dumps) == "json:dumps"


def test_objects_without_a_path() -> None:
    class Local:
        pass

    assert import_path(Local) is None
    assert import_path(lambda: None) is None
    assert import_path(functools.partial(Walk)) is None
    assert import_path(Walk()) is None


def test_module_importability(loose_module: types.ModuleType) -> None:
    assert module_importable("json") and module_importable("tests.meta.broken._base")
    assert not module_importable("__main__")
    assert not module_importable(loose_module.__name__)
    assert not module_importable("not_loaded_anywhere_xyz")
    assert import_path(loose_module.Loose) is None


def test_unimportable_modules_are_named_for_pickling_by_value(loose_module: types.ModuleType) -> None:
    assert unimportable_modules(loose_module.Loose) == [loose_module]
    assert unimportable_modules(loose_module.Loose()) == [loose_module]
    assert unimportable_modules(functools.partial(loose_module.Loose)) == [loose_module]
    assert unimportable_modules(Walk) == [] and unimportable_modules(Walk()) == []


def test_reproducer_names() -> None:
    assert call_name(Walk) == "Walk"
    assert call_name(lambda: None) == "factory"
    assert call_name(functools.partial(Walk)) == "factory"
    line = _line() + 2

    def here() -> None:
        """Defined on a known line."""

    assert location(here).endswith(f"test_callables.py:{line}")
    assert location(functools.partial(here)) == location(here)
    assert location(len) == "module builtins"


# --- Shipped targets -----------------------------------------------------------------------------------------------

def _shipped(obj: object, manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(ship(obj, manifest, tmp_path)))


def test_a_factory_builds_fresh_instances(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = Manifest(id="here:make_walk", callee="make_walk", what="the function make_walk",
                        imports=("# make_walk: defined elsewhere",))
    _shipped(functools.partial(Walk), manifest, tmp_path, monkeypatch)
    (target,) = resolve_targets(TargetsRequest(envs=[SPEC], env_kwargs={"render_mode": "ansi"}))
    first, second = target.construct(), target.construct(render_mode="human")
    assert (first.render_mode, second.render_mode) == ("ansi", "human") and first is not second
    assert (target.id, target.imports, target.kind) == ("here:make_walk", manifest.imports, "env")
    assert target.constructor_source() == "make_walk(render_mode='ansi')"
    assert target.default_render_mode == "ansi"


def test_an_instance_is_copied_in_its_own_mode_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Walk(render_mode="ansi")
    manifest = Manifest(id="x:Walk instance", callee="copy.deepcopy", call_args=("instance",), what="a Walk instance",
                        instance=True, render_mode="ansi")
    _shipped(original, manifest, tmp_path, monkeypatch)
    # An instance binds its own mode; --env-kwargs cannot reach it.
    target = pickled_target("env", {"size": 3})
    assert target.kwargs == {"render_mode": "ansi"} and target.default_render_mode == "ansi"
    copies = [target.construct(), target.construct(render_mode="ansi")]
    assert all(type(copy) is Walk and copy.render_mode == "ansi" for copy in copies)
    assert len({id(original), *map(id, copies)}) == 3
    assert target.constructor_source(render_mode="ansi") == "copy.deepcopy(instance)"
    with pytest.raises(NotCheckable, match=r"render_mode='human'.*pass the class"):
        target.construct(render_mode="human")
    with pytest.raises(NotCheckable, match="num_envs=..."):
        target.construct(num_envs=2)


def test_a_func_env_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _shipped(Drift(), Manifest(id="d", callee="copy.deepcopy", what="a Drift instance", instance=True), tmp_path,
             monkeypatch)
    (target,) = resolve_targets(TargetsRequest(func_envs=[SPEC]))
    assert target.kind == "func" and type(target.construct()) is Drift and target.kwargs == {}


def test_without_a_shipment_the_target_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    (target,) = resolve_targets(TargetsRequest(envs=[SPEC]))
    assert target.unavailable is not None and ENV_VAR in target.unavailable


def test_what_cannot_travel_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="must be picklable with cloudpickle when it is a Walk instance"):
        ship(threading.Lock(), Manifest(id="x", callee="c", what="a Walk instance"), tmp_path)


def test_what_cannot_be_rebuilt_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _shipped(Walk, Manifest(id="x", callee="Walk", what="the class Walk"), tmp_path, monkeypatch)
    (tmp_path / "target.pickle").write_bytes(b"not a pickle")
    (target,) = resolve_targets(TargetsRequest(envs=[SPEC]))
    with pytest.raises(RuntimeError, match="could not rebuild the class Walk"):
        target.construct()


def test_unimportable_modules_travel_by_value(tmp_path: Path) -> None:
    source = tmp_path / "loose.py"
    source.write_text(
        "class Loose:\n    def __init__(self, render_mode=None):\n        self.render_mode = render_mode\n"
    )
    spec = importlib.util.spec_from_file_location("loose_shipped_module", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        path = ship(module.Loose, Manifest(id="l", callee="Loose", what="the class Loose"), tmp_path,
                    by_value=[module])
    finally:
        del sys.modules[spec.name]
    assert "loose_shipped_module" not in cloudpickle.list_registry_pickle_by_value()
    code = ("from conformance._engine.callables import pickled_target\n"
            "print(type(pickled_target('env', {}).construct(render_mode='ansi')).__name__)")
    completed = subprocess.run([sys.executable, "-c", code], env={**os.environ, ENV_VAR: str(path)},
                               capture_output=True, text=True, timeout=120, check=False)
    assert completed.stdout.strip() == "Loose", completed.stderr


# --- Launch --------------------------------------------------------------------------------------------------------

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
