"""The ``[tool.conformance]`` table: parsed into option text, errors that name the key, and its place in the run
(the command line overrides it; targets on the command line replace the table's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.project import KEYS, ProjectTableError, find_pyproject, read_table

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
