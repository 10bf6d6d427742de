"""Render modes and the metadata that declares them.

An env chooses its render mode once, at construction (``render_mode=`` keyword), from the modes its metadata
declares; ``render()`` then takes no arguments. The frame each mode returns is specified on ``Env.render``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from gymspec._typing import AutoresetMode, AutoresetModeName

__all__ = ["LIST_SUFFIX", "RenderMetadata", "base_render_mode"]

LIST_SUFFIX = "_list"
"""The suffix of list modes: ``"rgb_array_list"`` collects ``"rgb_array"`` frames."""


class RenderMetadata(TypedDict, total=False):
    """The keys of ``Env.metadata`` the specification gives a meaning to (all optional; others are free-form).

    Rules:
        [RENDER-016] MUST declare ``metadata["render_modes"]`` as a list or tuple of ``str`` (possibly empty).
        [RENDER-017] MUST declare ``metadata["render_fps"]`` as a positive number when ``render_modes`` is not
            empty.
    """

    render_modes: Sequence[str]
    render_fps: float
    autoreset_mode: AutoresetMode | AutoresetModeName


def base_render_mode(mode: str) -> str | None:
    """The mode a list mode collects frames of.

    Args:
        mode: A render mode.

    Returns:
        ``"rgb_array"`` for ``"rgb_array_list"``, and ``None`` for a mode that is not a list mode.
    """
    if mode.endswith(LIST_SUFFIX) and len(mode) > len(LIST_SUFFIX):
        return mode[: -len(LIST_SUFFIX)]
    return None
