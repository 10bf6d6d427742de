"""What the processes of a run of conformance items do: a zygote warms up for a target (:func:`warm_target`), job
processes run items (:func:`run_items`) or a target's shared work (:func:`run_trace`: its costs, its profile, its
observers' verdicts). :class:`~conformance._engine.runner.ItemRunner` asks for them, in the supervisor.

A zygote's warm-up of a target costly to construct also builds its shelf: untouched instances every job forked from
it inherits (:mod:`conformance._engine.shelf`); the cost probe of such a target takes the construction's cost from
the zygote's probe instead of constructing again. When that probe's construction waited rather than computed, the
warm-up first clones its zygote (:func:`~conformance._engine.zygote.clone`), the clone builds a shelf of its own,
and each builds its whole shelf at once (:func:`~conformance._engine.shelf.built_at_once`).

These functions run in processes forked from the supervisor after :func:`share` made the run's config and items
known; they find the run's :class:`~conformance._engine.session.ConformanceSession` there, and learn what the
supervisor knows of the target (its :class:`~conformance._engine.messages.Facts`) before they do anything else.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from _pytest.runner import runtestprotocol
from _pytest.warnings import catch_warnings_for_item  # pyright: ignore[reportUnknownVariableType] - ihook is untyped
from hypothesis import configuration, given
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from conformance._engine import shelf
from conformance._engine.case import Case
from conformance._engine.describe import is_list_or_tuple, is_mapping, is_tuple
from conformance._engine.messages import Facts, ItemsJob, TraceJob, TraceResult, WarmJob
from conformance._engine.observe import run_shared
from conformance._engine.options import CaseParam, option
from conformance._engine.output import Tail, bounded, private
from conformance._engine.processes import BoardGuard, current_board, open_fds, peak_mib, reset_peak, rss
from conformance._engine.profiles import Costs, Profile, hypothesis_settings, scaled
from conformance._engine.artifacts import capture, frames_folder
from conformance._engine.session import get_session
from conformance._engine.zygote import JSON, clone, emit, warm_zygote
from conformance._kit.pristine import restore as restore_process_state
from conformance._kit.strategies import sampler

if TYPE_CHECKING:
    from conformance._engine.session import ConformanceSession
    from conformance._engine.state import Probe, TargetState

__all__ = ["run_items", "run_trace", "settle_imports", "share", "warm_supervisor", "warm_target"]

_HEADLESS_ENV = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

# A probe whose construction used less CPU than this share of its wall time waits rather than computes: its zygote
# is cloned (zygote.clone), as are the job slots of the target.
_WAITING_SHARE = 0.25
_CLONE_BYTES = 512 << 20  # the most resident memory a zygote may hold after its probe for it to be cloned

# The config and items of the run, set in the supervisor before any fork, so zygotes and job processes find them.
_CONTEXT: dict[str, Any] = {}


def share(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Make the run's config and items known to the processes forked from now on."""
    _CONTEXT["config"] = config
    _CONTEXT["items"] = {item.nodeid: item for item in items}


def warm_supervisor(config: pytest.Config) -> None:
    """In the supervisor, before the first zygote forks from it: do Hypothesis' once-per-process work on what is
    imported so far, which every zygote would otherwise repeat — its scan of the local modules for constants (it
    reads their source; no target is imported yet) and its first run's registration of the global random generator
    (a full garbage collection). Zygotes then scan only what their target imports."""
    # The scan keeps a cache under Hypothesis' home directory: the zygotes' one, and the user's own setting back
    # afterwards (this process may run the user's Hypothesis tests too).
    previous = vars(configuration).get("__hypothesis_home_directory")
    try:
        _warm_hypothesis(get_session(config).profile)
    except Exception:  # noqa: BLE001, S110 - only a saving: every zygote still does this work if it is not done here
        pass
    finally:
        configuration.set_hypothesis_home_dir(previous)


def _apply(session: ConformanceSession, param_target: str, facts: Facts) -> TargetState:
    target = next(t for t in session.targets if t.id == param_target)
    state = session.state(target)
    if facts.construct_error:
        state.mark_unconstructible(facts.construct_error)
    if facts.profile is not None:
        session.profile = facts.profile
    # What the target's calls cost in the cost probe: a compile or a slow constructor earns its call a longer limit in
    # every job, not only in the one that measured it.
    session.watchdog.limits.prime(facts.first_costs, facts.steady_costs)
    # A shape of call that never returned earlier in the run is refused at once here, not waited for again.
    session.watchdog.limits.refuse(facts.hung)
    state.single_instance = facts.single_instance
    state.verdicts = dict(facts.verdicts)
    return state


def warm_target(payload: Mapping[str, JSON]) -> JSON:
    """Zygote warm-up: make the board the session's guard, then construct and probe the target once."""
    for name, value in _HEADLESS_ENV.items():
        os.environ.setdefault(name, value)
    # A finalizer of the probed instance that raises (see run_items) must not reach pytest's collector here, from
    # where every job would inherit it.
    sys.unraisablehook = _ignore_unraisable
    config: pytest.Config = _CONTEXT["config"]
    private(config)  # what the target prints while it warms up stays out of the pytest process and the terminal
    session = get_session(config)
    board = current_board()
    if board is not None:
        session.use_guard(BoardGuard(board, session.timeout))
    job = WarmJob.from_wire(payload)
    state = _apply(session, job.target, job.facts)
    keep = warm_zygote()
    fds, cpu, wall = open_fds(), time.process_time(), time.perf_counter()
    probe = state.probe(close=job.facts.close_probe, keep=keep)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if keep and probe is not None and shelf.costly() is not None:
        small = rss(os.getpid()) <= _CLONE_BYTES
        if cpu < _WAITING_SHARE * wall and fds and open_fds() == fds and small:
            # Its construction waits (a sleep, reading its assets) rather than computes: a clone of this zygote
            # builds its own shelf at the same time as this one, and its jobs, mostly waiting in constructions too,
            # run beside this zygote's without taking CPU from them. Only when the probed instance, which the
            # clone's jobs share with this zygote's, holds no open file (a connection to a server, say) that jobs
            # running at once would both use; and only for a target small enough that another shelf of it fits.
            clone()
        # A construction that waits builds its whole shelf at once, each instance in a thread of its own: the shelf
        # is ready after one construction's wait rather than one per instance (which would hold every item back).
        _stock(state, probe, together=cpu < _WAITING_SHARE * wall)
    _warm_hypothesis(session.profile)
    # Everything built so far is shared by every job: keep the collector from walking (and so copying) it in each.
    gc.freeze()
    return None


def _stock(state: TargetState, probe: Probe, *, together: bool) -> None:
    """Build the shelf of a target costly to construct: untouched instances every job inherits (:mod:`.shelf`);
    ``together``: all at the same time (a target whose construction waits rather than computes)."""
    target = state.target

    def construct(kwargs: Mapping[str, Any]) -> Any:
        label = target.constructor_source(**kwargs)
        method = "render_construct" if "render_mode" in kwargs else "construct"
        return state.guard.call(label, lambda: target.construct(**kwargs), method=method)

    def close(env: Any) -> None:
        state.guard.call("env.close()", lambda: getattr(env, "close", lambda: None)(), method="close")

    def at_once(constructions: Sequence[Mapping[str, Any]]) -> list[Any]:
        # One call on the board for the batch, under the limit the constructions would have had one after another.
        limit = sum(state.guard.limits.limit("render_construct" if "render_mode" in kwargs else "construct")
                    for kwargs in constructions)
        label = f"{len(constructions)} constructions at once: {target.constructor_source()}, ..."
        return state.guard.call(label, lambda: shelf.built_at_once(constructions, lambda kwargs: target.construct(
            **kwargs)), method="construct", limit=limit)

    # Human mode last, and kept only when it leaves nothing a fork would share (a window, a GL context).
    modes = [mode for mode in probe.render_modes if mode != "human"]
    kinds: list[tuple[Mapping[str, Any], int]] = [({}, shelf.SHELF_AT_ONCE if together else shelf.SHELF_DEFAULT)]
    kinds += [({"render_mode": mode}, 1) for mode in modes]
    cautious = [{"render_mode": "human"}] if "human" in probe.render_modes else []
    shelf.stock(kinds, construct, close, cautious, together=at_once if together else None)


def _warm_hypothesis(profile: Profile) -> None:
    """Pay Hypothesis' once-per-process costs in this process, so the processes forked from it inherit them.

    Its first run in a process registers the global generators (a full garbage collection), and a draw scans every
    module imported since the last scan for constants (tens of milliseconds a job when the scan is left to each
    job). The supervisor does both for what it imported (:func:`warm_supervisor`), so what is left in a zygote is
    the target's own modules, and whatever the supervisor could not do.
    """
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):  # the user's own choice stands
        # Hypothesis caches what it reads from local modules (constants it draws examples near) under its home
        # directory, ./.hypothesis by default: that would write into the user's directory, and start cold in
        # each new one. Zygotes keep it in the user's cache directory instead (the pytest process only while
        # warm_supervisor runs: it sets the user's own setting back).
        set_hypothesis_home_dir(_cache_home())

    @hypothesis_settings(profile, max_examples=2)
    @given(st.tuples(st.integers(0, 2**32 - 1), st.lists(st.floats(), max_size=2)))
    def example(drawn: tuple[int, list[float]]) -> None:
        del drawn

    example()
    settle_imports({})


def _cache_home() -> Path:
    """Where zygotes keep Hypothesis' caches: ``$XDG_CACHE_HOME/gymspec-conformance/hypothesis`` (``~/.cache`` by
    default), or a fresh temporary directory where that cannot be created."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    home = Path(base) / "gymspec-conformance" / "hypothesis"
    try:
        home.mkdir(parents=True, exist_ok=True)
        probe = home / f".writable-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError:
        return Path(tempfile.mkdtemp(prefix="conformance-hypothesis-"))
    return home


def settle_imports(payload: Mapping[str, JSON]) -> None:
    """Let Hypothesis scan the modules imported so far for constants now, in the zygote, rather than in every job
    (it rescans whenever ``sys.modules`` grew)."""
    del payload
    try:  # a private cache of Hypothesis': if it moves, jobs are slower, not wrong
        from hypothesis.internal.conjecture import providers

        providers._get_local_constants()  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
    except Exception:  # noqa: BLE001, S110
        pass


def run_trace(payload: Mapping[str, JSON]) -> JSON:
    """Job (:class:`~conformance._engine.messages.TraceJob`): measure what the target's calls cost and scale the
    profile to the budget (unless told not to measure), run the observers on the shared rollouts; returns a
    :class:`~conformance._engine.messages.TraceResult`."""
    config: pytest.Config = _CONTEXT["config"]
    private(config)
    session = get_session(config)
    job = TraceJob.from_wire(payload)
    state = _apply(session, job.target, job.facts)
    result = TraceResult()
    try:
        case = session.case(CaseParam(job.rules[0] if job.rules else "ENV-001", state.target))
        measured = _measure(case) if job.measure else None
        if measured is not None:
            costs, weight, firsts = measured
            session.profile = case.profile = scaled(session.profile, costs, job.items)
            result = TraceResult(costs=costs, first_costs=firsts, observation_bytes=weight)
            _capture_frames(config, case)
        result = dataclasses.replace(result, profile=session.profile)
        if job.rules:
            verdicts = run_shared(case, job.rules)
            result = dataclasses.replace(result, verdicts=verdicts, evidence=case.tally.evidence())
    except BaseException as exc:  # noqa: BLE001 - no shared verdicts: each observer runs on its own
        result = dataclasses.replace(result, verdicts={}, error=f"{type(exc).__name__}: {exc}")
    return result.to_wire()


def _capture_frames(config: pytest.Config, case: Case) -> None:
    """For ``--conformance-html``: the frames of the target's image modes, beside its first shared run."""
    html = option(config, "html")
    if not html:
        return
    try:
        capture(case, frames_folder(html, case.target.id))
    except Exception:  # noqa: BLE001, S110 - best effort: the RENDER rules report what is wrong with rendering
        pass


_MEASURE_STEPS = 16
_MEASURE_SECONDS = 2.0
_MEASURE_TRIES = 3


def _measure(case: Case) -> tuple[Costs, int, dict[str, float]] | None:
    """Time a fresh instance's construction, seeded reset and a few random steps, and weigh its first observation in
    bytes; also what the first call of each kind cost in this process (a compile, say) (``None`` if any call fails).

    Construction and reset are timed up to :data:`_MEASURE_TRIES` times (the fastest counts) and a step by the
    median of its tries: one reading on a busy machine flipped cheap targets between their full and a cut profile,
    and so their verdicts' effort, from run to run.
    """
    state = case.probe()
    space = state.action_space
    if space is None:
        return None
    try:
        draw = sampler(space)
        rng = np.random.default_rng(0)
        begun = time.perf_counter()
        constructions: list[float] = []
        resets: list[float] = []
        # A target costly to construct was timed by the probe and the shelf (its constructions here are served by
        # the shelf): the cheapest of those is what a construction costs, the probe's what the first one costs.
        costly = shelf.costly()
        steady = shelf.steady() or costly

        def construct_and_reset() -> tuple[Any, Any]:
            case.close_all()  # the previous try's instance: one live at a time, as a target may allow no more
            case.new_example()
            started = time.perf_counter()
            made = case.make("env")
            constructed = time.perf_counter()
            observed = made.reset(seed=0)
            resets.append(time.perf_counter() - constructed)
            constructions.append(steady if steady is not None else constructed - started)
            return made, observed

        env, first = construct_and_reset()
        while costly is None and len(constructions) < _MEASURE_TRIES and time.perf_counter() - begun < 1.0:
            env, first = construct_and_reset()
        steps: list[float] = []
        begun = 0.0  # counted from the end of the first step, which may pay a compile
        while len(steps) < _MEASURE_STEPS and (not steps or time.perf_counter() - begun < _MEASURE_SECONDS):
            tick = time.perf_counter()
            result = env.step(draw(rng))
            steps.append(time.perf_counter() - tick)
            begun = begun or time.perf_counter()
            # any(): a vector env's flags are arrays (it resets its own sub-envs; a full reset is harmless).
            if is_tuple(result) and len(result) == 5 and (np.any(result[2]) or np.any(result[3])):
                env.reset()
        weight = _nbytes(first[0] if is_tuple(first) and first else first)
        step = float(np.median(steps[1:] or steps)) if steps else 0.0
        first_construction = costly if costly is not None else constructions[0]
        firsts = {"construct": first_construction, "reset": resets[0], **({"step": steps[0]} if steps else {})}
        return Costs(min(constructions), min(resets), step), weight, firsts
    except Exception:  # noqa: BLE001 - the items themselves report what went wrong
        return None
    finally:
        case.close_all()


def _nbytes(value: object) -> int:
    """Roughly how many bytes an observation holds (arrays and the containers of them; anything else counts 0)."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if is_mapping(value):
        return sum(_nbytes(part) for part in value.values())
    if is_list_or_tuple(value):
        return sum(_nbytes(part) for part in value)
    return 0


_TAIL = "conformance-output-tail"


class _WarningLog:
    """Collects the warnings pytest records for one item in a job process."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.records: list[dict[str, JSON]] = []

    @pytest.hookimpl
    def pytest_warning_recorded(self, warning_message: warnings.WarningMessage, nodeid: str) -> None:
        if nodeid != self.nodeid:
            return
        category = warning_message.category
        self.records.append(
            {
                "module": category.__module__,
                "name": category.__qualname__,
                "message": str(warning_message.message),
                "filename": str(warning_message.filename),
                "lineno": int(warning_message.lineno),
            }
        )


def _detach_from_xdist(config: pytest.Config) -> None:
    """In a job process forked from a pytest-xdist worker, unregister the worker's plugin that sends what pytest
    records to the controller: it would send each item's warnings, the target's own included, through the channel
    the job inherited (the controller listed them as the suite's test modules' warnings, apart from the summary that
    shows them per target). What a job hands over goes through :func:`emit` alone."""
    for plugin in config.pluginmanager.get_plugins():
        # Its module runs in the worker as execnet's "__channelexec__", not as xdist.remote: known by its class.
        if type(plugin).__name__ == "WorkerInteractor" and callable(getattr(plugin, "sendevent", None)):
            config.pluginmanager.unregister(plugin)


def run_items(payload: Mapping[str, JSON]) -> JSON:
    """Job process (:class:`~conformance._engine.messages.ItemsJob`): run the items (of one target) with pytest's own
    protocol, in order, and hand over each one's serialized reports, warnings and peak memory (:func:`emit`) as soon
    as it has ended."""
    config: pytest.Config = _CONTEXT["config"]
    job = ItemsJob.from_wire(payload)
    private(config)
    _detach_from_xdist(config)
    if config.pluginmanager.get_plugin(_TAIL) is None:  # a worker's earlier job registered it already
        config.pluginmanager.register(Tail(), _TAIL)
    for nodeid in job.nodeids:
        item: pytest.Item = _CONTEXT["items"][nodeid]
        limits = get_session(config).watchdog.limits
        _apply(get_session(config), job.target, job.facts)
        limits.refused = ""
        fresh = reset_peak()
        log = _WarningLog(item.nodeid)
        name = f"conformance-warnings-{os.getpid()}-{nodeid}"
        config.pluginmanager.register(log, name)
        # An exception the target raises where nobody can catch it (a __del__, a weakref callback) breaks no rule
        # of the catalog: it is shown in the item's captured stderr instead of becoming pytest's failure of the item.
        sys.unraisablehook = _show_unraisable
        restore_process_state()  # warning filters, logging, print options, signals: as before the target ran
        try:
            with catch_warnings_for_item(config, ihook=item.ihook, when="runtest", item=item):
                reports = runtestprotocol(item, log=False, nextitem=None)
        finally:
            config.pluginmanager.unregister(name=name)
        serialized = [bounded(config.hook.pytest_report_to_serializable(config=config, report=report))
                      for report in reports]
        # An item that made a call of a shape that hung earlier was stopped there: the supervisor words its ending.
        emit({"reports": serialized, "warnings": log.records, "peak_mib": peak_mib() if fresh else None,
              "hung_earlier": limits.refused})
    return None


def _ignore_unraisable(unraisable: Any) -> None:
    del unraisable


def _show_unraisable(unraisable: Any) -> None:
    where = f" in {unraisable.object!r}" if unraisable.object is not None else ""
    error = unraisable.exc_value
    sys.stderr.write(f"the target raised where it cannot be caught{where}: {type(error).__name__}: {error}\n")
