"""scalar_square: vectorised squares rounded exactly like NumPy scalar ``** 2`` (libm pow/powf)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.typing import NDArray

from reference.envs.functional._scalar_math import scalar_square


def _scalar_reference(values: NDArray[Any]) -> NDArray[Any]:
    out = np.empty_like(values)
    flat = out.reshape(-1)
    for i, v in enumerate(values.reshape(-1)):
        flat[i] = v**2
    return out


@settings(max_examples=60, deadline=None)
@given(values=hnp.arrays(st.sampled_from([np.float32, np.float64]), hnp.array_shapes(max_dims=2, max_side=6)))
def test_matches_scalar_power_on_any_values(values: NDArray[Any]) -> None:
    with np.errstate(all="ignore"):
        got, want = scalar_square(values), _scalar_reference(values)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_matches_scalar_power_where_pow_and_multiplication_disagree() -> None:
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        values = rng.uniform(-30, 30, size=100_000).astype(dtype)
        want = _scalar_reference(values)
        assert (want != values * values).any()  # the sample does contain the disagreeing cases
        got = scalar_square(values)
        assert got.dtype == dtype and got.tobytes() == want.tobytes()


def test_scalars_and_integers() -> None:
    assert scalar_square(np.float32(3.0)) == np.float32(9.0) and type(scalar_square(np.float32(3.0))) is np.float32
    assert scalar_square(np.arange(4)).tolist() == [0, 1, 4, 9]
