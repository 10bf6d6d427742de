"""The shared mask/probability argument checks of the samplers."""

from __future__ import annotations

import pytest

from reference.error import Error
from reference.spaces._validation import both_given_error, pick_sample_arg, require_arg_tuple


def test_pick_sample_arg_names_the_given_restriction() -> None:
    assert pick_sample_arg("Tuple.sample", (1,), None) == ("mask", (1,))
    assert pick_sample_arg("Tuple.sample", None, (0.5,)) == ("probability", (0.5,))
    with pytest.raises(ValueError, match=r"^Tuple\.sample mask and probability must not both be given") as info:
        pick_sample_arg("Tuple.sample", (1,), (0.5,))
    assert isinstance(info.value, Error)
    assert str(both_given_error("X.sample", 1, 2)) == "X.sample mask and probability must not both be given, got mask=1 probability=2"


def test_require_arg_tuple() -> None:
    value = (None, None)
    assert require_arg_tuple("OneOf.sample", "mask", value, 2) is value
    with pytest.raises(TypeError, match=r"OneOf\.sample mask must be a tuple \(one entry per subspace\)") as info:
        require_arg_tuple("OneOf.sample", "mask", [None, None], 2)
    assert isinstance(info.value, Error)
    with pytest.raises(ValueError, match=r"OneOf\.sample probability must have length 3, got length 2"):
        require_arg_tuple("OneOf.sample", "probability", value, 3)
