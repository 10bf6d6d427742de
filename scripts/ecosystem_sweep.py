"""Run the conformance suite on a list of real targets, each with its own interpreter, and print one row per target.

Usage (from the repository root; every target runs from an empty temporary directory)::

    python scripts/ecosystem_sweep.py --out /tmp/sweep                       # every target of the list
    python scripts/ecosystem_sweep.py --out /tmp/sweep --only gymnax-vector  # some of them (repeatable, globs)
    python scripts/ecosystem_sweep.py --out /tmp/sweep --table               # the table of what --out holds
    python scripts/ecosystem_sweep.py --list                                 # the targets and their interpreters

Each target is ``python -m pytest --pyargs conformance <its args> --conformance-report <out>/reports/<name>.json``
run by the interpreter of its venv, with ``--repo`` (default: this checkout) first on ``PYTHONPATH`` so the suite
and ``tests/ecosystem``'s factories come from that checkout, under a wall-clock cap (``--cap`` seconds; the run is
sent SIGTERM, which makes the suite write its report, then SIGKILL). Targets run one after the other, never at once:
the suite already uses the machine's cores.

A row says: the commit the suite's code came from (the git checkout holding the ``conformance`` package the target's
interpreter imported), wall seconds, the exit code (``cap`` when the cap stopped it), the items by outcome, the
failed, warned and not-checked (error) rules, the isolation (``fork``, or the suite's note for spawn), and the
**evidence gaps**: the items that passed while their rule rolls out (steps) yet report 0 steps. A rule rolls out if
its item's evidence declares a floor of steps, or if it reported steps on any target of the reports this table reads,
or if it is listed in ``scripts/ecosystem_rollout_rules.txt`` (the rules that stepped on some target of the
baseline; ``--write-rollout-rules`` rewrites it). An item's steps are its ``evidence["steps"]`` where the report has
an ``evidence`` mapping, else its ``steps``.

The list of targets is a TOML (or JSON) file, by default ``scripts/ecosystem_targets.toml``::

    [defaults]
    venv = "/work/venv"                        # a venv directory, or a name under --venvs
    env = { SDL_VIDEODRIVER = "dummy" }        # environment variables for every target

    [[targets]]
    name = "CartPole-v1"                       # the row's name and the report's file name
    args = ["--env-id", "CartPole-v1", "--registry", "gymnasium"]
    venv = "gymnax"                            # optional: <--venvs>/gymnax/bin/python runs it
    env = { MUJOCO_GL = "egl" }                # optional: added to the defaults

Every run appends its rows to ``<out>/sweep.json`` (a target run again replaces its row) and rewrites
``<out>/table.md`` from all of them; each target's output is in ``<out>/logs/<name>.log``.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 reads TOML with the backport the conformance extra installs
    import tomli as tomllib

_HERE = Path(__file__).resolve().parent
_REPO = _HERE.parent
_DEFAULT_TARGETS = _HERE / "ecosystem_targets.toml"
_DEFAULT_ROLLOUT_RULES = _HERE / "ecosystem_rollout_rules.txt"
_OUTCOMES = ("passed", "failed", "warned", "skipped", "error", "accepted")
# After SIGTERM the suite ends its items and writes its report; past this grace it is killed outright.
_TERM_GRACE = 60.0
# What the target's interpreter prints: where `conformance` came from (to name the commit of the row).
_WHERE = "import conformance, os; print(os.path.dirname(os.path.abspath(conformance.__file__)))"

JSONDict = dict[str, Any]
"""A parsed JSON or TOML object (the report, the target list): its values are checked where they are read."""


@dataclass(frozen=True)
class Target:
    """One target of the sweep.

    Attributes:
        name: The row's name and the report's file name.
        python: The interpreter that runs it.
        args: The suite's options that select it (``--env-id ...``) and any others it needs.
        env: Environment variables for its run, on top of this process's.
    """

    name: str
    python: Path
    args: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict[str, str])


@dataclass
class Run:
    """What one run of a target left: the facts the report does not hold.

    Attributes:
        name: The target's name.
        python: The interpreter that ran it.
        command: The command line.
        commit: The commit of the checkout the suite's code came from, with its path.
        started: When it started (local time, ISO 8601).
        wall: Its wall time in seconds.
        exit: Its exit code, ``"cap"`` when the cap stopped it, or ``"no venv"`` when its interpreter is missing.
        report: The path of its JSON report.
        log: The path of its output.
    """

    name: str
    python: str
    command: list[str]
    commit: str
    started: str
    wall: float
    exit: str
    report: str
    log: str


def _strings(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in cast("list[object]", value)):
        raise ValueError(f"ecosystem_sweep {what} must be a list of strings, got {value!r}; write it as [\"...\"]")
    return cast("list[str]", value)


def _environ(value: object, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"ecosystem_sweep {what} must be a table of strings, got {value!r}; write it as {{ K = \"v\" }}")
    table = cast("dict[object, object]", value)
    if not all(isinstance(key, str) and isinstance(item, str) for key, item in table.items()):
        raise ValueError(f"ecosystem_sweep {what} must map names to strings, got {value!r}; quote every value")
    return cast("dict[str, str]", table)


def _python(venv: str, venvs: Path) -> Path:
    """The interpreter of ``venv``: a directory (absolute, or ``~``), or a name under ``venvs``."""
    path = Path(os.path.expanduser(venv))
    return (path if path.is_absolute() else venvs / path) / "bin" / "python"


def load_targets(path: Path, venvs: Path) -> list[Target]:
    """Read the target list (TOML, or JSON when the file name ends with ``.json``).

    Raises:
        ValueError: If the file does not have the shape the module docstring shows.
    """
    text = path.read_text()
    data: JSONDict = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise ValueError(f"ecosystem_sweep [defaults] must be a table, got {defaults!r}; see the module docstring")
    default_env = _environ(cast("JSONDict", defaults).get("env"), "[defaults] env")
    default_venv = cast("JSONDict", defaults).get("venv", sys.prefix)
    entries = data.get("targets")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"ecosystem_sweep {path} must hold a non-empty [[targets]] list, got {entries!r}")
    targets: list[Target] = []
    for raw in cast("list[object]", entries):
        if not isinstance(raw, dict) or not isinstance(cast("JSONDict", raw).get("name"), str):
            raise ValueError(f"ecosystem_sweep each [[targets]] entry must be a table with a name, got {raw!r}")
        entry = cast("JSONDict", raw)
        name: str = entry["name"]
        venv = entry.get("venv", default_venv)
        if not isinstance(venv, str):
            raise ValueError(f"ecosystem_sweep target {name!r} venv must be a string, got {venv!r}")
        env = {**default_env, **_environ(entry.get("env"), f"target {name!r} env")}
        targets.append(Target(name, _python(venv, venvs), tuple(_strings(entry.get("args"), f"{name!r} args")), env))
    names = Counter(target.name for target in targets)
    if twice := sorted(name for name, count in names.items() if count > 1):
        raise ValueError(f"ecosystem_sweep target names must be unique, got {twice} more than once; rename them")
    return targets


def _file_name(name: str) -> str:
    return "".join(char if char.isalnum() or char in "-_." else "_" for char in name)


def _git_commit(directory: Path) -> str:
    """``<short hash> <checkout>`` of the git checkout holding ``directory``, or ``?`` outside one."""
    facts: list[str] = []
    for query in ("--short HEAD", "--show-toplevel"):
        try:
            facts.append(subprocess.run(["git", "-C", str(directory), "rev-parse", *query.split()], capture_output=True,
                                        text=True, timeout=30, check=True).stdout.strip())
        except (OSError, subprocess.SubprocessError):
            return "?"
    return " ".join(facts)


def _environment(target: Target, repo: Path) -> dict[str, str]:
    env = {**os.environ, **target.env}
    env["PYTHONPATH"] = os.pathsep.join(part for part in (str(repo), env.get("PYTHONPATH", "")) if part)
    return env


def _suite_commit(target: Target, env: Mapping[str, str], cwd: str) -> str:
    """The commit of the ``conformance`` package the target's interpreter imports (with ``env`` and ``cwd``)."""
    try:
        where = subprocess.run([str(target.python), "-c", _WHERE], env=env, cwd=cwd, capture_output=True, text=True,
                               timeout=120, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "? (conformance does not import)"
    return _git_commit(Path(where))


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End the run's whole process group: SIGTERM (the suite writes its report), then SIGKILL after a grace."""
    for sig, grace in ((signal.SIGTERM, _TERM_GRACE), (signal.SIGKILL, 30.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def run_target(target: Target, out: Path, repo: Path, cap: float, extra: Sequence[str]) -> Run:
    """Run the suite on ``target`` from an empty temporary directory, at most ``cap`` seconds of wall time."""
    stem = _file_name(target.name)
    report, log = out / "reports" / f"{stem}.json", out / "logs" / f"{stem}.log"
    report.parent.mkdir(parents=True, exist_ok=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    command = [str(target.python), "-m", "pytest", "--pyargs", "conformance", *target.args, *extra,
               "--conformance-report", str(report), "-p", "no:cacheprovider", "-q"]
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    if not target.python.exists():
        log.write_text(f"{target.python} does not exist: create the venv the target list names\n")
        return Run(target.name, str(target.python), command, "?", started, 0.0, "no venv", str(report), str(log))
    env = _environment(target, repo)
    with tempfile.TemporaryDirectory(prefix="sweep-") as cwd:
        commit = _suite_commit(target, env, cwd)
        with log.open("wb") as sink:
            sink.write(f"$ cd {cwd} && {' '.join(command)}\n# suite from {commit}\n".encode())
            sink.flush()
            begin = time.monotonic()
            process = subprocess.Popen(command, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            try:
                code = str(process.wait(timeout=cap))
            except subprocess.TimeoutExpired:
                _stop(process)
                code = "cap"
            wall = time.monotonic() - begin
    return Run(target.name, str(target.python), command, commit, started, round(wall, 1), code, str(report),
               str(log))


# --- reading reports ---------------------------------------------------------------------------------------------


def read_report(path: Path) -> JSONDict | None:
    """The JSON report at ``path``, or None when there is none or it cannot be read (a killed run's)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return cast("JSONDict", data) if isinstance(data, dict) else None


def _records(report: JSONDict | None) -> list[JSONDict]:
    results: object = report.get("results", []) if report else []
    if not isinstance(results, list):
        return []
    return [cast("JSONDict", item) for item in cast("list[object]", results) if isinstance(item, dict)]


def _count(value: object) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def steps_of(record: JSONDict) -> int:
    """The steps an item observed: its evidence's ``steps`` where the report has an evidence mapping."""
    evidence = record.get("evidence")
    if isinstance(evidence, dict) and "steps" in evidence:
        return _count(cast("JSONDict", evidence)["steps"])
    return _count(record.get("steps"))


def _declares_step_floor(record: JSONDict) -> bool:
    """Whether the item's evidence states a floor of steps (a mapping under ``floor``/``floors``/``needs``)."""
    evidence = record.get("evidence")
    if not isinstance(evidence, dict):
        return False
    for key in ("floor", "floors", "needs", "needed"):
        floor = cast("JSONDict", evidence).get(key)
        if isinstance(floor, dict) and _count(cast("JSONDict", floor).get("steps")) > 0:
            return True
    return False


def rollout_rules(reports: Sequence[JSONDict | None], known: Sequence[str] = ()) -> set[str]:
    """The rules that roll out: ``known``, those that reported steps on some item, and those declaring a floor."""
    rules = set(known)
    for report in reports:
        for record in _records(report):
            if steps_of(record) > 0 or _declares_step_floor(record):
                rules.add(str(record.get("rule", "")))
    return rules - {""}


@dataclass
class Row:
    """One row of the table: a run and what its report says.

    Attributes:
        run: The run.
        counts: Items by outcome.
        failed: The failed rules.
        warned: The warned rules.
        errors: The rules not checked (error).
        gaps: The rules that passed with 0 steps while they roll out.
        isolation: ``fork`` or the suite's isolation notes.
        seconds: The run's own wall time as the report states it.
        report: Whether the run left a report that could be read.
        complete: Whether that report is complete (``summary.run.incomplete`` false).
        effort: Per rule area (``ENV``, ``VEC``...), the steps and the examples of all its items.
    """

    run: Run
    counts: dict[str, int]
    failed: list[str]
    warned: list[str]
    errors: list[str]
    gaps: list[str]
    isolation: str
    seconds: float
    report: bool
    complete: bool
    effort: dict[str, tuple[int, int]] = field(default_factory=dict[str, tuple[int, int]])


def make_row(run: Run, report: JSONDict | None, rollout: set[str]) -> Row:
    """The row of ``run`` from its report (empty counts when it left none)."""
    records = _records(report)
    counts = Counter(str(record.get("outcome", "")) for record in records)

    def rules(outcome: str) -> list[str]:
        return sorted({str(record.get("rule")) for record in records if record.get("outcome") == outcome})

    gaps = sorted({str(record.get("rule")) for record in records
                   if record.get("outcome") == "passed" and record.get("rule") in rollout and steps_of(record) == 0})
    summary = cast("JSONDict", report.get("summary", {})) if report else {}
    notes = cast("dict[str, object]", summary.get("isolation") or {})
    isolation = "; ".join(sorted({str(note) for note in notes.values()})) or ("fork" if records else "?")
    facts = cast("JSONDict", summary.get("run") or {})
    effort: dict[str, tuple[int, int]] = {}
    for record in records:
        area = str(record.get("rule", "")).split("-")[0]
        steps, examples = effort.get(area, (0, 0))
        effort[area] = (steps + steps_of(record), examples + _count(record.get("examples")))
    return Row(run, {outcome: counts.get(outcome, 0) for outcome in _OUTCOMES}, rules("failed"), rules("warned"),
               rules("error"), gaps, isolation, float(summary.get("seconds", 0.0) or 0.0),
               report is not None, report is not None and not facts.get("incomplete", False), effort)


_HEADER = ("target", "suite commit", "wall s", "exit", "pass/fail/warn/skip/err", "failed", "warned",
           "not checked", "evidence gaps (passed, 0 steps)", "isolation")


def _cell(rules: Sequence[str]) -> str:
    return ", ".join(rules) if rules else "-"


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table, one line per target."""
    lines = ["| " + " | ".join(_HEADER) + " |", "|" + "---|" * len(_HEADER)]
    for row in rows:
        counts = "/".join(str(row.counts[outcome]) for outcome in _OUTCOMES[:5])
        if row.counts["accepted"]:
            counts += f" (+{row.counts['accepted']} accepted)"
        if not row.report:
            counts += " (no report)"
        elif not row.complete:
            counts += " (report incomplete)"
        gaps = f"{len(row.gaps)}: {_cell(row.gaps)}" if row.gaps else "0"
        cells = (row.run.name, row.run.commit.split(" ")[0], f"{row.run.wall:.0f}", row.run.exit, counts,
                 _cell(row.failed), _cell(row.warned), _cell(row.errors), gaps, row.isolation.replace("|", "/"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def effort_lines(rows: Sequence[Row]) -> str:
    """Per target, the steps and examples of each rule area (the rule id's prefix), summed over all its items.

    The suite's own effort line groups items by the test module that holds them (SEED-009 runs in the ENV module),
    so its figures per area can differ from these; a 0 is a 0 in both.
    """
    lines = ["Effort (steps/examples by rule-id prefix, summed over all items; the suite's effort line groups by test "
             "module):"]
    for row in rows:
        areas = ", ".join(f"{area} {steps}/{examples}" for area, (steps, examples) in sorted(row.effort.items()))
        lines.append(f"- {row.run.name}: {areas or 'no report'}")
    return "\n".join(lines)


# --- the sweep's files -------------------------------------------------------------------------------------------


def load_runs(out: Path) -> list[Run]:
    """The runs ``<out>/sweep.json`` records (none when it does not exist)."""
    path = out / "sweep.json"
    if not path.exists():
        return []
    return [Run(**cast("JSONDict", item)) for item in cast("list[object]", json.loads(path.read_text()))]


def save_runs(out: Path, runs: Sequence[Run]) -> None:
    """Write the runs to ``<out>/sweep.json``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "sweep.json").write_text(json.dumps([asdict(run) for run in runs], indent=1) + "\n")


def _known_rollout(path: Path | None) -> list[str]:
    if path is None or not path.exists():
        return []
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def render(runs: Sequence[Run], known: Sequence[str]) -> str:
    """The table of ``runs``: a rule rolls out if it is ``known`` to or stepped in one of their reports."""
    reports = [read_report(Path(run.report)) for run in runs]
    rollout = rollout_rules(reports, known)
    rows = [make_row(run, report, rollout) for run, report in zip(runs, reports)]
    return table(rows) + "\n\n" + effort_lines(rows)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--targets", type=Path, default=_DEFAULT_TARGETS, help="the TOML/JSON list of targets")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only the targets whose name matches (repeatable; case-insensitive)")
    parser.add_argument("--out", type=Path, required=False, help="where reports, logs and the table go")
    parser.add_argument("--cap", type=float, default=1200.0, help="wall-clock cap per target, seconds (default 1200)")
    parser.add_argument("--profile", default="default", help="--conformance-profile for every target")
    parser.add_argument("--repo", type=Path, default=_REPO,
                        help="checkout put first on PYTHONPATH (the suite and tests/ecosystem); default: this one")
    parser.add_argument("--venvs", type=Path, default=Path("/work/venvs"),
                        help="where venvs named by name (not by path) live")
    parser.add_argument("--rollout-rules", type=Path, default=_DEFAULT_ROLLOUT_RULES,
                        help="rules known to roll out, one a line (default: scripts/ecosystem_rollout_rules.txt)")
    parser.add_argument("--write-rollout-rules", action="store_true",
                        help="rewrite --rollout-rules with the rules that stepped in the reports --out holds")
    parser.add_argument("--table", action="store_true", help="print the table of --out's runs; run nothing")
    parser.add_argument("--list", action="store_true", help="list the targets and their interpreters; run nothing")
    parser.add_argument("pytest_args", nargs="*", help="more pytest options for every target (after --)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sweep; returns 0 (the table carries the verdicts), 2 on a usage error."""
    parser = _parser()
    args = parser.parse_args(argv)
    targets = load_targets(args.targets, args.venvs)
    patterns = [pattern.lower() for pattern in args.only]
    chosen = [t for t in targets if not patterns or any(fnmatch.fnmatch(t.name.lower(), p) for p in patterns)]
    if args.list:
        for target in chosen:
            state = "" if target.python.exists() else "  (missing)"
            print(f"{target.name:28} {target.python}{state}  {' '.join(target.args)}")
        return 0
    if args.out is None:
        parser.error("--out is required to run or to print a table")
    if patterns and not chosen:
        parser.error(f"--only must match a target name, got {args.only!r}; --list shows the names")
    out: Path = args.out
    runs = load_runs(out)
    known = _known_rollout(args.rollout_rules)
    if not args.table and not args.write_rollout_rules:
        extra = ["--conformance-profile", args.profile, *args.pytest_args]
        for target in chosen:
            run = run_target(target, out, args.repo.resolve(), args.cap, extra)
            runs = [r for r in runs if r.name != run.name] + [run]
            save_runs(out, runs)
            print(table([make_row(run, read_report(Path(run.report)), rollout_rules([read_report(Path(run.report))],
                                                                                    known))]).splitlines()[-1],
                  flush=True)
    text = render(runs, known)
    if args.write_rollout_rules:
        stepped = sorted(rollout_rules([read_report(Path(run.report)) for run in runs]))
        args.rollout_rules.write_text("# Rules that reported steps on some target of the sweep in "
                                      f"{out} (scripts/ecosystem_sweep.py --write-rollout-rules).\n"
                                      + "\n".join(stepped) + "\n")
        print(f"{len(stepped)} rules written to {args.rollout_rules}")
    (out / "table.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
