"""Frames for the HTML report: what the target draws in each declared image mode, from a few seeded episodes.

Captured in the target's own supervised process, beside its shared run (so the pytest process never runs target
code), only when ``--conformance-html`` is given; written as PNG files into a folder the report's writer reads and
removes. Capture is best effort and bounded in time: the RENDER rules report what is wrong with the frames; the
gallery only shows them.
"""

from __future__ import annotations

import re
import struct
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from conformance._engine.narrowing import is_array, is_list, is_list_or_tuple, is_tuple

if TYPE_CHECKING:
    from conformance._engine.case import Case

__all__ = ["IMAGE_MODES", "capture", "encode_png", "frames_folder"]

IMAGE_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")
"""Render modes whose frames are images."""

SEEDS = (0, 1, 2)
"""One episode per seed: its first frame and one after :data:`_STEPS` random steps."""

_STEPS = 12
_SECONDS = 4.0  # per mode: a slow renderer shows fewer episodes rather than holding the run
_MAX_SIDE = 240  # pixels: keeps a registry's report to a few MiB
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def frames_folder(html: str | Path, target: str) -> Path:
    """Where the frames of ``target`` go for the report written to ``html``."""
    return Path(f"{html}.frames") / _SAFE.sub("_", target)


def _image(frame: object, mode: str) -> np.ndarray[Any, np.dtype[np.uint8]] | None:
    """The frame as an (H, W, 3) uint8 image, shrunk to at most :data:`_MAX_SIDE` pixels a side (``None``: not an
    image of its mode)."""
    if not is_array(frame) or frame.size == 0:
        return None
    if mode.startswith("depth") and frame.ndim == 2:
        values = np.nan_to_num(frame.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0)
        low, high = float(values.min()), float(values.max())
        scaled = (values - low) / (high - low) if high > low else np.zeros_like(values)
        gray = (scaled * 255).astype(np.uint8)
        image = np.stack([gray, gray, gray], axis=-1)
    elif mode.startswith("rgb") and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8:
        image = frame.astype(np.uint8, copy=False)
    else:
        return None
    stride = max(1, -(-max(image.shape[:2]) // _MAX_SIDE))
    return np.ascontiguousarray(image[::stride, ::stride])


def encode_png(image: np.ndarray[Any, np.dtype[np.uint8]]) -> bytes:
    """A PNG file of an (H, W, 3) uint8 image (8-bit RGB, no filtering)."""
    height, width = image.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), np.uint8), image.reshape(height, width * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
            + chunk(b"IEND", b""))


def _shown(rendered: object, mode: str, vector: bool) -> object:
    """The one image to show of what ``render()`` returned."""
    frame = rendered
    if vector and is_list_or_tuple(rendered) and rendered:
        frame = rendered[0]  # a vector env renders one frame per sub-env: show the first
    if mode.endswith("_list"):  # the frames since the last render call: show the newest
        return frame[-1] if is_list(frame) and frame else None
    return frame


def capture(case: Case, folder: Path) -> int:
    """Render each declared image mode of ``case``'s target over :data:`SEEDS` and write the frames as
    ``<mode>-seed<seed>-step<n>.png`` into ``folder``; a mode whose frames cannot be had gets a ``<mode>.txt``
    saying why. Returns how many frames were written."""
    # Late: the strategies import Hypothesis, and this module is loaded with the reporter in every pytest run.
    from conformance._kit.strategies import sampler

    probe = case.probe()
    modes = [mode for mode in probe.render_modes if mode in IMAGE_MODES]
    if not modes or probe.action_space is None or case.target.kind == "func":
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for mode in modes:
        begun = time.perf_counter()
        case.new_example()
        try:
            env = case.make(render_mode=mode)
            draw = sampler(probe.action_space)
            for seed in SEEDS:
                if time.perf_counter() - begun > _SECONDS:
                    break
                rng = np.random.default_rng(seed)
                env.reset(seed=seed)
                for step in range(_STEPS + 1):
                    if step in (0, _STEPS):
                        image = _image(_shown(env.render(), mode, case.target.kind == "vector"), mode)
                        if image is not None:
                            (folder / f"{mode}-seed{seed}-step{step}.png").write_bytes(encode_png(image))
                            written += 1
                    if step < _STEPS:
                        result: object = env.step(draw(rng))
                        ended = is_tuple(result) and len(result) == 5 and bool(np.any(result[2]) or np.any(result[3]))
                        if ended:
                            break
        except Exception as exc:  # noqa: BLE001 - the RENDER rules report it; the gallery says why it is empty
            (folder / f"{mode}.txt").write_text(f"{type(exc).__name__}: {exc}"[:500], encoding="utf-8")
        finally:
            case.close_all()
    return written
