"""Project-wide test configuration.

Rendering tests must never open a real window or an audio device, so SDL is pointed at its dummy drivers before
any test module can import pygame.
"""

from __future__ import annotations

import os

from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# The project's own Hypothesis tests run on a loaded 2-core CI machine beside forked suite runs: an example's
# wall time says nothing about the code, so no test may fail for a deadline (the health checks stay on).
settings.register_profile("gymspec-tests", deadline=None)
settings.load_profile("gymspec-tests")
