"""Storage faults are named by SQLite's result code, provoked for real where possible;
anything that is not a fault of the environment stays the bug it is."""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import UTC, datetime

import peewee
import pytest

from damage import scribble_over_table
from turnlog.core.failures import FailureKind, StoreError
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import DatabaseCorrupt, DatabaseLocked, DiskFull, TurnlogStore
from turnlog.store.errors import (
    CannotOpen,
    DatabaseReadOnly,
    DiskIOError,
    classify,
    result_code,
)


def pending(turn_id: str, answer: str = "a") -> PendingTurn:
    return PendingTurn(id=turn_id, question="q", answer=answer, model="m",
                       finish_reason="stop", usage=Usage(), created_at=datetime.now(UTC))


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def test_another_program_holding_the_write_lock_is_database_locked(store, turnlog_home):
    conv = store.conversations.create("c")
    store.db.execute_sql("PRAGMA busy_timeout = 100")
    other = sqlite3.connect(turnlog_home / "turnlog.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseLocked) as info:
            store.turns.commit(conv.id, pending("t1"))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert "locked by another program" in str(info.value)
    assert "Close other programs" in str(info.value)
    assert info.value.kind is FailureKind.STORAGE
    assert store.turns.commit(conv.id, pending("t1")).ordinal == 1  # fine once released


def test_a_file_that_is_not_a_database_is_database_corrupt(turnlog_home):
    (turnlog_home / "turnlog.sqlite3").write_bytes(b"SQLite format 2\0 no, a text file " * 300)
    with pytest.raises(DatabaseCorrupt) as info:
        TurnlogStore.open(turnlog_home)
    assert "SQLITE_NOTADB" in str(info.value)
    assert "Restore it from a backup" in str(info.value)


def test_a_damaged_page_is_database_corrupt(store, turnlog_home):
    conv = store.conversations.create("c")
    for i in range(40):
        store.turns.commit(conv.id, pending(f"t{i}", "x" * 3000))
    store.close()
    scribble_over_table(turnlog_home / "turnlog.sqlite3")
    with TurnlogStore.open(turnlog_home) as again, pytest.raises(DatabaseCorrupt) as info:
        again.turns(conv.id)
    assert "SQLITE_CORRUPT" in str(info.value)


def test_a_read_only_database_is_named(store, turnlog_home):
    conv = store.conversations.create("c")
    if os.geteuid() != 0:
        store.close()
        path = turnlog_home / "turnlog.sqlite3"
        path.chmod(0o444)
        try:
            with pytest.raises((DatabaseReadOnly, CannotOpen)), \
                    TurnlogStore.open(turnlog_home) as s:
                s.turns.commit(conv.id, pending("t1"))
        finally:
            path.chmod(0o600)
        return
    # root writes through file permissions: make this connection read-only instead.
    store.db.execute_sql("PRAGMA query_only = 1")
    with pytest.raises(DatabaseReadOnly) as info:
        store.turns.commit(conv.id, pending("t1"))
    assert "cannot be written" in str(info.value) and "SQLITE_READONLY" in str(info.value)
    assert "Check the permissions" in str(info.value)


def test_a_full_disk_is_disk_full_and_keeps_what_was_saved(store):
    conv = store.conversations.create("c")
    store.turns.commit(conv.id, pending("t1"))
    pages = store.db.execute_sql("PRAGMA page_count").fetchone()[0]
    store.db.execute_sql(f"PRAGMA max_page_count = {pages + 1}")
    with pytest.raises(DiskFull) as info:
        store.turns.commit(conv.id, pending("t2", "long answer " * 50_000))
    assert "is full" in str(info.value) and "nothing was lost" in str(info.value)
    assert [t.id for t in store.turns(conv.id)] == ["t1"]
    store.db.execute_sql("PRAGMA max_page_count = 1073741823")  # space freed: saving works
    store.turns.commit(conv.id, pending("t2", "long answer " * 50_000))
    assert [t.id for t in store.turns(conv.id)] == ["t1", "t2"]


def test_a_database_path_that_cannot_be_opened_is_named(turnlog_home):
    (turnlog_home / "turnlog.sqlite3").mkdir()
    with pytest.raises(CannotOpen) as info:
        TurnlogStore.open(turnlog_home)
    assert "cannot be opened" in str(info.value)
    # The writer lock was given back: the next open (once fixed) succeeds.
    (turnlog_home / "turnlog.sqlite3").rmdir()
    TurnlogStore.open(turnlog_home).close()


def test_an_error_that_is_not_the_environment_is_re_raised_as_a_bug(store, turnlog_home):
    conv = store.conversations.create("c")
    other = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    other.execute('ALTER TABLE "requests" DROP COLUMN "attempt"')  # a schema Turnlog never made
    other.commit()
    other.close()
    with pytest.raises(peewee.OperationalError) as info:
        store.records.of(conv.id)
    assert not isinstance(info.value, StoreError)
    assert "attempt" in str(info.value)


def test_io_errors_and_os_errors_are_classified_by_code():
    """An I/O error cannot be provoked on a healthy disk: classify one as SQLite reports it,
    wrapped by peewee the way a query raises it."""
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 10 | (4 << 8)  # SQLITE_IOERR_READ
    io.sqlite_errorname = "SQLITE_IOERR_READ"
    try:
        try:
            raise io
        except sqlite3.OperationalError as err:
            raise peewee.OperationalError(err, *err.args) from None
    except peewee.OperationalError as wrapped:
        assert result_code(wrapped) == 10
        named = classify(wrapped, "/data/turnlog.sqlite3")
    assert isinstance(named, DiskIOError)
    assert "SQLITE_IOERR_READ" in str(named) and "may be failing" in str(named)
    assert isinstance(classify(OSError(errno.ENOSPC, "No space left"), "p"), DiskFull)
    assert isinstance(classify(OSError(errno.EROFS, "Read-only file system"), "p"),
                      DatabaseReadOnly)
    assert classify(OSError(errno.EINVAL, "Invalid argument"), "p") is None
    assert classify(ValueError("not storage"), "p") is None
