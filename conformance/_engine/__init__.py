"""The engine of the conformance suite: everything between pytest's hooks (:mod:`conformance.plugin`) and the checks
(the suite's ``test_*.py`` modules and :mod:`conformance._kit`).

Its layers only point down (tests/conformance/test_layers.py keeps it so): the plugin imports the engine, the engine
never imports the plugin, and every layer shares one record of an item, :class:`conformance.results.RuleResult`.
A reader following one item opens the modules in this order:

1. **What runs** — :mod:`.options` (option names, an item's ``CaseParam``), :mod:`.session` (one run's resolved
   options and targets; ``get_session``), :mod:`.targets` (what a target is, the default targets), :mod:`.sweep`
   (registry globs), :mod:`.callables` (import paths, targets shipped pickled, how ``check_env`` names its target),
   :mod:`.profiles` (effort).
2. **One item** — :mod:`.case` (what a check receives; ``@checks``), :mod:`.handles` (recorded, guarded calls),
   :mod:`.watchdog` (call limits by kind; the guards), :mod:`.record` (the reproducer; values as source),
   :mod:`.outcomes` (how a check ends), :mod:`.state` (facts per target), :mod:`.shelf` and :mod:`.remote`
   (constructions budgeted; a second instance in a process of its own), :mod:`.observe` (rules checked on one
   shared rollout), :mod:`.describe` (values narrowed to types and described in messages).
3. **Supervision** — :mod:`.runner` (an item's processes and reports), :mod:`.targetrun` (what the runner learns of a
   target as its jobs end; a first hang confirmed, a zygote's death learnt), :mod:`.jobs` (what those processes run),
   :mod:`.messages` (what crosses the process boundary, typed, and how a job ended), :mod:`.supervisor`
   (the supervisor) and :mod:`.zygote` (the processes' side of the fork server), :mod:`.worker` (a cold zygote's
   warm process, reused across a spawned target's jobs), :mod:`.output` (what a target prints, kept out of the pytest
   process and cut to its tail), :mod:`.processes` (process hygiene; the
   progress board), :mod:`.verdicts` (the one place that decides and words what an item's ending means: owners,
   endings that were not a return, "not checked").
4. **Reporting** — :mod:`.report` (the JSON report on disk, live and final), :mod:`.reporting` (the reporter and
   progress lines), :mod:`.artifacts` (the HTML report with its frames, the badge), :mod:`.scheduling`
   (pytest-xdist), :mod:`.project` (adoption: the ``[tool.conformance]`` table and baselines).
"""
