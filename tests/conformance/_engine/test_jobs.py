"""What job processes compute for the supervisor: observation weights and where Hypothesis keeps its caches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine import jobs

_ARRAYS = st.builds(
    np.zeros, st.tuples(st.integers(0, 6), st.integers(0, 6)), st.sampled_from([np.uint8, np.float32, np.float64])
)


@given(st.recursive(_ARRAYS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner,
                                                                                        max_size=3), max_leaves=6))
def test_an_observation_weighs_the_bytes_of_its_arrays(observation: object) -> None:
    def expected(value: object) -> int:
        if isinstance(value, np.ndarray):
            return int(value.nbytes)
        if isinstance(value, dict):
            return sum(expected(part) for part in value.values())
        if isinstance(value, list):
            return sum(expected(part) for part in value)
        return 0

    assert jobs._nbytes(observation) == expected(observation)
    assert jobs._nbytes((observation, "text", 3)) == expected(observation)


def test_hypothesis_caches_go_under_the_users_cache_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    home = jobs._cache_home()
    assert home == tmp_path / "gymspec-conformance" / "hypothesis"
    assert home.is_dir() and list(home.iterdir()) == []  # the writability probe leaves nothing behind


def test_an_unusable_cache_directory_falls_back_to_a_fresh_temporary_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    home = jobs._cache_home()
    assert home.is_dir() and not home.is_relative_to(blocker)


def test_the_supervisors_warm_up_leaves_hypothesis_home_as_the_user_set_it(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hypothesis import configuration

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    before = vars(configuration).get("__hypothesis_home_directory")
    configuration.set_hypothesis_home_dir(tmp_path / "mine")
    try:
        jobs.warm_supervisor(pytestconfig)
        assert vars(configuration).get("__hypothesis_home_directory") == tmp_path / "mine"
        assert not (tmp_path / "mine").exists()  # whatever the scan cached went to the zygotes' cache directory
    finally:
        configuration.set_hypothesis_home_dir(before)
