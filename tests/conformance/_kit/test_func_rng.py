"""The rng kind of a FuncEnv: a NumPy target never makes the suite import JAX; foreign arrays read as NumPy ones."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

from conformance._kit.arrays import as_numpy, is_foreign_array, jax_declared

_NO_JAX = textwrap.dedent(
    """
    import sys
    import pytest
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--pyargs", "conformance", "--conformance-isolation",
                        "thread", "--conformance-profile", "quick", "--rules", "FUNC-*",
                        "--func-env", "tests.meta.broken_func._base:Drift"])
    print("exit", int(code), "jax imported", "jax" in sys.modules)
    """
)


def test_numpy_funcenv_run_never_imports_jax() -> None:
    """Every FUNC rule on a NumPy FuncEnv (in-process, so every call is in this interpreter) leaves JAX unimported,
    though JAX is installed here: the rng kind is found without it."""
    done = subprocess.run([sys.executable, "-c", _NO_JAX], capture_output=True, text=True, timeout=600, check=False)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    assert last == "exit 0 jax imported False", done.stdout[-3000:] + done.stderr[-2000:]


class _Tensor:
    def __init__(self, data: Any) -> None:
        self._data = np.asarray(data)
        self.shape, self.dtype, self.ndim = self._data.shape, self._data.dtype, self._data.ndim

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._data.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self._data.__dlpack_device__()


def test_foreign_arrays_convert_through_dlpack() -> None:
    converted = as_numpy(_Tensor([[1, 2]]))
    assert converted is not None and converted.tolist() == [[1, 2]]
    assert is_foreign_array(_Tensor(0.5)) and not is_foreign_array(np.zeros(2)) and not is_foreign_array(1.0)
    assert as_numpy(np.zeros(2)) is None  # a NumPy array is not foreign: callers use it as it is


def test_jax_declared_only_by_true() -> None:
    assert jax_declared({"jax": True})
    assert not jax_declared({"jax": 1}) and not jax_declared({}) and not jax_declared(None)


class _Target:
    def __init__(self, name: str, factory: Any) -> None:
        self.id, self.construct = name, factory


class _Guard:
    def call(self, label: str, fn: Any, **kwargs: Any) -> Any:
        return fn()


class _Case:
    """What rng_kind reads of an item: the target (id, construct) and the guard its calls go through."""

    def __init__(self, name: str, factory: Any) -> None:
        self.target, self.watchdog = _Target(name, factory), _Guard()


class _NumpyInitial:
    def initial(self, rng: Any) -> Any:
        return rng.uniform(size=2)


class _KeyInitial:
    def initial(self, rng: Any) -> Any:
        jax = importlib.import_module("jax")  # by name: absent (and unresolvable to type checkers) in CI

        return jax.random.uniform(rng, (2,))


class _Declared(_NumpyInitial):
    metadata = {"jax": True}  # noqa: RUF012 - a class attribute as Gymnasium's envs declare it


def _kind(name: str, factory: Any) -> str:
    from conformance._kit.func_rng import rng_kind

    case: Any = _Case(name, factory)
    return rng_kind(case).name


def test_rng_kind_numpy_for_a_generator_taking_initial() -> None:
    assert _kind("test-numpy", _NumpyInitial) == "numpy"


def test_rng_kind_jax_when_initial_needs_a_key_or_jax_is_declared() -> None:
    pytest.importorskip("jax")
    assert _kind("test-key", _KeyInitial) == "jax"
    assert _kind("test-declared", _Declared) == "jax"
