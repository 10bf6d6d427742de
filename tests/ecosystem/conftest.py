"""Ecosystem-tier configuration: MuJoCo renders off-screen through EGL unless the caller chose a backend.

Without a display, MuJoCo's default (GLFW) cannot create a context, and every ``rgb_array``/``depth_array`` rule
of a MuJoCo env would skip. EGL works with Mesa's software renderer on a machine with no GPU; ``MUJOCO_GL=osmesa``
is the other headless backend (it needs libOSMesa). The child processes the tier starts inherit this.
"""

from __future__ import annotations

import os

os.environ.setdefault("MUJOCO_GL", "egl")
