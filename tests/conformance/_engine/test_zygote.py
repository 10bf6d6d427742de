"""The processes' side of supervision: jobs by name, parts handed over on the way, what a job leaves behind."""

from __future__ import annotations

import json
import os
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.messages import Died, Finished, Hung, Interrupted
from conformance._engine.supervisor import Supervisor, fork_available
from conformance._engine import zygote as zygote_module
from conformance._engine.zygote import Job, collect, emit, fork_hazard

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


def nothing(payload: Mapping[str, Any]) -> None:
    del payload


def emits_then(payload: Mapping[str, Any]) -> str:
    """Hand over ``payload["parts"]`` one by one, then end as ``payload["end"]`` says."""
    for part in payload["parts"]:
        emit(part)
    if payload["end"] == "exit":
        os._exit(5)
    if payload["end"] == "hang":
        import time

        while True:
            time.sleep(0.01)
    return "returned"


@pytest.fixture
def supervisor() -> Iterator[Supervisor]:
    found = Supervisor(1.0, 0)
    yield found
    found.close()


def test_a_job_names_its_function_by_module_and_qualname() -> None:
    assert Job.of(nothing).function == f"{__name__}:nothing"
    assert Job.of(emits_then, {"a": 1}) == Job(f"{__name__}:emits_then", {"a": 1})


def test_emit_outside_a_job_process_says_where_it_must_be_called() -> None:
    with pytest.raises(RuntimeError, match="must be called from a job process"):
        emit({"x": 1})


@pytest.mark.skipif(not fork_available(), reason="process supervision needs fork")
@pytest.mark.parametrize("end", ["return", "exit", "hang"])
def test_parts_handed_over_survive_however_the_job_ends(supervisor: Supervisor, end: str) -> None:
    parts = [{"item": 0}, [1, 2], "three"]
    outcome = supervisor.run("t", Job.of(nothing), Job.of(emits_then, {"parts": parts, "end": end}))
    expected = {"return": Finished, "exit": Died, "hang": Hung}[end]
    assert isinstance(outcome, expected)
    assert not isinstance(outcome, Interrupted)
    assert list(outcome.parts) == parts
    if isinstance(outcome, Finished):
        assert outcome.value == "returned"


@given(data=st.one_of(st.none(), _JSON), parts=st.lists(_JSON, max_size=4), gap=st.booleans())
def test_collect_reads_what_a_job_left_up_to_the_first_missing_part_and_removes_it(
    tmp_path_factory: pytest.TempPathFactory, data: Any, parts: list[Any], gap: bool
) -> None:
    where = tmp_path_factory.mktemp("job")
    result = where / "job.json"
    if data is not None:
        result.write_text(json.dumps({"value": data}), encoding="utf-8")
    for index, part in enumerate(parts):
        if gap and index == 1:
            continue  # a part that never arrived: the ones after it are not the job's next parts
        Path(f"{result}.{index}").write_text(json.dumps(part), encoding="utf-8")
    Path(f"{result}.crash").write_text("Stack (most recent call first):\n  File x\nExtension modules: numpy", "utf-8")

    left = collect(str(result))

    assert left.data == ({"value": data} if data is not None else {})
    assert list(left.parts) == (parts[:1] if gap and len(parts) > 1 else parts)
    assert left.stacks == "Stack (most recent call first):\n  File x"
    if not gap:
        assert list(where.iterdir()) == []


def test_collect_of_a_job_that_left_nothing_is_empty_and_a_result_that_is_no_object_unreadable(
    tmp_path: Path
) -> None:
    result = tmp_path / "job.json"
    left = collect(str(result))
    assert (left.data, left.parts, left.stacks) == ({}, (), "")
    result.write_text("[1, 2]", encoding="utf-8")
    assert "unreadable" in collect(str(result)).data


@pytest.mark.parametrize("garbage", ["{not json", "[" * 100_000 + "]" * 100_000, "too large"])
def test_a_file_that_is_not_what_a_job_writes_is_read_as_unreadable_never_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, garbage: str
) -> None:
    # A reader that meets a truncated, garbled, too deeply nested or oversized file reports it (the supervisor makes
    # it the suite's own error for that item); pytest's process must never crash on it (an INTERNALERROR once).
    if garbage == "too large":
        monkeypatch.setattr(zygote_module, "MAX_RESULT_BYTES", 4)
    result = tmp_path / "job.json"
    result.write_text(garbage, encoding="utf-8")
    Path(f"{result}.0").write_text(garbage, encoding="utf-8")
    Path(f"{result}.1").write_text("{}", encoding="utf-8")
    left = collect(str(result))
    assert "unreadable" in left.data and "unreadable" in left.parts[0] and left.parts[1] == {}
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def imported(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """The modules before a (fake) import of the library named by the parameter, which is then imported."""
    before = set(sys.modules) - {str(request.param)}
    monkeypatch.setitem(sys.modules, str(request.param), types.ModuleType(str(request.param)))
    yield before


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("imported", ["OpenGL", "glfw", "pyglet", "moderngl"], indirect=True)
def test_an_opengl_library_imported_alone_is_no_hazard(imported: set[str]) -> None:
    # MuJoCo's renderers import PyOpenGL and GLFW when an env is made, and make no context before the first render.
    threads = len(os.listdir("/proc/self/task"))
    assert fork_hazard(imported, threads, _open_fds()) == ""


@pytest.mark.parametrize("imported", ["OpenGL"], indirect=True)
def test_an_opengl_library_beside_a_new_open_file_is_a_hazard(imported: set[str], tmp_path: Path) -> None:
    # A display connection or a GPU device opened since: a context may exist, and a fork would share it.
    threads, fds = len(os.listdir("/proc/self/task")), _open_fds()
    with (tmp_path / "device").open("w"):
        assert fork_hazard(imported, threads, fds) == "PyOpenGL initialised in the probe process"
    assert fork_hazard(imported, threads) == "PyOpenGL initialised in the probe process"  # nothing to compare with


@pytest.mark.parametrize("imported", ["jax", "torch"], indirect=True)
def test_a_library_unsafe_once_imported_is_a_hazard_whatever_the_files(imported: set[str]) -> None:
    threads = len(os.listdir("/proc/self/task"))
    assert "initialised in the probe process" in fork_hazard(imported, threads, _open_fds())
