"""Every broken env (:class:`tests.meta.catalog.Broken`), the rule it must violate, and the rules it may violate as a consequence.

``collateral`` lists (as fnmatch patterns) the other rules a target is *allowed* to fail or warn on, because the one
change necessarily breaks them too (e.g. an env that raises on a valid action cannot return a valid step either);
the meta-tests assert that nothing outside ``rule`` and ``collateral`` fails.
"""

from __future__ import annotations

from tests.meta.catalog import Broken

__all__ = ["BROKEN", "CORRECT", "REGISTRY"]

_PACKAGE = "tests.meta.broken"


REGISTRY = f"{_PACKAGE}.registry"
"""The ``--registry`` of the registered-id targets (:mod:`tests.meta.broken.registry`)."""


def _env(rule: str, target: str, *collateral: str) -> Broken:
    """A broken env class or factory, ``target`` relative to ``tests.meta.broken``."""
    return Broken(rule, f"{_PACKAGE}.{target}", "--env", collateral)


def _registered(rule: str, target: str, *collateral: str) -> Broken:
    """The same, made as the registered id :data:`REGISTRY` gives it (``"<module>/<attr>-v0"``)."""
    module, _, attr = target.partition(":")
    return Broken(rule, f"{module}/{attr}-v0", "--env-id", collateral, registry=REGISTRY)


CORRECT: tuple[str, ...] = (
    f"{_PACKAGE}._base:Walk",
    f"{_PACKAGE}._base:wrapped",
    # h26a (issue 26 item 1): the deep mutants' bases, each unusual but legal (tests/meta/broken/_shapes.py).
    f"{_PACKAGE}._shapes:Grid",
    f"{_PACKAGE}._shapes:FixedGrid",
    f"{_PACKAGE}._shapes:Control",
    f"{_PACKAGE}._shapes:Hop",
    # h26b: a declared limit reported as truncation, terminal cells as termination, both on a coinciding step.
    f"{_PACKAGE}.semantics:HopsTruncatesAndTerminatesApart",
    # Two agents in one env (a Tuple of arrays per observation): SEED-012 once compared such values with `==`.
    f"{_PACKAGE}._shapes:Pair",
    # Every space type at once (a Graph's samples are named tuples, which copies once turned into plain tuples).
    f"{_PACKAGE}._shapes:Zoo",
    # issue 37: unusual but legal, each once (or nearly) read as a defect (tests/meta/broken/odd.py).
    f"{_PACKAGE}.odd:ControlCameraAimedOnce",
    f"{_PACKAGE}.odd:ContextualBandit",
    f"{_PACKAGE}.odd:HoldsAnEnv",
    f"{_PACKAGE}.odd:DuckHoldsAnEnv",
    f"{_PACKAGE}.odd:WalkDefaultdictInfo",
    f"{_PACKAGE}.odd:HopsReturnsHome",
    f"{_PACKAGE}.odd:MostlyOneStart",
)
"""Targets that must pass every rule without a warning."""

_CROSS_INSTANCE = ("SEED-00[35689]", "SEED-010", "RENDER-014")

BROKEN: tuple[Broken, ...] = (
    _env("SPACE-001", "space:space_001_identity_equality", "ENV-002"),
    _env("SPACE-002", "space:space_002_pickle_loses_seeding"),
    _env("SPACE-003", "space:space_003_dtype_not_dtype"),
    _env("SPACE-004", "space:space_004_seed_ignored"),
    _env("SPACE-005", "space:space_005_shared_generator", "SPACE-002", "SEED-009"),
    _env("SPACE-006", "space:space_006_fixed_entropy"),
    _env("SPACE-007", "space:space_007_sample_outside"),
    _env("SPACE-008", "space:space_008_global_generator"),
    _env("SPACE-009", "space:space_009_sample_dtype"),
    _env("SPACE-010", "space:space_010_contains_int"),
    _env("SPACE-011", "space:space_011_contains_raises"),
    _env("SPACE-012", "space:space_012_json_round_trip"),
    _env("SPACE-013", "space:space_013_bounds_shape"),
    _env("SPACE-014", "space:space_014_degenerate_box"),
    _env("SPACE-015", "space:space_015_discrete_shape"),
    _env("SPACE-016", "space:space_016_nvec_shape", "SPACE-009"),
    _env("SPACE-017", "space:space_017_zero_dimension"),
    _env("SPACE-018", "space:space_018_empty_tuple"),
    _env("SPACE-018", "space:space_018_subspace_not_space", "SPACE-*", "ENV-002"),
    _env("ENV-001", "env:Env001NoContains", "SPACE-*"),
    _env("ENV-002", "env:Env002SpaceChanges"),
    _env("ENV-003", "env:Env003MetadataKeys"),
    _env("ENV-004", "env:Env004NoOptions"),
    _env("ENV-005", "env:Env005ResetTriple"),
    _env("ENV-006", "env:Env006ResetOutside"),
    _env("ENV-006", "env:env_006_wrapped_outside"),
    _env("ENV-007", "env:Env007ResetInfoList"),
    _env("ENV-008", "env:Env008FourTuple"),
    _env("ENV-009", "env:Env009StepOutside"),
    _env("ENV-010", "env:Env010Float16"),
    _env("ENV-011", "env:Env011ArrayReward"),
    _env("ENV-012", "env:Env012NanReward"),
    _env("ENV-013", "env:Env013IntTerminated"),
    _env("ENV-014", "env:Env014ArrayTruncated"),
    _env("ENV-015", "env:Env015InfoNone"),
    _env("ENV-016", "env:Env016RejectsAction"),
    _env("ENV-017", "env:Env017AliasedObservation"),
    # issue 37 item 14: an aliasing defect beside a rejected action (ENV-016 stops the rollouts, not ENV-017).
    _env("ENV-017", "env:Env017ZeroedByResetBesidesRejections", "ENV-016"),
    _env("ENV-018", "env:Env018SharedInfo"),
    _env("ENV-019", "env:Env019StepBeforeReset"),
    _env("ENV-020", "env:Env020CloseTwice"),
    _env("SEED-001", "seeding:Seed001PerInstance", *_CROSS_INSTANCE),
    _env("SEED-001", "seeding:Seed001OsEntropy", "SEED-00[2-5]"),
    _env("SEED-002", "seeding:Seed002EpisodeCounter", "SEED-005"),
    _env("SEED-003", "seeding:Seed003EntropyOnUnseededReset"),
    _env("SEED-004", "seeding:Seed004ReplayOnUnseededReset"),
    _env("SEED-004", "seeding:Seed004ConstantOnUnseededReset"),
    _env("SEED-004", "seeding:Seed004RewindsOnUnseededReset"),
    _env("SEED-004", "seeding:Seed004DerivedFromSeedOnUnseededReset"),
    # issue 37 item 10: a fixed start and restarted noise (SEED-004 compared starts only).
    _env("SEED-004", "seeding:Seed004NoiseRewindsOnUnseededReset"),
    _env("SEED-005", "seeding:Seed005PreviousSeedLeaks"),
    _env("SEED-006", "seeding:Seed006FixedEntropy"),
    _env("SEED-007", "seeding:Seed007SmallSeedsOnly"),
    _env("SEED-008", "seeding:Seed008AdvancesGlobal"),
    # issue 37 item 8: a task drawn from np.random at construction, and global draws late in an episode; two fresh
    # instances then diverge (SEED-001...005 too), and SEED-008 reports the draw itself.
    _env("SEED-008", "seeding:Seed008TaskFromGlobalAtConstruction", "SEED-00[1-5]"),
    _env("SEED-008", "seeding:Seed008LateGlobalDraws", "SEED-00[1-5]"),
    _env("SEED-009", "seeding:Seed009SharedGenerator"),
    _env("SEED-009", "seeding_shared:Seed009ModuleGlobalGenerator"),
    _env("SEED-009", "seeding_shared:Seed009GlobalNumpy", "SEED-007", "SEED-008"),
    _env("SEED-009", "seeding_shared:Seed009GlobalRandom", "SEED-008"),
    _env("SEED-009", "seeding_shared:Seed009SharedSpaces"),
    _env("SEED-009", "seeding_shared:Seed009DynamicsFromSharedSpace", "SEED-010"),
    _env("SEED-009", "seeding_shared:Seed009MutableDefault"),
    _env("SEED-009", "seeding_shared:Seed009GeneratorPerSeed"),
    _env("SEED-009", "seeding_shared:Seed009SharedAfterUnseededReset"),
    _env("SEED-009", "seeding_shared:Seed009FirstInstanceOwnsTheGenerator"),
    # issue 37 item 12: a close that empties a class-level table the other instances' resets read.
    _env("SEED-009", "seeding_shared:Seed009CloseClearsSharedOffsets"),
    _env("SEED-010", "seeding:Seed010CoupledToActionSpace"),
    # issue 37 item 10: the seed's value ignored; a shared stream behind a fixed start.
    _env("SEED-013", "seeding:Seed013IgnoresSeedValue"),
    _env("SEED-013", "seeding:Seed013NoiseFromEpisodeCount"),
    _env("SEED-011", "seeding:Seed011WrongSeedReported"),
    _env("RENDER-001", "render:Render001ModeChangesOnReset"),
    _env("RENDER-001", "render:Render001RejectsRenderMode", "RENDER-00[23]"),
    # issue 37 item 12: the mode switched by a later render(); a render that draws on the goal frame only.
    _env("RENDER-001", "render:Render001SwitchesOnLaterFrame", "RENDER-006", "RENDER-012"),
    _env("RENDER-002", "render:Render002InstanceDropsMode"),
    _env("RENDER-002", "render:Render002AcceptsAnything", "RENDER-003"),
    _env("RENDER-002", "render:render_002_forwarding_factory", "RENDER-003"),
    _env("RENDER-002", "render:render_002_factory_sets_mode", "RENDER-003"),
    _registered("RENDER-002", "render:Render002AcceptsAnything", "RENDER-003", "REG-*"),
    _env("RENDER-002", "render:Render002ModeFromAnyArgument", "RENDER-003"),
    _env("RENDER-002", "render:Render002UndeclaredDefault", "RENDER-018"),
    _env("RENDER-003", "render:Render003RefusesAtRender"),
    _env("RENDER-003", "render:Render003DropsSilently"),
    _env("RENDER-003", "render:Render003WrongError"),
    # issue 37 item 4: no render mode declared and no render_mode parameter: RENDER-001 (a MUST) must not fail it.
    _env("RENDER-003", "render:Render003NoRenderModeParameter"),
    _env("RENDER-004", "render:Render004NeedsArgument", "RENDER-005"),
    _env("RENDER-004", "render:Render004ResetFailsInMode"),
    _env("RENDER-005", "render:Render005FrameWithoutMode"),
    _env("RENDER-006", "render:Render006FloatFrames"),
    _env("RENDER-007", "render:Render007BytesAnsi"),
    _env("RENDER-008", "render:Render008HumanReturnsFrame"),
    _env("RENDER-009", "render:Render009DepthWithChannels"),
    _env("RENDER-010", "render:Render010TupleOfFrames"),
    _env("RENDER-011", "render:Render011FramesNotCleared"),
    _env("RENDER-012", "render:Render012GrowingFrames"),
    _env("RENDER-013", "render:Render013AliasedFrame"),
    _env("RENDER-014", "render:Render014RenderDrawsRandomness"),
    _env("RENDER-014", "render:Render014DrawsOnGoalFrame"),
    _env("RENDER-015", "render:Render015CloseFailsAfterRender"),
    _env("RENDER-016", "render:Render016ModesAsSet"),
    _env("RENDER-017", "render:Render017NoFps"),
    _env("RENDER-018", "render:Render018RgbArrayByDefault"),
    _env("WRAP-001", "wrapper:wrap_001_space_not_updated", "ENV-009"),
    _env("WRAP-002", "wrapper:wrap_002_wider_action_space", "ENV-016"),
    _env("WRAP-003", "wrapper:wrap_003_mutates_inner_space"),
    _env("WRAP-004", "wrapper:wrap_004_render_mode_hidden", "RENDER-001"),
    _env("WRAP-005", "wrapper:wrap_005_env_chain_decoy"),
    _env("WRAP-006", "wrapper:wrap_006_unwrapped_is_wrapper"),
    _env("WRAP-007", "wrapper:wrap_007_wrapper_attr_shallow"),
    _env("WRAP-008", "wrapper:wrap_008_own_generator"),
    # h23 (issue 23): a target allowing one live instance per process
    _env("ENV-021", "unchecked:SingleInstance"),
    # h26a (issue 26 item 1): defects that only show deep — across episodes, past 100 steps, between instances
    # and between processes (tests/meta/broken/deep.py).
    _env("ENV-017", "deep:GridGoalBufferReused"),
    _env("ENV-017", "deep:ControlObservationRing"),
    _env("ENV-018", "deep:HopResetInfoReused"),
    _env("RENDER-011", "deep:ControlListKeptAcrossResets"),
    _env("RENDER-012", "deep:ControlZoomsOutAfter100Steps"),
    _env("RENDER-013", "deep:ControlFrameRing"),
    _env("RENDER-014", "deep:ControlRenderDrawsRandomness"),
    _env("SEED-012", "deep:HopSaltedStart"),
    _env("SEED-012", "deep:GridSaltedCellSet"),
    _env("SEED-013", "deep:HopFixedUnseededStream"),
    _env("SEED-013", "deep:ControlUnseededFromEpisodeCount"),
    _env("ENV-030", "deep:GridCloseDropsSharedTable"),
    _env("ENV-030", "deep:ControlCloseDropsSharedCanvas"),
    _env("SEED-009", "deep:ControlCloseResetsSharedDrag"),
    _env("ENV-031", "deep:ControlEmptyOptionsRaise"),
    _env("SEED-014", "deep:HopEmptyOptionsFixStart"),
    # h24 (issue 24): a constructor that refuses render_mode=None given explicitly (panda-gym).
    _env("RENDER-001", "render:Render001RejectsNone", "RENDER-018"),
    # h26b (issue 26 items 3, 4): the flags' meanings, no reset inside step, class-level metadata, stable spaces,
    # the action argument, what a wrapper passes in; three shapes (Dict gridworld, Box control, Discrete random start).
    _env("ENV-022", "semantics:GridLimitAsTermination", "ENV-023"),
    _env("ENV-022", "semantics:DriveLimitAsTermination", "ENV-023"),
    _env("ENV-023", "semantics:DriveTerminatedAtLimit"),
    _env("ENV-023", "semantics:HopsBothFlagsAtTerminal"),
    # issue 37 item 9: no declared limit, an own time-out of four steps, both flags on every end.
    _env("ENV-023", "semantics:HopsBothFlagsAtEveryEnd"),
    _env("ENV-024", "semantics:DriveAutoresets"),
    _env("ENV-024", "semantics:HopsAutoresets"),
    _env("ENV-025", "semantics:GridMetadataInConstructor"),
    _env("ENV-025", "semantics:HopsCountsInstancesInMetadata"),
    _env("ENV-026", "semantics:DriveSpacesAnew", "SEED-009"),
    _env("ENV-026", "semantics:GridSpacesAnew", "SEED-009"),
    _env("ENV-027", "semantics:DriveHalvesAction", "SEED-*", "RENDER-014"),
    _env("WRAP-009", "semantics:wrap_009_drops_seed", "SEED-011"),
    _env("WRAP-009", "semantics:wrap_009_drops_options"),
    # h24c (issue 24): one defect that other rules' calls meet too — no options parameter, unseeded resets restarted
    # from a constant, a close that fails in a render mode; only the defect's own rule fails (cascades.py).
    _env("ENV-004", "cascades:HopResetWithoutOptions"),
    _env("SEED-004", "cascades:ControlRestartsFromConstant"),
    _env("RENDER-015", "cascades:ControlRendererCloseFails"),
)
