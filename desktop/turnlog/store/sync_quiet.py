"""Whether this thread's writes are this machine's own changes (journaled for other machines
by the sync triggers) or the applying of another machine's records (not journaled again).

The sync triggers (migrations.V_SYNC) ask `turnlog_sync_quiet()`, registered on every
connection a writer opens; the store sets it around its own applying (`quiet`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import peewee

_state = threading.local()


def _quiet() -> int:
    return 1 if getattr(_state, "depth", 0) else 0


def register(db: peewee.SqliteDatabase) -> None:
    db.register_function(_quiet, "turnlog_sync_quiet", 0, deterministic=False)


@contextmanager
def quiet() -> Iterator[None]:
    """Writes made on this thread inside are not journaled as this machine's changes."""
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1
