"""The verdicts of the ecosystem tier, in one table: which rules each real env fails or warns on, and why.

Each verdict was established by running the suite on the env and reading the env's code for every finding: a
correct env passes (no failed rule, no warning); a real defect fails (MUST) or warns on (SHOULD) the rule it breaks,
and its stand-alone reproduction is in ``docs/ecosystem.md``. A verdict holds for the pinned versions only
(:data:`PACKAGES`); ``pip install -e '.[ecosystem]'`` installs them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PACKAGES", "VERDICTS", "Package", "Verdict"]


@dataclass(frozen=True)
class Package:
    """A pinned env package.

    Attributes:
        name: How the docs and test ids name it.
        requirement: What ``pip install`` takes (the pins, extras included).
        module: A module that is importable once it is installed (the tier skips without it).
        distribution: The distribution whose installed version must equal ``version``.
        version: The version the verdicts were established on.
    """

    name: str
    requirement: str
    module: str
    distribution: str
    version: str


PACKAGES: dict[str, Package] = {
    package.name: package
    for package in (
        Package("gymnasium", "gymnasium==1.4.0", "gymnasium", "gymnasium", "1.4.0"),
        Package("box2d", "gymnasium[box2d]==1.4.0", "Box2D", "gymnasium", "1.4.0"),
        Package("mujoco", "gymnasium[mujoco]==1.4.0 mujoco==3.3.7", "mujoco", "mujoco", "3.3.7"),
        Package("ale-py", "ale-py==0.12.1", "ale_py", "ale-py", "0.12.1"),
        Package("minigrid", "minigrid==3.2.0", "minigrid", "minigrid", "3.2.0"),
        Package("gymnasium-robotics", "gymnasium-robotics==1.4.2 mujoco==3.3.7", "gymnasium_robotics",
                "gymnasium-robotics", "1.4.2"),
        Package("highway-env", "highway-env==1.12.1", "highway_env", "highway-env", "1.12.1"),
        Package("mo-gymnasium", "mo-gymnasium==1.3.2", "mo_gymnasium", "mo-gymnasium", "1.3.2"),
        Package("popgym", "popgym==1.0.7", "popgym", "popgym", "1.0.7"),
        Package("gym-anytrading", "gym-anytrading==2.0.0", "gym_anytrading", "gym-anytrading", "2.0.0"),
        Package("tetris-gymnasium", "tetris-gymnasium==0.3.1", "tetris_gymnasium.envs", "tetris-gymnasium", "0.3.1"),
        Package("gym-electric-motor", "gym-electric-motor==3.0.3", "gym_electric_motor", "gym-electric-motor",
                "3.0.3"),
        Package("panda-gym", "panda-gym==3.0.7", "panda_gym", "panda-gym", "3.0.7"),
        # Gymnasium's own JAX envs (phys2d) need jax and flax; they are unsafe to fork once JAX runs (the suite
        # checks them in spawned processes) and compile on their first reset and step in each process.
        Package("jax", "jax==0.10.2 jaxlib==0.10.2 flax==0.12.8", "flax", "jax", "0.10.2"),
        # gymnax's Gymnasium adapters: gymnax pins gymnasium==1.3.0, so its verdicts hold in a venv of their own
        # (pyproject.toml's `ecosystem-gymnax` extra); in the main interpreter they skip.
        Package("gymnax", "gymnax==1.0.1 jax==0.10.2 jaxlib==0.10.2 flax==0.12.8", "gymnax", "gymnax", "1.0.1"),
    )
}
"""The pinned packages by name (pyproject.toml's ``ecosystem`` extra installs the same pins)."""

@dataclass(frozen=True)
class Verdict:
    """What the suite reports on one env of a pinned package.

    Attributes:
        package: The :data:`PACKAGES` name.
        env_id: The registered id (made with ``gymnasium.make``, its package's module imported first).
        failed: MUST rules it fails (real defects).
        warned: SHOULD rules it warns on (real defects).
        quick: Also checked with the quick profile in the regular (CI) run; only packages of the ``test`` extra.
        why: The defect behind ``failed`` and ``warned`` (``docs/ecosystem.md`` has its reproduction).
        kind: ``"env"``, ``"vector"`` for a vector env's class or ``"func"`` for a FuncEnv's (``env_id`` is then a
            ``module:attr`` path).
        unchecked: Rules the suite cannot check on it (errors naming why: the env is NOT CHECKED on them).
    """

    package: str
    env_id: str
    failed: frozenset[str] = frozenset()
    warned: frozenset[str] = frozenset()
    quick: bool = False
    why: str = ""
    kind: str = "env"
    unchecked: frozenset[str] = frozenset()

    @property
    def target(self) -> str:
        """The id as ``check_env`` and ``--env-id`` take it: ``module:id`` imports the package first; a class's
        ``module:attr`` path as it is."""
        module = PACKAGES[self.package].module
        if module in ("gymnasium", "Box2D", "mujoco") or "/" not in self.env_id and ":" in self.env_id:
            return self.env_id
        return f"{module}:{self.env_id}"


def _rules(*ids: str) -> frozenset[str]:
    return frozenset(ids)


# The rules that establish reproducibility; the rules comparing a baseline with an intervention (SEED-008, SEED-010,
# RENDER-014, REG-002) are not checkable on such an env (the root-cause gate) and no longer repeat the finding.
_HIGHWAY_RESET_INFO = _rules("SEED-001", "SEED-002", "SEED-003", "SEED-005")
_HIGHWAY_METADATA = ("AbstractEnv.update_metadata writes render_fps into the class-level AbstractEnv.metadata dict "
                     "that every highway-env instance shares (ENV-025)")
_HIGHWAY_WHY = ("reset's info['action'] is env.action_space.sample(): drawn from the action space's own unseeded "
                "generator, so seeded resets return different infos and every reset advances action_space sampling")
_REFUSES_AT_CONSTRUCTION = (
    "RENDER-003 warns: the construction refuses the undeclared mode, but with an exception a caller cannot catch "
    "as an unsupported mode ({}); kept by decision, see RENDER-003's calibration note"
)
_JAX_SHARED_SPACES = ("the functional env's observation_space and action_space are class attributes, so every "
                      "instance's spaces share one generator: sampling one instance's space changes another's")
_JAX_RENDER = ("construction takes any render_mode silently; render() with render_mode None raises "
               "NotImplementedError though rgb_array is declared")
_MO_WHY = "vector rewards (an ndarray per step) by design: multi-objective RL departs from the scalar-reward API"

VERDICTS: tuple[Verdict, ...] = (
    # Gymnasium classic control and toy text: correct.
    Verdict("gymnasium", "CartPole-v0"),
    Verdict("gymnasium", "CartPole-v1", quick=True),
    Verdict("gymnasium", "MountainCar-v0"),
    Verdict("gymnasium", "MountainCarContinuous-v0"),
    Verdict("gymnasium", "Pendulum-v1", quick=True),
    Verdict("gymnasium", "Acrobot-v1"),
    Verdict("gymnasium", "Blackjack-v1", quick=True),
    Verdict("gymnasium", "FrozenLake-v1", quick=True),
    Verdict("gymnasium", "FrozenLake8x8-v1"),
    Verdict("gymnasium", "CliffWalking-v1"),
    Verdict("gymnasium", "CliffWalkingSlippery-v1"),
    Verdict("gymnasium", "Taxi-v4"),
    # Box2D: correct but for BipedalWalker's reseeding.
    Verdict("box2d", "LunarLander-v3"),
    Verdict("box2d", "LunarLanderContinuous-v3"),
    Verdict("box2d", "BipedalWalker-v3", failed=_rules("SEED-005"),
            why="reset keeps its Box2D world and re-creates the bodies in it: after an unseeded reset, "
                "reset(seed=s) plays a different episode than a fresh instance's (from the first step)"),
    Verdict("box2d", "BipedalWalkerHardcore-v3"),
    Verdict("box2d", "CarRacing-v3"),
    # MuJoCo: render() with render_mode None raises AttributeError (RENDER-005, SHOULD); otherwise correct.
    *(
        Verdict("mujoco", env_id, warned=_rules("RENDER-005"),
                why="MujocoRenderer.render(None) raises AttributeError('Unexpected mode: None')")
        for env_id in ("HalfCheetah-v5", "Hopper-v5", "InvertedPendulum-v5", "Humanoid-v5", "Ant-v5",
                       "Walker2d-v5", "Reacher-v5")
    ),
    # ALE: make_vec's default (the vector entry point) preprocesses; render() without a mode raises.
    *(
        Verdict("ale-py", env_id, failed=_rules("REG-008"), warned=_rules("RENDER-003", "RENDER-005"),
                why="make_vec(id) (AtariVectorEnv) gives (4, 84, 84) grayscale stacks where make(id) gives (210, 160, "
                    "3) frames; render() with render_mode None raises gymnasium.error.Error; "
                    + _REFUSES_AT_CONSTRUCTION.format("gymnasium.error.Error naming the mode"))
        for env_id in ("ALE/Pong-v5", "ALE/Breakout-v5")
    ),
    # minigrid: MissionSpace.contains raises ValueError for an ndarray.
    *(
        Verdict("minigrid", env_id, warned=_rules("SPACE-011"),
                why="MissionSpace.contains(ndarray) compares the mission string with the array and raises "
                    "ValueError (truth value of an array is ambiguous)")
        for env_id in ("MiniGrid-Empty-5x5-v0", "MiniGrid-DoorKey-5x5-v0", "MiniGrid-FourRooms-v0")
    ),
    Verdict("minigrid", "BabyAI-GoToRedBall-v0"),
    # Gymnasium-Robotics: as MuJoCo.
    *(
        Verdict("gymnasium-robotics", env_id, warned=_rules("RENDER-005"),
                why="MujocoRenderer.render(None) raises AttributeError('Unexpected mode: None')")
        for env_id in ("FetchReach-v4", "PointMaze_UMaze-v3")
    ),
    # highway-env: reset's info is not reproducible (SEED-009's stateful model skips such targets).
    *(
        Verdict("highway-env", env_id, failed=_HIGHWAY_RESET_INFO, warned=_rules("ENV-025"),
                why=_HIGHWAY_WHY + "; " + _HIGHWAY_METADATA)
        for env_id in ("highway-fast-v0", "merge-v0", "parking-v0", "intersection-v0")
    ),
    Verdict("highway-env", "lane-keeping-v0", failed=_HIGHWAY_RESET_INFO | _rules("RENDER-001"),
            warned=_rules("RENDER-003", "ENV-025"),
            why=_HIGHWAY_WHY + "; " + _HIGHWAY_METADATA + "; metadata declares ['human', 'rgb_array'] but LaneKeepingEnv.__init__ takes no "
                "render_mode (TypeError in every declared mode, on any machine: not a display problem); "
                + _REFUSES_AT_CONSTRUCTION.format("the same TypeError")),
    # MO-Gymnasium: vector rewards by design; four-room draws its start from the global random module.
    Verdict("mo-gymnasium", "deep-sea-treasure-v0", failed=_rules("ENV-011"), why=_MO_WHY),
    Verdict("mo-gymnasium", "four-room-v0", failed=_rules("ENV-011", "SEED-008"),
            why=_MO_WHY + "; reset() calls random.choice, advancing the global random generator"),
    Verdict("mo-gymnasium", "mo-mountaincar-v0", failed=_rules("ENV-011"), why=_MO_WHY),
    Verdict("mo-gymnasium", "minecart-v0", failed=_rules("ENV-011"), unchecked=_rules("SEED-009"),
            why=_MO_WHY + "; the mines' sprite rotations (drawn at the first render) and the ore a mine yields "
                "(scipy.stats rvs) come from the global NumPy generator, so two fresh instances render different "
                "frames of equal states: SEED-009's model sees it, but no rule the suite's rollouts reach reports "
                "it (no rollout mines), so SEED-009 is not checked (R15)"),
    # popgym: correct; its render-less envs take no render_mode argument at all.
    *(
        Verdict("popgym", env_id, warned=_rules("RENDER-003"),
                why=_REFUSES_AT_CONSTRUCTION.format("TypeError: __init__() got an unexpected keyword argument "
                                                    "'render_mode'"))
        for env_id in ("popgym-RepeatPreviousEasy-v0", "popgym-MineSweeperEasy-v0")
    ),
    Verdict("popgym", "popgym-PositionOnlyCartPoleEasy-v0"),
    # gym-anytrading: correct.
    Verdict("gym-anytrading", "stocks-v0"),
    Verdict("gym-anytrading", "forex-v0"),
    # tetris-gymnasium: reset(seed=s) draws OS entropy; render() fails under NumPy 2.
    Verdict("tetris-gymnasium", "tetris_gymnasium/Tetris", failed=_rules("SEED-001", "SEED-002", "SEED-003", "SEED-005",
                                                                         "RENDER-004"),
            warned=_rules("RENDER-005"),
            why="reset(seed=s) does not replay: two instances reset with the same seed start from different boards "
                "and queues (the seed is not what its generators draw from); render() raises TypeError "
                "(\"Converting 'np.integer' ... to a dtype is not allowed\", NumPy >= 2) in every mode and with "
                "none; the id is registered without a version, which REG-003 accepts"),
    # gym-electric-motor: observations outside the declared bounds; unseeded resets not a function of the seed.
    Verdict("gym-electric-motor", "Finite-CC-PMSM-v0", failed=_rules("ENV-006", "ENV-009", "SEED-003"),
            warned=_rules("SEED-011"),
            why="the state part of the observation leaves its Box([-1, ...], 1.0) (e.g. obs[0][7] = -1.4 on reset); "
                "after reset(seed=s), the episodes of later unseeded resets differ between two instances; "
                "np_random_seed after reset(seed=0) is a derived 128-bit number, not 0"),
    # panda-gym: renders rgb_array by default and refuses render_mode=None; unseeded resets not a function of the
    # first seed. (SEED-005 — reset(seed=s) after a history replays a fresh instance's episode only to ~1e-6 — is a
    # real defect the quick profile's examples find and the default profile's do not; R14.)
    Verdict("panda-gym", "PandaReach-v3", failed=_rules("RENDER-001", "SEED-003"), warned=_rules("RENDER-018"),
            why="after reset(seed=s), the goals of unseeded resets differ between two instances; the constructor "
                "defaults render_mode to 'rgb_array' (RENDER-018, a SHOULD since RENDER-001's split) and raises "
                "ValueError for render_mode=None (RENDER-001)"),
    # Gymnasium's JAX envs (phys2d): checked in spawned processes (JAX's threads make them unsafe to fork); their
    # spaces are class attributes of the functional env, shared by every instance.
    *(
        Verdict("jax", path, failed=_rules("SEED-009"), warned=_rules("RENDER-003", "RENDER-005"),
                why=_JAX_SHARED_SPACES + "; " + _JAX_RENDER)
        for path in ("gymnasium.envs.phys2d.cartpole:CartPoleJaxEnv", "gymnasium.envs.phys2d.pendulum:PendulumJaxEnv")
    ),
    # Gymnasium's CartPoleVectorEnv (make_vec's vector_entry_point for CartPole): no env_fns, so the Sync/Async-only
    # rules do not apply; reset after close works.
    Verdict("gymnasium", "gymnasium.envs.classic_control.cartpole:CartPoleVectorEnv", kind="vector",
            warned=_rules("VEC-020"), why="reset() after close() returns instead of raising ClosedEnvironmentError"),
    Verdict("jax", "gymnasium.envs.phys2d.cartpole:CartPoleJaxVectorEnv", kind="vector",
            failed=_rules("AUTORESET-003"), warned=_rules("VEC-020"),
            why="FunctionalJaxVectorEnv (NextStep) returns the previous step's reward on a sub-env's reset step, not 0 "
                "(found by the default profile, whose episodes reach an end); reset after close works. Its JAX "
                "rewards and flags pass VEC-012/013: it declares metadata['jax'] = True. It has no env_fns, so the "
                "Sync/Async-only rules (VEC-006/007, AUTORESET-010/011) do not apply"),
    # The functional envs themselves, driven with JAX PRNG keys and checked on batches through jax.vmap: correct
    # (FUNC-013 is about stateful generators and does not apply to keys).
    *(
        Verdict("jax", path, kind="func")
        for path in ("gymnasium.envs.phys2d.cartpole:CartPoleFunctional",
                     "gymnasium.envs.phys2d.pendulum:PendulumFunctional")
    ),
    # gymnax's Gymnasium adapter (its own venv: the ecosystem-gymnax extra), quick profile of 2026-11-27.
    Verdict("gymnax", "tests.ecosystem.jax_targets:gymnax_cartpole",
            failed=_rules("ENV-011", "ENV-013", "ENV-014"),
            warned=_rules("ENV-019", "RENDER-003", "SEED-006", "SEED-011"), unchecked=_rules("RENDER-002"),
            why="GymnaxToGymWrapper.step returns the reward and both flags as 0-d jax.Arrays, not float and bool "
                "(Gymnasium's own FunctionalJaxEnv converts them); reset() without a seed always uses key 0, so "
                "every fresh instance starts from the same state; np_random_seed is not the seed given; step "
                "before reset returns; the wrapper takes no render_mode (construction with one raises TypeError, so "
                "RENDER-002 cannot be checked) though metadata declares human and rgb_array"),
)
"""Every env of the tier with its verdict (the quick ones also run in CI)."""
