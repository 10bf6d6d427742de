"""reference.logger: coloured warnings that point at the caller, and the level switch."""

from __future__ import annotations

import warnings

import pytest

from reference import logger


def test_warn_is_a_yellow_user_warning_blaming_the_caller() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logger.warn("value %s is odd", 3)
    (record,) = caught
    assert record.category is UserWarning and str(record.message) == "\x1b[33mWARN: value 3 is odd\x1b[0m"
    assert record.filename == __file__


def test_percent_signs_without_args_are_kept() -> None:
    with pytest.warns(UserWarning, match="100%"):
        logger.warn("100% done")


def _deprecated_api() -> None:
    logger.deprecation("old API")


def test_deprecation_blames_the_callers_caller() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _deprecated_api()
    (record,) = caught
    assert record.category is DeprecationWarning and record.filename == __file__


def test_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logger, "min_level", logger.ERROR)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logger.warn("hidden")
        logger.error("shown")
    assert [str(w.message) for w in caught] == ["\x1b[31mERROR: shown\x1b[0m"]
    monkeypatch.setattr(logger, "min_level", logger.ERROR + 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logger.error("hidden too")
    assert not caught
