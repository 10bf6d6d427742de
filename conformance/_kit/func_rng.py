"""The kind of ``rng`` a functional env's functions take: NumPy ``Generator`` s or JAX PRNG keys.

Gymnasium's ``FuncEnv`` types ``rng`` as ``Any``: the reference adapters pass NumPy ``Generator`` s, Gymnasium's
JAX adapters (``FunctionalJaxEnv``) pass JAX PRNG keys and split them per step. The suite drives every FUNC rule
with the kind the target takes:

* a target that declares ``metadata["jax"] = True`` (Gymnasium's convention for envs that use JAX arrays) gets
  keys;
* otherwise ``initial`` is tried with a ``Generator``; only if it raises, and the target has itself imported JAX
  (``"jax"`` is in ``sys.modules`` after its construction and that call), with a key. So a NumPy target never
  makes the suite import JAX.

The two kinds differ in one way that matters to a driver: a ``Generator`` is a stream that the functions advance,
so one generator can be passed to every call; a key is an immutable value, so the caller splits a fresh key off
its stream for each step, as ``FunctionalJaxEnv`` does (``key, rng = jax.random.split(rng)``), and an equal copy of
a key is the key itself.
"""

from __future__ import annotations

import copy
import importlib
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance._engine.case import Case
from conformance._kit.arrays import jax_declared

__all__ = ["JAX", "NUMPY", "KeyedFuncEnv", "RngKind", "rng_kind"]


@dataclass(frozen=True)
class RngKind:
    """How to make, copy and split one kind of rng, and how the reproducer writes it.

    Attributes:
        name: ``"numpy"`` or ``"jax"``.
        label: How messages name it.
        imports: What the reproducer imports for it.
    """

    name: str
    label: str
    imports: tuple[str, ...]

    @property
    def is_jax(self) -> bool:
        """Whether the rng is a JAX PRNG key."""
        return self.name == "jax"

    def new(self, seed: int) -> tuple[Any, str]:
        """A new rng from ``seed`` and the expression that makes it."""
        if self.is_jax:
            random = _jax_random()
            return random.PRNGKey(seed), f"jax.random.PRNGKey({seed})"
        return np.random.default_rng(seed), f"np.random.default_rng({seed})"

    def copy(self, rng: Any, src: str) -> tuple[Any, str]:
        """An equal copy of ``rng`` (a key is immutable: itself) and the expression."""
        if self.is_jax:
            return rng, src
        copied: Any = copy.deepcopy(rng)
        return copied, f"copy.deepcopy({src})"

    def split(self, rng: Any) -> tuple[Any, Any]:
        """``(key for one step, the rest of the stream)``; a ``Generator`` is its own stream: ``(rng, rng)``."""
        if self.is_jax:
            key, rest = _jax_random().split(rng)
            return key, rest
        return rng, rng

    def child(self, rng: Any) -> tuple[Any, str]:
        """An independent child stream of ``rng`` that does not advance it, and the expression (``{src}``)."""
        if self.is_jax:
            return _jax_random().fold_in(rng, 1), "jax.random.fold_in({src}, 1)"
        return rng.spawn(1)[0], "{src}.spawn(1)[0]"

    def batch(self, seed: int, n: int) -> tuple[Any, list[Any], str]:
        """``n`` independent rngs from ``seed``: the batch as batched functions take it, the rows, the expression.

        NumPy: a ``BatchedGenerator`` (what the reference ``FunctionalVectorEnv`` passes) over
        ``default_rng(seed + i)``, whose row ``i`` draws what generator ``i`` draws. JAX: ``jax.random.split`` of
        one key into ``n`` keys (what ``FunctionalJaxVectorEnv`` passes to its vmapped functions).
        """
        if self.is_jax:
            keys = _jax_random().split(_jax_random().PRNGKey(seed), n)
            return keys, [keys[i] for i in range(n)], f"jax.random.split(jax.random.PRNGKey({seed}), {n})"
        from reference.functional import BatchedGenerator  # late: only NumPy FuncEnvs that take batches need it

        rows = [np.random.default_rng(seed + i) for i in range(n)]
        batched = BatchedGenerator.from_generators([copy.deepcopy(row) for row in rows])
        expr = f"BatchedGenerator.from_generators([np.random.default_rng({seed} + i) for i in range({n})])"
        return batched, rows, expr


NUMPY = RngKind("numpy", "NumPy Generators", ("import numpy as np",))
JAX = RngKind("jax", "JAX PRNG keys", ("import jax",))

_KINDS: dict[str, RngKind] = {}
"""Target id → its kind, found once per process."""


def _jax_random() -> Any:
    # Imported only for a target that uses JAX (it is then in sys.modules already); by name, as JAX is an optional
    # dependency that type checkers of a NumPy-only install cannot resolve.
    return importlib.import_module("jax.random")


def _key_from(rng: Any) -> Any:
    return _jax_random().PRNGKey(int(rng.integers(2**31)))


def rng_kind(case: Case) -> RngKind:
    """The kind of rng the target's functions take (see the module docstring), found once per target.

    Detection builds its own instance and calls ``initial`` on it, so the instances a rule checks see no extra
    call.
    """
    found = _KINDS.get(case.target.id)
    if found is None:
        found = _KINDS[case.target.id] = _detect(case)
    return found


def _detect(case: Case) -> RngKind:
    try:
        func = case.watchdog.call("constructing the target to find its rng kind", case.target.construct)
    except Exception:  # noqa: BLE001 - the construction check reports it; the default kind stands
        return NUMPY
    if jax_declared(getattr(func, "metadata", None)) and "jax" in sys.modules:
        return JAX
    try:
        case.watchdog.call("func.initial(np.random.default_rng(0))",
                           lambda: func.initial(np.random.default_rng(0)), method="initial")
        return NUMPY
    except Exception:  # noqa: BLE001 - perhaps another kind; the rules report the error if none works
        if "jax" not in sys.modules:
            return NUMPY
    try:
        case.watchdog.call("func.initial(jax.random.PRNGKey(0))",
                           lambda: func.initial(_jax_random().PRNGKey(0)), method="initial")
    except Exception:  # noqa: BLE001 - neither kind works: the rules report NumPy's error, with the hint
        return NUMPY
    return JAX


class KeyedFuncEnv:
    """A JAX ``FuncEnv`` seen through NumPy ``Generator`` s: each call draws its key from the generator it is given.

    Every function that takes ``rng`` receives ``jax.random.PRNGKey(rng.integers(2**31))`` instead, so the
    reference ``FunctionalEnv`` (which passes generators) can run a JAX target, and direct calls with equal
    generators in the adapter's order give the same keys (FUNC-005). Everything else is the target's.

    Args:
        func: The JAX functional env.
    """

    _WITH_RNG = frozenset({"initial", "transition", "observation", "reward", "terminal"})

    def __init__(self, func: Any) -> None:
        self.func = func

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.func, name)
        if name not in self._WITH_RNG:
            return found

        def keyed(*args: Any, **kwargs: Any) -> Any:
            if "rng" in kwargs:
                return found(*args, **{**kwargs, "rng": _key_from(kwargs["rng"])})
            *rest, rng = args
            return found(*rest, _key_from(rng), **kwargs)

        return keyed
