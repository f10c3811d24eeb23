"""The store under damage and misuse: readers never change a byte, a damaged file gets no
write, what can be read is exported, the writer lock survives a deleted lock file, the
files are private."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

from damage import scribble_over_table
from held_check import HeldCheck
from places import DATA
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import AlreadyOpen, DatabaseCorrupt, NotFound, TurnlogStore
from turnlog.store.errors import NeedsUpgrade


def pending(turn_id: str, answer: str = "an answer") -> PendingTurn:
    return PendingTurn(id=turn_id, question=f"question {turn_id}", answer=answer, model="m",
                       finish_reason="stop", usage=Usage(), created_at=datetime.now(UTC))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fill(home: Path, turns: int = 40, size: int = 3000) -> int:
    with TurnlogStore.open(home) as store:
        conv = store.conversations.create("c")
        for i in range(turns):
            store.turns.commit(conv.id, pending(f"t{i}", f"{i} " + "x" * size))
    return conv.id


def read_everything(home: Path, cid: int | None) -> None:
    with TurnlogStore.open(home, readonly=True) as store:
        for conv in store.conversations():
            store.turns(conv.id)
            store.turns.readable(conv.id)
        if cid is not None:
            store.turns.count(cid)


# --- read-only means read-only -------------------------------------------------------

def test_reading_a_zero_byte_file_leaves_it_empty(turnlog_home):
    path = turnlog_home / "turnlog.sqlite3"
    path.write_bytes(b"")
    with pytest.raises(NotFound, match="empty"):
        TurnlogStore.open(turnlog_home, readonly=True)
    assert path.read_bytes() == b""
    assert sorted(p.name for p in turnlog_home.iterdir()) == ["turnlog.sqlite3"]


def test_reading_a_rollback_journal_database_leaves_it_byte_identical(turnlog_home):
    cid = fill(turnlog_home, turns=5)
    path = turnlog_home / "turnlog.sqlite3"
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
    con.close()
    before = digest(path)
    read_everything(turnlog_home, cid)
    assert digest(path) == before
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


def test_reading_an_old_schema_says_it_needs_an_upgrade_and_changes_nothing(turnlog_home):
    path = turnlog_home / "turnlog.sqlite3"
    shutil.copyfile(DATA / "turnlog-v1.sqlite3", path)
    before = digest(path)
    with pytest.raises(NeedsUpgrade, match="needs an upgrade") as info:
        TurnlogStore.open(turnlog_home, readonly=True)
    assert info.value.code == "storage_needs_upgrade"
    assert digest(path) == before
    assert not list(turnlog_home.glob("*.before-v*"))


# --- fail closed on damage -------------------------------------------------------------

def damage(home: Path) -> None:
    """Overwrite the turns table's root page, as a failing disk would."""
    scribble_over_table(home / "turnlog.sqlite3")


def test_no_write_goes_into_a_damaged_database(turnlog_home):
    cid = fill(turnlog_home)
    damage(turnlog_home)
    path = turnlog_home / "turnlog.sqlite3"
    before = digest(path)
    with TurnlogStore.open(turnlog_home) as store:
        with pytest.raises(DatabaseCorrupt) as first:
            store.conversations.create("new")
        assert first.value.code == "storage_damaged"
        with pytest.raises(DatabaseCorrupt):
            store.turns.commit(cid, pending("late"))
        with pytest.raises(DatabaseCorrupt):
            store.imports.write_one("i", system_prompt="", model="m", turns=[pending("x")])
        assert store.database.damage is first.value
    assert digest(path) == before


def test_a_write_during_the_check_of_the_file_waits_for_its_verdict(turnlog_home):
    """The whole file is checked on a thread and connection of its own (seconds for a large
    log read from disk): reads go on meanwhile, a write waits for the verdict and is
    refused when the file is damaged."""
    cid = fill(turnlog_home)
    damage(turnlog_home)
    path = turnlog_home / "turnlog.sqlite3"
    before = digest(path)
    with TurnlogStore.open(turnlog_home) as store:
        held = HeldCheck(store)
        with ThreadPoolExecutor(2) as threads:
            checking = threads.submit(store.database.check_file)
            assert held.reading.wait(5)
            writing = threads.submit(store.conversations.create, "new")
            assert [c.id for c in store.conversations()] == [cid]  # reads go on
            with pytest.raises(TimeoutError):
                writing.result(timeout=0.3)
            held.release()
            with pytest.raises(DatabaseCorrupt):
                checking.result(timeout=5)
            with pytest.raises(DatabaseCorrupt):
                writing.result(timeout=5)
        assert store.database.damage is not None
    assert digest(path) == before


def test_closing_the_store_stops_a_check_of_the_file_in_progress(turnlog_home):
    fill(turnlog_home)
    store = TurnlogStore.open(turnlog_home)
    held = HeldCheck(store)
    held.pace = 0.5  # each step of the rest: the whole file would take seconds more
    with ThreadPoolExecutor(1) as threads:
        checking = threads.submit(store.database.check_file)
        assert held.reading.wait(5)
        threading.Timer(0.2, held.release).start()
        started = time.monotonic()
        store.close()  # waits for the step in progress only
        assert time.monotonic() - started < 2
        assert checking.result(timeout=1) is False  # no verdict: the next start checks
    assert not store.database.file_checked and store.database.damage is None


def test_a_command_checks_the_file_once_before_its_first_write(turnlog_home):
    """`turnlog-cli` checks on its own thread: the file once, the rolled-back write, then
    its writes go ahead without reading the file again."""
    fill(turnlog_home, turns=3)
    with TurnlogStore.open(turnlog_home) as store:
        steps: list[int] = []
        store.database.on_check_step = lambda: steps.append(1)
        store.database.check_sound()
        assert store.database.checked and steps
        read_through = len(steps)
        store.conversations.create("after the check")
        store.database.check_sound()
        assert len(steps) == read_through


def garble(home: Path, cid: int, ordinal: int) -> None:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    con.execute("UPDATE turns SET answer = CAST(X'48656cff6c6f' AS TEXT) "
                "WHERE conversation_id = ? AND ordinal = ?", (cid, ordinal))
    con.commit()
    con.close()


def test_what_can_be_read_is_exported_row_by_row(turnlog_home):
    cid = fill(turnlog_home, turns=300, size=10)
    garble(turnlog_home, cid, 17)
    garble(turnlog_home, cid, 250)
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        found = store.turns.readable(cid)
    assert len(found.turns) == 298
    assert [t.ordinal for t in found.turns][15:17] == [16, 18]
    assert [(s.ordinal, "answer is not valid UTF-8" in s.reason) for s in found.skipped] == [
        (17, True), (250, True)]


def test_what_can_be_read_of_a_damaged_page_is_exported(turnlog_home):
    cid = fill(turnlog_home, turns=40)
    damage(turnlog_home)
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        found = store.turns.readable(cid)
    assert found.skipped  # counted, not fatal
    assert found.conversation.title == "c"


# --- the writer lock and private files --------------------------------------------------

def test_deleting_the_lock_file_does_not_let_a_second_writer_in(turnlog_home):
    with TurnlogStore.open(turnlog_home) as first:
        first.conversations.create("mine")
        (turnlog_home / "turnlog.lock").unlink()
        with pytest.raises(AlreadyOpen):
            TurnlogStore.open(turnlog_home)
        first.conversations.create("still mine")
    with TurnlogStore.open(turnlog_home) as again:  # released on close
        assert [c.title for c in again.conversations()] == ["still mine", "mine"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_directory_and_its_files_are_private(turnlog_home, monkeypatch):
    monkeypatch.setattr(os, "umask", os.umask)  # restored after the test
    old = os.umask(0o022)
    try:
        os.chmod(turnlog_home, 0o755)
        (turnlog_home / "logs").mkdir(mode=0o755)
        for name in ("window.ini", "logs/turnlog.log", "profiles.json"):
            (turnlog_home / name).write_text("x")
            os.chmod(turnlog_home / name, 0o644)
        with TurnlogStore.open(turnlog_home) as store:
            store.conversations.create("c")
            files = sorted(p.relative_to(turnlog_home).as_posix()
                           for p in turnlog_home.rglob("*") if p.is_file())
            assert {"turnlog.sqlite3", "turnlog.sqlite3-wal", "turnlog.sqlite3-shm",
                    "turnlog.lock", "window.ini", "logs/turnlog.log",
                    "profiles.json"} <= set(files)
            assert {f: oct(mode(turnlog_home / f)) for f in files} == {
                f: oct(0o600) for f in files}
        assert mode(turnlog_home) == 0o700
        assert mode(turnlog_home / "logs") == 0o700
    finally:
        os.umask(old)


def test_an_ask_new_that_fails_leaves_no_empty_conversation(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        kept = store.conversations.create("kept")
        store.turns.commit(kept.id, pending("k"))
        empty = store.conversations.create("the first line of a question")
        assert store.conversations.discard_if_empty(empty.id) is True
        assert store.conversations.discard_if_empty(kept.id) is False
        assert [c.title for c in store.conversations()] == ["kept"]
    for name in ("turnlog.sqlite3", "turnlog.sqlite3-wal"):
        path = turnlog_home / name
        assert not path.exists() or b"the first line of a question" not in path.read_bytes()


def test_import_is_all_or_nothing(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        store.imports.write_one("first", system_prompt="", model="m", turns=[pending("a")])
        clash = [pending("b"), PendingTurn(id="a", question="another question", answer="x",
                                           model="m", finish_reason="stop", usage=Usage(),
                                           created_at=datetime.now(UTC))]
        with pytest.raises(Exception, match="already used"):
            store.imports.write_one("second", system_prompt="", model="m", turns=clash)
        assert [c.title for c in store.conversations()] == ["first"]
        assert not store.turns.exists("b")
