"""Render one ``rgb_array`` frame each of CartPole-v1 and FrozenLake-v1 into ``docs/img/`` as PNG files.

Run from anywhere: ``python scripts/render_frames.py [--out DIR]``. Each environment is reset with a fixed seed and
stepped with a fixed action sequence, so the images are reproducible. No window is opened (SDL's dummy video
driver is selected unless another one is already configured).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402 - the SDL variables must be set before pygame can be imported
from numpy.typing import NDArray  # noqa: E402

from reference.envs.classic_control.cartpole import CartPoleEnv  # noqa: E402
from reference.envs.toy_text.frozen_lake import FrozenLakeEnv  # noqa: E402

CARTPOLE_SEED = 7
CARTPOLE_ACTIONS = (1, 1, 0, 1, 1, 1)
# Right, right, down, down on slippery ice; with this seed the agent ends mid-lake on tile 10 (row 2, column 2).
FROZENLAKE_SEED = 24
FROZENLAKE_ACTIONS = (2, 2, 1, 1)


def _cartpole_frame() -> NDArray[np.uint8]:
    env = CartPoleEnv(render_mode="rgb_array")
    try:
        env.reset(seed=CARTPOLE_SEED)
        for action in CARTPOLE_ACTIONS:
            env.step(action)
        frame = env.render()
    finally:
        env.close()
    if frame is None:
        raise RuntimeError("CartPoleEnv render() returned None in rgb_array mode")
    return frame


def _frozenlake_frame() -> NDArray[np.uint8]:
    env = FrozenLakeEnv(render_mode="rgb_array", map_name="4x4")
    try:
        env.reset(seed=FROZENLAKE_SEED)
        for action in FROZENLAKE_ACTIONS:
            _, _, terminated, _, _ = env.step(action)
            if terminated:
                break
        frame = env.render()
    finally:
        env.close()
    if not isinstance(frame, np.ndarray):
        raise RuntimeError("FrozenLakeEnv render() did not return an array in rgb_array mode")
    return frame


def save_png(frame: NDArray[np.uint8], path: Path) -> None:
    """Write an ``(H, W, 3)`` uint8 frame as a PNG.

    Args:
        frame: The image.
        path: The destination file; its directory is created if needed.
    """
    import pygame

    path.parent.mkdir(parents=True, exist_ok=True)
    surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.swapaxes(0, 1)))
    pygame.image.save(surface, str(path))


def main(argv: list[str] | None = None) -> None:
    """Render and save both frames.

    Args:
        argv: Command-line arguments (defaults to ``sys.argv[1:]``).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    default_out = Path(__file__).resolve().parent.parent / "docs" / "img"
    parser.add_argument("--out", type=Path, default=default_out, help="output directory (default: docs/img)")
    args = parser.parse_args(argv)
    for name, frame in (("cartpole", _cartpole_frame()), ("frozenlake", _frozenlake_frame())):
        path = args.out / f"{name}.png"
        save_png(frame, path)
        print(f"wrote {path} ({frame.shape[1]}x{frame.shape[0]})")


if __name__ == "__main__":
    main()
