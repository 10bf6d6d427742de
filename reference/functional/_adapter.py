"""What ``FunctionalEnv`` and ``FunctionalVectorEnv`` share: metadata, params and the ``render_*`` life cycle.

Both adapters hold a ``FuncEnv``, pass it the same params on every call and own at most one render state
(created by ``render_init`` on the first ``render``, released by ``render_close`` on close). That part lives in
:class:`FuncEnvAdapter`; the stepping, which differs (one state against a batch with masked autoreset), stays in
each adapter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, SupportsFloat

from typing_extensions import TypeAlias

import gymspec
from reference import logger
from reference._framework import UnsupportedRenderMode, validate_render_mode
from reference._narrowing import is_mapping
from reference.functional.func_env import ActT, FuncEnv, ObsT, ParamsT, RenderStateT, StateT

__all__ = ["FuncEnvAdapter", "check_render_mode", "default_metadata"]

_Metadata: TypeAlias = dict[str, Any]
_Kwargs: TypeAlias = dict[str, Any]
_Reward: TypeAlias = SupportsFloat  # anything float() accepts
_Terminal: TypeAlias = object  # anything bool() accepts


def default_metadata(func_env: object) -> _Metadata:
    """The metadata an adapter declares when none is given.

    Args:
        func_env: The functional environment.

    Returns:
        ``{"render_modes": ["rgb_array"], "render_fps": 30}`` if ``func_env`` implements ``render_image``
        (anything but the :class:`FuncEnv` stub), else ``{"render_modes": []}``.
    """
    impl = getattr(type(func_env), "render_image", None)
    if impl is None or impl is FuncEnv.render_image:  # pyright: ignore[reportUnknownMemberType]
        return {"render_modes": []}
    return {"render_modes": ["rgb_array"], "render_fps": 30}


def check_render_mode(owner: str, render_mode: str | None, metadata: Mapping[str, Any]) -> str | None:
    """Accept ``None`` or a declared ``"rgb_array"``: the only mode the ``FuncEnv`` rendering functions serve.

    Args:
        owner: The adapter class name, for messages.
        render_mode: The requested mode.
        metadata: The adapter's metadata.

    Returns:
        The mode.

    Raises:
        UnsupportedRenderMode: If the mode is not declared, or is declared but not ``"rgb_array"``.
    """
    mode = validate_render_mode(owner, render_mode, metadata)
    if mode not in (None, "rgb_array"):
        raise UnsupportedRenderMode(
            f"{owner} render_mode must be None or 'rgb_array', got {mode!r}; a FuncEnv only produces frames "
            "(render_image), so wrap the env in HumanRendering to show them in a window"
        )
    return mode


class FuncEnvAdapter(Generic[StateT, ObsT, ActT, RenderStateT, ParamsT]):
    """Mixin of the two adapters: holds the ``FuncEnv``, its params and the render state.

    The adapter calls :meth:`_adopt` first thing in its constructor and sets ``render_mode`` itself.
    """

    func_env: gymspec.FuncEnv[StateT, ObsT, ActT, _Reward, _Terminal, RenderStateT, ParamsT]
    render_mode: str | None
    _params: ParamsT | None
    _kw: _Kwargs  # {"params": ...} or {}: spread into every call, so it is built once
    _render_state: RenderStateT | None

    def _adopt(
        self,
        func_env: gymspec.FuncEnv[StateT, ObsT, ActT, _Reward, _Terminal, RenderStateT, ParamsT],
        metadata: Mapping[str, Any] | None,
        params: ParamsT | None,
    ) -> _Metadata:
        """Keep ``func_env`` and the params to pass it; check ``metadata``.

        Args:
            func_env: The functional environment.
            metadata: The metadata given to the constructor.
            params: The params given to the constructor (``None``: ``func_env.default_params``, and when that
                is ``None`` too, functions are called without ``params``).

        Returns:
            A copy of ``metadata``, or :func:`default_metadata` when it is ``None``.

        Raises:
            TypeError: If ``metadata`` is not a mapping.
        """
        if metadata is not None and not is_mapping(metadata):
            raise TypeError(f"{type(self).__name__} metadata must be a mapping or None, got {metadata!r}")
        self.func_env = func_env
        self._params = params if params is not None else getattr(func_env, "default_params", None)
        self._kw = {} if self._params is None else {"params": self._params}
        self._render_state = None
        return default_metadata(func_env) if metadata is None else dict(metadata)

    @property
    def params(self) -> ParamsT | None:
        """The params every function receives (``None``: the functions' own defaults)."""
        return self._params

    def _can_render(self) -> bool:
        """Whether a render mode is set; if not, warn (blaming the caller of ``render``)."""
        if self.render_mode is None:
            logger.warn(
                f"{type(self).__name__} render() was called without a render_mode; construct it with "
                "render_mode='rgb_array' to render",
                stacklevel=3,
            )
            return False
        return True

    def _draw(self, states: Iterable[StateT]) -> list[gymspec.RenderFrame]:
        """Draw each state with ``render_image``, creating the render state on first use.

        Args:
            states: Single (unbatched) states, drawn in order through one render state.

        Returns:
            One frame per state.
        """
        func, kw = self.func_env, self._kw
        render_state = self._render_state
        if render_state is None:
            render_state = func.render_init(**kw)
        frames: list[gymspec.RenderFrame] = []
        for state in states:
            render_state, frame = func.render_image(state, render_state, **kw)
            frames.append(frame)
        self._render_state = render_state
        return frames

    def _close_render_state(self) -> None:
        """Release the render state with ``render_close``; a no-op when there is none."""
        render_state, self._render_state = self._render_state, None
        if render_state is not None:
            self.func_env.render_close(render_state, **self._kw)
