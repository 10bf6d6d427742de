"""What an item's ending means for its rule, decided and worded in this one place: passed, failed, not checked
(an error), or not applicable (a skip that may stand).

* **Owners** (:data:`OWNERS`): which rule reports a failure of which call, by target kind. An exception or a crash in
  a call another rule owns makes every other item skip, naming the owner ("reported by ENV-016"); in a call nobody
  owns, it makes the item an error (:func:`unowned`).
* **Endings that were not a return** (:func:`verdict`): the verdicts the :class:`~conformance._engine.runner.ItemRunner`
  writes itself when an item's process hung, died, outgrew the memory cap or was interrupted. Unchecked is never a
  pass: such an item may skip only when the owner of the call in progress failed; otherwise it is an error naming
  the cause and the remedy (:func:`remedy`). Over the memory cap fails the rule in progress, whatever the call.
* **Words** (:func:`not_checked`, :func:`no_return`, :func:`hung_earlier`, :func:`unreported`, ...): every "not
  checked" and "did not return" message of the engine, in process or supervised, so an ending reads the same
  wherever it was met, and :data:`REPORTED_BY` can read a skip's reporter back.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Literal

from conformance._engine.messages import Died, Failure, Hung, Interrupted, OverMemory
from conformance._engine.options import CaseParam
from conformance._engine.processes import Snapshot
from conformance.results import CONSTRUCT, SEVERITY, Outcome, rule_level
from gymspec.rules import RULES

__all__ = [
    "OWNERS",
    "REPORTED_BY",
    "RULE_ID",
    "Verdict",
    "describe_ending",
    "display_missing",
    "display_remedy",
    "drawing_through_sdl_dummy",
    "from_windowing",
    "headless",
    "hung_earlier",
    "no_return",
    "not_checked",
    "owner_of",
    "owner_text",
    "owning_rule",
    "remedy",
    "reported_by",
    "unavailable",
    "unconstructible",
    "unowned",
    "unreported",
    "verdict",
    "worse",
]

# --- Owners: which rule reports a failure of which call -------------------------------------------------------------

_SPACES = {"seed": "SPACE-004", "sample": "SPACE-007"}
_RENDER = {"render_construct": "RENDER-001", "render": "RENDER-004"}

OWNERS: dict[str, dict[str, str]] = {
    # An env made from a registered id is also made a vector env by the registry (REG-008/009): make_vec raising
    # breaks REG-009 ("make_vec(id, num_envs=n) returns a vector env for every positive n").
    "env": {"construct": CONSTRUCT, **_RENDER, "reset": "ENV-004", "step": "ENV-016", "close": "ENV-020", **_SPACES,
            "make_vec": "REG-009"},
    # The SPACE and RENDER rules run on single envs only: on a vector or functional target, an exception in a space's
    # seed or sample or in rendering is reported by no rule, and the items that met it are errors, never skips.
    "vector": {"construct": CONSTRUCT, "reset": "VEC-005", "step": "VEC-016", "close": "VEC-019"},
    "func": {
        "construct": CONSTRUCT,
        "transition": "FUNC-007",
        "observation": "FUNC-007",
        "reward": "FUNC-008",
        "terminal": "FUNC-009",
        "state_info": "FUNC-010",
        "transition_info": "FUNC-010",
        "transform": "FUNC-011",
        "render_init": "FUNC-012",
        "render_image": "FUNC-012",
        "render_close": "FUNC-012",
    },
}
"""Target kind → call kind → the rule that reports an exception (or a crash) in that call; every other rule skips
such an item as not checkable, naming the owner (and so does every rule for a call no rule owns)."""

_UNOWNED_HINTS: dict[tuple[str, str], str] = {
    ("func", "initial"): (
        "the suite drives functional envs with NumPy Generators as rng (what the reference FunctionalEnv passes), "
        "or with JAX PRNG keys when the target declares metadata['jax'] = True or imports jax and rejects a "
        "Generator; an env that needs another kind of rng cannot be checked on this rule"
    ),
}
"""Why an item cannot check its rule when a call nobody owns raises."""


_IN_A_RENDER_MODE: dict[str, dict[str, str]] = {"env": {"close": "RENDER-015", "reset": "RENDER-004"}}
"""Target kind → call kind → the rule that (also) reports an exception in that call on an instance made with a
render mode: ENV-020 closes instances made without one, RENDER-015 closes them in every declared mode after
rendering, so a close that fails only after rendering is RENDER-015's finding; ENV-004 resets instances made without
one, RENDER-004 resets and renders one in every declared mode, so a reset that fails only in a render mode (rware's
human mode draws before its state exists) is RENDER-004's."""


def owner_of(kind: str, method: str, mode: str = "") -> str | None:
    """The rule (or :data:`CONSTRUCT`) that reports a failure of ``method`` on a target of ``kind``; on an instance
    made with render mode ``mode`` it may be either of two rules ("ENV-020 or RENDER-015")."""
    owner = OWNERS.get(kind, {}).get(method)
    also = _IN_A_RENDER_MODE.get(kind, {}).get(method) if mode else None
    return f"{owner} or {also}" if owner is not None and also is not None else owner


def owner_text(owner: str) -> str:
    """How a message names an owner."""
    return "the construction check (test_target_constructs)" if owner == CONSTRUCT else owner


def headless() -> bool:
    """Whether this is a Linux machine with no display server to draw ``human`` frames on."""
    if not sys.platform.startswith("linux"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def drawing_through_sdl_dummy() -> bool:
    """Whether pygame is drawing with SDL's dummy video driver (so a headless machine is no excuse)."""
    pygame = sys.modules.get("pygame")
    display = getattr(pygame, "display", None)
    try:
        return bool(display is not None and display.get_init() and display.get_driver() == "dummy")
    except Exception:  # noqa: BLE001 - a half-initialised pygame tells nothing
        return False


# Where a failure to open a window comes from: modules of windowing and GL toolkits, and words of their messages.
_WINDOWING_MODULES = ("pygame", "pyglet", "glfw", "OpenGL", "tkinter", "_tkinter", "Xlib", "mujoco", "vtk", "cv2",
                      "matplotlib", "pybullet", "panda3d", "arcade", "moderngl", "sdl2")
_WINDOWING_WORDS = ("display", "video", "window", "glfw", "x11", "xserver", "opengl", "egl", "screen", "gui")


def _toolkit(error: BaseException) -> str:
    """The windowing or GL toolkit an exception came through ("" when none shows in its class or traceback)."""
    found = type(error).__module__.split(".")[0]
    tb = error.__traceback__
    while found not in _WINDOWING_MODULES and tb is not None:
        found = str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0]
        tb = tb.tb_next
    return found if found in _WINDOWING_MODULES else ""


def from_windowing(error: BaseException) -> bool:
    """Whether an exception looks like a windowing layer's (raised through a toolkit or of a toolkit's class, or
    naming a display in its message or class name: pyglet's ``NoSuchDisplayException('Cannot connect to "None"')``)."""
    text = f"{error} {type(error).__name__}".lower()
    return any(word in text for word in _WINDOWING_WORDS) or bool(_toolkit(error))


def display_missing(error: BaseException) -> bool:
    """Whether ``error`` is a windowing layer's on a machine with no display to open a window on (and not drawing
    through SDL's dummy driver): the machine's limit, not the target's break."""
    return headless() and not drawing_through_sdl_dummy() and from_windowing(error)


# Toolkits that draw offscreen when told to, and how: a machine with no display can still check their frames.
_OFFSCREEN = {"pyglet": "PYGLET_HEADLESS=1", "mujoco": "MUJOCO_GL=egl", "pygame": "SDL_VIDEODRIVER=dummy"}


def display_remedy(error: BaseException) -> str:
    """How to check a target whose construction or frames need a display this machine lacks."""
    remedy = "check it under a display, e.g. xvfb-run -a pytest --pyargs conformance ..."
    toolkit = _toolkit(error)
    switch = _OFFSCREEN.get(toolkit)
    return f"{remedy}, or let {toolkit} draw offscreen: {switch} pytest --pyargs conformance ..." if switch else remedy


@dataclass(frozen=True)
class Verdict:
    kind: Literal["passed", "failed", "skipped"]
    outcome: Outcome  # the record's outcome: failed, skipped or error
    message: str




def verdict(
    param: CaseParam, outcome: Failure, first: str | None, owner_failed: bool, owner_known: str = "not run here", *,
    shape: str = "", reports: bool = False,
) -> Verdict:
    """What an ending that was not a return means for one item.

    Args:
        param: The item.
        outcome: How its process (or, with ``first``, an earlier item's) ended.
        first: The item whose process hung in this call, when it is not this one.
        owner_failed: Whether the rule that owns the call in progress failed (only then may this item skip, as
            reported by it; otherwise the item was not checked, and says so as an error).
        owner_known: That rule's outcome in this run (``"not run here"`` when it did not run): the remedy never
            sends the user to run a rule that passed.
        shape: The shape of the call that hung (:func:`~conformance._engine.watchdog.call_shape`), when the hang
            ends only the calls of that shape.
        reports: Whether this item reports the hang as its rule's failure: no item has, and the rule that owns the
            call did not fail (it never made a call of that shape: a huge seed, a render mode). The item whose
            process hung, or the first to meet the hang later, reports it; the others are not checked.
    """
    rule_id = param.rule_id or CONSTRUCT
    target = param.target.id
    board = outcome.board
    if isinstance(outcome, Interrupted):
        return Verdict("failed", "error", f"{rule_id} not finished on {target}: interrupted (Ctrl-C) {_during(board)}")
    if isinstance(outcome, Died) and outcome.detail:
        return Verdict("failed", "error",
                        f"{rule_id} not checked on {target}: internal error of the conformance suite\n{outcome.detail}")
    ending = describe_ending(outcome)
    if first is not None:
        ending += f" (first seen in {first}; not called again)"
    # Over the memory cap is the item's own failure, whatever call was in progress: the rule in progress made it
    # hold that much (README: "an item holding more memory ... becomes a failure of that item's rule").
    owner = None if isinstance(outcome, OverMemory) else owning_rule(param, board)
    if board.mode == "human" and headless() and not isinstance(outcome, OverMemory):
        return Verdict("skipped", "skipped",
                        f"{rule_id} not checked on {target}: {ending}, on a machine with no display "
                        "(DISPLAY/WAYLAND_DISPLAY unset); check human rendering under a display, e.g. "
                        "xvfb-run -a pytest --pyargs conformance ...")
    if shape and first is not None and not reports and owner != rule_id and not (owner is not None and owner_failed):
        hung = describe_ending(outcome)
        return Verdict("failed", "error",
                        f"{rule_id} ({rule_level(rule_id)}) not checked on {target}: hung earlier in {shape}, first "
                        f"seen in {first} ({hung}; not called again). {remedy(None, outcome)}")
    if owner is not None and owner != rule_id:
        if owner_failed:
            return Verdict("skipped", "skipped",
                            f"{rule_id} not checked on {target}: {ending} (reported by {owner_text(owner)})")
        if not reports:
            return Verdict("failed", "error",
                            f"{rule_id} ({rule_level(rule_id)}) not checked on {target}: {ending}; "
                            f"{owner_text(owner)} did not fail, so nothing reports it. "
                            f"{remedy(owner, outcome, known=owner_known, rule_id=rule_id, mode=board.mode)}")
    if param.rule_id is None:
        return Verdict("failed", "failed", f"CONSTRUCT: target {target} cannot be constructed: {ending}")
    if first is not None and owner is None and not reports:
        return Verdict("failed", "error",
                        f"{rule_id} ({rule_level(rule_id)}) not checked: target {target} hung earlier: {ending}. "
                        f"{remedy(None, outcome)}")
    problem = f"the target hung: {ending}" if isinstance(outcome, Hung) else ending
    message = f"{rule_id} ({rule_level(rule_id)}) violated by {target}: {problem}"
    if shape and owner is not None and owner != rule_id:
        message += (f" (a call of shape {shape}: {owner_text(owner)}, which owns that call, did not meet it, so this "
                    "item reports it)")
    rule = RULES.get(rule_id)
    if rule is not None:
        message += f"\n  rule:     {rule_id} {rule.level.value} {rule.text}"
    found = outcome.traceback.strip() if isinstance(outcome, (Died, Hung)) else ""
    if found:
        stacks = "\n".join(f"    {line}" for line in found.splitlines())
        when = "when it died" if isinstance(outcome, Died) else "when it was stopped"
        message += f"\n  where the process was {when}:\n{stacks}"
    return Verdict("failed", "failed", message)


REPORTED_BY = re.compile(
    r"reported by (?:the construction check|test_target_constructs|(?P<rules>[A-Z]+-\d{3}(?:(?:, | or )[A-Z]+-\d{3})*))"
)
"""A skip's "(reported by ...)" clause: the construction check, or one or more rule ids ("SEED-001 or SEED-005")."""
RULE_ID = re.compile(r"[A-Z]+-\d{3}")


def worse(known: str | None, outcome: str) -> str:
    """The worse of two outcomes of one rule (``known`` may also be a note such as ``"not run here"``)."""
    if known is None:
        return outcome
    rank: dict[str, int] = {str(name): value for name, value in SEVERITY.items()}  # a note ranks as a pass
    return outcome if rank.get(outcome, 0) > rank.get(known, 0) else known


PASSED = ("passed", "warned", "skipped")
"""Outcomes of an owner rule that say its own calls did not fail: a message never sends the user to run it."""


def remedy(owner: str | None, outcome: Failure | None = None, *, hung: bool = False, known: str = "not run here",
           rule_id: str = "", mode: str = "") -> str:
    """What to do about an item that could not be checked (``hung``: its call did not return).

    Args:
        owner: The rule that owns the call that failed (``None``: no rule does).
        outcome: How the item's process ended, if it did not return.
        hung: Whether the call did not return.
        known: The owner's outcome in this run, or ``"not run here"``. A message sends the user to run a rule only
            when that rule did not run: one that passed (or warned, or skipped) did not show the failure in its own
            calls, so the message states what this item saw instead.
        rule_id: The item's own rule (to run it beside the owner).
        mode: The render mode of the failing call, if any.
    """
    if isinstance(outcome, Hung) or hung:
        return ("If the target is slow rather than stuck (a compile, a slow constructor), raise "
                "--conformance-timeout; if it stalls only in forked processes, run with --conformance-isolation "
                "spawn.")
    if owner == CONSTRUCT:
        return ("A construction failed here where the probe's did not, and not for want of a process of its own (a "
                "target allowing one live instance gets one, and ENV-021's warning): make construction deterministic.")
    where = f" in render mode {mode!r} (construct the target with render_mode={mode!r} to check it)" if mode else ""
    if owner is not None and known in PASSED:
        # The owner's own calls did not fail: the failure needs what this item did first, so it is this item's
        # observation, stated above, and the target's to fix; sending the user to the owner would show a pass.
        if isinstance(outcome, Died):
            return (f"{owner} {known} on this target, so the call does not crash on its own: it crashed{where} after "
                    f"this item's earlier calls (another instance, an earlier render, a close). The call named above "
                    f"is where the target crashed: fix it there.")
        return (f"{owner} {known} on this target, so its own calls do not show this: it shows after this item's "
                f"earlier calls, as stated above, and the target is what to fix.")
    if owner is not None:
        beside = f"{rule_id},{owner}" if rule_id else owner
        if isinstance(outcome, Died):
            return (f"The process died in a call {owner} owns{where}, and {owner} did not run here: run --rules "
                    f"{beside} to have {owner} judge that call.")
        return f"{owner} did not run here: run --rules {beside} to have {owner} judge that call, then fix it."
    return "Fix the earlier failure, then run again."


def _during(board: Snapshot) -> str:
    if board.active:
        return f"while {board.label} was running"
    return f"after {board.label}" if board.label else "before any call into the target"


def _mode(board: Snapshot) -> str:
    return f" in mode {board.mode!r}" if board.mode else ""


def describe_ending(outcome: Failure) -> str:
    """How the process ended, naming the call in progress, e.g. "env.render() in mode 'human' killed ..."."""
    board = outcome.board
    call = f"{board.label}{_mode(board)}" if board.label else "the target"
    if isinstance(outcome, Hung):
        if board.active:
            return f"{call} did not return within {outcome.limit:g} s"
        return (f"no call into the target started or ended for {outcome.limit:g} s ({_during(board)}): "
                "a hang outside a tracked call (a property, __eq__, __repr__, a space method...)")
    if isinstance(outcome, OverMemory):
        return (f"the process held {outcome.rss / 2**20:.0f} MiB, over the memory cap of "
                f"{outcome.cap / 2**20:.0f} MiB (--conformance-memory), {_during(board)}")
    if isinstance(outcome, Died):
        note = f" ({board.note})" if board.note else ""
        verb = "killed the process with" if not outcome.status.startswith("exit") else "ended the process with"
        if board.active:
            return f"{call} {verb} {outcome.status}{note}"
        return f"the process died with {outcome.status} outside any call into the target ({_during(board)}){note}"
    return f"interrupted {_during(board)}"


def owning_rule(param: CaseParam, board: Snapshot) -> str | None:
    """The rule that reports a failure of the call in progress (``None``: no call, or nobody owns it)."""
    if not board.active:
        return None
    return owner_of(param.target.kind, board.method)


# --- Words: how an item that could not check its rule says so ------------------------------------------------------


def not_checked(rule_id: str, target: str, why: str) -> str:
    """The message of an item that could not check its rule (a skip when ``why`` names who reports the cause)."""
    return f"{rule_id} not checked on {target}: {why}"


def no_return(label: str, timeout: float) -> str:
    """A call that did not return within its limit."""
    return f"{label} did not return within {timeout:g} s"


def reported_by(problem: str, owner: str) -> str:
    """A problem another rule (or the construction check) reports: the skip of every other item names it."""
    return f"{problem} (reported by {owner_text(owner)})"


def unavailable(rule_id: str, why: str) -> str:
    """An item of a target that is not there to check (its id names no target: ``why`` says so)."""
    return f"{rule_id} not checked: {why}"


def unconstructible(rule_id: str, target: str, error: str | None) -> str:
    """An item of a target whose construction fails: the construction check reports it."""
    return (f"{rule_id} not checked: target {target} could not be constructed ({error}); "
            "reported by test_target_constructs")


def hung_earlier(rule_id: str, target: str, hung: str) -> str:
    """An item of a target that hung in an earlier item of this process (thread isolation): an error, never a
    failure of this rule, whatever its level."""
    return (f"{rule_id} ({rule_level(rule_id)}) not checked: target {target} hung earlier ({hung}); "
            f"{remedy(None, hung=True)}")


def unowned(rule_id: str, target: str, kind: str, method: str, error: str) -> str:
    """An item met an exception in a call no rule of the catalog checks on this kind of target: it was not checked,
    and says what would let it be."""
    hint = _UNOWNED_HINTS.get((kind, method), "make that call succeed to check this rule")
    return (f"{rule_id} not checked on {target}: {error}, and no rule of the catalog checks {method} on a {kind} "
            f"target; {hint}")


def unreported(message: str, owner: str, target: str, known: str, rule_id: str = "") -> str:
    """A skip that named ``owner`` as the reporter of its cause, when ``owner`` did not fail (``known``: its outcome):
    nothing reports the cause, so the item was not checked. It never sends the user to run an owner that passed
    (:func:`remedy`)."""
    hung = "did not return" in message
    fix = (f"{owner} could not check it either (see why it skipped)." if known == "skipped"
           else remedy(owner, hung=hung, known=known, rule_id=rule_id))
    return (f"{message}; but {owner_text(owner)} did not fail on {target} ({known}), so nothing reports it: not "
            f"checked. {fix}")
