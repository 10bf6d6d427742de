"""Run Gymnasium's own test suite against ``reference`` and print the pass rate per area.

Usage::

    python scripts/gymnasium_parity.py PATH/TO/GYMNASIUM-CHECKOUT [--ceiling] [-n 2] [--details] [-- PYTEST ARGS]

The checkout's ``tests/`` is copied to a temporary directory (never into this project), every ``gymnasium`` word in
the copy is replaced by ``reference`` (imports, entry-point strings, module names in ``match=`` patterns), and pytest
runs there against the installed ``reference``. With ``--ceiling`` the untouched copy also runs against the installed
``gymnasium``, so the table shows what Gymnasium itself passes on this machine (its ceiling is set by optional
dependencies that are not installed).

Outcomes per test unit:

* ``pass`` / ``skip``: as pytest reports them; skips (missing optional dependencies) are left out of the rate.
* ``wording``: the right exception type was raised but ``pytest.raises(match=...)`` did not match its message, a
  warning of the right category was emitted but ``pytest.warns(match=...)`` did not match, or a test's
  ``assert "words" in str(error)`` failed. Our message format is deliberate, so these count as passes in the
  "rate" column.
* ``fail``: everything else, including errors in fixtures. A module that cannot be collected counts as one failure
  per test Gymnasium collects from it (or one when that is unknown), so a missing module path is not undercounted.
* ``n/a`` (with ``--ceiling``): a unit we fail that Gymnasium itself fails on this machine with
  ``DependencyNotInstalled``: it needs an environment (Box2D, MuJoCo) neither package can run here. The "rate"
  column leaves these out; the "raw" column counts them as failures.

Areas are the folders of Gymnasium's ``tests/`` (see ``AREAS``); ``envs`` (Gymnasium's own environments: MuJoCo,
Box2D, rendering of every registered id) is printed but is not one of the parity target areas.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

# Path prefix (relative to the checkout) -> area. The first match wins, so the specific prefixes come first.
AREAS: tuple[tuple[str, str], ...] = (
    ("tests/envs/registration/", "envs/registration"),
    ("tests/envs/functional/", "functional"),
    ("tests/functional/", "functional"),
    ("tests/envs/", "envs"),
    ("tests/spaces/", "spaces"),
    ("tests/test_core.py", "core"),
    ("tests/wrappers/", "wrappers"),
    ("tests/vector/", "vector"),
    ("tests/utils/", "utils"),
)
TARGET_AREAS = ("spaces", "core", "wrappers", "vector", "envs/registration", "functional", "utils")

# A per-test alarm, so one hanging test (an async worker that never answers) cannot stall the whole run.
_CONFTEST = '''
import os
import signal

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MPLBACKEND", "Agg")

_TIMEOUT = int(os.environ.get("PARITY_TEST_TIMEOUT", "120"))


@pytest.fixture(autouse=True)
def _own_working_directory(tmp_path, monkeypatch):
    # Tests write relative paths ("videos"); parallel workers sharing one directory would race on them.
    monkeypatch.chdir(tmp_path)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    def _expire(signum, frame):
        raise TimeoutError(f"parity: test exceeded {_TIMEOUT}s")

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.alarm(_TIMEOUT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
'''

_PYTEST_INI = """[pytest]
filterwarnings =
    ignore::DeprecationWarning:{package}.*:
"""

_WORDING_RAISES = "Regex pattern did not match"
_WARNS_MISMATCH = re.compile(r"No warnings of type \((?P<types>[^)]*)\) matching the regex were emitted")
# ``assert "some words" in str(error)``: a test reading an error message by hand (pytest shows the literal).
_WORDING_CONTAINS = re.compile(r"^(?:AssertionError: )?assert (?P<q>['\"]).+(?P=q) in (?P<r>['\"])")


@dataclass(frozen=True)
class Outcome:
    """One test unit's result."""

    area: str
    module: str
    name: str
    kind: str  # pass | skip | wording | fail
    message: str


def area_of(module_path: str) -> str:
    """The area a test module (path relative to the checkout) belongs to."""
    for prefix, area in AREAS:
        if module_path.startswith(prefix):
            return area
    return "other"


def prepare(checkout: Path, workdir: Path, package: str) -> Path:
    """Copy ``checkout/tests`` into ``workdir``; rewrite ``gymnasium`` to ``package`` unless it is gymnasium."""
    source = checkout / "tests"
    if not source.is_dir():
        raise SystemExit(f"gymnasium_parity: checkout must contain tests/, got {str(checkout)!r}")
    target = workdir / "tests"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    if package != "gymnasium":
        word = re.compile(r"\bgymnasium\b")
        for path in target.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            path.write_text(word.sub(package, text), encoding="utf-8")
    (workdir / "conftest.py").write_text(_CONFTEST, encoding="utf-8")
    (workdir / "pytest.ini").write_text(_PYTEST_INI.format(package=package), encoding="utf-8")
    return target


def run_pytest(workdir: Path, junit: Path, workers: int, extra: list[str]) -> int:
    """Run pytest in ``workdir`` writing a JUnit XML report; returns pytest's exit code."""
    command = [sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}"]
    command += ["-o", "junit_family=xunit2", "--rootdir", str(workdir)]
    # Modules of Gymnasium's tests that import a missing optional backend (Box2D, MuJoCo) fail to collect; the
    # rest must still run (they are counted as Gymnasium's own ceiling counts them).
    command += ["--continue-on-collection-errors"]
    if workers > 1:
        command += ["-n", str(workers)]
    command += extra
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    # The copy is a top-level ``tests`` package; nothing of the caller's working directory may shadow it.
    env["PYTHONPATH"] = str(workdir)
    completed = subprocess.run(command, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    (workdir / "pytest.log").write_bytes(completed.stdout)
    return completed.returncode


def _module_path(classname: str, name: str) -> str:
    # A collection error or module-level skip has no class name; its name is the dotted module.
    parts = (classname or name).split(".")
    for cut in range(len(parts), 0, -1):
        if parts[cut - 1].startswith("test"):
            return "/".join(parts[:cut]) + ".py"
    return "/".join(parts) + ".py"


def _last_error_line(text: str) -> str:
    errors = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    return errors[-1] if errors else ""


def _failing_call(text: str) -> str:
    """The source pytest marked with ``>`` in the traceback's last frame, with the lines that continue it."""
    lines = text.splitlines()
    marked = [i for i, line in enumerate(lines) if line.startswith(">")]
    if not marked:
        return ""
    start = marked[-1]
    return " ".join(line.lstrip(">").strip() for line in lines[start : start + 3])


def _is_wording_only(message: str, text: str) -> bool:
    """Whether a failure is only an error or warning message that reads differently (see the module docstring)."""
    call = _failing_call(text)
    if "pytest.raises(" in call:
        # The expected type was raised (else it would have propagated, or pytest says DID NOT RAISE) and its
        # message failed ``match``: pytest reports "Regex pattern did not match" or, since pytest 9, a diff.
        return _WORDING_RAISES in message or message.startswith("AssertionError:")
    if "pytest.warns(" in call and _WORDING_RAISES in message:
        expected = re.search(r"pytest\.warns\(\s*([A-Za-z_][\w.]*)", call)
        category = expected.group(1).rsplit(".", 1)[-1] if expected else ""
        emitted = message.split("Emitted warnings:", 1)[-1] if "Emitted warnings:" in message else ""
        # A named category must have been emitted; a variable (``test``) cannot be checked here.
        return bool(emitted.strip(" []\n")) and (not category.endswith("Warning") or f"{category}(" in emitted)
    return bool(_WORDING_CONTAINS.match(message))


def _classify(case: ET.Element) -> tuple[str, str]:
    for tag in ("failure", "error"):
        node = case.find(tag)
        if node is not None:
            summary = node.get("message") or ""
            if summary in ("", "collection failure") or summary.startswith("failed on setup"):
                summary = f"{summary}: {_last_error_line(node.text or '')}".lstrip(": ")
            message = summary + "\n" + (node.text or "")
            if tag == "failure" and _is_wording_only(message, node.text or ""):
                return "wording", message
            warns = _WARNS_MISMATCH.search(message)
            if tag == "failure" and warns and _warned_with_category(warns.group("types"), message):
                return "wording", message
            return "fail", message
    if case.find("skipped") is not None:
        return "skip", (case.find("skipped").get("message") or "")  # type: ignore[union-attr]
    return "pass", ""


def _warned_with_category(types: str, message: str) -> bool:
    emitted = message.split("Emitted warnings:", 1)
    if len(emitted) < 2:
        return False
    names = [t.strip().removeprefix("<class '").removesuffix("'>").rsplit(".", 1)[-1] for t in types.split(",")]
    return any(f"{name}(" in emitted[1] for name in names if name)


def parse(junit: Path) -> list[Outcome]:
    """Every test unit of a JUnit XML report, with its area and outcome."""
    outcomes = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = _module_path(case.get("classname", ""), case.get("name", ""))
        kind, message = _classify(case)
        name = case.get("name", "") if case.get("classname") else ""
        outcomes.append(Outcome(area_of(module), module, name, kind, message.strip()))
    return outcomes


def _collection_errors(outcomes: list[Outcome]) -> set[str]:
    # pytest reports a module that fails to import as one testcase without a class name (parse leaves name empty).
    return {o.module for o in outcomes if o.kind == "fail" and not o.name}


def expand_collection_errors(outcomes: list[Outcome], ceiling: list[Outcome] | None) -> list[Outcome]:
    """Count a module that failed to import as one failure per test Gymnasium's run collected from it."""
    broken = _collection_errors(outcomes)
    if not broken or ceiling is None:
        return outcomes
    per_module = Counter(o.module for o in ceiling if o.kind != "skip")
    expanded = [o for o in outcomes if o.module not in broken]
    for o in outcomes:
        if o.module in broken:
            expanded += [Outcome(o.area, o.module, f"<uncollected {i}>", "fail", o.message)
                         for i in range(max(1, per_module.get(o.module, 1)))]
    return expanded


def tally(outcomes: list[Outcome]) -> dict[str, Counter[str]]:
    """Outcome counts per area (plus "TOTAL (target areas)")."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for o in outcomes:
        table[o.area][o.kind] += 1
        if o.area in TARGET_AREAS:
            table["TOTAL (target areas)"][o.kind] += 1
    return table


_DEPENDENCY = "DependencyNotInstalled"


def mark_unmeasurable(outcomes: list[Outcome], ceiling: list[Outcome] | None) -> list[Outcome]:
    """Mark ``n/a`` the units we fail that Gymnasium also fails here for want of an optional dependency.

    Those units need an environment neither package can run on this machine (Box2D's CarRacing, MuJoCo's Ant):
    they measure the machine, not the implementation.
    """
    if ceiling is None:
        return outcomes
    missing = {(o.module, o.name) for o in ceiling if o.kind == "fail" and _DEPENDENCY in o.message}
    return [
        Outcome(o.area, o.module, o.name, "n/a", o.message) if o.kind == "fail" and (o.module, o.name) in missing else o
        for o in outcomes
    ]


def _rate(counts: Counter[str], *, with_wording: bool = True, count_na: bool = False) -> str:
    ran = counts["pass"] + counts["wording"] + counts["fail"] + (counts["n/a"] if count_na else 0)
    if not ran:
        return "-"
    good = counts["pass"] + (counts["wording"] if with_wording else 0)
    return f"{100.0 * good / ran:.1f}%"


def _gym_counts(ceiling: list[Outcome], area: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for o in ceiling:
        if o.area == area or (area == "TOTAL (target areas)" and o.area in TARGET_AREAS):
            kind = "n/a" if o.kind == "fail" and _DEPENDENCY in o.message else o.kind
            counts[kind] += 1
    return counts


def print_table(ours: dict[str, Counter[str]], ceiling: list[Outcome] | None, package: str) -> None:
    """One row per area: our counts and rates, and Gymnasium's on the same tests when measured."""
    order = [*TARGET_AREAS, "envs", "other", "TOTAL (target areas)"]
    header = f"{'area':<20}{'pass':>6}{'word':>6}{'fail':>6}{'n/a':>5}{'skip':>6}{'strict':>8}{'rate':>8}{'raw':>8}"
    if ceiling is not None:
        header += f"{'gym raw':>9}{'gym':>8}"
    print(f"Gymnasium's tests against {package!r}")
    print("  rate = (pass + wording) / (pass + wording + fail); strict leaves wording out; raw counts n/a as fail")
    print("  n/a = units Gymnasium itself fails here with DependencyNotInstalled (Box2D/MuJoCo environments)")
    print(header)
    print("-" * len(header))
    for area in order:
        if area not in ours:
            continue
        c = ours[area]
        row = f"{area:<20}{c['pass']:>6}{c['wording']:>6}{c['fail']:>6}{c['n/a']:>5}{c['skip']:>6}"
        row += f"{_rate(c, with_wording=False):>8}{_rate(c):>8}{_rate(c, count_na=True):>8}"
        if ceiling is not None:
            g = _gym_counts(ceiling, area)
            row += f"{_rate(g, count_na=True):>9}{_rate(g):>8}"
        print(row)


def print_details(outcomes: list[Outcome], kinds: tuple[str, ...]) -> None:
    """Every unit of the given kinds with the first line of its message (an uncollected module on one line)."""
    uncollected: Counter[str] = Counter()
    for o in sorted(outcomes, key=lambda o: (o.area, o.module, o.name)):
        if o.kind not in kinds:
            continue
        first = next((line for line in o.message.splitlines() if line.strip()), "")
        if o.name.startswith("<uncollected"):
            uncollected[o.module] += 1
            if uncollected[o.module] > 1:
                continue
            print(f"  [{o.kind}] {o.module} (module not collected; counted as its Gymnasium units): {first[:200]}")
        else:
            print(f"  [{o.kind}] {o.module}::{o.name}: {first[:200]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a Gymnasium checkout (the folder holding tests/)")
    parser.add_argument("--package", default="reference", help="the package that replaces gymnasium")
    parser.add_argument("--ceiling", action="store_true", help="also run the tests against gymnasium itself")
    parser.add_argument("-n", "--workers", type=int, default=1, help="pytest-xdist workers (default 1)")
    parser.add_argument("--details", action="store_true", help="list every failure and wording-only failure")
    parser.add_argument("--keep", type=Path, default=None, help="run in this (new) folder and keep it")
    parser.add_argument("--no-run", action="store_true", help="only re-read the reports of an earlier --keep run")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()

    with tempfile.TemporaryDirectory(prefix="gymnasium-parity-") as scratch:
        root = args.keep.resolve() if args.keep else Path(scratch)
        if args.no_run and not args.keep:
            parser.error("--no-run needs --keep DIR (the folder of an earlier run)")
        ceiling_outcomes: list[Outcome] | None = None
        if args.ceiling:
            peer = root / "gymnasium"
            if not args.no_run:
                peer.mkdir(parents=True)
                prepare(checkout, peer, "gymnasium")
                run_pytest(peer, peer / "junit.xml", args.workers, args.pytest_args)
            ceiling_outcomes = parse(peer / "junit.xml")
        ours_dir = root / args.package
        if not args.no_run:
            ours_dir.mkdir(parents=True)
            prepare(checkout, ours_dir, args.package)
            run_pytest(ours_dir, ours_dir / "junit.xml", args.workers, args.pytest_args)
        outcomes = expand_collection_errors(parse(ours_dir / "junit.xml"), ceiling_outcomes)
        outcomes = mark_unmeasurable(outcomes, ceiling_outcomes)

    print_table(tally(outcomes), ceiling_outcomes, args.package)
    if args.details:
        print(f"\nFailures and wording-only failures against {args.package!r}:")
        print_details(outcomes, ("fail", "n/a", "wording"))
        if ceiling_outcomes is not None:
            print("\nFailures against gymnasium:")
            print_details(ceiling_outcomes, ("fail",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
