"""The maintenance scripts of ``scripts/``: the ecosystem sweep."""
