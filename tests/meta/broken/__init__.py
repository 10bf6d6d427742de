"""Deliberately broken environments: each violates one rule of the catalog, changing one thing in a correct env.

:mod:`tests.meta.broken._base` holds the correct env (``Walk``), its duck-typed spaces and a correct wrapper; the
area modules subclass them. :data:`tests.meta.broken.catalog.BROKEN` lists every broken target with the rule it must
fail and the rules it is allowed to fail as a consequence.
"""
