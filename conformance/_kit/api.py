"""The check API: every name a suite module (``conformance/test_*.py``) needs, and the only conformance module it
imports (tests/conformance/test_layers.py holds it to that).

The imports below are grouped by the idioms of docs/writing-checks.md: what every check uses, then one group per way
of writing a check (an observer of the shared rollouts, a fixed fact, drawn arguments, a state machine), then what
every form shares (instances, outcomes, values, reproducers), then the toolkits one area's checks use. A name's
home module says where to read it; this face only gathers them.

It is a module of its own rather than ``conformance/_kit/__init__.py``: the engine imports kit modules
(``conformance._engine.case`` needs ``conformance._kit.pristine``), so a package ``__init__`` that gathered the whole
kit would run on every such import, load the kit into every worker and close an import loop through the engine.
"""

from __future__ import annotations

# Every check: the marker, the item's case and its floor (docs/writing-checks.md, first paragraph and "The floor")
from conformance._engine.case import Case, checks
from conformance._engine.evidence import Floor
from conformance._kit.floors import (
    CONSTRUCTION, FACT, FIRST_EPISODES, FRAMES, INSTANCES, RESET, ROLLOUT, SAMPLES, SUB_ENV_ENDS, TRANSITIONS,
)

# Idiom 1, each result of reset/step on its own: an observer (or a watcher) of the target's shared rollouts
from conformance._engine.observe import View, Watch, observer, watcher

# Idiom 2, a fixed fact of the target: case.once(body) over what the probe or one instance shows
from conformance._engine.state import Layer, TargetState, declared_render_modes
from conformance._kit.declarations import Undeclared, declared_attribute
from conformance._kit.construction import ConstructionWatch

# Idiom 3, calls with drawn arguments: case.explore(body, *strategies) over plans, seeds and samples
from conformance._kit.assertions import plans_for
from conformance._kit.strategies import Actions, Plan, elements, plan_tuples, sampler, seeds
from conformance._engine.profiles import PROFILES, full_first

# Idiom 4, interleavings of calls on several instances: a Hypothesis state machine run by run_machine
from conformance._kit.stateful import begin_program, end_program, program_length, run_machine, target_errors
from conformance._kit.histories import ENV, SPACES, Call, Instance, Program, check_program, open_instance, run_program

# In every form, instances and their calls: handles, rollouts and what they recorded
from conformance._engine.handles import Handle, TargetError
from conformance._kit import global_generators, rollout, vector_rollout
from conformance._kit.rollout import Record, drive, first_difference
from conformance._kit.vector_rollout import EpisodeClock, VecRecord, ended_flags
from conformance._kit.assertions import CallResult, read, replay_calls
from conformance._kit.frames import RenderBudget
from conformance._kit.fresh_process import FreshProcessError, first_episode

# In every form, outcomes: fail, require and not_checkable are Case's; these say who owns a blocked call and gate
# comparisons of two runs
from conformance._engine.outcomes import NotCheckable, Unchecked
from conformance._engine.verdicts import not_checked, owner_of
from conformance._kit.assertions import compare_rollouts, expect_same_results, reproducibility_gate

# In every form, values: where two values differ, and how a value is named in a message
from conformance.equality import difference, value_difference
from conformance._engine.describe import (
    describe_exception, is_array, is_bool, is_list, is_list_or_tuple, is_tuple, summarize, type_name,
)
from conformance._kit.assertions import (
    SPACE_MEMBERS, contains, deep_copy, dtype_shape_problem, is_finite, is_flag, is_mapping, is_real_scalar,
    space_label,
)
from conformance._kit.arrays import as_numpy

# In every form, reproducers: the assertion a replay ends in (case.fail(..., assertion=Equal(...)), or an expect_*
# alone), over the values the script recorded
from conformance._kit.expectations import (
    Equal, Holds, Member, NoRaise, Raises, Unequal, expect_equal, expect_member, expect_raises, expect_true,
)
from conformance._engine.record import copied, returned, snapshot, source

# An area's toolkit: spaces (test_space.py)
from conformance._kit.space_checks import (
    candidates, compare_samples, draw_samples, global_states, per_space, per_space_seeded, require_kind, space_copy,
    varies_with_seed,
)

# An area's toolkit: aliasing of returned values (test_env.py, test_render.py)
from conformance._kit.aliasing import History, HistoryWatch, InfoHistoryWatch, surely_unchanged

# An area's toolkit: vector envs and autoreset (test_vector.py, test_autoreset.py)
from conformance._kit.vector_checks import (
    VecFacts, batch_array, batched_space_rule, expect_prediction, feed, model_envs, new_model, promised_factories,
    require_mode, run_plan, shared_stream, split_rows, static_facts, sub_env_factories, vector_facts,
)
from conformance._kit.batching import SplitError, batch_info_problem, mask_problem, replace_rows, row_source, split
from conformance._kit.autoreset_model import GENERIC, OWN, Problem, VectorModel
from conformance._kit.own_model import refusal
from conformance._kit.reference_sync import UnsupportedSpace, reference_sync
from conformance._kit.vector_restarts import Restarts

# An area's toolkit: functional envs (test_functional.py)
from conformance._kit.func_batch import BATCH, ROW_VARS, BatchedStep, batched_step, row, row_difference
from conformance._kit.func_checks import Driver, deep_snapshot, generators_built, truthy, unchanged
from conformance._kit.func_rng import NUMPY, KeyedFuncEnv, rng_kind

__all__ = [
    "Actions",
    "BATCH",
    "BatchedStep",
    "CONSTRUCTION",
    "Call",
    "CallResult",
    "Case",
    "ConstructionWatch",
    "Driver",
    "ENV",
    "EpisodeClock",
    "Equal",
    "FACT",
    "FIRST_EPISODES",
    "FRAMES",
    "Floor",
    "FreshProcessError",
    "GENERIC",
    "Handle",
    "History",
    "HistoryWatch",
    "Holds",
    "INSTANCES",
    "InfoHistoryWatch",
    "Instance",
    "KeyedFuncEnv",
    "Layer",
    "Member",
    "NUMPY",
    "NoRaise",
    "NotCheckable",
    "OWN",
    "PROFILES",
    "Plan",
    "Problem",
    "Program",
    "RESET",
    "ROLLOUT",
    "ROW_VARS",
    "Raises",
    "Record",
    "RenderBudget",
    "Restarts",
    "SAMPLES",
    "SPACES",
    "SPACE_MEMBERS",
    "SUB_ENV_ENDS",
    "SplitError",
    "TRANSITIONS",
    "TargetError",
    "TargetState",
    "Unchecked",
    "Undeclared",
    "Unequal",
    "UnsupportedSpace",
    "VecFacts",
    "VecRecord",
    "VectorModel",
    "View",
    "Watch",
    "as_numpy",
    "batch_array",
    "batch_info_problem",
    "batched_space_rule",
    "batched_step",
    "begin_program",
    "candidates",
    "check_program",
    "checks",
    "compare_rollouts",
    "compare_samples",
    "contains",
    "copied",
    "declared_attribute",
    "declared_render_modes",
    "deep_copy",
    "deep_snapshot",
    "describe_exception",
    "difference",
    "draw_samples",
    "drive",
    "dtype_shape_problem",
    "elements",
    "end_program",
    "ended_flags",
    "expect_equal",
    "expect_member",
    "expect_prediction",
    "expect_raises",
    "expect_same_results",
    "expect_true",
    "feed",
    "first_difference",
    "first_episode",
    "full_first",
    "generators_built",
    "global_generators",
    "global_states",
    "is_array",
    "is_bool",
    "is_finite",
    "is_flag",
    "is_list",
    "is_list_or_tuple",
    "is_mapping",
    "is_real_scalar",
    "is_tuple",
    "mask_problem",
    "model_envs",
    "new_model",
    "not_checked",
    "observer",
    "open_instance",
    "owner_of",
    "per_space",
    "per_space_seeded",
    "plan_tuples",
    "plans_for",
    "program_length",
    "promised_factories",
    "read",
    "reference_sync",
    "refusal",
    "replace_rows",
    "replay_calls",
    "reproducibility_gate",
    "require_kind",
    "require_mode",
    "returned",
    "rng_kind",
    "rollout",
    "row",
    "row_difference",
    "row_source",
    "run_machine",
    "run_plan",
    "run_program",
    "sampler",
    "seeds",
    "shared_stream",
    "snapshot",
    "source",
    "space_copy",
    "space_label",
    "split",
    "split_rows",
    "static_facts",
    "sub_env_factories",
    "summarize",
    "surely_unchanged",
    "target_errors",
    "truthy",
    "type_name",
    "unchanged",
    "value_difference",
    "varies_with_seed",
    "vector_facts",
    "vector_rollout",
    "watcher",
]
