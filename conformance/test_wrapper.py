"""WRAP rules: every layer of a wrapped target is a conforming env, and the layers lead to ``unwrapped``.

A target counts as wrapped when following ``.env`` from it reaches other objects before ``unwrapped``, each a wrapper
by the protocol (``env``, ``unwrapped`` and ``get_wrapper_attr``): an env that merely keeps an attribute named ``env``
is no layer. Envs made from ids usually are wrapped (``TimeLimit``, ``OrderEnforcing``, ...). Layers are driven
directly (``env.env.env.step``), each with actions drawn from its own ``action_space``.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

from typing import Any, cast

from hypothesis import strategies as st

from conformance._kit.api import (
    CONSTRUCTION, FACT, RESET, ROLLOUT, Case, ConstructionWatch, Handle, Layer, Plan, TargetError, Unchecked, checks,
    contains, declared_render_modes, describe_exception, difference, is_tuple, not_checked, plan_tuples, read, rollout,
    snapshot, space_label, summarize, type_name,
)

_MAX_CHAIN = 1000
_ATTRIBUTES = 5


def _layers(case: Case) -> tuple[Layer, ...]:
    layers = case.probe().layers
    case.require(layers, "the target is not a wrapper (no .env layers before unwrapped)")
    return layers


def _layer(case: Case, env: Handle, depth: int, var: str = "layer") -> Handle:
    obj = env.raw
    for _ in range(depth):
        obj = obj.env
    return case.wrap(obj, var, env.var + ".env" * depth)


class _Tap:
    """Records the last observation the unwrapped env returned while the outer layers drive it, by shadowing its
    ``reset`` and ``step`` with recording instance attributes (an object that refuses them is simply not tapped).

    Attribution needs it: an observation outside a space is the unwrapped env's own finding (ENV-006, ENV-009)
    when the unwrapped env returned that very observation outside its own space; a layer repeats it without
    changing the outcome."""

    _NOTHING = object()

    def __init__(self, unwrapped: object) -> None:
        self.obs: object = self._NOTHING
        self._target = unwrapped
        self._patched: list[str] = []
        for name in ("reset", "step"):
            original = getattr(unwrapped, name, None)
            if not callable(original):
                continue
            try:
                setattr(unwrapped, name, self._recording(original))
            except Exception:  # noqa: BLE001, S112 - slots, properties: this one is not tapped
                continue
            self._patched.append(name)

    def _recording(self, original: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.obs = self._NOTHING
            result = original(*args, **kwargs)
            if is_tuple(result) and len(result) in (2, 5):
                self.obs = snapshot(result[0])
            return result

        return call

    def seen(self) -> bool:
        """Whether the unwrapped env returned an observation in the latest outer call."""
        return self.obs is not self._NOTHING

    def close(self) -> None:
        for name in self._patched:
            try:
                delattr(self._target, name)
            except Exception:  # noqa: BLE001, S110 - best effort: the instance is discarded anyway
                pass


def _env_rule(record: rollout.Record) -> str:
    return "ENV-006" if record.kind == "reset" else "ENV-009"


def _layer_plans(case: Case, layers: tuple[Layer, ...]) -> st.SearchStrategy[tuple[Plan, ...]]:
    usable = [layer for layer in layers if layer.action_space is not None]
    case.require(usable, "no wrapper layer exposes an action_space (ENV-001)")
    steps = max(1, case.profile.max_steps // len(usable))
    return plan_tuples([layer.action_space for layer in usable], case.profile, max_steps=steps)


def _drive_layers(case: Case, check_obs: bool) -> None:
    layers = tuple(layer for layer in _layers(case) if layer.action_space is not None)

    def example(layer_plans: tuple[Plan, ...]) -> None:
        for layer, plan in zip(layers, layer_plans):
            env = case.make()
            handle = _layer(case, env, layer.depth)
            space = read(case, handle, "observation_space")
            unwrapped = read(case, env, "unwrapped", "WRAP-006")
            base_space = getattr(unwrapped, "observation_space", None)
            tap = _Tap(unwrapped) if check_obs else None

            name = f"layer env{'.env' * layer.depth} ({type_name(handle.raw)})"

            def on_record(
                record: rollout.Record, space: Any = space, tap: _Tap | None = tap, name: str = name
            ) -> None:
                ok, note = contains(case, space, record.obs)
                if not check_obs or ok:
                    return
                if tap is not None and tap.seen() and difference(record.obs, tap.obs) is None:
                    inner_ok, _ = contains(case, base_space, tap.obs)
                    if not inner_ok:
                        # The unwrapped env returned this very observation outside its own space: its finding,
                        # reported once where it arises; this layer passes it on without changing the outcome.
                        case.not_checkable(
                            f"the unwrapped env's own {record.where()} is outside its own observation_space and "
                            f"{name} passes it on unchanged (reported by "
                            f"{_env_rule(record)})"
                        )
                var = handle.var
                case.expect(f"obs = results[{var!r}][-1][0]  # what the failing call returned",
                            f"assert {var}.observation_space.contains(obs), "
                            f"{f'WRAP-001: {name} returned an observation outside its own observation_space: '!r}"
                            f" + repr(obs)")
                case.fail(
                    f"{name}: the {record.where()} returned an observation "
                    f"outside its own observation_space{note}",
                    expected=f"an element of {space_label(space)}",
                    actual=summarize(record.obs),
                )

            try:
                rollout.run(handle, plan.seed, plan.actions(), on_record=on_record)
            except TargetError as error:
                if layer.depth and error.method == "reset" and error.call.startswith(f"{handle.var}."):
                    # The target's own reset is ENV-004's; an inner layer's failing when driven on its own says only
                    # that the layers outside it prepare it (Meta-World's task), so this layer cannot be checked.
                    # Not a verdict on the rule, and no "not applicable" either: an error naming the layer.
                    raise Unchecked(not_checked(
                        case.rule.id, case.target.id,
                        f"{name} cannot be reset on its own ({error}); the layers outside it prepare it, so its "
                        f"{'observations' if check_obs else 'actions'} were not checked. To check them, point --env "
                        "at a factory that returns that layer ready to reset",
                    )) from error.error
                raise
            finally:
                if tap is not None:
                    tap.close()

    case.explore(example, _layer_plans(case, layers), max_examples=min(case.profile.max_examples, 8))


@checks("WRAP-001", floor=ROLLOUT)
def test_wrapper_observations_in_own_space(conformance_case: Case) -> None:
    _drive_layers(conformance_case, check_obs=True)


@checks("WRAP-002", floor=ROLLOUT, owns=("step",))
def test_wrapper_accepts_own_actions(conformance_case: Case) -> None:
    _drive_layers(conformance_case, check_obs=False)


@checks("WRAP-003", floor=FACT)
def test_inner_env_keeps_its_attributes(conformance_case: Case) -> None:
    case = conformance_case
    _layers(case)

    def body() -> None:
        # The spaces and metadata objects before wrapping (as the innermost env's constructor left them) and after
        # (the wrapped target built, no call made yet): not the observations, which a bare env may return outside
        # its own space (ENV-006's finding), nor after reset, where an env may rebuild its own spaces.
        innermost: object = read(case, case.make("probe"), "unwrapped", "WRAP-006")
        cls = type(innermost)
        try:
            watch = ConstructionWatch(cls)
        except Exception as exc:  # noqa: BLE001 - an extension type: its construction cannot be watched
            case.not_checkable(f"the innermost env's class {cls.__qualname__} does not take a replacement "
                               f"__init__ ({describe_exception(exc)}), so its spaces before wrapping are unknown")
        named = "<" not in cls.__qualname__  # importable by the reproducer (not a class local to a function)
        if named:
            case.note(f"watch = ConstructionWatch.of({cls.__module__!r}, {cls.__qualname__!r})",
                      imports=("from conformance._kit.construction import ConstructionWatch",))
        try:
            env = case.make()
        finally:
            watch.close()
        unwrapped = read(case, env, "unwrapped", "WRAP-006")
        if not watch.seen(unwrapped):
            case.not_checkable(f"the target's unwrapped env ({type_name(unwrapped)}) was not constructed while the "
                               "target was (it is shared or cached), so its spaces before wrapping are unknown")
        found = watch.changes(unwrapped)
        if found is None:
            return
        if named:
            case.expect("found = watch.changes(env.unwrapped)",
                        "assert found is None, 'WRAP-003: wrapping changed the inner env: ' + found")
        case.fail(f"wrapping changed the innermost env ({type_name(unwrapped)}): {found}",
                  expected="the inner env's spaces and metadata as its constructor left them (a wrapper overrides "
                           "its own action_space, observation_space or metadata, not the inner env's)",
                  actual=found)

    case.once(body)


@checks("WRAP-004", floor=CONSTRUCTION)
def test_render_mode_passes_through(conformance_case: Case) -> None:
    case = conformance_case
    layers = _layers(case)
    modes = case.probe().render_modes

    def body() -> None:
        for mode in (None, *modes):
            env = case.make(f"env_{mode}" if mode else "env", **({} if mode is None else {"render_mode": mode}))
            for layer in layers:
                handle = _layer(case, env, layer.depth)
                inner = case.wrap(handle.raw.env, "inner", f"{handle.var}.env")
                outer_mode = read(case, handle, "render_mode", "RENDER-001")
                inner_mode = read(case, inner, "render_mode", "RENDER-001")
                own_modes = declared_render_modes(read(case, handle, "metadata", "ENV-003"))
                if outer_mode != inner_mode and outer_mode not in own_modes:
                    h, i = handle.var, inner.var
                    case.expect(f"assert {h}.render_mode == {i}.render_mode or {h}.render_mode in "
                                f"{h}.metadata.get('render_modes', ()), 'WRAP-004: the layer reports render_mode ' "
                                f"+ repr({h}.render_mode) + ', its inner env ' + repr({i}.render_mode)")
                    case.fail(f"layer env{'.env' * layer.depth} ({layer.name}) reports render_mode {outer_mode!r}, "
                              f"its inner env {inner_mode!r}",
                              expected=f"{inner_mode!r}, or a mode in the wrapper's own render_modes {list(own_modes)}",
                              actual=repr(outer_mode))

    case.once(body)


@checks("WRAP-005", floor=FACT)
def test_env_chain_reaches_unwrapped(conformance_case: Case) -> None:
    case = conformance_case
    _layers(case)

    def body() -> None:
        env = case.make()
        unwrapped = read(case, env, "unwrapped", "WRAP-006")
        current, path = env.raw, "env"
        v = env.var
        case.expect(f"current, hops = {v}, 0",
                    f"while current is not {v}.unwrapped and hasattr(current, 'env') and hops < {_MAX_CHAIN}: "
                    f"current, hops = current.env, hops + 1",
                    f"assert current is {v}.unwrapped, 'WRAP-005: following .env from {v} does not reach "
                    f"{v}.unwrapped'")
        for _ in range(_MAX_CHAIN):
            if current is unwrapped:
                return
            if not hasattr(current, "env"):
                case.fail(f"{path} ({type_name(current)}) has no .env but is not env.unwrapped",
                          expected=f"reaching {type_name(unwrapped)}", actual=f"a dead end at {path}")
            current, path = current.env, path + ".env"
        case.fail(f"following .env {_MAX_CHAIN} times never reached env.unwrapped", expected="a finite chain",
                  actual="a cycle or an endless chain")

    case.once(body)


@checks("WRAP-006", floor=FACT)
def test_unwrapped_is_innermost(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env = case.make()
        if not env.has("unwrapped"):
            case.not_checkable("the target has no unwrapped attribute (the rule applies to envs that expose it)")
        unwrapped = env.get("unwrapped")
        v = env.var
        case.expect(f"inner = getattr({v}.unwrapped, 'env', None)",
                    f"assert {v}.unwrapped.unwrapped is {v}.unwrapped, 'WRAP-006: {v}.unwrapped.unwrapped is not "
                    f"{v}.unwrapped'",
                    f"assert inner is None or inner is {v}.unwrapped or not any(getattr({v}.unwrapped, name) is "
                    f"getattr(inner, name, None) for name in ('observation_space', 'action_space')), "
                    f"'WRAP-006: {v}.unwrapped still wraps another env'")
        try:
            again = case.watchdog.call("unwrapped.unwrapped", lambda: unwrapped.unwrapped)
        except Exception as exc:  # noqa: BLE001
            case.fail("env.unwrapped has no unwrapped of its own", expected="env.unwrapped.unwrapped is env.unwrapped",
                      actual=f"{describe_exception(exc)}")
        if again is not unwrapped:
            case.fail("env.unwrapped.unwrapped is not env.unwrapped", expected=type_name(unwrapped),
                      actual=type_name(again))
        inner = getattr(unwrapped, "env", None)
        if inner is not None and inner is not unwrapped and _forwards_to(unwrapped, inner):
            case.fail("env.unwrapped still wraps another env (it has an .env)", expected="the innermost env",
                      actual=f"{type_name(unwrapped)} wrapping {type_name(inner)}")

    case.once(body)


def _forwards_to(obj: Any, inner: Any) -> bool:
    """Whether ``obj`` is a wrapper of ``inner``: ``inner`` is an env (``reset`` and ``step``) and ``obj``'s
    ``get_wrapper_attr`` finds an attribute only ``inner`` defines, as a wrapper's searches its inner layers. An env
    that merely keeps an attribute named ``env`` (a simulator, a model, another env it uses; it may even expose that
    env's very spaces) looks up only its own attributes: it is the innermost env it says it is."""
    if not (callable(getattr(inner, "reset", None)) and callable(getattr(inner, "step", None))):
        return False
    for name in _inner_only_names(obj, inner):
        try:
            found = obj.get_wrapper_attr(name)
        except Exception:  # noqa: BLE001, S112 - not found: obj looks up its own attributes only
            continue
        if found is getattr(inner, name):
            return True
    return False


def _inner_only_names(env: Any, unwrapped: Any) -> list[str]:
    attributes = vars(cast(object, unwrapped))  # an Any argument leaves vars()'s overload (and result) unknown
    names = sorted(name for name in attributes if not name.startswith("__") and not hasattr(env, name))
    return names[:_ATTRIBUTES]


@checks("WRAP-007", floor=FACT)
def test_get_wrapper_attr_finds_inner_attributes(conformance_case: Case) -> None:
    case = conformance_case
    layers = _layers(case)

    def body() -> None:
        env = case.make()
        if not env.has("get_wrapper_attr"):
            case.not_checkable("the target has no get_wrapper_attr (the rule applies to wrappers that have it)")
        unwrapped = read(case, env, "unwrapped", "WRAP-006")
        chain = [_layer(case, env, layer.depth).raw for layer in layers] + [unwrapped]
        for name in _inner_only_names(env.raw, unwrapped):
            expected = next(getattr(layer, name) for layer in chain if hasattr(layer, name))
            try:
                found = env.call("get_wrapper_attr", name)
            except TargetError as error:
                case.fail(f"get_wrapper_attr({name!r}) raised", expected=summarize(expected), actual=str(error.error))
            if found is not expected and difference(found, expected) is not None:
                case.fail(f"get_wrapper_attr({name!r}) is not the innermost layer's attribute",
                          expected=summarize(expected), actual=summarize(found))
        missing = "conformance_no_such_attribute"
        try:
            value = env.call("get_wrapper_attr", missing)
        except TargetError as error:
            if isinstance(error.error, AttributeError):
                return
            case.fail(f"get_wrapper_attr({missing!r}) raised {type(error.error).__name__}", expected="AttributeError",
                      actual=f"{describe_exception(error.error)}")
        case.fail(f"get_wrapper_attr({missing!r}) returned a value", expected="AttributeError", actual=summarize(value))

    case.once(body)


@checks("WRAP-008", floor=RESET)
def test_wrapper_shares_np_random(conformance_case: Case) -> None:
    case = conformance_case
    _layers(case)

    def body() -> None:
        env = case.make()
        env.reset(seed=0)
        unwrapped = read(case, env, "unwrapped", "WRAP-006")
        if not env.has("np_random") or not hasattr(unwrapped, "np_random"):
            case.not_checkable("the wrapper or the unwrapped env exposes no np_random")
        if env.get("np_random") is not unwrapped.np_random:
            v = env.var
            case.expect(f"assert {v}.np_random is {v}.unwrapped.np_random, 'WRAP-008: {v}.np_random is not "
                        f"{v}.unwrapped.np_random'")
            case.fail("env.np_random is not env.unwrapped.np_random", expected="the very same Generator object",
                      actual="a different object")

    case.once(body)


_MARKER = "conformance_marker"
"""The options entry WRAP-009 passes in; the shadowed ``reset`` removes it before the unwrapped env sees it."""
_SHADOW = (
    "received = []\n"
    "_reset = env.unwrapped.reset\n"
    "def _shadow(*args, **kwargs):\n"
    "    received.append(dict(kwargs))\n"
    f"    kept = {{k: v for k, v in (kwargs.get('options') or {{}}).items() if k != {_MARKER!r}}}\n"
    "    return _reset(*args, **{**kwargs, 'options': kept or None})\n"
    "env.unwrapped.reset = _shadow"
)


@checks("WRAP-009", floor=RESET)
def test_reset_forwards_seed_and_options(conformance_case: Case) -> None:
    case = conformance_case
    _layers(case)
    seed = 2024

    def body() -> None:
        env = case.make()
        unwrapped = read(case, env, "unwrapped", "WRAP-006")
        received: list[dict[str, Any]] = []
        try:
            original = unwrapped.reset
        except Exception as exc:  # noqa: BLE001 - ENV-004 reports an unusable reset
            case.not_checkable(f"env.unwrapped.reset cannot be read ({describe_exception(exc)})")

        def shadow(*args: Any, **kwargs: Any) -> Any:
            received.append(dict(kwargs))
            options = kwargs.get("options")
            if isinstance(options, dict) and _MARKER in options:
                given = cast("dict[str, Any]", options)
                kept = {key: value for key, value in given.items() if key != _MARKER}
                kwargs["options"] = kept or None
            return original(*args, **kwargs)

        try:
            setattr(unwrapped, "reset", shadow)
        except Exception as exc:  # noqa: BLE001 - an object that refuses instance attributes cannot be observed
            case.not_checkable(f"env.unwrapped.reset cannot be shadowed on the instance ({describe_exception(exc)})")
        case.note(_SHADOW)
        try:
            env.reset(seed=seed, options={_MARKER: True})
        finally:
            try:
                delattr(unwrapped, "reset")
            except Exception:  # noqa: BLE001, S110 - the instance attribute is gone already
                pass
        if not received:
            case.not_checkable("the wrapper's reset never called env.unwrapped.reset through the instance (a layer "
                               "calls it another way), so what reaches it cannot be observed")
        got = received[0]
        options = got.get("options")
        dropped = [name for name, ok in (("seed", got.get("seed") == seed),
                                         ("options", isinstance(options, dict) and _MARKER in options)) if not ok]
        if dropped:
            case.expect(f"assert received[0].get('seed') == {seed} and {_MARKER!r} in "
                        "(received[0].get('options') or {}), "
                        f"'WRAP-009: the unwrapped env received ' + repr(received[0])")
            case.fail(f"reset(seed={seed}, options={{{_MARKER!r}: True}}) on the wrapper reached the unwrapped env's "
                      f"reset without the caller's {' and '.join(dropped)}",
                      expected=f"seed={seed}, options containing {_MARKER!r}",
                      actual=", ".join(f"{key}={summarize(value)}" for key, value in got.items()) or "no keywords")

    case.once(body)
