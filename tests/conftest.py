"""Project-wide test configuration.

Rendering tests must never open a real window or an audio device, so SDL is pointed at its dummy drivers before
any test module can import pygame.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
