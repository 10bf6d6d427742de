"""Every public vector wrapper documents itself with an example (``tests/test_doctests.py`` runs them)."""

from __future__ import annotations

from tests.reference.wrappers.test_examples import _docstring


def test_every_public_wrapper_has_an_example_and_is_sorted() -> None:
    import reference.wrappers.vector as wrappers

    assert wrappers.__all__ == sorted(wrappers.__all__)
    missing = [name for name in wrappers.__all__ if ">>>" not in _docstring(wrappers, name)]
    assert missing == []
