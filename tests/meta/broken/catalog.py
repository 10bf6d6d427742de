"""Every broken target, the rule it must violate, and the rules it may violate as a consequence.

``collateral`` lists (as fnmatch patterns) the other rules a target is *allowed* to fail or warn on, because the one
change necessarily breaks them too (e.g. an env that raises on a valid action cannot return a valid step either);
the meta-tests assert that nothing outside ``rule`` and ``collateral`` fails.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BROKEN", "CORRECT", "REGISTRY", "Broken"]

_PACKAGE = "tests.meta.broken"


REGISTRY = f"{_PACKAGE}.registry"
"""The ``--registry`` of the registered-id targets (:mod:`tests.meta.broken.registry`)."""


@dataclass(frozen=True)
class Broken:
    """One broken target.

    Attributes:
        rule: The rule it must violate.
        target: ``module:attr`` of the env class or factory (relative to ``tests.meta.broken``).
        collateral: Patterns of rules it may violate as well.
        registered: Whether the suite makes it as a registered id of :data:`REGISTRY` (``--env-id``) rather than
            calling it (``--env``).
    """

    rule: str
    target: str
    collateral: tuple[str, ...] = ()
    registered: bool = False

    @property
    def spec(self) -> str:
        """The ``--env`` value."""
        return f"{_PACKAGE}.{self.target}"

    @property
    def env_id(self) -> str:
        """The id :data:`REGISTRY` makes it from (``"<module>/<attr>-v0"``)."""
        module, _, attr = self.target.partition(":")
        return f"{module}/{attr}-v0"

    @property
    def target_id(self) -> str:
        """The target's id in the suite's report."""
        return f"{REGISTRY}/{self.env_id}" if self.registered else self.spec

    @property
    def args(self) -> tuple[str, str]:
        """The option that names it (``--registry`` :data:`REGISTRY` must be given too when ``registered``)."""
        return ("--env-id", self.env_id) if self.registered else ("--env", self.spec)


CORRECT: tuple[str, ...] = (f"{_PACKAGE}._base:Walk", f"{_PACKAGE}._base:wrapped")
"""Targets that must pass every rule without a warning."""

_CROSS_INSTANCE = ("SEED-00[35689]", "SEED-010", "RENDER-014")

BROKEN: tuple[Broken, ...] = (
    Broken("SPACE-001", "space:space_001_identity_equality", ("ENV-002",)),
    Broken("SPACE-002", "space:space_002_pickle_loses_seeding"),
    Broken("SPACE-003", "space:space_003_dtype_not_dtype"),
    Broken("SPACE-004", "space:space_004_seed_ignored"),
    Broken("SPACE-005", "space:space_005_shared_generator", ("SPACE-002",)),
    Broken("SPACE-006", "space:space_006_fixed_entropy"),
    Broken("SPACE-007", "space:space_007_sample_outside"),
    Broken("SPACE-008", "space:space_008_global_generator"),
    Broken("SPACE-009", "space:space_009_sample_dtype"),
    Broken("SPACE-010", "space:space_010_contains_int"),
    Broken("SPACE-011", "space:space_011_contains_raises"),
    Broken("SPACE-012", "space:space_012_json_round_trip"),
    Broken("SPACE-013", "space:space_013_bounds_shape"),
    Broken("SPACE-014", "space:space_014_degenerate_box"),
    Broken("SPACE-015", "space:space_015_discrete_shape"),
    Broken("SPACE-016", "space:space_016_nvec_shape", ("SPACE-009",)),
    Broken("SPACE-017", "space:space_017_zero_dimension"),
    Broken("SPACE-018", "space:space_018_empty_tuple"),
    Broken("SPACE-018", "space:space_018_subspace_not_space", ("SPACE-*", "ENV-002")),
    Broken("ENV-001", "env:Env001NoContains", ("SPACE-*",)),
    Broken("ENV-002", "env:Env002SpaceChanges"),
    Broken("ENV-003", "env:Env003MetadataKeys"),
    Broken("ENV-004", "env:Env004NoOptions"),
    Broken("ENV-005", "env:Env005ResetTriple"),
    Broken("ENV-006", "env:Env006ResetOutside"),
    Broken("ENV-007", "env:Env007ResetInfoList"),
    Broken("ENV-008", "env:Env008FourTuple"),
    Broken("ENV-009", "env:Env009StepOutside"),
    Broken("ENV-010", "env:Env010Float16"),
    Broken("ENV-011", "env:Env011ArrayReward"),
    Broken("ENV-012", "env:Env012NanReward"),
    Broken("ENV-013", "env:Env013IntTerminated"),
    Broken("ENV-014", "env:Env014ArrayTruncated"),
    Broken("ENV-015", "env:Env015InfoNone"),
    Broken("ENV-016", "env:Env016RejectsAction"),
    Broken("ENV-017", "env:Env017AliasedObservation"),
    Broken("ENV-018", "env:Env018SharedInfo"),
    Broken("ENV-019", "env:Env019StepBeforeReset"),
    Broken("ENV-020", "env:Env020CloseTwice"),
    Broken("SEED-001", "seeding:Seed001PerInstance", _CROSS_INSTANCE),
    Broken("SEED-002", "seeding:Seed002EpisodeCounter", ("SEED-005",)),
    Broken("SEED-003", "seeding:Seed003EntropyOnUnseededReset"),
    Broken("SEED-004", "seeding:Seed004ReplayOnUnseededReset"),
    Broken("SEED-004", "seeding:Seed004ConstantOnUnseededReset", ("SEED-006",)),
    Broken("SEED-004", "seeding:Seed004RewindsOnUnseededReset"),
    Broken("SEED-004", "seeding:Seed004DerivedFromSeedOnUnseededReset"),
    Broken("SEED-005", "seeding:Seed005PreviousSeedLeaks"),
    Broken("SEED-006", "seeding:Seed006FixedEntropy"),
    Broken("SEED-007", "seeding:Seed007SmallSeedsOnly"),
    Broken("SEED-008", "seeding:Seed008AdvancesGlobal"),
    Broken("SEED-009", "seeding:Seed009SharedGenerator"),
    Broken("SEED-009", "seeding_shared:Seed009ModuleGlobalGenerator"),
    Broken("SEED-009", "seeding_shared:Seed009GlobalNumpy", ("SEED-007", "SEED-008")),
    Broken("SEED-009", "seeding_shared:Seed009GlobalRandom", ("SEED-008",)),
    Broken("SEED-009", "seeding_shared:Seed009SharedSpaces"),
    Broken("SEED-009", "seeding_shared:Seed009DynamicsFromSharedSpace", ("SEED-010",)),
    Broken("SEED-009", "seeding_shared:Seed009MutableDefault"),
    Broken("SEED-009", "seeding_shared:Seed009GeneratorPerSeed"),
    Broken("SEED-009", "seeding_shared:Seed009SharedAfterUnseededReset"),
    Broken("SEED-009", "seeding_shared:Seed009FirstInstanceOwnsTheGenerator"),
    Broken("SEED-010", "seeding:Seed010CoupledToActionSpace"),
    Broken("SEED-011", "seeding:Seed011WrongSeedReported"),
    Broken("RENDER-001", "render:Render001ModeChangesOnReset"),
    Broken("RENDER-002", "render:Render002InstanceDropsMode"),
    Broken("RENDER-002", "render:Render002AcceptsAnything", ("RENDER-003",)),
    Broken("RENDER-002", "render:render_002_forwarding_factory", ("RENDER-003",)),
    Broken("RENDER-002", "render:render_002_factory_sets_mode", ("RENDER-003",)),
    Broken("RENDER-002", "render:Render002AcceptsAnything", ("RENDER-003", "REG-*"), registered=True),
    Broken("RENDER-002", "render:Render002ModeFromAnyArgument", ("RENDER-003",)),
    Broken("RENDER-002", "render:Render002UndeclaredDefault", ("RENDER-001", "RENDER-005")),
    Broken("RENDER-003", "render:Render003RefusesAtRender"),
    Broken("RENDER-003", "render:Render003DropsSilently"),
    Broken("RENDER-003", "render:Render003WrongError"),
    Broken("RENDER-004", "render:Render004NeedsArgument"),
    Broken("RENDER-005", "render:Render005FrameWithoutMode"),
    Broken("RENDER-006", "render:Render006FloatFrames"),
    Broken("RENDER-007", "render:Render007BytesAnsi"),
    Broken("RENDER-008", "render:Render008HumanReturnsFrame"),
    Broken("RENDER-009", "render:Render009DepthWithChannels"),
    Broken("RENDER-010", "render:Render010TupleOfFrames"),
    Broken("RENDER-011", "render:Render011FramesNotCleared"),
    Broken("RENDER-012", "render:Render012GrowingFrames"),
    Broken("RENDER-013", "render:Render013AliasedFrame"),
    Broken("RENDER-014", "render:Render014RenderDrawsRandomness"),
    Broken("RENDER-015", "render:Render015CloseFailsAfterRender"),
    Broken("RENDER-016", "render:Render016ModesAsSet"),
    Broken("RENDER-017", "render:Render017NoFps"),
    Broken("WRAP-001", "wrapper:wrap_001_space_not_updated", ("ENV-009",)),
    Broken("WRAP-002", "wrapper:wrap_002_wider_action_space", ("ENV-016",)),
    Broken("WRAP-003", "wrapper:wrap_003_mutates_inner_space"),
    Broken("WRAP-004", "wrapper:wrap_004_render_mode_hidden", ("RENDER-001",)),
    Broken("WRAP-005", "wrapper:wrap_005_env_chain_decoy"),
    Broken("WRAP-006", "wrapper:wrap_006_unwrapped_is_wrapper"),
    Broken("WRAP-007", "wrapper:wrap_007_wrapper_attr_shallow"),
    Broken("WRAP-008", "wrapper:wrap_008_own_generator"),
)
