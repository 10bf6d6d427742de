"""Tests for :mod:`conformance._engine.verdicts`: recognising a windowing layer's error, and the remedy it gets."""

from __future__ import annotations

import pytest

from conformance._engine.verdicts import display_remedy, from_windowing


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
