"""Under pytest-xdist every item of one target runs on the same worker; other items are scheduled as xdist does."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.reporting import rule_and_target as _rule_and_target
from conformance._engine.reporting import target_group as _target_group
from tests.meta._run import has_xdist, run_suite

pytestmark = pytest.mark.skipif(not has_xdist(), reason="needs pytest-xdist")

_SUITE_FILES = sorted(path.name for path in (Path(__file__).parents[3] / "conformance").glob("test_*.py"))
_TARGETS = st.text(st.characters(codec="ascii", exclude_characters="[]\n"), min_size=1, max_size=30).filter(
    lambda text: re.match(r"^[A-Z]+-\d{3}-", text) is None  # a target id that looks like a rule item's parameter
)
_RULES = st.from_regex(r"\A[A-Z]{2,9}-\d{3}\Z")
_PREFIXES = st.sampled_from(["", "conformance/", "lib/python3.11/site-packages/conformance/"])


@given(_PREFIXES, st.sampled_from(_SUITE_FILES), _RULES, _TARGETS, st.booleans())
def test_a_rule_items_node_id_names_its_rule_and_target(
    prefix: str, file: str, rule: str, target: str, grouped: bool
) -> None:
    nodeid = f"{prefix}{file}::test_something[{rule}-{target}]" + (f"@{target}" if grouped else "")
    assert _rule_and_target(nodeid) == (rule, target)


@given(_PREFIXES, _TARGETS)
def test_a_construction_items_node_id_names_its_target(prefix: str, target: str) -> None:
    assert _rule_and_target(f"{prefix}test_target.py::test_target_constructs[{target}]") == ("CONSTRUCT", target)


@pytest.mark.parametrize(
    "nodeid",
    [
        "tests/test_env.py::test_x[ENV-001-CartPole-v1]",  # a user's file of the same name, elsewhere
        "myconformance/test_env.py::test_x[ENV-001-CartPole-v1]",
        "test_env.py::test_x",  # not parametrized
        "test_other.py::test_x[ENV-001-CartPole-v1]",  # not a file of the suite
    ],
)
def test_other_items_are_not_a_targets(nodeid: str) -> None:
    assert _target_group(nodeid) is None


def test_the_scheduler_groups_by_target_and_leaves_other_items_to_xdist() -> None:
    from conformance._engine.scheduling import TargetScheduling

    options = {"tx": ["2*popen"], "maxfail": 0, "loadscopereorder": True}
    config = cast(pytest.Config, SimpleNamespace(getvalue=options.__getitem__, option=SimpleNamespace(**options)))
    scheduling = TargetScheduling(config, None, _target_group)
    scopes = {
        nodeid: scheduling._split_scope(nodeid)
        for nodeid in (
            "test_env.py::test_a[ENV-001-A]",
            "test_seeding.py::test_b[SEED-002-A]",
            "test_target.py::test_target_constructs[A]",
            "test_env.py::test_a[ENV-001-B]",
            "tests/test_mine.py::test_c@mygroup",
            "tests/test_mine.py::test_d",
        )
    }
    assert len({scopes[key] for key in list(scopes)[:3]}) == 1
    assert len(set(scopes.values())) == 4
    assert scopes["tests/test_mine.py::test_c@mygroup"] == "mygroup"
    assert scopes["tests/test_mine.py::test_d"] == "tests/test_mine.py::test_d"


def test_each_targets_items_run_on_one_worker(tmp_path: Path) -> None:
    targets = ["tests.meta.broken._base:Walk", "tests.meta.broken._base:wrapped"]
    args = [f"--env={target}" for target in targets]
    options = ["--conformance-profile", "quick", "-n", "2", "-vv", "--rules", "ENV-00*"]
    run = run_suite([*args, *options], tmp_path / "r.json")
    assert run.returncode == 0, run.output
    workers: dict[str, set[str]] = {}
    for line in run.output.splitlines():
        found = re.match(r"^\[(gw\d+)\].*::\w+\[(?:[A-Z]+-\d{3}-)?(?P<target>[^\]]+)\]", line)
        if found:
            workers.setdefault(found["target"], set()).add(found[1])
    assert set(workers) == set(targets)
    assert all(len(ran_on) == 1 for ran_on in workers.values()), workers
