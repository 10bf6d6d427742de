"""Spaces: the sets actions and observations come from, with seeded samplers (Gymnasium-compatible).

Fundamental spaces are :class:`Box`, :class:`Discrete`, :class:`MultiDiscrete`, :class:`MultiBinary` and
:class:`Text`; composite spaces are :class:`Tuple`, :class:`Dict`, :class:`Sequence`, :class:`Graph` and
:class:`OneOf`. :func:`flatten` and friends convert elements to and from flat arrays.
"""

from __future__ import annotations

from reference.spaces.box import Box
from reference.spaces.dict import Dict
from reference.spaces.discrete import Discrete
from reference.spaces.graph import Graph, GraphInstance
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.oneof import OneOf
from reference.spaces.sequence import Sequence
from reference.spaces.space import Space
from reference.spaces.text import Text
from reference.spaces.tuple import Tuple
from reference.spaces.utils import flatdim, flatten, flatten_space, unflatten

__all__ = [
    "Box",
    "Dict",
    "Discrete",
    "Graph",
    "GraphInstance",
    "MultiBinary",
    "MultiDiscrete",
    "OneOf",
    "Sequence",
    "Space",
    "Text",
    "Tuple",
    "flatdim",
    "flatten",
    "flatten_space",
    "unflatten",
]
