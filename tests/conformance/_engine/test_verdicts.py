"""Tests for :mod:`conformance._engine.verdicts`: recognising a windowing layer's error, and the remedy it gets; what
a hang of one shape of call means for the items that meet it."""

from __future__ import annotations

import pytest

from conformance._engine.messages import Hung
from conformance._engine.options import CaseParam
from conformance._engine.processes import Snapshot
from conformance._engine.targets import Target
from conformance._engine.verdicts import display_remedy, from_windowing, verdict


def _error_of_module(module: str, message: str) -> Exception:
    kind: type[Exception] = type("NoSuchDisplayException", (Exception,), {"__module__": module})
    return kind(message)


def _raised_in(module: str) -> Exception:
    """An exception whose traceback passes through a function of ``module``."""
    namespace: dict[str, object] = {"__name__": module}
    exec("def fail():\n    raise RuntimeError('no context')\n", namespace)  # noqa: S102 - a frame of that module
    try:
        namespace["fail"]()  # type: ignore[operator]
    except RuntimeError as error:
        return error
    raise AssertionError("unreachable")


@pytest.mark.parametrize(
    "error",
    [
        _error_of_module("pyglet.canvas.xlib", 'Cannot connect to "None"'),
        RuntimeError("cannot open display :0"),
        type("GLFWWindowError", (Exception,), {})("failed"),
        _raised_in("glfw.library"),
    ],
)
def test_windowing_errors_are_recognised(error: Exception) -> None:
    assert from_windowing(error)


@pytest.mark.parametrize("error", [ValueError("bad action"), _raised_in("mypkg.envs"), KeyError("walls")])
def test_other_errors_are_not(error: Exception) -> None:
    assert not from_windowing(error)


def test_the_remedy_names_the_toolkits_offscreen_switch() -> None:
    assert "PYGLET_HEADLESS=1" in display_remedy(_error_of_module("pyglet.canvas.xlib", "no display"))
    assert "MUJOCO_GL=egl" in display_remedy(_raised_in("mujoco.glfw"))
    plain = display_remedy(RuntimeError("cannot open display"))
    assert "xvfb-run" in plain and "offscreen" not in plain


def _item(rule: str) -> CaseParam:
    return CaseParam(rule, Target("walk", "env", lambda **kwargs: object(), (), "Walk"))


_HUGE_SEED = "reset [seed >= 2**32]"
_HUNG = Hung(1.0, Snapshot(1, True, 1.0, 1.0, 3, "reset", "", "env.reset()", "", 1.0, _HUGE_SEED), 2.0)


def test_a_hang_of_one_shape_is_reported_once_and_the_other_items_that_meet_it_say_where_it_hung() -> None:
    # SEED-007 alone draws seeds of 2**32 and more; ENV-004 owns reset but never made such a call, so it passed.
    first = verdict(_item("SEED-007"), _HUNG, None, False, shape=_HUGE_SEED, reports=True)
    assert (first.kind, first.outcome) == ("failed", "failed")
    assert first.message.startswith("SEED-007 (SHOULD) violated by walk: the target hung: env.reset() did not return")
    assert "ENV-004, which owns that call, did not meet it" in first.message
    later = verdict(_item("SEED-013"), _HUNG, "SEED-007", False, shape=_HUGE_SEED)
    assert (later.kind, later.outcome) == ("failed", "error")
    assert f"not checked on walk: hung earlier in {_HUGE_SEED}, first seen in SEED-007" in later.message
    owned = verdict(_item("SEED-013"), _HUNG, "SEED-007", True, shape=_HUGE_SEED)  # ENV-004 met it and failed
    assert (owned.outcome, owned.message.endswith("(reported by ENV-004)")) == ("skipped", True)
    mine = verdict(_item("ENV-004"), _HUNG, "SEED-007", False, shape=_HUGE_SEED, reports=True)
    assert mine.outcome == "failed" and "did not meet it" not in mine.message
