"""Envs that break one RENDER rule each (``Walk`` declares human, rgb_array, ansi, depth_array, rgb_array_list)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from gymspec.errors import UnsupportedMode
from tests.meta.broken._base import Walk
from tests.meta.broken.semantics import Hops


class Render001ModeChangesOnReset(Walk):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        if self.render_mode is None:
            self.render_mode = "human"  # RENDER-001: the mode is not fixed at construction
        return super().reset(seed=seed, options=options)


class Render001SwitchesOnLaterFrame(Walk):
    """The second ``render()`` in ``rgb_array`` switches ``render_mode`` to ``rgb_array_list`` (a recorder turned on
    by rendering): fixed at construction only until then (RENDER-001; a single render() once missed it, issue 37
    item 12)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._renders = 0

    def render(self) -> Any:
        frame = super().render()
        self._renders += 1
        if self._renders == 2 and self.render_mode == "rgb_array":
            self.render_mode = "rgb_array_list"  # RENDER-001: the mode changes after construction
        return frame


class Render002InstanceDropsMode(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        modes = [mode for mode in Walk.metadata["render_modes"] if mode != render_mode]
        self.metadata = {**Walk.metadata, "render_modes": modes}  # RENDER-002: its mode is not declared


class Render002AcceptsAnything(Walk):
    """Stores whatever mode it is given, and renders in it (``Walk.render`` returns an empty list for it)."""

    def __init__(self, render_mode: str | None = None) -> None:
        declared = render_mode in (None, *Walk.metadata["render_modes"])
        super().__init__(render_mode if declared else None)
        self.render_mode = render_mode  # RENDER-002: an undeclared mode is silently taken up


def render_002_forwarding_factory(**kwargs: Any) -> Render002AcceptsAnything:
    """A factory target that passes its keyword arguments on (so the class's defect is the factory's)."""
    return Render002AcceptsAnything(**kwargs)


def render_002_factory_sets_mode(**kwargs: Any) -> Walk:
    """A factory that builds a correct env without a mode, then sets whatever ``render_mode`` it was given."""
    env = Walk()
    env.render_mode = kwargs.get("render_mode")  # RENDER-002: the factory bypasses the constructor's check
    return env


class Render002ModeFromAnyArgument(Walk):
    """Takes ``render_mode`` from its keyword arguments, or else its first positional argument, unchecked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.render_mode = kwargs.get("render_mode", args[0] if args else None)  # RENDER-002


class Render002UndeclaredDefault(Walk):
    """Checks the modes it is given, but its own default (``"rgb"``) is declared nowhere."""

    def __init__(self, render_mode: str | None = "rgb") -> None:
        super().__init__(None if render_mode == "rgb" else render_mode)
        self.render_mode = render_mode  # RENDER-002 (and RENDER-001: no argument should mean None)


class Render003RefusesAtRender(Walk):
    """Stores an undeclared mode without a word, and refuses it only when ``render()`` is called."""

    def __init__(self, render_mode: str | None = None) -> None:
        declared = render_mode in (None, *Walk.metadata["render_modes"])
        super().__init__(render_mode if declared else None)
        self.render_mode = render_mode  # RENDER-003: accepted at construction ...

    def render(self) -> Any:
        if self.render_mode not in (None, *self.metadata["render_modes"]):
            raise UnsupportedMode(f"Render003RefusesAtRender render_mode must be declared, got {self.render_mode!r}")
        return super().render()  # ... and refused only here


class Render003DropsSilently(Walk):
    """Replaces an undeclared mode with ``None`` without telling anyone (a typo gives no frames)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode if render_mode in Walk.metadata["render_modes"] else None)  # RENDER-003


class Render003WrongError(Walk):
    """Rejects an undeclared mode, with a ``TypeError``."""

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode not in (None, *Walk.metadata["render_modes"]):
            raise TypeError(f"Render003WrongError render_mode must be declared, got {render_mode!r}")  # RENDER-003
        super().__init__(render_mode)


class Render003NoRenderModeParameter(Walk):
    """Declares no render mode and takes no ``render_mode`` at all: a construction with one, even ``None``, raises
    ``TypeError`` (RENDER-003, a SHOULD). RENDER-001 once failed it, "the constructor rejects render_mode=None", a MUST
    finding for an env that renders nothing whatever it is given (issue 37 item 4)."""

    metadata: dict[Any, Any] = {"render_modes": []}

    def __init__(self) -> None:
        super().__init__()


class Render004NeedsArgument(Walk):
    def render(self, mode: str) -> Any:  # type: ignore[override]  # RENDER-004: render() needs an argument
        return super().render()


class Render004ResetFailsInMode(Walk):
    """Resets without a render mode, but not in ``rgb_array`` (as rware's human mode draws before its state exists)."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        if self.render_mode == "rgb_array":
            raise AttributeError("'Render004ResetFailsInMode' object has no attribute 'shelfs'")  # RENDER-004
        return super().reset(seed=seed, options=options)


class Render005FrameWithoutMode(Walk):
    def render(self) -> Any:
        return self._rgb() if self.render_mode is None else super().render()  # RENDER-005


class Render006FloatFrames(Walk):
    def render(self) -> Any:
        frame = super().render()
        return frame.astype(np.float32) if self.render_mode == "rgb_array" else frame  # RENDER-006


class Render007BytesAnsi(Walk):
    def render(self) -> Any:
        frame = super().render()
        return frame.encode() if self.render_mode == "ansi" else frame  # RENDER-007


class Render008HumanReturnsFrame(Walk):
    def render(self) -> Any:
        return self._rgb() if self.render_mode == "human" else super().render()  # RENDER-008


class Render009DepthWithChannels(Walk):
    def render(self) -> Any:
        if self.render_mode == "depth_array":
            return self._rgb().astype(np.float32)  # RENDER-009: 3-D
        return super().render()


class Render010TupleOfFrames(Walk):
    def render(self) -> Any:
        frame = super().render()
        return tuple(frame) if self.render_mode == "rgb_array_list" else frame  # RENDER-010


class Render011FramesNotCleared(Walk):
    def render(self) -> Any:
        if self.render_mode == "rgb_array_list":
            return list(self._frames)  # RENDER-011: never cleared
        return super().render()


class Render012GrowingFrames(Walk):
    def _rgb(self) -> NDArray[np.uint8]:
        frame = super()._rgb()
        return np.concatenate([frame] * (1 + self._steps % 2), axis=1)  # RENDER-012: the width changes


class Render013AliasedFrame(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._canvas: NDArray[np.uint8] = np.zeros((6, 8, 3), dtype=np.uint8)

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            self._canvas[...] = self._rgb()
            return self._canvas  # RENDER-013: the drawing buffer itself
        return super().render()


class Render014RenderDrawsRandomness(Walk):
    def render(self) -> Any:
        self.np_random.random()  # RENDER-014: rendering consumes the dynamics' generator
        return super().render()


class Render014DrawsOnGoalFrame(Hops):
    """Hops with an ``rgb_array`` mode whose ``render()`` draws from the env's generator only on a goal frame (an end
    cell: the episode is over), as an env that animates its goal with random sparks does: the next episode's random
    start then depends on whether that frame was drawn (RENDER-014). Rendering only between steps never drew it
    (issue 37 item 12)."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode not in (None, "rgb_array"):
            raise UnsupportedMode(f"Render014DrawsOnGoalFrame render_mode must be None or 'rgb_array', got "
                                  f"{render_mode!r}")
        super().__init__()
        self.render_mode = render_mode

    def render(self) -> Any:
        if self.render_mode != "rgb_array":
            return None
        frame = np.zeros((4, 8, 3), dtype=np.uint8)
        frame[:, int(self._cell) % 8, 1] = 255
        if self._cell in (0, 7):
            frame[0, 0, 0] = int(self.np_random.integers(256))  # RENDER-014: sparks on the goal frame
        return frame


class Render015CloseFailsAfterRender(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._rendered = False

    def render(self) -> Any:
        self._rendered = self.render_mode is not None
        return super().render()

    def close(self) -> None:
        if self._rendered:
            raise RuntimeError("Render015CloseFailsAfterRender cannot close its renderer")  # RENDER-015
        super().close()


class Render016ModesAsSet(Walk):
    metadata = {**Walk.metadata, "render_modes": set(Walk.metadata["render_modes"])}  # RENDER-016


class Render017NoFps(Walk):
    metadata = {"render_modes": Walk.metadata["render_modes"]}  # RENDER-017: no render_fps


class Render001RejectsRenderMode(Walk):
    """Declares ``human`` and ``rgb_array`` but its constructor takes no ``render_mode`` at all (highway-env's
    lane-keeping-v0): every construction with a declared mode raises ``TypeError``, on any machine — never a
    display problem, so never skipped as one."""

    metadata: dict[Any, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(self) -> None:  # RENDER-001: a declared mode cannot be given
        super().__init__(None)


class Render018RgbArrayByDefault(Walk):
    """Renders ``rgb_array`` frames unless told otherwise (panda-gym, gym-pusht): the mode is fixed and declared,
    but a caller who asked for no frames gets them (RENDER-018, a SHOULD)."""

    def __init__(self, render_mode: str | None = "rgb_array") -> None:
        super().__init__(render_mode)


class Render001RejectsNone(Walk):
    """Renders ``rgb_array`` by default and refuses ``render_mode=None`` given explicitly (panda-gym's
    ``PyBullet`` raises ``ValueError``): ``gymnasium.make(id, render_mode=None)`` fails."""

    def __init__(self, render_mode: str | None = "rgb_array") -> None:
        if render_mode not in self.metadata["render_modes"]:  # RENDER-001: None is refused
            raise ValueError(f"Render001RejectsNone render_mode must be one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        super().__init__(render_mode)
