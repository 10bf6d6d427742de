"""Per-call cost of the hot space operations, reference vs Gymnasium, measured in one interleaved run.

Run: ``python -m benchmarks.bench_spaces [--repeat R] [--number N]``

Cases: ``Box((64,), float32).sample/contains``, ``Discrete(5).sample``, a ``Dict(Box, Discrete, MultiBinary)``
``sample/contains`` and ``flatten/unflatten`` of that Dict. Before timing, the script checks that both libraries
produce identical samples and flat arrays for the same seed (the speed-up must not change results). Target: every
ratio (ours / Gymnasium) <= 0.7; the exit status is 1 when a target or the equivalence check fails.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np

from benchmarks._timing import compare, print_table

_TARGET = 0.7
_Spaces: TypeAlias = Any  # the ``spaces`` module of either library


def _build(spaces: _Spaces, seed: int) -> dict[str, Any]:
    box = spaces.Box(-1.0, 1.0, shape=(64,), dtype=np.float32, seed=seed)
    discrete = spaces.Discrete(5, seed=seed)
    composite = spaces.Dict(
        {
            "position": spaces.Box(-1.0, 1.0, shape=(8,), dtype=np.float32),
            "action": spaces.Discrete(4),
            "buttons": spaces.MultiBinary(6),
        },
        seed=seed,
    )
    return {"box": box, "discrete": discrete, "dict": composite}


def _same(a: object, b: object) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _check_equivalence(ours_mod: _Spaces, theirs_mod: _Spaces, ours_utils: ModuleType, theirs_utils: ModuleType) -> bool:
    ours, theirs = _build(ours_mod, 123), _build(theirs_mod, 123)
    for name in ours:
        for _ in range(200):
            a, b = ours[name].sample(), theirs[name].sample()
            if not _same(a, b):
                print(f"MISMATCH: {name}.sample() differs: {a!r} vs {b!r}")
                return False
    sample = theirs["dict"].sample()
    flat_ours = ours_utils.flatten(ours["dict"], sample)
    flat_theirs = theirs_utils.flatten(theirs["dict"], sample)
    if not _same(flat_ours, flat_theirs):
        print(f"MISMATCH: flatten differs: {flat_ours!r} vs {flat_theirs!r}")
        return False
    if not _same(ours_utils.unflatten(ours["dict"], flat_ours), theirs_utils.unflatten(theirs["dict"], flat_theirs)):
        print("MISMATCH: unflatten differs")
        return False
    return True


def _cases(ours_mod: _Spaces, theirs_mod: _Spaces) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    ours, theirs = _build(ours_mod, 0), _build(theirs_mod, 0)
    box_x = theirs["box"].sample()
    dict_x = theirs["dict"].sample()
    flat = theirs_mod.flatten(theirs["dict"], dict_x)
    ob, tb, od, td = ours["box"], theirs["box"], ours["dict"], theirs["dict"]
    o_flatten, t_flatten = ours_mod.flatten, theirs_mod.flatten
    o_unflatten, t_unflatten = ours_mod.unflatten, theirs_mod.unflatten
    return {
        "Box((64,), float32).sample": (ob.sample, tb.sample),
        "Box((64,), float32).contains": (lambda: ob.contains(box_x), lambda: tb.contains(box_x)),
        "Discrete(5).sample": (ours["discrete"].sample, theirs["discrete"].sample),
        "Dict(Box, Discrete, MultiBinary).sample": (od.sample, td.sample),
        "Dict(Box, Discrete, MultiBinary).contains": (lambda: od.contains(dict_x), lambda: td.contains(dict_x)),
        "flatten(Dict, x)": (lambda: o_flatten(od, dict_x), lambda: t_flatten(td, dict_x)),
        "unflatten(Dict, flat)": (lambda: o_unflatten(od, flat), lambda: t_unflatten(td, flat)),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table.

    Args:
        argv: Command-line arguments (default ``sys.argv[1:]``).

    Returns:
        The exit status: 0 when every ratio meets the target and results are identical, else 1.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=15, help="interleaved rounds per case (default 15)")
    parser.add_argument("--number", type=int, default=2000, help="calls per timing (default 2000)")
    args = parser.parse_args(argv)

    import gymnasium.spaces as theirs_mod
    import gymnasium.spaces.utils as theirs_utils

    import reference.spaces as ours_mod
    import reference.spaces.utils as ours_utils

    same = _check_equivalence(ours_mod, theirs_mod, ours_utils, theirs_utils)
    print(f"identical samples and flat arrays for the same seed: {same}\n")
    rows = compare(_cases(ours_mod, theirs_mod), repeat=args.repeat, number=args.number)
    ok = print_table(rows, target=_TARGET, theirs="gymnasium")
    print(f"\ntarget: every ratio <= {_TARGET} -> {'met' if ok else 'MISSED'}")
    return 0 if ok and same else 1


if __name__ == "__main__":
    sys.exit(main())
