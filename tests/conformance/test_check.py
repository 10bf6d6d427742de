"""``conformance.check_env`` end to end: each kind of target, correct and broken, from a test, a script and a foreign
pytest session; what it raises and warns. Every run uses the quick profile and a few rules (a run costs ~2 s)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

from conformance import ConformanceError, Report, RuleResult, check_env
from conformance.results import RaiseOn
from conformance.rule_warnings import warning_class
from tests.meta._run import REPO
from tests.meta.broken._base import Walk
from tests.meta.broken.env import Env011ArrayReward
from tests.meta.broken.render import Render005FrameWithoutMode
from tests.meta.broken_func._base import Drift
from tests.meta.broken_func.func import Func008ArrayReward
from tests.meta.broken_vector.correct import sync_next_step
from tests.meta.broken_vector.vector import Vec010FourTuple


def _outcomes(report: Report) -> dict[str, str]:
    return {result.rule: result.outcome for result in report}


def test_env_class_correct_and_broken() -> None:
    report = check_env(Walk, rules="ENV-011,ENV-012")
    assert _outcomes(report) == {"CONSTRUCT": "passed", "ENV-011": "passed", "ENV-012": "passed"}
    assert report.ok and report.targets == ("tests.meta.broken._base:Walk",)
    with pytest.raises(ConformanceError) as raised:
        check_env(Env011ArrayReward, rules="ENV-011,ENV-012")
    error = raised.value
    assert [result.rule for result in error.violations] == ["ENV-011"]
    assert error.report["ENV-012"].outcome == "passed"
    # The reproducer imports the class by path, as the pytest path's does, and the message shows it.
    reproducer = error.violations[0].reproducer
    lines = reproducer.splitlines()
    assert "from tests.meta.broken.env import Env011ArrayReward" in lines and "env = Env011ArrayReward()" in lines
    assert "reproducer:\n" in str(error) and reproducer.splitlines()[-1] in str(error)
    assert isinstance(error, AssertionError)


def test_vector_factory_correct_and_broken() -> None:
    assert check_env(sync_next_step, rules="VEC-010").ok
    report = check_env(Vec010FourTuple, rules="VEC-010", raise_on="never")
    assert report["VEC-010"].outcome == "failed"
    assert "Vec010FourTuple(num_envs=4)" in report["VEC-010"].reproducer


def test_func_env_instance_and_broken_class() -> None:
    report = check_env(Drift(), rules="FUNC-008")
    assert _outcomes(report) == {"CONSTRUCT": "passed", "FUNC-008": "passed"}
    with pytest.raises(ConformanceError, match="FUNC-008"):
        check_env(Func008ArrayReward, rules="FUNC-008")


def test_class_defined_in_a_test_travels_by_value() -> None:
    class LocalBroken(Env011ArrayReward):
        """Only picklable by value: its qualified name is not reachable from any module."""

    report = check_env(LocalBroken, rules="ENV-011", raise_on="never")
    result = report["ENV-011"]
    assert result.outcome == "failed"
    assert result.target.endswith("test_class_defined_in_a_test_travels_by_value.<locals>.LocalBroken")
    assert "env = LocalBroken()" in result.reproducer
    assert "# LocalBroken: the class" in result.reproducer and "cannot be imported by path" in result.reproducer


def test_instance_is_checked_in_its_own_render_mode() -> None:
    plain = check_env(Walk(), rules="ENV-011,RENDER-001,RENDER-005")
    assert _outcomes(plain) == {"CONSTRUCT": "passed", "ENV-011": "passed", "RENDER-001": "skipped",
                                "RENDER-005": "passed"}
    assert "pass the class" in plain["RENDER-001"].message
    assert plain.targets == ("tests.meta.broken._base:Walk instance",)
    rendering = check_env(Walk(render_mode="rgb_array"), rules="RENDER-005,RENDER-006")
    assert _outcomes(rendering) == {"CONSTRUCT": "passed", "RENDER-005": "skipped", "RENDER-006": "passed"}
    assert "render_mode='rgb_array'" in rendering["RENDER-005"].message


def test_bound_render_mode_is_what_the_default_construction_receives() -> None:
    report = check_env(functools.partial(Walk), env_kwargs={"render_mode": "ansi"}, rules="RENDER-001,RENDER-005")
    assert _outcomes(report) == {"CONSTRUCT": "passed", "RENDER-001": "passed", "RENDER-005": "skipped"}
    assert report.targets[0].endswith(":Walk (partial)")


def test_registered_id() -> None:
    report = check_env("CartPole-v1", rules="ENV-011")
    assert _outcomes(report) == {"CONSTRUCT": "passed", "ENV-011": "passed"}
    assert report.targets == ("CartPole-v1",)


def test_should_violations_are_warnings_of_their_rule() -> None:
    with pytest.warns(warning_class("RENDER-005"), match=r"(?s)RENDER-005 \(SHOULD\).*reproducer:") as caught:
        report = check_env(Render005FrameWithoutMode, rules="RENDER-005")
    assert [result.rule for result in report.warned] == ["RENDER-005"] and report.ok
    assert caught[0].filename == __file__  # attributed to the caller, where a warning filter looks


_CANNED = Report((
    RuleResult("CONSTRUCT", "t", "MUST", "passed"),
    RuleResult("ENV-011", "t", "MUST", "failed", "ENV-011 (MUST) violated by t: bad reward"),
    RuleResult("RENDER-005", "t", "SHOULD", "warned", "RENDER-005 (SHOULD) violated by t: a frame"),
))


@pytest.mark.parametrize(("raise_on", "raised", "warned"), [
    ("must", ["ENV-011"], ["RENDER-005"]),
    ("should", ["ENV-011", "RENDER-005"], []),
    ("never", [], ["RENDER-005"]),
])
def test_raise_on(monkeypatch: pytest.MonkeyPatch, raise_on: RaiseOn, raised: list[str], warned: list[str]) -> None:
    monkeypatch.setattr("conformance.check._run", lambda *args: _CANNED)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            report = check_env(Walk, raise_on=raise_on)
        except ConformanceError as error:
            assert [result.rule for result in error.violations] == raised
            report = error.report
        else:
            assert raised == []
    assert [str(w.category.__name__) for w in caught] == [f"{rule.replace('-', '')}Warning" for rule in warned]
    assert report.results == _CANNED.results and report.seconds > 0


@pytest.mark.parametrize(("options", "error", "match"), [
    ({"kind": "vec"}, ValueError, "kind must be one of"),
    ({"profile": "fast"}, ValueError, "profile must be one of"),
    ({"raise_on": "always"}, ValueError, "raise_on must be one of"),
    ({"rules": "NOPE-*"}, ValueError, "rules must select at least one rule"),
    ({"rules": ["ENV-0*", "!ENV-*"]}, ValueError, "rules must select at least one rule"),
    ({"timeout": 0}, ValueError, "timeout must be a positive number"),
    ({"timeout": float("nan")}, ValueError, "timeout must be a positive number"),
    ({"timeout": True}, ValueError, "timeout must be a positive number"),
    ({"env_kwargs": {"size": object()}}, TypeError, "JSON-serialisable"),
])
def test_options_are_checked_before_the_run(options: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        check_env(Walk, **options)


def test_an_instance_takes_no_kwargs() -> None:
    with pytest.raises(TypeError, match="got an instance"):
        check_env(Walk(), env_kwargs={"render_mode": "ansi"})


def test_the_child_gets_the_callers_path_and_none_of_its_pytest_setup(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from conformance.check import _child_environment

    monkeypatch.setattr(sys, "path", ["", str(tmp_path), *sys.path])
    monkeypatch.chdir(tmp_path.parent)
    for name in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "CONFORMANCE_ENV", "PYTHONWARNINGS"):
        monkeypatch.setenv(name, "-x")
    env = _child_environment({"EXTRA": "1"})
    assert not {"PYTEST_ADDOPTS", "PYTEST_PLUGINS", "CONFORMANCE_ENV", "PYTHONWARNINGS"} & set(env)
    assert env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] == "1" and env["EXTRA"] == "1"
    entries = env["PYTHONPATH"].split(os.pathsep)
    assert entries[:2] == [os.path.realpath(tmp_path.parent), os.path.realpath(tmp_path)]
    assert not any(entry.startswith(os.path.realpath(sys.prefix) + os.sep) for entry in entries)


def test_runs_from_a_script_with_objects_of_main(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        from conformance import ConformanceError, check_env
        from tests.meta.broken.env import Env011ArrayReward

        class Mine(Env011ArrayReward):
            pass

        try:
            check_env(Mine, rules="ENV-011")
        except ConformanceError as error:
            print("RAISED", [result.rule for result in error.violations])
        report = check_env(lambda: Mine(), rules="ENV-012")
        print("REPORT", report.ok, report.targets)
    """))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    completed = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                               timeout=300, check=False)
    assert completed.returncode == 0, completed.stderr
    assert "RAISED ['ENV-011']" in completed.stdout
    assert "REPORT True ('__main__:<lambda>',)" in completed.stdout


def test_a_foreign_pytest_session_does_not_reach_the_suite(tmp_path: Path) -> None:
    """A user's session with importlib imports, a hostile conftest, ini options and PYTEST_ADDOPTS."""
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --import-mode=importlib -p no:cacheprovider\n"
                                         "filterwarnings = error\n")
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        def pytest_collection_modifyitems(items):
            if any("conformance/" in item.nodeid for item in items):
                raise RuntimeError("the user's conftest reached the suite's session")
    """))
    (tmp_path / "test_user.py").write_text(textwrap.dedent("""
        import pytest
        from conformance import ConformanceError, check_env
        from tests.meta.broken.env import Env011ArrayReward

        class Mine(Env011ArrayReward):  # in a module no other interpreter can import (importlib mode)
            pass

        def test_mine():
            with pytest.raises(ConformanceError) as raised:
                check_env(Mine, rules="ENV-011,ENV-012")
            (violation,) = raised.value.violations
            assert violation.rule == "ENV-011" and raised.value.report.targets == ("test_user:Mine",)
            assert "# Mine: the class Mine defined in" in violation.reproducer  # it travelled by value
    """))
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTEST_ADDOPTS": "-k test_mine",
           "CONFORMANCE_ENV": "tests.meta.broken.env:Env009StepOutside"}
    # The console script, not "python -m pytest": the current directory is then not on sys.path.
    pytest_script = Path(sys.executable).with_name("pytest")
    completed = subprocess.run([str(pytest_script), "-q", "-p", "no:xdist"], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=300, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def _readme_section() -> str:
    """The user guide's check_env page (README.md's check_env section moved there)."""
    return (REPO / "docs" / "guide" / "check-env.md").read_text(encoding="utf-8")


def test_readme_example_runs_as_written(tmp_path: Path) -> None:
    import re

    blocks = re.findall(r"```python\n(.*?)```", _readme_section(), re.S)
    assert blocks, "docs/guide/check-env.md has no python example"
    script = tmp_path / "readme_example.py"
    script.write_text(blocks[0])
    completed = subprocess.run([sys.executable, str(script)], cwd=REPO, capture_output=True, text=True, timeout=300,
                               check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "RandomWalkEnv" in completed.stdout and "passed" in completed.stdout


def test_readme_migration_uses_real_parameters() -> None:
    import inspect
    import re

    section = _readme_section()
    assert "-from gymnasium.utils.env_checker import check_env" in section
    assert "-from stable_baselines3.common.env_checker import check_env" in section
    added = [line for line in section.splitlines() if line.startswith("+")]
    assert "+from conformance import check_env" in added
    calls = [line for line in added if "check_env(" in line]
    keywords = {name for line in calls for name in re.findall(r"(\w+)=", line.split("#")[0])}
    assert calls and keywords <= set(inspect.signature(check_env).parameters), keywords
