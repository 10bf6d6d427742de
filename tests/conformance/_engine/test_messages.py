"""What crosses the process boundary reads back as it was written, through JSON, and a malformed message is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.messages import Facts, ItemsJob, ObserverVerdict, TraceJob, TraceResult, WarmJob
from conformance.results import Evidence
from conformance._engine.profiles import PROFILES, Costs

_TEXT = st.text(max_size=20)
_SECONDS = st.dictionaries(st.sampled_from(["construct", "reset", "step", "render"]),
                           st.floats(0, 100, allow_nan=False))
_VERDICTS = st.dictionaries(
    st.from_regex(r"\A[A-Z]{3,8}-\d{3}\Z"),
    st.builds(ObserverVerdict, st.sampled_from(["passed", "failed", "skipped"]), _TEXT,
              st.none() | st.fixed_dictionaries({"rule_id": _TEXT, "seed": st.integers(0, 2**32)})),
    max_size=3,
)
_FACTS = st.builds(Facts, st.none() | _TEXT, st.booleans(), st.none() | st.sampled_from(list(PROFILES.values())),
                   _SECONDS, _SECONDS, _VERDICTS, st.dictionaries(_TEXT, _TEXT, max_size=3), _TEXT)
_COSTS = st.builds(Costs, *(st.floats(0, 10, allow_nan=False) for _ in range(3)))


def _through_json(data: object) -> object:
    return json.loads(json.dumps(data))


@given(_FACTS)
def test_facts_survive_the_wire(facts: Facts) -> None:
    assert Facts.from_wire(_through_json(facts.to_wire())) == facts


@given(_FACTS, _TEXT, st.lists(_TEXT, max_size=3), st.integers(1, 500), st.booleans())
def test_job_payloads_survive_the_wire(facts: Facts, target: str, names: list[str], items: int, measure: bool) -> None:
    warm = WarmJob(target, facts.for_warm_up())
    assert WarmJob.from_wire(_through_json(warm.to_wire())) == warm  # type: ignore[arg-type]
    trace = TraceJob(target, facts, tuple(names), items, measure)
    assert TraceJob.from_wire(_through_json(trace.to_wire())) == trace  # type: ignore[arg-type]
    batch = ItemsJob(target, facts, tuple(names))
    assert ItemsJob.from_wire(_through_json(batch.to_wire())) == batch  # type: ignore[arg-type]


_TRACES = st.builds(TraceResult, _VERDICTS, st.none() | st.sampled_from(list(PROFILES.values())), st.none() | _COSTS,
                    _SECONDS, st.none() | st.integers(0, 2**40),
                    st.builds(Evidence, examples=st.integers(0, 1000), steps=st.integers(0, 10**6),
                              ends=st.integers(0, 10**4), judged=st.dictionaries(_TEXT, st.integers(1, 10))),
                    st.none() | _TEXT)


@given(_TRACES)
def test_a_trace_result_survives_the_wire(result: TraceResult) -> None:
    assert TraceResult.from_wire(_through_json(result.to_wire())) == result


def test_facts_for_a_warm_up_and_a_basis_leave_out_what_those_do_not_depend_on() -> None:
    verdicts = {"ENV-001": ObserverVerdict("passed")}
    facts = Facts("boom", False, PROFILES["quick"], {"construct": 2.0}, {"step": 0.1}, verdicts)
    assert facts.for_warm_up() == Facts("boom", False)
    assert facts.basis().verdicts == {} and facts.basis().profile == facts.profile


@pytest.mark.parametrize(
    "data",
    [[], {"verdicts": {"ENV-001": {"outcome": "maybe"}}}, {"first_costs": [1.0]}, {"profile": "quick"},
     {"hung": ["reset"]}],
)
def test_a_malformed_message_is_refused_naming_the_field(data: object) -> None:
    with pytest.raises(ValueError, match="must be"):
        Facts.from_wire(data)
