"""The ecosystem tier: the conformance suite on pinned real env packages, against the verdicts in ``verdicts``."""
