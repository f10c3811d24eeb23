"""The typesetter's process, seen from the window: one child (`typesetting.serve`) started
through `turnlog.system.children`, fed one formula at a time by a thread of its own. No Qt here.

Each formula has a deadline and the process an address-space limit: a formula that runs
past its deadline (a 1000×1000 matrix) or needs more memory than that is answered with
the reason — the window then shows it as typed — and the process is started again for
the next one, so no formula blocks the ones after it. The process dies with Turnlog,
killed or not (`turnlog.system.children`).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import select
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...system import children

log = logging.getLogger(__name__)

FORMULA_DEADLINE_S = 5.0
"""How long one formula may take; past it the process is stopped and started again."""
START_DEADLINE_S = 30.0
"""How long the process may take to load ziamath and say it is ready."""
ADDRESS_SPACE = 480 * 1024 * 1024
"""The process's address-space limit (ziamath loaded: about 50 MiB of it), so it stays
under 500 MB whatever it is asked."""
MAX_REPLY_BYTES = 64 * 1024 * 1024

Typeset = tuple[str, float, float, float]
"""(SVG, width, ascent, descent) in pixels."""
Answer = Callable[[Typeset | str], None]
"""Called on the typesetter's thread with the typeset formula or the reason it is not."""


@dataclass(frozen=True, slots=True)
class _Job:
    request: bytes
    answer: Answer


class _Stopped(Exception):
    """The process ended, or broke its protocol, before it answered."""


class Typesetter:
    """Formulas to typeset, in order, on a thread of its own (`submit` never waits)."""

    def __init__(self, *, deadline_s: float = FORMULA_DEADLINE_S,
                 address_space: int = ADDRESS_SPACE) -> None:
        self.deadline_s = deadline_s
        self.address_space = address_space
        self.restarts = 0  # how often the process was started again (a deadline, a death)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._child: children.Child | None = None
        self._buffer = bytearray()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="turnlog-typesetter",
                                        daemon=True)
        self._thread.start()

    @property
    def pid(self) -> int | None:
        """The process's pid while it runs (for the tests and the benchmarks)."""
        child = self._child
        return child.pid if child is not None and child.running() else None

    def submit(self, latex: str, display: bool, pixels: float, colour: str,
               outlines: Any, answer: Answer) -> None:
        if self._closed:
            answer("the typesetter was stopped")
            return
        request = json.dumps([latex, display, pixels, colour, outlines]).encode() + b"\n"
        self._jobs.put(_Job(request, answer))

    def close(self) -> None:
        """Stop the thread and the process (what was asked and not done is dropped)."""
        self._closed = True
        self._jobs.put(None)
        self._thread.join(2)
        self._stop_child()

    # -- on the typesetter's thread ------------------------------------------------
    def _serve(self) -> None:
        try:
            self._ready_child()  # ziamath loaded before the first formula asks for it
        except (_Stopped, OSError) as err:
            log.warning("the formula typesetter did not start: %s", err)
            self._stop_child()
        while (job := self._jobs.get()) is not None:
            try:
                job.answer(self._run(job.request))
            except Exception:  # noqa: BLE001 - the thread must live on for the next one
                log.exception("a typeset formula could not be handed over")
        self._stop_child()

    def _run(self, request: bytes) -> Typeset | str:
        """The typeset formula or the reason; a process that dies on a formula is started
        again and asked once more (it may have been killed from outside)."""
        for attempt in (1, 2):
            try:
                child = self._ready_child()
                assert child.stdin is not None
                child.stdin.write(request)
                reply = self._reply(child, self.deadline_s)
            except TimeoutError:
                self._restart()
                return f"it took longer than {self.deadline_s:g} s to typeset"
            except (_Stopped, OSError, children.ChildStartFailed) as err:
                self._restart()
                if attempt == 2:
                    return f"the typesetter stopped on it ({err})"
                continue
            if "ok" in reply:
                svg, width, ascent, descent = reply["ok"]
                return str(svg), float(width), float(ascent), float(descent)
            return str(reply.get("error", "the typesetter gave no reason"))
        raise AssertionError("unreachable")

    def _ready_child(self) -> children.Child:
        if self._child is not None and self._child.running():
            return self._child
        self._stop_child()
        self._child = children.start(
            [sys.executable, "-m", "turnlog.ui.transcript.typesetting"], stdin="pipe",
            stdout="pipe", stderr="tail", limits=children.Limits(self.address_space))
        self._buffer.clear()
        try:
            ready = self._reply(self._child, START_DEADLINE_S)
        except TimeoutError:
            raise _Stopped(f"it did not start within {START_DEADLINE_S:g} s") from None
        if ready != {"ready": True}:
            raise _Stopped("it did not start")
        return self._child

    def _reply(self, child: children.Child, deadline_s: float) -> dict[str, Any]:
        """The next reply line, within `deadline_s` (TimeoutError) and MAX_REPLY_BYTES."""
        assert child.stdout is not None
        fd = child.stdout.fileno()
        ends = time.monotonic() + deadline_s
        while (end := self._buffer.find(b"\n")) < 0:
            left = ends - time.monotonic()
            if left <= 0:
                raise TimeoutError
            readable, _w, _x = select.select([fd], [], [], left)
            if not readable:
                continue
            chunk = os.read(fd, 1024 * 1024)
            if not chunk:
                tail = child.stderr_lines(1)
                raise _Stopped(tail[0] if tail else "it ended")
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY_BYTES:
                raise _Stopped("its reply was too long")
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        try:
            reply = json.loads(line)
        except ValueError:
            raise _Stopped("its reply could not be read") from None
        if not isinstance(reply, dict):
            raise _Stopped("its reply could not be read")
        return reply

    def _restart(self) -> None:
        self.restarts += 1
        self._stop_child()

    def _stop_child(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop(0)
        self._buffer.clear()
