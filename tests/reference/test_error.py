"""reference.error: Gymnasium's names, the specification's objects, one root."""

from __future__ import annotations

import pytest

import gymspec.errors
from reference import error


def test_specification_errors_are_the_same_objects() -> None:
    for name in gymspec.errors.__all__:
        assert getattr(error, name) is getattr(gymspec.errors, name)


@pytest.mark.parametrize(
    "name",
    ["DependencyNotInstalled", "MissingArgument", "InvalidProbability", "InvalidBound", "CustomSpaceError", "DeprecatedWrapper"],
)
def test_extra_errors_derive_from_the_root(name: str) -> None:
    cls = getattr(error, name)
    assert issubclass(cls, gymspec.errors.Error)


def test_deprecated_wrapper_is_an_import_error() -> None:
    assert issubclass(error.DeprecatedWrapper, ImportError)
    with pytest.raises(ImportError):
        raise error.DeprecatedWrapper("renamed")


def test_async_errors_keep_the_call_name() -> None:
    exc = error.AlreadyPendingCallError("pending", "step")
    assert exc.name == "step" and str(exc) == "pending"


@pytest.mark.gymnasium
def test_every_gymnasium_error_name_exists() -> None:
    gym_error = pytest.importorskip("gymnasium.error")
    names = {n for n, v in vars(gym_error).items() if isinstance(v, type) and issubclass(v, BaseException)}
    assert names <= set(error.__all__)
    assert error.__all__ == sorted(error.__all__)
