"""Server-sent events, read from raw bytes with a bound on how much one event may hold."""

from __future__ import annotations

_FIELDS = (b"data", b"event", b"id", b"retry")


class LineTooLong(Exception):
    """One line of the stream grew past the limit without ending."""


class EventTooLarge(LineTooLong):
    """The data lines of one event grew past the limit without the event ending."""


class NotAnEventStream(Exception):
    """A line that no event stream contains: the server sent something else."""

    def __init__(self, line: bytes) -> None:
        super().__init__(line[:200].decode("utf-8", errors="replace"))
        self.line = line


class EventStreamDecoder:
    """Splits bytes into lines and lines into the `data` payload of each event.

    `httpx.Response.iter_lines` would buffer an endless line without limit; this keeps at
    most `max_line` bytes of a line, and at most `max_event` bytes (default: `max_line`)
    of the data of one event, however many lines it comes in. Data lines of one event are
    joined with newlines, as the SSE specification says; comments (`:`) and
    `event`/`id`/`retry` fields are skipped. With `split_oversized`, an event whose data
    would pass `max_event` gives each of its lines as a payload of its own instead of
    raising (servers that leave out the blank line send one JSON chunk a line): what a
    caller then holds is bounded the same.
    """

    def __init__(self, max_line: int, max_event: int | None = None, *,
                 split_oversized: bool = False) -> None:
        self.max_line = max_line
        self.max_event = max_line if max_event is None else max_event
        self.split_oversized = split_oversized
        self._buffer = bytearray()
        self._scanned = 0
        self._data: list[bytes] = []
        self._data_bytes = 0
        self.lines = 0

    def feed(self, chunk: bytes) -> list[bytes]:
        """The payloads of the events completed by `chunk`."""
        self._buffer += chunk
        payloads: list[bytes] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", max(start, self._scanned))
            if end < 0:
                break
            line = bytes(self._buffer[start:end])
            start = end + 1
            if len(line) > self.max_line:
                raise LineTooLong
            self._line(line.rstrip(b"\r"), payloads)
        if start:
            del self._buffer[:start]
        self._scanned = len(self._buffer)
        if len(self._buffer) > self.max_line:
            raise LineTooLong
        return payloads

    def finish(self) -> list[bytes]:
        """The payloads still pending when the stream ends (an unterminated last event)."""
        payloads: list[bytes] = []
        if self._buffer:
            line = bytes(self._buffer).rstrip(b"\r")
            self._buffer.clear()
            self._scanned = 0
            self._line(line, payloads)
        self._dispatch(payloads)
        return payloads

    def _line(self, line: bytes, payloads: list[bytes]) -> None:
        if not line.strip():
            self._dispatch(payloads)
            return
        self.lines += 1
        if line.startswith(b":"):
            return
        name, colon, value = line.partition(b":")
        if name not in _FIELDS:
            raise NotAnEventStream(line)
        if name == b"data":
            if colon and value.startswith(b" "):
                value = value[1:]
            if self._data_bytes + len(value) + 1 > self.max_event:
                if not self.split_oversized or len(value) + 1 > self.max_event:
                    raise EventTooLarge
                payloads.extend(self._data)
                self._data, self._data_bytes = [], 0
            self._data_bytes += len(value) + 1
            self._data.append(value)

    def _dispatch(self, payloads: list[bytes]) -> None:
        if self._data:
            payloads.append(b"\n".join(self._data))
            self._data = []
            self._data_bytes = 0
