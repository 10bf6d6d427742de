"""Tests for the argument checks in reference.wrappers.vector._utils that the vectorize wrappers share."""

from __future__ import annotations

import pytest

from reference.core import ActionWrapper, ObservationWrapper, RewardWrapper
from reference.spaces import Discrete
from reference.wrappers.transform_reward import TransformReward
from reference.wrappers.vector._utils import check_optional_spaces, check_single_wrapper
from tests.reference.wrappers._envs import DiscreteEnv

# A wrapper instance is not a wrapper class, however right its type.
_NOT_CLASSES = [None, 3, TransformReward(DiscreteEnv(), float)]


@pytest.mark.parametrize("base", [ActionWrapper, ObservationWrapper, RewardWrapper])
@pytest.mark.parametrize("wrapper", _NOT_CLASSES)
def test_check_single_wrapper_rejects_non_classes(base: type, wrapper: object) -> None:
    with pytest.raises(TypeError, match=f"Owner wrapper must be a single-env {base.__name__} class, got "):
        check_single_wrapper("Owner", wrapper, base)


def test_check_single_wrapper_checks_the_base() -> None:
    check_single_wrapper("Owner", TransformReward, RewardWrapper)
    with pytest.raises(TypeError, match="single-env ActionWrapper class"):
        check_single_wrapper("Owner", TransformReward, ActionWrapper)


def test_check_optional_spaces_names_the_offending_argument() -> None:
    check_optional_spaces("Owner", "action", None, Discrete(2))
    with pytest.raises(TypeError, match=r"Owner action_space must be a Space or None, got 3 of type int"):
        check_optional_spaces("Owner", "action", 3, None)
    with pytest.raises(TypeError, match=r"Owner single_observation_space must be a Space or None, got 'x'"):
        check_optional_spaces("Owner", "observation", Discrete(2), "x")
