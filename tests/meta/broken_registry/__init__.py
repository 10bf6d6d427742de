"""Deliberately broken registries: each module offers ``make``/``make_vec`` that break one REG rule.

Every module delegates to the reference registry and changes one thing. The meta-tests point the suite at one
with ``--registry`` (by adding it to ``conformance._engine.targets.REGISTRIES``) and check the id ``HOP_ID``, which
:func:`tests.meta.broken_registry._base.registered` registers for the duration of a run.
"""
