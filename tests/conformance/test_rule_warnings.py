"""SHOULD violations have one warning class per rule, reachable by the names ``-W`` filters use."""

from __future__ import annotations

import importlib
import warnings

import pytest

import conformance
from conformance.rule_warnings import ConformanceWarning, warning_class, warning_class_name


def test_per_rule_classes_are_stable_subclasses() -> None:
    cls = warning_class("SEED-004")
    assert issubclass(cls, ConformanceWarning) and issubclass(cls, UserWarning)
    assert cls is warning_class("SEED-004")
    assert cls.__name__ == warning_class_name("SEED-004") == "SEED004Warning"
    assert cls.rule_id == "SEED-004"


def test_classes_resolve_by_module_attribute() -> None:
    module = importlib.import_module("conformance.rule_warnings")
    assert getattr(module, "RENDER003Warning") is warning_class("RENDER-003")
    assert getattr(conformance, "RENDER003Warning") is warning_class("RENDER-003")
    assert conformance.ConformanceWarning is ConformanceWarning


def test_unknown_rule_names_fail_loudly() -> None:
    module = importlib.import_module("conformance.rule_warnings")
    with pytest.raises(AttributeError, match="SEED-999"):
        getattr(module, "SEED999Warning")
    with pytest.raises(AttributeError):
        getattr(module, "NotAWarning")


def test_filters_work_per_rule() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=warning_class("ENV-010"))
        warnings.warn(warning_class("ENV-010")("ignored"), stacklevel=1)
        warnings.warn(warning_class("ENV-019")("kept"), stacklevel=1)
    assert [str(w.message) for w in caught] == ["kept"]
