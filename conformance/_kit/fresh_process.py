"""Running a target's first episode in a fresh interpreter with another ``str``-hash salt (SEED-012).

Every item of the suite runs in a process forked from one parent, so all of them share CPython's hash salt: an env
whose randomness comes from ``hash()`` of a string (or from the iteration order of a set of strings) is
reproducible in every check made there, and gives another episode in the user's next run. :func:`first_episode`
starts a new interpreter (``sys.executable``) with ``PYTHONHASHSEED`` set to a value this process does not use,
builds the target there from the reproducer's own source (its import lines and constructor expression), resets it
with a seed, takes the given actions until the episode ends and sends back what each call returned (pickled).

The child imports nothing of the suite (its import costs more than the target's, and it must not matter): its
script is :data:`_SCRIPT`, standard library only. It stays in the job's process group and dies with the job, so
the supervisor's cleanup reaches it; it is killed, with anything it started, when it outlives its timeout.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance._engine.cost import METER
from conformance._engine.processes import die_with_parent, kill_tree

__all__ = ["Episode", "FreshProcessError", "first_episode", "other_hash_seed"]

_SCRIPT = r'''
import copy, pickle, sys
with open(sys.argv[1], "rb") as handle:
    payload = pickle.load(handle)
namespace = {"__name__": "fresh_process"}
for line in payload["imports"]:
    exec(line, namespace)
env = eval(payload["constructor"], namespace)

def keep(value):
    try:
        pickle.dumps(value)
    except Exception:
        return ("<unpicklable>", repr(value))
    return copy.deepcopy(value)

obs, info = env.reset(seed=payload["seed"])
results = [("reset", keep(obs), None, None, None, keep(info))]
for action in payload["actions"]:
    obs, reward, terminated, truncated, info = env.step(action)
    results.append(("step", keep(obs), keep(reward), keep(terminated), keep(truncated), keep(info)))
    if terminated or truncated:
        break
try:
    env.close()
except Exception:
    pass
with open(sys.argv[2], "wb") as handle:
    pickle.dump(results, handle)
'''

_STDERR_TAIL = 1500


class FreshProcessError(Exception):
    """The fresh interpreter could not run the episode (the message says why, with its stderr's tail)."""


@dataclass(frozen=True)
class Episode:
    """What the fresh interpreter's calls returned, as ``(kind, obs, reward, terminated, truncated, info)`` rows
    (``reward`` and the flags ``None`` for the reset; a value that could not be pickled is
    ``("<unpicklable>", repr)``).

    Attributes:
        hash_seed: The child's ``PYTHONHASHSEED``.
        rows: The rows, the reset first.
    """

    hash_seed: str
    rows: list[tuple[Any, ...]]


def other_hash_seed() -> str:
    """A ``PYTHONHASHSEED`` this process does not run with (its salt is random unless the variable fixes it)."""
    return "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"


def _kill(process: subprocess.Popen[bytes]) -> None:
    kill_tree(process.pid)
    process.wait()


def first_episode(
    imports: Sequence[str], constructor: str, seed: int, actions: Sequence[Any], *, timeout: float
) -> Episode:
    """Run ``constructor``'s first episode (``reset(seed=seed)``, then ``actions`` until it ends) in a fresh
    interpreter with :func:`other_hash_seed` as ``PYTHONHASHSEED`` and this process's ``sys.path``.

    Raises:
        FreshProcessError: If the payload cannot be pickled, the child fails or outlives ``timeout`` seconds.
    """
    hash_seed = other_hash_seed()
    environ = dict(os.environ)
    environ["PYTHONHASHSEED"] = hash_seed
    environ["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
    with tempfile.TemporaryDirectory(prefix="conformance-fresh-") as workdir:
        payload, result = Path(workdir, "payload.pickle"), Path(workdir, "result.pickle")
        try:
            payload.write_bytes(pickle.dumps({"imports": list(imports), "constructor": constructor, "seed": seed,
                                              "actions": list(actions)}))
        except Exception as error:  # noqa: BLE001 - actions that cannot travel make the check impossible
            raise FreshProcessError(f"the actions cannot be pickled for the fresh interpreter ({error!r})") from None
        process = subprocess.Popen(
            [sys.executable, "-c", _SCRIPT, str(payload), str(result)],
            env=environ, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - prctl only: async-signal-safe enough after fork
        )
        try:
            # The child's run is the target's (its import, construction and calls): target time, not the suite's.
            _, stderr = METER.timed(process.communicate, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise FreshProcessError(f"the fresh interpreter did not finish within {timeout:.0f} s") from None
        if process.returncode != 0 or not result.exists():
            tail = stderr.decode(errors="replace")[-_STDERR_TAIL:].strip()
            raise FreshProcessError(f"the fresh interpreter exited with code {process.returncode}: {tail}")
        try:
            rows: list[tuple[Any, ...]] = pickle.loads(result.read_bytes())  # noqa: S301 - our own child's output
        except Exception as error:  # noqa: BLE001 - a result that does not unpickle here cannot be compared
            raise FreshProcessError(f"the fresh interpreter's results do not unpickle here ({error!r})") from None
    return Episode(hash_seed, rows)
