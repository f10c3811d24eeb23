"""Ctrl+C in `turnlog-cli`: a clean "interrupted" and exit status 130, at any moment.

The handler is installed when this package is first imported, before anything slow is (the
commands pull in the store, the providers, the file readers) — and before this module
imports anything but `os` and `signal`: until a command runs, Ctrl+C ends the process at
once, when nothing has been opened or written yet. While a command runs (`Raising`), Ctrl+C
is Python's `KeyboardInterrupt` again, so that the command rolls back, stops its children
and says so (`main` turns it into "interrupted"; `ask` into a cancelled request that gives
the question back).
"""

from __future__ import annotations

# The functions of `signal` without the enums that module makes of them when imported
# (half a millisecond at every start): the handlers set here are plain functions.
import _signal as signal
import os

EXIT_INTERRUPTED = 130


def _stop_now(signum: int, frame: object) -> None:
    os.write(2, b"interrupted\n")
    os._exit(EXIT_INTERRUPTED)  # nothing to undo: no command is running


def stop_at_once() -> None:
    """From now on, Ctrl+C ends the process at once with "interrupted" (exit 130)."""
    try:  # noqa: SIM105 - nothing but os and signal is imported yet (see above)
        signal.signal(signal.SIGINT, _stop_now)
    except ValueError:  # not the main thread: only it may set a signal handler
        pass


stop_at_once()  # first of all


def handled() -> None:
    """An interrupt the command handled is not the interpreter's to report again. CPython
    remembers a `KeyboardInterrupt` that left code run from a string (`exec`, `eval`: the
    dataclass and named-tuple makers run that way, while the command loads modules) and,
    run as `python -m turnlog.cli`, ends the process by SIGINT after exiting with 130; the
    next such run, which raises nothing, forgets it."""
    exec("")  # noqa: S102 - an empty string: only clears the remembered interrupt


class Raising:
    """While the block runs, Ctrl+C raises `KeyboardInterrupt`; after it, it ends the
    process at once again (an interrupt while Python shuts down prints no traceback)."""

    def __enter__(self) -> None:
        try:  # noqa: SIM105 - nothing but os and signal is imported here
            signal.signal(signal.SIGINT, signal.default_int_handler)
        except ValueError:  # not the main thread: the handler stays as it is
            pass

    def __exit__(self, *exc: object) -> None:
        stop_at_once()
