"""An instance of the target in a process of its own: how rules that need two live instances check a target that
allows one live instance per process (rule ENV-021: an emulator with process-wide state).

When a construction raises while other instances of the target are live in the job process,
:class:`~conformance._engine.case.Case` tries it once more in a child forked from the job (:func:`start`): the child
closes its copies of the live instances (it inherited them, with the process-wide state that refuses a second),
constructs, and then serves calls on its instance, one at a time, over a socket pair. When that construction works,
the rule's handle forwards every call there (:class:`Remote`); when it raises too, the construction's own failure
stands, as before. The target's answers travel pickled: a job process already runs target code, so unpickling what
the target returns there trusts nothing new (the supervisor never sees any of it). A value that cannot be pickled
comes back as an error of the call naming it, an exception that cannot be pickled as a ``RuntimeError`` with its
text.

The child is in the job's process group and dies with the job (``PR_SET_PDEATHSIG``): a timeout, the job's end or a
kill reaches it too. ENV-021's own check never falls back: it is the rule that reports the limitation.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import struct
from collections.abc import Callable
from typing import Any

from conformance._engine.processes import die_with_parent
from conformance._engine.zygote import flush_stdio

__all__ = ["Remote", "RemoteUnavailable", "start"]

_HEADER = struct.Struct("!Q")


class RemoteUnavailable(Exception):
    """The process holding the instance is gone, or a value could not travel to or from it."""


def _send(sock: socket.socket, value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_HEADER.pack(len(data)) + data)


def _receive(sock: socket.socket) -> Any:
    header = _read(sock, _HEADER.size)
    return pickle.loads(_read(sock, _HEADER.unpack(header)[0]))  # noqa: S301 - the target's own values, in its job


def _read(sock: socket.socket, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            raise RemoteUnavailable("the process holding the instance exited")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else a ``RuntimeError`` carrying its type and text."""
    try:
        pickle.loads(pickle.dumps(error))  # noqa: S301
    except Exception:  # noqa: BLE001 - whatever pickling raised, the text still travels
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


class Remote:
    """The parent's end of an instance living in a child process.

    Args:
        pid: The child's process id.
        sock: The parent's end of the socket pair.
    """

    def __init__(self, pid: int, sock: socket.socket) -> None:
        self.pid = pid
        self._sock = sock

    def call(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``instance.method(*args, **kwargs)`` in the child: what it returned, or raise what it raised."""
        return self._ask(("call", method, args, kwargs))

    def get(self, name: str) -> Any:
        """``instance.name`` in the child."""
        return self._ask(("get", name, (), {}))

    def _ask(self, request: tuple[str, str, tuple[Any, ...], dict[str, Any]]) -> Any:
        try:
            _send(self._sock, request)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise RemoteUnavailable(f"the arguments of {request[1]} cannot reach the other process: {exc}") from exc
        except OSError as exc:
            raise RemoteUnavailable(f"the process holding the instance is gone: {exc}") from exc
        kind, value = _receive(self._sock)
        if kind == "raised":
            raise value
        return value

    def stop(self) -> None:
        """End the child (it exits when its socket closes; it is killed if it does not)."""
        with contextlib.suppress(OSError):
            self._sock.close()
        with contextlib.suppress(ChildProcessError, OSError):
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid == 0:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)


def start(release: Callable[[], None], construct: Callable[[], Any]) -> Remote:
    """Fork a child that calls ``release`` (closing its copies of the live instances), then ``construct``, and serves
    calls on what it built.

    Raises:
        BaseException: What ``construct`` raised in the child (the construction does not work alone either).
    """
    parent, child = socket.socketpair()
    flush_stdio()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's side, seen through the parent's
        parent.close()
        _serve(child, release, construct)
    child.close()
    remote = Remote(pid, parent)
    kind, value = _receive(parent)
    if kind == "raised":
        remote.stop()
        raise value
    return remote


def _serve(sock: socket.socket, release: Callable[[], None], construct: Callable[[], Any]) -> None:
    code = 0
    try:
        die_with_parent()
        release()
        try:
            obj = construct()
        except BaseException as exc:  # noqa: BLE001 - travels to the parent, which decides
            _send(sock, ("raised", _portable(exc)))
            return
        _send(sock, ("built", None))
        while True:
            try:
                kind, name, args, kwargs = _receive(sock)
            except RemoteUnavailable:
                return  # the parent closed its end: done
            try:
                found = getattr(obj, name)
                answer: tuple[str, Any] = ("returned", found(*args, **kwargs) if kind == "call" else found)
            except BaseException as exc:  # noqa: BLE001 - the target's exception is the call's result
                answer = ("raised", _portable(exc))
            try:
                _send(sock, answer)
            except Exception as exc:  # noqa: BLE001 - an unpicklable result: an error of the call, named
                _send(sock, ("raised", RemoteUnavailable(
                    f"{name} returned {type(answer[1]).__name__}, which cannot travel between processes: {exc}")))
    except BaseException:  # noqa: BLE001, S110 - a broken child just ends; the parent sees its socket close
        code = 1
    finally:
        flush_stdio()
        os._exit(code)
