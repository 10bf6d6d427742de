"""Every public wrapper documents itself with an example (``tests/test_doctests.py`` runs them)."""

from __future__ import annotations


def test_every_public_wrapper_has_an_example() -> None:
    import reference.wrappers as wrappers

    missing = [name for name in wrappers.__all__ if ">>>" not in (getattr(wrappers, name).__doc__ or "")]
    assert missing == []
