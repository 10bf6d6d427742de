"""A length-prefixed frame transport over a pair of one-way ``multiprocessing`` pipes.

Two one-way OS pipes per worker (commands down, replies up) are used rather than one duplex socket pair: a
round trip through pipes costs about half as much, in the sender and in the woken receiver. On POSIX the frames
go straight through ``os.read``/``os.write`` on the descriptors: one system call per small frame, instead of the
separate header and body reads (and per-call checks) of ``Connection.send_bytes``/``recv_bytes``. Commands and
replies strictly alternate, so a read never returns bytes of the next frame. Elsewhere the ``Connection`` methods
are used as they are.
"""

from __future__ import annotations

import os
import struct
from multiprocessing.connection import Connection

__all__ = ["Channel"]

_HEADER = struct.Struct("!I")
_READ_SIZE = 1 << 16


class Channel:
    """Frames in from ``reader`` and out through ``writer``.

    Args:
        reader: The readable end of one pipe.
        writer: The writable end of the other pipe (the same object as ``reader`` for a duplex pipe).
    """

    def __init__(self, reader: Connection, writer: Connection) -> None:
        self._bind(reader, writer)

    def _bind(self, reader: Connection, writer: Connection) -> None:
        self.reader = reader
        self.writer = writer
        posix = os.name == "posix"
        self._in = reader.fileno() if posix else -1
        self._out = writer.fileno() if posix else -1

    def __getstate__(self) -> tuple[Connection, Connection]:
        # Descriptor numbers are per process: a spawned worker re-reads them from its own copies of the ends.
        return self.reader, self.writer

    def __setstate__(self, state: tuple[Connection, Connection]) -> None:
        self._bind(*state)

    def send(self, frame: bytes) -> None:
        """Send one frame.

        Args:
            frame: The frame.

        Raises:
            OSError: The peer is gone (``BrokenPipeError``, ``ConnectionResetError``).
        """
        if self._out < 0:
            self.writer.send_bytes(frame)
            return
        data = memoryview(_HEADER.pack(len(frame)) + frame)
        while data:
            data = data[os.write(self._out, data) :]

    def recv(self) -> bytes:
        """Receive one frame, blocking until it is complete.

        Returns:
            The frame.

        Raises:
            EOFError: The peer closed its end (or died) before a complete frame arrived.
        """
        if self._in < 0:
            return self.reader.recv_bytes()
        data = os.read(self._in, _READ_SIZE)
        while len(data) < _HEADER.size:
            data = self._more(data, _HEADER.size - len(data))
        size = _HEADER.unpack_from(data)[0] + _HEADER.size
        if len(data) == size:
            return data[_HEADER.size :]
        buffer = bytearray(data)
        while len(buffer) < size:
            buffer += self._more(b"", min(size - len(buffer), _READ_SIZE))
        return bytes(buffer[_HEADER.size :])

    def _more(self, data: bytes, wanted: int) -> bytes:
        chunk = os.read(self._in, wanted)
        if not chunk:
            raise EOFError("the other end of the pipe was closed")
        return data + chunk

    def poll(self) -> bool:
        """Tell whether a frame (or end-of-file) is ready to be read without blocking."""
        return self.reader.poll(0)

    def close(self) -> None:
        """Close both pipe ends."""
        self.reader.close()
        self.writer.close()
