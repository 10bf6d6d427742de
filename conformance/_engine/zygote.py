"""The processes' side of supervision: the zygote's fork-server loop, the job processes it forks, and the files a
job leaves for the supervisor (:mod:`conformance._engine.supervisor` is the other side).

A zygote (:func:`serve`) warms up once by calling its warm-up :class:`Job`, says it is ready, then reads job requests
(JSON lines) from its socket and forks one job process per request, after importing what earlier jobs of its key
imported. A job process runs its :class:`Job`, writes ``{"value": ..., "imported": [...]}`` (or the suite's own
``{"internal_error": traceback}``) to its result file, and leaves with ``os._exit``. On the way it may hand over parts
of its result (:func:`emit`), each in a file of its own, so they survive a crash; a fatal signal's Python stacks, and
those asked for at a hang (:data:`STACKS_SIGNAL`), go to a ``.crash`` file. :func:`collect` reads and removes them all.

What a warm zygote holds when it forks, every job inherits copy-on-write: the imported target, its probe, and for a
target costly to construct, the shelf of untouched instances its warm-up built (:mod:`conformance._engine.shelf`;
:func:`warm_zygote` tells the warm-up it runs in such a zygote, not in a job of a cold one).

A zygote runs one job at a time, so a job that waits (in a slow constructor that sleeps or reads files) holds its
zygote's lane as long as one that computes. A warm-up may :func:`clone` its zygote once it has probed the target:
each clone (a child of the zygote, with a socket and a board of its own the supervisor made before the zygote was
forked) finishes the warm-up itself, from the probe on, and serves jobs as one more zygote of the target. It costs
no import and no probe, only the rest of the warm-up, done at the same time as the zygote's own.
"""

from __future__ import annotations

import contextlib
import faulthandler
import functools
import importlib
import json
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from conformance._engine.describe import is_mapping
from conformance._engine.processes import Board
from conformance._engine.processes import (
    PR_SET_CHILD_SUBREAPER,
    children,
    die_with_parent,
    kill_descendants,
    kill_group,
    open_fds,
    prctl,
    tasks,
)
from conformance._engine.worker import Worker, spawn
from conformance._kit.pristine import restore as restore_process_state

__all__ = [
    "JSON",
    "MAX_RESULT_BYTES",
    "STACKS_SIGNAL",
    "Job",
    "JobFunction",
    "Leftovers",
    "clone",
    "collect",
    "emit",
    "flush_stdio",
    "fork_hazard",
    "in_job",
    "send",
    "serve",
    "warm_zygote",
]

JSON: TypeAlias = Any  # a value json.loads returns: dict / list / str / int / float / bool / None
JobFunction: TypeAlias = Callable[[Mapping[str, JSON]], JSON]

STACKS_SIGNAL = signal.SIGUSR2  # makes a job process write its Python stacks to its .crash file (faulthandler)
_INTERNAL_ERROR = 70
_MAX_TRACEBACK = 4000


@dataclass(frozen=True)
class Job:
    """What a process runs: a module-level function named ``module:qualname`` and its JSON payload.

    Functions travel by name, so the process that runs one finds it in its own (inherited) copy of the module.
    """

    function: str
    payload: Mapping[str, JSON] = field(default_factory=dict[str, JSON])

    @classmethod
    def of(cls, function: JobFunction, payload: Mapping[str, JSON] | None = None) -> Job:
        """The job that calls ``function`` (a module-level function) with ``payload``."""
        return cls(f"{function.__module__}:{function.__qualname__}", dict(payload or {}))


def _resolve(function: str) -> JobFunction:
    module_name, _, qualname = function.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    resolved: JobFunction = obj
    return resolved


def flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def send(sock: socket.socket, message: Mapping[str, JSON]) -> None:
    sock.sendall(json.dumps(message).encode("utf-8") + b"\n")


def _write_result(path: str, value: JSON) -> None:
    scratch = f"{path}.part"
    with open(scratch, "w", encoding="utf-8") as handle:
        json.dump(value, handle)
    os.replace(scratch, path)


_PARTS: list[str] = []  # in a job process: where its result goes, then one entry per part handed over
_WARM: list[int] = []  # the pid of a zygote that warms up itself and forks its jobs from that warm state
# In a zygote: its socket and board (a clone takes over spare ones), the spares it may still clone into, and the pids
# of its clones (children of its own that the cleanup after each job must spare).
_CHANNEL: list[tuple[socket.socket, Board]] = []
_SPARES: list[tuple[socket.socket, Board]] = []
_CLONES: set[int] = set()


def in_job() -> bool:
    """Whether this process is a supervised job process."""
    return bool(_PARTS)


def warm_zygote() -> bool:
    """Whether this process is a zygote that warms up for its target and forks its jobs from there (what it builds
    while warming up, every job inherits)."""
    return _WARM == [os.getpid()]


def clone() -> bool:
    """From a warm zygote's warm-up: fork one more zygote per spare channel the supervisor gave it, here, so that
    each continues the warm-up from this point and then serves jobs of its own. Returns in the zygote and in every
    clone; whether this process is a clone. Nothing is cloned outside a warm zygote, without spares, or with a
    thread besides the main one alive (a fork would copy whatever lock it holds) or a child process (the clone's jobs
    and the zygote's would share it)."""
    spares = list(_SPARES)
    _SPARES.clear()
    if not warm_zygote() or not spares or not _CHANNEL or tasks() > 1 or children(os.getpid()):
        for spare, _ in spares:
            spare.close()
        return False
    sock, board = _CHANNEL[0]
    zygote = os.getpid()
    pids: list[int] = []
    for index, (spare, spare_board) in enumerate(spares):
        flush_stdio()
        pid = os.fork()
        if pid == 0:
            sock.close()
            for other, _ in spares[index + 1:]:
                other.close()
            os.setpgid(0, 0)
            die_with_parent()
            if os.getppid() != zygote:  # it died before the line above: nothing would ever end this clone
                os._exit(0)
            prctl(PR_SET_CHILD_SUBREAPER, 1)  # not inherited across fork
            board.adopt(spare_board)  # the guard and the job processes write on the clone's own board from now on
            board.reset(os.getpid())
            _CHANNEL[:] = [(spare, board)]
            _WARM[:] = [os.getpid()]
            _CLONES.clear()
            return True
        spare.close()
        _CLONES.add(pid)
        pids.append(pid)
    send(sock, {"op": "cloned", "pids": pids})
    return False


def emit(value: JSON) -> None:
    """From a job process: hand over one part of the job's result now (JSON data), so that it reaches the supervisor
    even if the job dies, hangs or overflows later (a job running several items hands over each item's result).

    Raises:
        RuntimeError: Outside a supervised job process.
    """
    if not _PARTS:
        raise RuntimeError("emit must be called from a job process the Supervisor started, got a call outside one")
    _write_result(f"{_PARTS[0]}.{len(_PARTS) - 1}", value)
    _PARTS.append("")


@dataclass(frozen=True)
class Leftovers:
    """What a job process left behind: its result file's data (``{}`` when missing or unreadable), the parts it
    handed over with :func:`emit` (up to the first missing one) and the Python stacks of its ``.crash`` file."""

    data: Mapping[str, JSON]
    parts: tuple[JSON, ...]
    stacks: str


def collect(result: str) -> Leftovers:
    """Read what the job whose result file is ``result`` left, and remove the files.

    A file that is not what a job writes (over :data:`MAX_RESULT_BYTES`, or not JSON: a job never leaves one
    half-written, since each is written under another name and renamed) is read as ``{"unreadable": why}``, which
    the supervisor reports as the suite's own error for that item.
    """
    stacks = ""
    crash = Path(f"{result}.crash")
    with contextlib.suppress(OSError), crash.open("rb") as handle:
        # The innermost frames come first; the list of extension modules faulthandler ends with is noise.
        text = handle.read(_MAX_TRACEBACK * 4).decode("utf-8", errors="replace")
        stacks = text.split("\nExtension modules:")[0][:_MAX_TRACEBACK]
    with contextlib.suppress(OSError):
        crash.unlink()
    found, value = _take(Path(result))
    data: Mapping[str, JSON] = {}
    if found:
        data = value if is_mapping(value) else {"unreadable": "it holds no JSON object"}
    parts: list[JSON] = []
    while True:
        found, value = _take(Path(f"{result}.{len(parts)}"))
        if not found:
            break
        parts.append(value)
    return Leftovers(data, tuple(parts), stacks)


MAX_RESULT_BYTES = 256 << 20
"""The largest result (or part) file the supervisor reads: a job's reports are bounded (what a target prints is cut
to its tail, :mod:`conformance._engine.output`), so a larger one is not what a job meant to write."""


def _take(path: Path) -> tuple[bool, JSON]:
    """Read and remove a JSON file a job wrote: whether there was one, and its value (``{"unreadable": why}`` when it
    could not be read as a job's JSON)."""
    try:
        size = path.stat().st_size
    except OSError:
        return False, None
    try:
        if size > MAX_RESULT_BYTES:
            return True, {"unreadable": f"{path.name} holds {size} bytes, more than the {MAX_RESULT_BYTES} a result "
                                        "may hold"}
        return True, json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, MemoryError) as exc:
        return True, {"unreadable": f"{path.name} could not be read: {type(exc).__name__}: {str(exc)[:200]}"}
    finally:
        with contextlib.suppress(OSError):
            path.unlink()


def _run_job(job: Job, result: str, board: Board) -> None:
    """The job process forked from a warm zygote: run, write the result, leave without running any exit handler of
    the parent's."""
    code = _INTERNAL_ERROR
    try:
        os.setpgid(0, 0)
        die_with_parent()
        code = _execute(job, result, board)
    finally:
        flush_stdio()
        os._exit(code)


def _execute(job: Job, result: str, board: Board, warm: Job | None = None,
             warmed: Callable[[], None] | None = None) -> int:
    """Run ``job`` in this process (after ``warm``, then ``warmed()``, when given: a worker's first job) and write its
    result; the exit code it earned (0, or the suite's own internal error)."""
    code = 0
    try:
        # A fatal signal's Python traceback goes to a file the supervisor puts in the report, not to the terminal.
        crash = open(f"{result}.crash", "w", encoding="utf-8")  # noqa: SIM115 - open while the job runs, and after
        faulthandler.enable(crash, all_threads=True)
        faulthandler.register(STACKS_SIGNAL, crash, all_threads=True)  # asked for by the supervisor at a hang
        if _CRASH:  # a worker's previous job's: the handler above writes to the new one from now on
            _CRASH.pop().close()
        _CRASH.append(crash)
        board.reset(os.getpid())
        _PARTS[:] = [result]
        before = set(sys.modules)
        if warm is not None:
            _resolve(warm.function)(warm.payload)
        if warmed is not None:
            warmed()
        value = _resolve(job.function)(job.payload)
        imported = sorted({name.split(".")[0] for name in set(sys.modules) - before})
        _write_result(result, {"value": value, "imported": imported})
    except BaseException:  # noqa: BLE001 - the suite's own failure, reported by the supervisor as such
        code = _INTERNAL_ERROR
        with contextlib.suppress(Exception):
            _write_result(result, {"internal_error": traceback.format_exc()})
    finally:
        _PARTS.clear()
        flush_stdio()
    return code


_CRASH: list[Any] = []  # the open .crash file faulthandler writes to (a worker opens one per job)


def _preload(modules: list[str], board: Board, settle: str) -> None:
    """Import what earlier jobs imported, so later jobs start with it (a failure just leaves it to the job); then
    call ``settle`` (a ``module:function`` name, or ``""``) to let caches catch up with the new modules."""
    threads = threading.active_count()
    for name in modules:
        if name in sys.modules:
            continue
        board.begin(f"import {name}", "preload", "")
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001, S112 - the job will import (and report) it itself
            continue
        finally:
            board.end()
    if threading.active_count() > threads:
        # A preloaded module started a thread: forking from here would copy whatever locks it holds.
        raise _ThreadsInZygote
    if modules and settle:
        _resolve(settle)({})


class _ThreadsInZygote(Exception):
    """A preloaded import started a thread in the zygote, which must not fork with threads alive."""


# Libraries that are unsafe to fork once initialised (their threads, locks or GL/driver state do not survive a fork):
# a zygote that imported one while it warmed up serves no forked job.
_FORK_UNSAFE = {
    "jax": "JAX/XLA",
    "jaxlib": "JAX/XLA",
    "torch": "torch",
    "tensorflow": "TensorFlow",
    "pyglet": "pyglet (OpenGL)",
    "OpenGL": "PyOpenGL",
    "moderngl": "moderngl (OpenGL)",
    "glfw": "GLFW (OpenGL)",
}


_GL_LIBRARIES = frozenset({"pyglet", "OpenGL", "moderngl", "glfw"})


def fork_hazard(modules_before: set[str], threads_before: int, fds_before: set[str] | None = None) -> str:
    """Why forking this process now is unsafe (``""``: no known reason): threads besides the main one started since
    ``threads_before`` was counted, or a fork-unsafe library imported since ``modules_before``. With ``fds_before``
    (the open file descriptors then), an OpenGL library counts only once a context may exist: a new thread (a
    software renderer's workers) or a new open file (a display connection, a GPU device). Imported alone it is only
    code: MuJoCo's renderers import PyOpenGL and GLFW when an env is made, and make a context at the first render,
    which a forked job then makes for itself."""
    opened = fds_before is None or bool(open_fds() - fds_before)
    found = [label for name, label in _FORK_UNSAFE.items()
             if name in sys.modules and name not in modules_before and (opened or name not in _GL_LIBRARIES)]
    threads = tasks()
    if threads > threads_before:
        extra = f" ({found[0]})" if found else ""
        others = threads - 1
        return f"{others} thread{'s' if others != 1 else ''} besides the main one in the probe process{extra}"
    if found:
        return f"{found[0]} initialised in the probe process"
    return ""


def _fork_job(sock: socket.socket, board: Board, request: Mapping[str, JSON]) -> int:
    """Fork the process of one job from this warm zygote (after importing what earlier jobs imported); its pid."""
    _preload(request.get("preload", ()), board, request.get("settle", ""))
    restore_process_state()  # e.g. a SIGCHLD the target ignored at import would lose the job's exit status
    flush_stdio()
    pid = os.fork()
    if pid == 0:
        sock.close()
        _run_job(Job(request["function"], request["payload"]), request["result"], board)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also done by the child: whichever runs first, the group exists at once
    return pid


def _work(board: Board, warm: Job, request: Mapping[str, JSON], warmed: Callable[[], None] | None) -> int:
    """A cold zygote's worker runs one job request: after the warm-up when it is its first (``warmed`` is then
    called between the two)."""
    restore_process_state()  # what the previous job's target did to process-wide state
    job = Job(request["function"], request["payload"])
    return _execute(job, request["result"], board, warm if warmed is not None else None, warmed)


def serve(
    sock: socket.socket, board: Board, warm: Job, cold: bool = False,
    spares: list[tuple[socket.socket, Board]] | None = None,
) -> None:
    """The zygote: warm up, then fork one job process per request until told to exit or orphaned.

    A *cold* zygote never warms up itself: its jobs run in its worker (:mod:`conformance._engine.worker`), a process
    of its own that imports and probes the target in its first job and runs the next ones warm, so no job inherits the
    threads or library state of a target that is unsafe to fork, and the import is paid once per worker, not per
    job. A warm
    zygote says, when it is ready, whether warming up made it unsafe to fork (:func:`fork_hazard`). ``spares``: the
    channels (this end of a socket pair, a board) its warm-up may :func:`clone` it into.
    """
    code = 0
    try:
        os.setpgid(0, 0)
        die_with_parent()
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the supervisor's handler stops a run, not a target's process
        board.install()
        board.reset(os.getpid())
        modules, threads, fds = set(sys.modules), tasks(), open_fds()
        _CHANNEL[:] = [(sock, board)]
        _SPARES[:] = [] if cold else list(spares or ())
        if not cold:
            _WARM[:] = [os.getpid()]
            _resolve(warm.function)(warm.payload)
        for spare, _ in _SPARES:  # never cloned into
            spare.close()
        _SPARES.clear()
        sock, board = _CHANNEL[0]  # a clone's own, from here on
        # No /proc (no fds listed): an OpenGL library imported counts as a context made.
        send(sock, {"op": "ready", "unsafe": "" if cold else fork_hazard(modules, threads, fds or None)})
        reader = sock.makefile("rb")
        worker: Worker | None = None
        for line in reader:
            request = json.loads(line)
            if request["op"] != "run":
                break
            board.reset(os.getpid())  # what the previous job left there is no longer news
            if cold:
                # Its worker runs the job: a process that warmed up in its first job and stays for the next ones.
                if worker is None:
                    flush_stdio()
                    worker = spawn([sock], functools.partial(_work, board, warm))
                pid = worker.pid
                send(sock, {"op": "started", "pid": pid})
                status, peak_mib = worker.run(request)
                if worker.retired:
                    worker = None
                    kill_descendants(os.getpid(), spare=_CLONES)  # what escaped its group, adopted by this subreaper
            else:
                pid = _fork_job(sock, board, request)
                send(sock, {"op": "started", "pid": pid})
                _, status, usage = os.wait4(pid, 0)
                kill_group(pid)  # whatever the job left in its group
                kill_descendants(os.getpid(), spare=_CLONES)  # and whatever escaped it, adopted by this subreaper
                peak_mib = usage.ru_maxrss / 1024 if sys.platform.startswith("linux") else usage.ru_maxrss / 2**20
            # The board keeps what the job left on it: the supervisor reads the call in progress at its death.
            send(sock, {"op": "exited", "pid": pid, "status": status, "peak_mib": peak_mib})
    except BaseException:  # noqa: BLE001 - an orphaned or broken zygote just ends
        code = _INTERNAL_ERROR
    finally:
        kill_descendants(os.getpid())
        flush_stdio()
        os._exit(code)
