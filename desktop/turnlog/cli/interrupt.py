"""Ctrl+C in `turnlog-cli`: a clean "interrupted" and exit status 130, at any moment.

The handler is installed when this package is first imported, before anything slow is (the
commands pull in the store, the providers, the file readers): until a command runs, Ctrl+C
ends the process at once, when nothing has been opened or written yet. While a command runs
(`raising`), Ctrl+C is Python's `KeyboardInterrupt` again, so that the command rolls back,
stops its children and says so (`main` turns it into "interrupted"; `ask` into a cancelled
request that gives the question back).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

EXIT_INTERRUPTED = 130


def _stop_now(signum: int, frame: FrameType | None) -> None:
    os.write(2, b"interrupted\n")
    os._exit(EXIT_INTERRUPTED)  # nothing to undo: no command is running


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def stop_at_once() -> None:
    """From now on, Ctrl+C ends the process at once with "interrupted" (exit 130)."""
    if _in_main_thread():  # only the main thread may set a signal handler
        signal.signal(signal.SIGINT, _stop_now)


@contextlib.contextmanager
def raising() -> Iterator[None]:
    """While the block runs, Ctrl+C raises `KeyboardInterrupt`; after it, it ends the
    process at once again (an interrupt while Python shuts down prints no traceback)."""
    if not _in_main_thread():
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        stop_at_once()


stop_at_once()
