"""The ``[tool.conformance]`` table: parsed into option text, errors that name the key, and its place in the run
(the command line overrides it; targets on the command line replace the table's).

Baselines: stable fingerprints, required reasons, accepted / new / fixed findings, and a written file that reads
back with its reasons kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.project import (
    KEYS,
    Baseline,
    BaselineError,
    ProjectTableError,
    find_pyproject,
    fingerprint,
    read_table,
    write_baseline,
)
from conformance.results import RuleResult

# --- The project table ---------------------------------------------------------------------------------------------

_WALK = "tests.meta.broken._base:Walk"
_WRAPPED = "tests.meta.broken._base:wrapped"


@pytest.fixture(autouse=True)
def _no_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONFORMANCE_ENV", raising=False)


def _write(folder: Path, table: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(f"[project]\nname = 'x'\n\n[tool.conformance]\n{table}\n", encoding="utf-8")
    return path


def test_values_become_option_text(tmp_path: Path) -> None:
    path = _write(tmp_path, 'env = "a.b:C"\nenv-id = ["X-v0", "Y-v1"]\nenv_kwargs = {size = 5, name = "n"}\n'
                            'rules = ["ENV-*", "!ENV-002"]\ntimeout = 2.5\njobs = 2\nbaseline = "base.json"\n'
                            "strict-baseline = true\n")
    table = read_table(path)
    assert table is not None
    assert table.values["env"] == ["a.b:C"]
    assert table.values["env_id"] == ["X-v0", "Y-v1"]
    assert json.loads(str(table.values["env_kwargs"])) == {"size": 5, "name": "n"}
    assert table.values["rules"] == "ENV-*,!ENV-002"
    assert table.values["timeout"] == "2.5"
    assert table.values["jobs"] == "2"
    assert table.values["baseline"] == str(tmp_path / "base.json")  # relative to the pyproject.toml
    assert table.values["strict_baseline"] == "1"


def test_no_table_is_none(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("[project]\nname = 'x'\n", encoding="utf-8")
    assert read_table(path) is None


@pytest.mark.parametrize(
    ("table", "named"),
    [
        ('profile = 3', "profile"),
        ('env = []', "env"),
        ('env = [1]', "env"),
        ('env-kwargs = "{}"', "env-kwargs"),
        ('timeout = true', "timeout"),
        ('strict-baseline = "yes"', "strict-baseline"),
        ('enviroment = "a:b"', "enviroment"),
        ('report = ""', "report"),
    ],
)
def test_malformed_keys_are_named(tmp_path: Path, table: str, named: str) -> None:
    with pytest.raises(ProjectTableError) as caught:
        read_table(_write(tmp_path, table))
    message = str(caught.value)
    assert f"key {named!r}" in message and "\n" not in message


def test_malformed_toml_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.conformance\nenv = 1\n", encoding="utf-8")
    with pytest.raises(ProjectTableError, match="must be a readable TOML file"):
        read_table(path)


@given(st.sampled_from(sorted(KEYS)), st.booleans())
def test_every_key_is_accepted_in_both_spellings(key: str, dashed: bool) -> None:
    # Any key of the table is known in its '_' and '-' spelling (TOML tables are usually written with dashes).
    spelled = key.replace("_", "-") if dashed else key
    from conformance._engine.project import _parse  # pyright: ignore[reportPrivateUsage]

    value: object = True if key == "strict_baseline" else ({"a": 1} if key == "env_kwargs" else "x")
    assert key in _parse(Path("/p/pyproject.toml"), {spelled: value})


def test_nearest_pyproject_wins(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    assert find_pyproject(inner) == tmp_path / "pyproject.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("", encoding="utf-8")
    assert find_pyproject(inner) == tmp_path / "a" / "pyproject.toml"


# --- in a run ----------------------------------------------------------------------------------------------------


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, *args: str) -> tuple[int, dict[str, object]]:
    _write(tmp_path, table)
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "report.json"
    code = pytest.main(["--pyargs", "conformance", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                        "--conformance-report", str(report), *args])
    data: dict[str, object] = json.loads(report.read_text()) if report.exists() else {}
    return int(code), data


def _pairs(report: dict[str, object]) -> set[tuple[str, str]]:
    results = report["results"]
    assert isinstance(results, list)
    return {(str(r["target"]), str(r["rule"])) for r in results}


def test_the_table_configures_a_run_with_no_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, report = _run(tmp_path, monkeypatch, f'env = "{_WALK}"\nrules = "ENV-00[1-2]"\nprofile = "quick"')
    assert code == pytest.ExitCode.OK
    assert _pairs(report) == {(_WALK, "CONSTRUCT"), (_WALK, "ENV-001"), (_WALK, "ENV-002")}


def test_command_line_overrides_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = f'env = "{_WALK}"\nrules = "ENV-001"\nprofile = "quick"'
    code, report = _run(tmp_path, monkeypatch, table, "--env", _WRAPPED, "--rules", "ENV-003")
    assert code == pytest.ExitCode.OK
    # The command line's target replaces the table's (not added to it); its --rules replaces the table's.
    assert _pairs(report) == {(_WRAPPED, "CONSTRUCT"), (_WRAPPED, "ENV-003")}


def test_a_bad_value_names_the_table_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = _run(tmp_path, monkeypatch, f'env = "{_WALK}"\nprofile = "fast"')
    assert code == pytest.ExitCode.USAGE_ERROR
    assert "[tool.conformance] key 'profile'" in capsys.readouterr().err


def test_project_none_turns_the_table_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, report = _run(tmp_path, monkeypatch, 'env = "no.such:Env"', "--conformance-project", "none",
                        "--env", _WALK, "--rules", "ENV-001", "--conformance-profile", "quick")
    assert code == pytest.ExitCode.OK
    assert _pairs(report) == {(_WALK, "CONSTRUCT"), (_WALK, "ENV-001")}


def test_other_test_runs_of_the_project_ignore_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A project's own tests are not a run of the suite: a table naming a target that cannot be imported is not read.
    _write(tmp_path, 'env = "no.such:Env"\nprofile = "fast"')
    (tmp_path / "test_mine.py").write_text("def test_it():\n    pass\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "test_mine.py"]) == 0


# --- Baselines -----------------------------------------------------------------------------------------------------

_TARGET = "pkg.envs:GridEnv"
_HEAD = "ENV-006 (MUST) violated by pkg.envs:GridEnv: "

numbers = st.one_of(st.integers(-10**9, 10**9).map(str), st.floats(allow_nan=False, allow_infinity=False).map(repr))


@given(numbers, numbers, st.sampled_from(["'a'", "'bb'", '"x y"']))
def test_the_drawn_example_does_not_change_the_fingerprint(first: str, second: str, quoted: str) -> None:
    one = _HEAD + f"the reset at position {first} returned obs[{second}] = {quoted} above the high bound 1.0"
    other = _HEAD + "the reset at position 0 returned obs[3] = 'z' above the high bound 2.5"
    assert fingerprint("ENV-006", _TARGET, one) == fingerprint("ENV-006", _TARGET, other)


def test_another_problem_rule_or_target_has_another_fingerprint() -> None:
    message = _HEAD + "the reset at position 0 returned an observation outside observation_space"
    base = fingerprint("ENV-006", _TARGET, message)
    assert fingerprint("ENV-006", _TARGET, _HEAD + "reset returned a list, not a tuple") != base
    assert fingerprint("ENV-007", _TARGET, message) != base
    assert fingerprint("ENV-006", "pkg.envs:Other", message) != base
    # Only the first line counts: the details below it (actual values, tracebacks) vary.
    assert fingerprint("ENV-006", _TARGET, message + "\n  actual: 3.5") == base


def _file(tmp_path: Path, accepted: object) -> Path:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"schema": 1, "accepted": accepted}), encoding="utf-8")
    return path


def _entry(reason: str = "tracked in #12", rule: str = "ENV-006") -> dict[str, str]:
    message = _HEAD.replace("ENV-006", rule) + "obs[1] out of bounds"
    return {"target": _TARGET, "rule": rule, "fingerprint": fingerprint(rule, _TARGET, message), "reason": reason}


@pytest.mark.parametrize("reason", ["", "   "])
def test_an_entry_without_a_reason_is_refused(tmp_path: Path, reason: str) -> None:
    with pytest.raises(BaselineError, match=r"entry 0 \(ENV-006 on pkg.envs:GridEnv\) must have a reason"):
        Baseline.load(_file(tmp_path, [_entry(reason)]))


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{not json", "must be a readable JSON file"),
        ('{"schema": 2, "accepted": []}', "must be"),
        ('{"schema": 1, "accepted": [3]}', "entry 0 must be an object"),
        ('{"schema": 1, "accepted": [{"target": "t", "reason": "r"}]}', "rule, fingerprint"),
    ],
)
def test_malformed_files_are_named(tmp_path: Path, content: str, match: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BaselineError, match=match):
        Baseline.load(path)


def test_a_missing_file_says_how_to_write_one(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="--conformance-write-baseline"):
        Baseline.load(tmp_path / "none.json")


def test_accepting_and_fixed(tmp_path: Path) -> None:
    baseline = Baseline.load(_file(tmp_path, [_entry(), _entry(rule="SEED-008")]))
    assert baseline.accepting(_TARGET, "ENV-006", _HEAD + "obs[7] out of bounds") is not None
    assert baseline.accepting(_TARGET, "ENV-006", _HEAD + "a different problem") is None
    assert baseline.accepting("other:Env", "ENV-006", _HEAD + "obs[1] out of bounds") is None
    ran = [(_TARGET, "ENV-006"), (_TARGET, "SEED-008")]
    found = [(_TARGET, "ENV-006", baseline.entries[0].fingerprint)]
    assert [e.rule for e in baseline.fixed(ran, found)] == ["SEED-008"]
    # An entry whose item did not run (left out by --rules, another shard) is not fixed.
    assert baseline.fixed([(_TARGET, "ENV-006")], found) == []


def test_written_baselines_read_back_and_keep_reasons(tmp_path: Path) -> None:
    findings = [
        RuleResult("ENV-006", _TARGET, "MUST", "failed", _HEAD + "obs[2] out of bounds"),
        RuleResult("ENV-006", _TARGET, "MUST", "failed", _HEAD + "obs[5] out of bounds"),
        RuleResult("ENV-019", _TARGET, "SHOULD", "warned", "ENV-019 (SHOULD) violated: s"),
        RuleResult("ENV-001", _TARGET, "MUST", "passed"),
    ]
    keep = Baseline.load(_file(tmp_path, [_entry("known since 1.0")]))
    path = write_baseline(tmp_path / "out" / "baseline.json", findings, keep)
    data = json.loads(path.read_text())
    assert [(e["rule"], e["reason"]) for e in data["accepted"]] == [("ENV-006", "known since 1.0"), ("ENV-019", "")]
    with pytest.raises(BaselineError, match="must have a reason"):  # the new entry's reason is still to be written
        Baseline.load(path)
