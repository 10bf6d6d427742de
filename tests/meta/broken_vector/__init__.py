"""Deliberately broken vector envs: each subclasses a correct reference vector env and breaks one VEC/AUTORESET rule.

:mod:`tests.meta.broken_vector._base` holds the correct sub-env (``Hop``) and the correct vector envs over it;
:data:`tests.meta.broken_vector.catalog.BROKEN` lists every broken target with the rule it must fail.
"""
