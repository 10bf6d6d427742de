"""Deliberately broken functional envs: each subclasses the correct ``Drift`` and breaks one FUNC rule.

:data:`tests.meta.broken_func.catalog.BROKEN` lists every broken target with the rule it must fail.
"""
