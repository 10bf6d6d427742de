"""Helpers shared by environments and wrappers: pickling, constructor recording, colours and seeding."""

from __future__ import annotations

from reference.utils import seeding
from reference.utils.colorize import colorize
from reference.utils.ezpickle import EzPickle
from reference.utils.record_constructor import RecordConstructorArgs

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize", "seeding"]
