"""``import reference as gym`` is a drop-in: every public Gymnasium module path and name exists in ``reference``.

The test walks the installed Gymnasium (the test peer) module by module. For each public module (no underscore in
its path) that Gymnasium can import here, the ``reference`` module of the same path must import and define every
public name: the module's ``__all__``, or, without one, what the module itself defines (classes, functions, type
variables, constants), not what it imports. Modules Gymnasium cannot import on this machine (MuJoCo, Box2D, JAX
and PyTorch need packages that are not installed) are skipped with Gymnasium's own reason; the array-conversion
modules, which exist in ``reference`` too, are then checked to fail with the same error type.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings
from types import ModuleType

import pytest

gymnasium = pytest.importorskip("gymnasium")

pytestmark = pytest.mark.gymnasium

# Module paths reference does not provide, and why.
SKIPPED_MODULES = {
    # Gymnasium's MuJoCo and Box2D environments: physics engines reference does not implement (issue scope).
    "gymnasium.envs.mujoco": "MuJoCo environments are out of reference's scope",
    "gymnasium.envs.box2d": "Box2D environments are out of reference's scope",
    # JAX re-implementations of the built-in environments; reference's functional envs are NumPy
    # (reference.envs.functional) and run batched without JAX.
    "gymnasium.envs.phys2d": "JAX environments: reference's functional environments are NumPy-based",
    "gymnasium.envs.tabular": "JAX environments: reference's functional environments are NumPy-based",
    "gymnasium.envs.functional_jax_env": "JAX adapters: reference.functional adapts FuncEnvs without JAX",
}

# Public names reference leaves out, and why (the list stays short on purpose).
SKIPPED_NAMES = {
    # Gymnasium's toy-text renderers lay out their pictures with module-level pixel constants and a drawing helper;
    # they are how Gymnasium draws, not API, and reference's renderers keep theirs private.
    **{
        ("gymnasium.envs.toy_text.blackjack", name): "drawing constant"
        for name in (
            "ART_PIXEL", "BIG_DIGIT_GAP", "DEALER_CARD_POS", "DEALER_LABEL_POS", "FELT_COLOR", "HIDDEN_CARD_POS",
            "LABEL_DIGIT_GAP", "PLAYER_LABEL_POS", "PLAYER_SUM_TOP", "SMALL_DIGIT_GAP", "USABLE_ACE_TOP",
            "draw_table",
        )
    },
    **{
        ("gymnasium.envs.toy_text.cliffwalking", name): "drawing constant"
        for name in ("AGENT_OFFSET", "ART_CELL_SIZE", "FLAG_OFFSET", "LETTER_OFFSET", "POSITION_MAPPING")
    },
    **{
        ("gymnasium.envs.toy_text.taxi", name): "drawing constant"
        for name in (
            "BACKGROUND_POS", "CANVAS_COLOR", "CELL_SIZE", "GRID_ORIGIN", "HOUSE_POS", "PASSENGER_OFFSET",
            "TAXI_H_OFFSET", "TAXI_V_OFFSET",
        )
    },
    # Type-checking plumbing, not runtime API: a module-private TypeVar Gymnasium forgot to underscore, and the
    # ``typing.TYPE_CHECKING`` flag / optional ``matplotlib`` handles that modules import into their namespace.
    ("gymnasium.spaces.utils", "T"): "stray TypeVar",
}
_IMPORTED_HANDLES = {"TYPE_CHECKING", "matplotlib", "plt"}

# Callables whose Gymnasium signature reference does not copy, and why.
SKIPPED_SIGNATURES = {
    # ``functools.partial(check_space, space_type=..., check_box_space_fn=...)`` in Gymnasium: the two bound
    # parameters are how it is built, not arguments a caller passes.
    ("gymnasium.utils.passive_env_checker", "check_action_space"): "partial",
    ("gymnasium.utils.passive_env_checker", "check_observation_space"): "partial",
}


def _public_modules() -> list[str]:
    names = ["gymnasium"]
    for info in pkgutil.walk_packages(gymnasium.__path__, "gymnasium.", onerror=lambda name: None):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def _skip_reason(name: str) -> str | None:
    matches = (why for prefix, why in SKIPPED_MODULES.items() if name == prefix or name.startswith(prefix + "."))
    return next(matches, None)


def _import_gymnasium(name: str) -> ModuleType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "matplotlib is not installed" from gymnasium.utils.play
        try:
            return importlib.import_module(name)
        except (ImportError, gymnasium.error.DependencyNotInstalled) as exc:
            pytest.skip(f"Gymnasium's {name} cannot be imported here: {exc}")


def _public_names(module: ModuleType) -> set[str]:
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return set(declared)
    names = set()
    for name, value in vars(module).items():
        if name.startswith("_") or name in _IMPORTED_HANDLES or inspect.ismodule(value):
            continue
        # Defined here (classes, functions, TypeVars carry their module) or a plain constant (no __module__).
        if getattr(value, "__module__", None) in (module.__name__, None):
            names.add(name)
    return names


def _has(module: ModuleType, name: str) -> bool:
    import reference.error

    try:
        getattr(module, name)
    except AttributeError:
        return False
    except reference.error.DependencyNotInstalled:
        return True  # a lazily imported wrapper whose backend is missing here: the name exists
    return True


def test_the_walk_finds_gymnasiums_modules() -> None:
    """Guard against a walk that silently finds nothing (the parametrized test would then pass vacuously)."""
    modules = _public_modules()
    assert {"gymnasium.envs.registration", "gymnasium.utils.env_checker", "gymnasium.wrappers.vector"} <= set(modules)
    assert len(modules) > 60


@pytest.mark.parametrize("gym_name", _public_modules())
def test_module_exists_with_gymnasiums_public_names(gym_name: str) -> None:
    reason = _skip_reason(gym_name)
    if reason is not None:
        pytest.skip(reason)
    gym_module = _import_gymnasium(gym_name)
    ours = importlib.import_module("reference" + gym_name[len("gymnasium") :])
    expected = _public_names(gym_module)
    missing = sorted(n for n in expected if not _has(ours, n) and (gym_name, n) not in SKIPPED_NAMES)
    assert missing == [], f"{ours.__name__} lacks Gymnasium's public names {missing}"


def _parameter_names(obj: object) -> list[str] | None:
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in signature.parameters.values() if p.name != "self" and p.kind not in variadic]


@pytest.mark.parametrize("gym_name", _public_modules())
def test_callables_take_gymnasiums_parameters(gym_name: str) -> None:
    """Gymnasium's parameters, in its order, begin ours (ours may add keyword-only ones, e.g. ``video_format``)."""
    reason = _skip_reason(gym_name)
    if reason is not None:
        pytest.skip(reason)
    gym_module = _import_gymnasium(gym_name)
    ours = importlib.import_module("reference" + gym_name[len("gymnasium") :])
    mismatched = []
    for name in sorted(_public_names(gym_module)):
        if (gym_name, name) in SKIPPED_SIGNATURES or (gym_name, name) in SKIPPED_NAMES or not _has(ours, name):
            continue
        try:
            theirs_obj, ours_obj = getattr(gym_module, name), getattr(ours, name)
        except (ImportError, gymnasium.error.DependencyNotInstalled):
            continue  # a wrapper whose backend is missing here
        if not (callable(theirs_obj) and callable(ours_obj)):
            continue
        theirs, mine = _parameter_names(theirs_obj), _parameter_names(ours_obj)
        if theirs is not None and mine is not None and mine[: len(theirs)] != theirs:
            mismatched.append(f"{name}: Gymnasium {theirs}, reference {mine}")
    assert mismatched == []


@pytest.mark.parametrize(
    "module", ["wrappers.numpy_to_torch", "wrappers.jax_to_numpy", "wrappers.jax_to_torch", "wrappers.array_conversion"]
)
def test_optional_backend_modules_fail_like_gymnasiums(module: str) -> None:
    """Where a backend is missing, Gymnasium's import fails and ours raises DependencyNotInstalled naming the extra.

    (Gymnasium raises DependencyNotInstalled, or a bare ImportError when array-api-compat itself is missing.)
    """
    try:
        importlib.import_module(f"gymnasium.{module}")
    except (ImportError, gymnasium.error.DependencyNotInstalled):
        import reference.error

        with pytest.raises(reference.error.DependencyNotInstalled, match="pip install"):
            importlib.import_module(f"reference.{module}")
    else:
        importlib.import_module(f"reference.{module}")


def test_skip_lists_name_only_real_gymnasium_names() -> None:
    """A skip entry for a name Gymnasium no longer has is dead and would hide a regression elsewhere."""
    for gym_name, name in [*SKIPPED_NAMES, *SKIPPED_SIGNATURES]:
        assert name in _public_names(_import_gymnasium(gym_name)), (gym_name, name)
    modules = _public_modules()
    for prefix in SKIPPED_MODULES:
        assert any(m == prefix or m.startswith(prefix + ".") for m in modules), prefix
