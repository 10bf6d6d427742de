"""reference.utils.RecordConstructorArgs: first recording wins, kwargs are deep-copied unless disabled."""

from __future__ import annotations

from reference.utils import RecordConstructorArgs


class Base(RecordConstructorArgs):
    def __init__(self, value: list[int]) -> None:
        RecordConstructorArgs.__init__(self, value=value)


class Derived(Base):
    def __init__(self, value: list[int], extra: int) -> None:
        RecordConstructorArgs.__init__(self, value=value, extra=extra)
        Base.__init__(self, value)


def test_first_call_wins_and_copies() -> None:
    value = [1]
    obj = Derived(value, 2)
    value.append(3)
    assert obj._saved_kwargs == {"value": [1], "extra": 2}


def test_deepcopy_can_be_disabled() -> None:
    value = [1]

    class Shared(RecordConstructorArgs):
        def __init__(self) -> None:
            RecordConstructorArgs.__init__(self, _disable_deepcopy=True, value=value)

    assert Shared()._saved_kwargs["value"] is value
