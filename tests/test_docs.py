"""The documentation: README stays short, every link resolves, and every command a page shows works.

Each ``pytest --pyargs conformance ...`` and ``python -m conformance ...`` command in a fenced ``bash``/``console``
block (and each ``run:`` of a ``yaml`` block) of README.md and ``docs/**/*.md`` is run with ``--collect-only``: pytest
parses its options with the plugin's own definitions and the plugin validates their values and resolves the targets,
all without running an item. A target the suite would import at collection (a ``--registry`` module, a glob of ids)
from a package CI does not install (``ale_py``, ``minigrid``, ``mypkg``...) is replaced by one it does, so such a
command is checked for its options only. Each ``[tool.conformance]`` table a page shows is read by a collection in a
project of its own.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
README_MAX_LINES = 150

# Top-level modules a CI run of the test extra can import: the repository's packages and Gymnasium.
_CI_MODULES = frozenset({"conformance", "examples", "gymnasium", "gymspec", "reference", "tests"})
_BUILTIN_REGISTRIES = frozenset({"reference", "gymnasium"})
_ENV_STAND_IN = "CartPole-v1"  # registered in the reference and in Gymnasium
_TARGET_OPTIONS = ("--env", "--env-id", "--vector-env", "--vector-env-id", "--func-env")
_GLOB = re.compile(r"[*?\[]")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Command:
    """One suite command a page shows: where, and the arguments after ``pytest``/``python -m conformance``."""

    where: str
    kind: str  # "pytest" or "module"
    args: tuple[str, ...]


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(path: Path) -> list[tuple[str, str, int]]:
    """The fenced blocks of a page: (language, text, line of the opening fence)."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in _FENCE.finditer(text)]


def _shell_lines(language: str, block: str) -> list[tuple[int, str]]:
    """Logical command lines of a block (offset within it, text): continuation lines joined; for YAML, the ``run:``
    values, folded, with ``${{ ... }}`` expressions as ``1``."""
    lines = block.splitlines()
    found: list[tuple[int, str]] = []
    if language == "yaml":
        for at, line in enumerate(lines):
            key = re.match(r"^(\s*)(?:- )?run:\s*(.*)$", line)
            if key is None:
                continue
            value = key.group(2)
            if value in (">", "|"):
                indent = len(key.group(1))
                body = []
                for follow in lines[at + 1 :]:
                    if follow.strip() and len(follow) - len(follow.lstrip()) <= indent + 2:
                        break
                    body.append(follow.strip())
                value = " ".join(body)
            found.append((at, re.sub(r"\$\{\{.*?\}\}", "1", value)))
        return found
    at = 0
    while at < len(lines):
        start, text = at, lines[at]
        while text.endswith("\\") and at + 1 < len(lines):
            at += 1
            text = text[:-1] + " " + lines[at].strip()
        found.append((start, text))
        at += 1
    return found


def _segments(line: str) -> list[list[str]]:
    """The simple commands of a shell line (split at ``&&``, ``||``, ``;`` and ``|``), comments dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    segments: list[list[str]] = [[]]
    for token in lexer:
        if token and set(token) <= set("&|;"):
            segments.append([])
        else:
            segments[-1].append(token)
    return [segment for segment in segments if segment]


def _suite_command(tokens: list[str]) -> tuple[str, list[str]] | None:
    """``("pytest", args)`` for a run of the suite, ``("module", args)`` for ``python -m conformance``."""
    while tokens and re.match(r"^[A-Z_][A-Z0-9_]*=", tokens[0]):  # VAR=value prefixes
        tokens = tokens[1:]
    if tokens[:3] == ["python", "-m", "conformance"]:
        return "module", tokens[3:]
    if tokens[:1] == ["pytest"]:
        args = tokens[1:]
    elif tokens[:3] == ["python", "-m", "pytest"]:
        args = tokens[3:]
    else:
        return None
    if "--pyargs" in args and "conformance" in args:
        return "pytest", args
    return None


def _page_commands(path: Path) -> list[Command]:
    """Every suite command in the shell and YAML blocks of a page."""
    found: list[Command] = []
    for language, block, fence_line in _blocks(path):
        if language not in ("bash", "console", "shell", "sh", "yaml"):
            continue
        for offset, line in _shell_lines(language, block):
            for tokens in _segments(line):
                command = _suite_command(tokens)
                if command is not None:
                    kind, args = command
                    found.append(Command(f"{_relative(path)}:{fence_line + 1 + offset}", kind, tuple(args)))
    return found


def _all_commands() -> list[Command]:
    unique: dict[tuple[str, tuple[str, ...]], Command] = {}
    for page in PAGES:
        for command in _page_commands(page):
            unique.setdefault((command.kind, command.args), command)
    return list(unique.values())


def _module_of(value: str) -> str | None:
    """The top-level module a target value names (``pkg.mod:attr``, ``mod:ID``), ``None`` for a bare id."""
    head, colon, _ = value.partition(":")
    return head.split(".")[0] if colon else None


def _pytest_args(command: Command, report: Path) -> list[str]:
    """The arguments of the pytest run a command makes (``python -m conformance`` translates its own)."""
    if command.kind == "pytest":
        return list(command.args)
    from conformance.__main__ import _parser, _pytest_args as translate

    try:
        options = _parser().parse_args(list(command.args))
    except SystemExit:
        raise ValueError(f"{command.where}: python -m conformance rejects {shlex.join(command.args)!r}") from None
    return translate(options, report)


def _checkable(args: list[str]) -> list[str]:
    """``args`` with what only a package CI lacks replaced (see the module docstring), and ``-n N`` as ``-n 0``
    (the option is still parsed, no workers are started)."""
    out: list[str] = []
    registry_replaced = False
    pending: str | None = None
    for token in args:
        if token == "...":  # a page's elision of further options
            continue
        name, equals, value = token.partition("=")
        if pending is not None:
            name, value, equals = pending, token, ""
            pending = None
        elif name in (*_TARGET_OPTIONS, "--registry", "-n") and not equals:
            pending = name
            out.append(token)
            continue
        elif name not in (*_TARGET_OPTIONS, "--registry", "-n"):
            out.append(token)
            continue
        else:
            out.append(name)
        if name == "--registry" and value not in _BUILTIN_REGISTRIES and _module_of(value + ":") not in _CI_MODULES:
            value, registry_replaced = "reference", True
        elif name in ("--env-id", "--vector-env-id") and _GLOB.search(value) and _module_of(value) not in (
            None, *_CI_MODULES
        ):
            value = _ENV_STAND_IN
        elif name == "-n":
            value = "0"
        out.append(value)
    if registry_replaced:  # ids of a registry CI lacks cannot be made with the stand-in registry
        out = [_ENV_STAND_IN if at and out[at - 1] in ("--env-id", "--vector-env-id") else token
               for at, token in enumerate(out)]
    return out


# Collects each job (arguments, directory) in one interpreter, one pytest.main after another, so the suite's imports
# are paid once for all the pages' commands; writes [exit code, output tail] per job.
_DRIVER = """
import contextlib, io, json, os, sys
import pytest
results = []
for args, cwd in json.loads(open(sys.argv[1]).read()):
    os.chdir(cwd)
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            code = int(pytest.main([*args, "-p", "no:cacheprovider", "--collect-only", "-q"]))
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
    results.append([code, output.getvalue()[-2000:]])
open(sys.argv[2], "w").write(json.dumps(results))
"""


def _collect(jobs: list[tuple[list[str], Path]], scratch: Path) -> list[tuple[int, str]]:
    """Collect each job's arguments in its directory: (pytest's exit code, the end of its output) per job."""

    (scratch / "jobs.json").write_text(json.dumps([[args, str(cwd)] for args, cwd in jobs]), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("CONFORMANCE_ENV", None)
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run([sys.executable, "-c", _DRIVER, str(scratch / "jobs.json"), str(scratch / "results.json")],
                          cwd=scratch, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [(int(code), str(output)) for code, output in json.loads((scratch / "results.json").read_text())]


def test_pages_show_suite_commands() -> None:
    """The extraction finds the commands (a parser that finds nothing would pass every page)."""
    found = _all_commands()
    where = {command.where.split(":")[0] for command in found}
    assert {"README.md", "docs/guide/running.md", "docs/guide/adoption.md"} <= where, where
    assert any(command.kind == "module" for command in found)
    assert any(command.where.startswith("docs/guide/adoption.md") and "--conformance-shard" in command.args
               for command in found), "the CI recipe's yaml command was not extracted"


def _tables() -> list[tuple[str, str]]:
    return [(f"{_relative(page)}:{line}", block) for page in PAGES for language, block, line in _blocks(page)
            if language == "toml" and "[tool.conformance]" in block]


def _table_project(table: str, folder: Path) -> Path:
    """A project holding ``table`` in its pyproject.toml (and an empty baseline where the table names one)."""
    folder.mkdir()
    (folder / "pyproject.toml").write_text(table, encoding="utf-8")
    baseline = re.search(r'^baseline\s*=\s*"([^"]+)"', table, re.M)
    if baseline is not None:
        (folder / baseline.group(1)).write_text('{"schema": 1, "accepted": []}', encoding="utf-8")
    return folder


def test_every_command_and_table_a_page_shows_collects(tmp_path: Path) -> None:
    """Each suite command of README.md and docs/ collects as written (or with stand-ins for what CI lacks), and each
    ``[tool.conformance]`` table is accepted by a run in a project of its own."""
    checks: list[tuple[str, str, list[str], Path, bool]] = []
    problems = []
    for command in _all_commands():
        try:
            args = _checkable(_pytest_args(command, tmp_path / "report.json"))
        except ValueError as exc:
            problems.append(str(exc))
            continue
        checks.append((command.where, shlex.join(command.args), args, tmp_path, args != list(command.args)))
    assert len(checks) >= 10, checks
    tables = _tables()
    assert tables, "no page shows a [tool.conformance] table"
    for number, (where, table) in enumerate(tables):
        checks.append((where, "[tool.conformance] table", ["--pyargs", "conformance"],
                       _table_project(table, tmp_path / f"project{number}"), False))
    results = _collect([(args, cwd) for _, _, args, cwd, _ in checks], tmp_path)
    for (where, shown, args, _, replaced), (code, output) in zip(checks, results):
        # A shard of the stand-in target alone may hold no target: collecting nothing is then no fault of the page.
        if code == 0 or (replaced and code == pytest.ExitCode.NO_TESTS_COLLECTED):
            continue
        problems.append(f"{where}: {shown!r} does not work (collected as pytest {shlex.join(args)}; exit {code}):\n"
                        + output)
    assert not problems, "\n\n".join(problems)


def test_command_check_fails_on_a_bad_command(tmp_path: Path) -> None:
    """The check is not vacuous: an unknown option, a bad value, rules that match nothing and a malformed table fail
    collection, and a good command next to them still passes."""
    target = ["--pyargs", "conformance", "--env", "examples.random_walk:RandomWalkEnv"]
    jobs = [
        (_checkable([*target, "--conformance-bogus", "1"]), tmp_path),
        (_checkable([*target, "--conformance-profile", "fast"]), tmp_path),
        (_checkable([*target, "--rules", "NOPE-*"]), tmp_path),
        (["--pyargs", "conformance"], _table_project('[tool.conformance]\nprofle = "quick"\n', tmp_path / "typo")),
        (_checkable([*target, "--rules", "ENV-001"]), tmp_path),
    ]
    codes = [code for code, _ in _collect(jobs, tmp_path)]
    assert all(code != 0 for code in codes[:-1]) and codes[-1] == 0, codes


def _suite_help(cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--help"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_options_page_lists_every_option_and_invents_none(tmp_path: Path) -> None:
    """docs/guide/options.md names every option and ini key the plugin defines (as ``pytest --help`` shows them), and
    no page names a ``--conformance-*`` option or a ``conformance_*`` ini key the plugin lacks."""
    text = _suite_help(tmp_path)
    body = text[text.index("\n", text.index("gymspec conformance suite")) :]
    following = re.search(r"^\S", body, re.M)  # the next section's heading
    section = body[: following.start()] if following is not None else body
    flags = set(re.findall(r"^  (--[\w-]+)", section, re.M))
    ini_keys = set(re.findall(r"^  (conformance_\w+) \(", text, re.M))
    assert "--env" in flags and "--conformance-report" in flags and "conformance_env" in ini_keys, (flags, ini_keys)
    options_page = (ROOT / "docs" / "guide" / "options.md").read_text(encoding="utf-8")
    missing = sorted(flag for flag in flags if f"`{flag}`" not in options_page)
    missing += sorted(key for key in ini_keys if f"`{key}`" not in options_page)
    assert not missing, f"docs/guide/options.md does not list {missing}"
    # Flags on every page; ini keys where they are listed (elsewhere conformance_* also names fixtures).
    mentioned = {name for page in PAGES for name in re.findall(r"--conformance-[\w-]*\w", page.read_text("utf-8"))}
    mentioned |= set(re.findall(r"`(conformance_\w+)`", options_page))
    invented = sorted(name for name in mentioned if name not in flags | ini_keys)
    assert not invented, f"the pages name options the suite does not have: {invented}"


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail into docs/guide (<= {README_MAX_LINES})"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(match) for match in re.findall(r"^#+ (.+)$", text, re.M)}


def _links(path: Path) -> list[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [link for link in _LINK.findall(text) if not re.match(r"^[a-z]+:", link)]


def _broken_links(path: Path) -> list[str]:
    broken = []
    for link in _links(path):
        file_part, _, anchor = link.partition("#")
        target = (path.parent / file_part).resolve() if file_part else path
        if not target.exists():
            broken.append(f"{link} (no such file)")
        elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
            broken.append(f"{link} (no heading #{anchor} in {target.name})")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=_relative)
def test_relative_links_resolve(page: Path) -> None:
    assert not _broken_links(page), f"{_relative(page)}: broken links: {_broken_links(page)}"


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    seen: set[Path] = set()
    todo = [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".md" or not page.exists():
            continue
        seen.add(page)
        todo += [(page.parent / link.partition("#")[0]).resolve() for link in _links(page) if link.partition("#")[0]]
    orphans = [_relative(page) for page in PAGES if page.resolve() not in seen]
    assert not orphans, f"pages no link from README.md leads to: {orphans}"


def test_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# A heading: `code`\n", encoding="utf-8")
    page.write_text("[ok](other.md#a-heading-code) [gone](missing.md) [bad](other.md#nope) `[no](x.md)`\n",
                    encoding="utf-8")
    assert [problem.split(" ")[0] for problem in _broken_links(page)] == ["missing.md", "other.md#nope"]


def test_stand_ins_replace_only_what_ci_lacks() -> None:
    assert _checkable(["--registry", "gymnasium", "--env-id", "ale_py:ALE/*", "-n", "2"]) == [
        "--registry", "gymnasium", "--env-id", _ENV_STAND_IN, "-n", "0"]
    assert _checkable(["--env-id", "MyEnv-v0", "--registry", "mypkg.registration"]) == [
        "--env-id", _ENV_STAND_IN, "--registry", "reference"]
    kept = ["--env", "mypkg.envs:MyEnv", "--env-id", "CartPole-v1", "--registry=gymnasium", "--rules", "SEED-*"]
    assert _checkable(kept) == ["--env", "mypkg.envs:MyEnv", "--env-id", "CartPole-v1", "--registry", "gymnasium",
                                "--rules", "SEED-*"]


def test_readme_typing_examples_type_check(tmp_path: Path) -> None:
    """README's Python examples that use the protocols pass ``mypy --strict`` (the rollout function, the structural
    assignment of an env with no base class)."""
    blocks = [block for language, block, _ in _blocks(ROOT / "README.md") if language == "python" and "gymspec" in block]
    assert len(blocks) >= 2, "README's library-author and type-checking examples are missing"
    files = []
    for number, block in enumerate(blocks):
        files.append(tmp_path / f"readme_example_{number}.py")
        files[-1].write_text(block, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / ".mypy_cache"),
         *map(str, files)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "MYPYPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_readme_rollout_is_the_one_the_typing_tests_check() -> None:
    """docs/guide/typing.md says tests/typing checks README's rollout verbatim: hold it to that."""
    rollout = next(block for language, block, _ in _blocks(ROOT / "README.md")
                   if language == "python" and "def rollout" in block)
    expected = rollout[rollout.index("def rollout") :].rstrip()
    for case in ("tests/typing/positive/gymnasium_cases.py", "tests/typing/positive/reference_cases.py"):
        text = (ROOT / case).read_text(encoding="utf-8")
        found = re.search(r"^def rollout.*?(?=^\S)", text, re.M | re.S)
        assert found is not None, f"{case} has no rollout function"
        checked = re.sub(r'^    """.*?"""\n', "", found.group(0), flags=re.M).rstrip()
        assert checked == expected, f"{case} no longer holds README's rollout example"
