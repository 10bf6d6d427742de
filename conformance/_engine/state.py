"""Per-target facts shared by all items of one worker: how construction went, what the target declares, hangs.

A target is constructed once per worker process as a *probe*: its spaces, metadata, spec and wrapper layers are
read, then the probe is closed. Every item of that target reuses those facts; if construction failed, or a call
hung in an earlier item, later items learn it here instead of paying for it again.
"""

from __future__ import annotations

import inspect
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance._engine.describe import describe_exception, is_list_or_tuple, is_mapping
from conformance._engine.messages import ObserverVerdict
from conformance._engine.shelf import costly, key_of, mark_costly, peer_count, recycle
from conformance._engine.targets import Target
from conformance._engine.verdicts import display_missing, display_remedy, no_return
from conformance._engine.watchdog import CallTimeout, Guard

__all__ = ["Layer", "Probe", "TargetState", "declared_render_modes"]

_MAX_LAYERS = 64
# What makes an object a wrapper by the protocol (gymspec.Wrapper) besides the env members: an env that merely keeps
# an attribute named ``env`` (a model, a simulator, another env it uses) is no layer.
_WRAPPER_MEMBERS = ("env", "unwrapped", "get_wrapper_attr")


def _is_wrapper(obj: Any) -> bool:
    """Whether ``obj`` has the members of a wrapper, looked up without running them (a property may raise)."""
    for name in _WRAPPER_MEMBERS:
        try:
            inspect.getattr_static(obj, name)
        except AttributeError:
            return False
    return True


@dataclass(frozen=True)
class Layer:
    """One wrapper layer of the target (outermost first).

    Attributes:
        depth: 0 for the outermost layer.
        name: The layer's class name.
        action_space: Its ``action_space`` (``None`` when reading it failed).
        observation_space: Its ``observation_space`` (``None`` when reading it failed).
    """

    depth: int
    name: str
    action_space: Any
    observation_space: Any


@dataclass(frozen=True)
class Probe:
    """What a freshly constructed target exposes.

    Attributes:
        action_space: ``action_space`` or ``None`` if missing.
        observation_space: ``observation_space`` or ``None`` if missing.
        metadata: ``metadata`` or ``None`` if missing.
        render_mode: ``render_mode`` of a default construction.
        nondeterministic: ``spec.nondeterministic`` (``False`` without a spec).
        layers: The wrapper layers, outermost first (empty for a bare env).
        errors: Attribute name → the error reading it raised.
        max_episode_steps: ``spec.max_episode_steps`` when it is a positive int (``None`` without one): how long
            rollouts may run to see episode ends (:func:`~conformance._engine.evidence.episode_cap`).
    """

    action_space: Any
    observation_space: Any
    metadata: Any
    render_mode: Any
    nondeterministic: bool
    layers: tuple[Layer, ...]
    errors: Mapping[str, str] = field(default_factory=dict[str, str])
    max_episode_steps: int | None = None

    @property
    def render_modes(self) -> tuple[str, ...]:
        """The declared render modes (only the well-formed string entries)."""
        return declared_render_modes(self.metadata)


def declared_render_modes(metadata: Any) -> tuple[str, ...]:
    """``metadata["render_modes"]`` as a tuple of the string entries (empty when absent or malformed)."""
    if not is_mapping(metadata):
        return ()
    modes = metadata.get("render_modes")
    if not is_list_or_tuple(modes):
        return ()
    return tuple(mode for mode in modes if isinstance(mode, str))


class _Reader:
    """Reads attributes of a fresh instance through the guard (a property is a call into the target)."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.errors: dict[str, str] = {}

    def read(self, obj: Any, var: str, name: str, *, record: bool = True) -> Any:
        try:
            return self.guard.call(f"{var}.{name}", lambda: getattr(obj, name), method=name)
        except Exception as exc:  # noqa: BLE001 - recorded; the rule about that attribute reports it
            if record:
                self.errors[name] = f"{describe_exception(exc)}"
            return None

    def layers(self, env: Any) -> tuple[Layer, ...]:
        layers: list[Layer] = []
        unwrapped = self.read(env, "env", "unwrapped", record=False)
        current, var = env, "env"
        while current is not unwrapped and len(layers) < _MAX_LAYERS and _is_wrapper(current):
            inner = self.read(current, var, "env", record=False)
            if inner is None:
                break
            layers.append(
                Layer(
                    depth=len(layers),
                    name=type(current).__name__,
                    action_space=self.read(current, var, "action_space", record=False),
                    observation_space=self.read(current, var, "observation_space", record=False),
                )
            )
            current, var = inner, f"{var}.env"
        return tuple(layers)

    def probe(self, env: Any) -> Probe:
        spec = self.read(env, "env", "spec", record=False)
        nondeterministic = self.read(spec, "env.spec", "nondeterministic", record=False) if spec is not None else False
        limit = self.read(spec, "env.spec", "max_episode_steps", record=False) if spec is not None else None
        try:
            layers = self.layers(env)
        except Exception:  # noqa: BLE001 - a broken wrapper chain is WRAP-005's finding, not the probe's
            layers = ()
        return Probe(
            action_space=self.read(env, "env", "action_space"),
            observation_space=self.read(env, "env", "observation_space"),
            metadata=self.read(env, "env", "metadata"),
            render_mode=self.read(env, "env", "render_mode"),
            nondeterministic=nondeterministic is True,
            layers=layers,
            errors=self.errors,
            max_episode_steps=limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None,
        )


class TargetState:
    """Lazily probed facts about one target, plus its failure history in this worker.

    Args:
        target: The target.
        guard: Runs the probe's calls into the target.
    """

    def __init__(self, target: Target, guard: Guard) -> None:
        self.target = target
        self.guard = guard
        self._probe: Probe | None = None
        self.construct_error: str | None = target.unavailable
        self.construct_traceback: str = ""
        self.construct_needs_display = ""
        """How to check the target when its construction failed in a windowing layer on a machine with no display
        (the machine's limit, not the target's break); empty otherwise."""
        self.hung: str | None = None
        self.single_instance = ""
        """Why the target allows one live instance per process, when a call on a second one never returned earlier
        in the run (``""``: not known): a second instance is then built in a process of its own."""
        self.construct_seconds: float | None = None
        """What the probe's construction took (``None`` until it returned)."""
        self._probed = target.unavailable is not None
        self.verdicts: dict[str, ObserverVerdict] = {}
        """Shared verdicts of the target's observers (:mod:`conformance._engine.observe`), by rule id."""

    def mark_unconstructible(self, reason: str) -> None:
        """Record that constructing the target cannot work (learnt elsewhere: its constructor killed a process)."""
        self.construct_error = reason
        self._probe = None
        self._probed = True

    def probe(self, *, close: bool = True, keep: bool = False) -> Probe | None:
        """Construct the target once (if not done yet) and return what it exposes; ``None`` if it failed.

        Args:
            close: Whether to close the probed instance afterwards.
            keep: Whether a target costly to construct keeps its probed instance open for recycling instead
                (:mod:`conformance._engine.shelf`: a warm zygote's jobs inherit it).
        """
        if self._probed:
            return self._probe
        self._probed = True
        label = f"{self.target.constructor_source()}"
        peers = peer_count()
        try:
            started = time.perf_counter()
            env = self.guard.call(label, self.target.construct, method="construct")
            self.construct_seconds = time.perf_counter() - started
            mark_costly(self.construct_seconds)
        except CallTimeout as exc:
            self.hung = no_return(label, exc.timeout)
            self.construct_error = self.hung
            return None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - reported once, by the construction check
            self.construct_error = f"{label} raised {describe_exception(exc)}"
            self.construct_traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            if display_missing(exc):
                self.construct_needs_display = display_remedy(exc)
            return None
        try:
            self._probe = self.guard.run(lambda: _Reader(self.guard).probe(env))
        finally:
            try:
                # Not an instance that started threads or child processes (an AsyncVectorEnv's workers): the jobs
                # forked from here would share them, and could not even wait for a child that is not theirs.
                if keep and costly() is not None and peer_count() <= peers:
                    recycle(key_of({}), env, self._close)
                elif close:
                    self.guard.call("env.close()", lambda: getattr(env, "close", lambda: None)(), method="close")
            except CallTimeout as exc:
                self.hung = no_return("close() of a fresh instance", exc.timeout)
            except Exception:  # noqa: BLE001, S110 - close failures are ENV-020's business
                pass
        return self._probe

    def _close(self, env: Any) -> None:
        try:
            self.guard.call("env.close()", lambda: getattr(env, "close", lambda: None)(), method="close")
        except Exception:  # noqa: BLE001, S110 - close failures are ENV-020's business
            pass
