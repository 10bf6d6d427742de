"""``python -m conformance [TARGET...] [OPTIONS]``: run the suite and print a one-screen table (or ``--json``).

A TARGET is ``pkg.module:attr`` (an Env class or factory) or ``[module:]ID`` (a registered id, made by
``--registry``'s ``make``); ``module:Name`` is read as a factory when ``module`` has a callable ``Name``. The
target options of ``pytest --pyargs conformance`` (``--env``, ``--env-id``, ``--vector-env``, ``--vector-env-id``,
``--vectorization-mode``, ``--func-env``, ``--registry``, ``--env-kwargs``) are accepted too and passed on as they
are. With no target, the reference's registered envs are checked. The suite itself runs in a child ``pytest``
process, so this front end shares nothing with it but the JSON report.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance._engine.describe import is_list
from conformance._engine.options import LIST_OPTIONS, OPTION_HELP, TARGET_OPTIONS, classify, flag
from conformance.results import Report, schema_markdown

__all__ = ["main"]

_MAX_DETAILS = 12


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description=(__doc__ or "").split("\n\n")[0],
        epilog="Target options may be combined and repeated; see 'pytest --help' (section conformance) for more.",
    )
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="pkg.module:attr or [module:]ID")
    targets = parser.add_argument_group("targets (the options of pytest --pyargs conformance)")
    for name in TARGET_OPTIONS:
        metavar, text = OPTION_HELP[name]
        action = "append" if name in LIST_OPTIONS else "store"
        targets.add_argument(flag(name), dest=name, action=action, metavar=metavar, help=text)
    parser.add_argument("--profile", choices=("quick", "default", "thorough"), default="default")
    parser.add_argument(
        "--rules", metavar="GLOB[,!GLOB]", help="only rules matching; '!' excludes, e.g. 'SEED-*' or '!VEC-002'"
    )
    parser.add_argument("--timeout", metavar="SECONDS", help="per-call timeout (default 10)")
    parser.add_argument("--report", metavar="PATH", help="also keep the JSON report at PATH")
    parser.add_argument("--json", action="store_true", help="print the JSON report instead of the table")
    parser.add_argument("-n", "--numprocesses", metavar="N", help="run with pytest-xdist on N processes")
    parser.add_argument("-v", "--verbose", action="store_true", help="show pytest's own output too")
    parser.add_argument("--report-schema", action="store_true",
                        help="print the JSON report's schema (docs/report.md) and exit")
    return parser


def _pytest_args(options: argparse.Namespace, report: Path) -> list[str]:
    args = ["--pyargs", "conformance", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--no-header"]
    args += ["--conformance-report", str(report), "--conformance-profile", options.profile]
    if not options.verbose:
        args += ["--tb=no", "-p", "no:warnings"]
    for option, value in (("--rules", options.rules), ("--conformance-timeout", options.timeout),
                          ("-n", options.numprocesses)):
        if value:
            args += [option, value]
    for target in options.targets:
        args += list(classify(target))
    for name in TARGET_OPTIONS:
        value = getattr(options, name)
        if value is None:
            continue
        for item in value if is_list(value) else [value]:
            args += [flag(name), item]
    return args


def _table(data: dict[str, Any]) -> list[str]:
    report = Report.from_dict(data)
    lines = report.table()
    noteworthy = report.violations(should=True)
    for result in noteworthy[:_MAX_DETAILS]:
        lines.append(f"{result.outcome.upper():7} {result.rule} [{result.target}] {result.summary}")
    if len(noteworthy) > _MAX_DETAILS:
        lines.append(f"... and {len(noteworthy) - _MAX_DETAILS} more (see --json or --report)")
    for target, note in report.isolation.items():
        lines.append(f"isolation: {note} ({target})")
    for target, count in report.not_checked.items():
        lines.append(f"NOT CHECKED: {target} — {count} item{'s' if count != 1 else ''} could not be checked")
    counts = report.counts
    lines.append(", ".join(f"{counts[key]} {key}" for key in ("passed", "failed", "warned", "skipped", "error")))
    return lines


# The pytest options this front end offers under names of its own: messages of the child run name ours.
_RENAMED = {"--conformance-report": "--report", "--conformance-profile": "--profile", "--conformance-timeout": "--timeout"}


def _own_names(text: str) -> str:
    for theirs, ours in _RENAMED.items():
        text = text.replace(theirs, ours)
    return text


def _unwritable(path: Path) -> str:
    """Why a report cannot be written at ``path`` (``""`` when it can)."""
    parent = path.parent
    if not parent.exists():
        return f"{parent} does not exist"
    if not parent.is_dir():
        return f"{parent} is not a directory"
    if not os.access(parent, os.W_OK):
        return f"{parent} is not writable"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite and print its outcome.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when no rule failed, 1 when one did, pytest's own code for usage or internal errors.
    """
    parser = _parser()
    options = parser.parse_args(argv)
    if options.report_schema:
        sys.stdout.write(schema_markdown())
        return 0
    if options.report:
        problem = _unwritable(Path(options.report))
        if problem:
            parser.error(f"--report must be a path in a writable directory, got {options.report!r} ({problem})")
    with tempfile.TemporaryDirectory() as scratch:
        report_path = Path(options.report) if options.report else Path(scratch) / "report.json"
        command = [sys.executable, "-m", "pytest", *_pytest_args(options, report_path)]
        completed = subprocess.run(command, capture_output=not options.verbose, text=True, check=False)
        if not report_path.exists():
            sys.stderr.write(_own_names(completed.stdout or ""))
            sys.stderr.write(_own_names(completed.stderr or ""))
            return completed.returncode or 2
        report = json.loads(report_path.read_text(encoding="utf-8"))
    if options.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(_table(report)) + "\n")
    summary = report["summary"]
    return 1 if summary["failed"] or summary["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
