"""Type variables and public aliases shared by the protocols.

Variance is fixed by how a parameter is used; mypy and pyright both check the declared variance of a protocol's
type variables against its members and reject a mismatch, so the declarations below are what both checkers infer
(one exception, explained in :mod:`gymspec.env`: pyright reads ``Env``'s action parameter as invariant because of
the ``self`` annotations that tie ``action_space`` to ``step``):

* observations only flow *out* of an env (``reset``/``step`` results, ``observation_space``), so the observation
  parameter is covariant: an ``Env[bool, A]`` is usable where an ``Env[int, A]`` is expected;
* actions only flow *in* (``step``), so the action parameter is contravariant: an env that accepts
  ``int | NDArray`` actions (Gymnasium's ``CartPoleEnv``) is usable where an ``Env[Value, int]`` is expected. The
  ``action_space`` is tied to ``step`` through ``self`` annotations instead of the class's parameter (see
  :mod:`gymspec.env`): the checkers solve its element type per env from what that env's ``step`` takes;
* a ``Space`` only produces elements (``sample``), so its element type is covariant.

``Any`` appears only behind the named aliases below: an info dict's values, an options dict's values, metadata
values and the element type of an env's observation space are open-ended by design of the Gymnasium API.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

__all__ = [
    "ActT_contra",
    "AutoresetMode",
    "AutoresetModeName",
    "Flag",
    "InfoDict",
    "Metadata",
    "NDArrayAny",
    "ObsT_co",
    "Options",
    "RNG",
    "RenderFrame",
    "RenderFrameList",
    "RenderMode",
    "RenderResult",
    "Seed",
    "T_co",
    "Value",
    "VectorSeed",
    "autoreset_mode_of",
]

T_co = TypeVar("T_co", covariant=True)
ObsT_co = TypeVar("ObsT_co", covariant=True)
ActT_contra = TypeVar("ActT_contra", contravariant=True)

Value: TypeAlias = Any
"""A value of unknown type: what ``Space.contains`` must accept (and answer ``False`` for when foreign), an element
of an env's ``observation_space`` (see :mod:`gymspec.env`) and a keyword argument a registry passes on to a
constructor."""

InfoDict: TypeAlias = dict[str, Any]
"""The ``info`` dict returned by ``reset`` and ``step``: string keys, arbitrary values."""

Options: TypeAlias = dict[str, Any]
"""The ``options`` dict accepted by ``reset``."""

Metadata: TypeAlias = Mapping[str, Any]
"""An environment's ``metadata``: ``render_modes``, ``render_fps``, ``autoreset_mode`` and free-form entries."""

NDArrayAny: TypeAlias = NDArray[Any]
"""A NumPy array of any dtype (batched rewards, flags, frames)."""

RNG: TypeAlias = Any
"""A functional env's random state: a NumPy ``Generator`` in the reference, a JAX key elsewhere."""

Seed: TypeAlias = int | None
"""A seed for ``reset``: a non-negative int, or ``None`` to keep (or lazily create) the current RNG."""

VectorSeed: TypeAlias = int | list[int | None] | None
"""A vector env seed: ``s`` seeds sub-env ``i`` with ``s + i``; a list gives one seed (or ``None``) per sub-env."""

RenderFrame: TypeAlias = str | NDArray[Any] | tuple[NDArray[Any], NDArray[Any]]
"""One rendered frame: an ``ansi`` string, an image array, or an (rgb, depth) pair."""

RenderFrameList: TypeAlias = (
    list[str] | list[NDArray[Any]] | list[tuple[NDArray[Any], NDArray[Any]]] | list[RenderFrame]
)
"""The frames of a ``"<mode>_list"`` render mode: a ``list`` of one kind of frame (or a mixed list, as Gymnasium
types it). ``list`` is invariant, so ``list[RenderFrame]`` alone would reject ``list[NDArray[np.uint8]]``."""

RenderResult: TypeAlias = RenderFrame | RenderFrameList | None
"""What ``Env.render`` returns: one frame, a list of frames, or ``None``."""

Flag: TypeAlias = bool | np.bool_
"""``terminated`` or ``truncated`` as rules ENV-013 and ENV-014 accept them at run time: a Python ``bool`` or a NumPy
``bool_``. The protocols type the flags ``bool`` (see :mod:`gymspec.env` and README.md's typing trade-offs)."""

RenderMode: TypeAlias = Literal[
    "human", "rgb_array", "ansi", "depth_array", "rgbd_tuple", "rgb_array_list", "ansi_list", "depth_array_list"
]
"""The render modes the specification gives a meaning to. Environments may declare others."""

AutoresetModeName: TypeAlias = Literal["NextStep", "SameStep", "Disabled"]
"""The string values of :class:`AutoresetMode`, as they may appear in ``metadata["autoreset_mode"]``."""


class AutoresetMode(enum.Enum):
    """How a vector env resets a sub-env whose episode ended.

    The values are Gymnasium's, so ``AutoresetMode(gymnasium_mode.value)`` converts between the libraries.
    """

    NEXT_STEP = "NextStep"
    """The ending step returns the real final data; the *next* step resets the sub-env and ignores its action."""
    SAME_STEP = "SameStep"
    """The ending step resets at once; the final data moves to ``info["final_obs"]``/``info["final_info"]``."""
    DISABLED = "Disabled"
    """No automatic reset; the caller resets ended sub-envs with ``reset(options={"reset_mask": mask})``."""


def autoreset_mode_of(value: object) -> AutoresetMode | None:
    """Interpret a declared autoreset mode from any library.

    Args:
        value: ``metadata["autoreset_mode"]``: an :class:`AutoresetMode`, another library's enum with the same
            values, a string value, or ``None``.

    Returns:
        The mode, or ``None`` when ``value`` is ``None`` or names no known mode.
    """
    raw = getattr(value, "value", value)
    if isinstance(raw, str):
        for mode in AutoresetMode:
            if mode.value == raw:
                return mode
    return None

