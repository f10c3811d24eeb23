"""The SQLite log: durability, isolation, idempotence, locking and named faults."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from turnlog.core.failures import StoreError
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn, RequestRecord
from turnlog.store import AlreadyOpen, DatabaseCorrupt, TurnlogStore
from turnlog.store.errors import TurnIdConflict
from turnlog.store.migrations import SCHEMA_VERSION


def pending(turn_id: str, question: str = "q", answer: str = "a") -> PendingTurn:
    return PendingTurn(
        id=turn_id,
        question=question,
        answer=answer,
        model="m",
        finish_reason="stop",
        usage=Usage(3, 4, 7),
        created_at=datetime.now(UTC),
    )


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def test_reopen_gives_identical_log(turnlog_home):
    with TurnlogStore.open(turnlog_home) as s:
        conv = s.conversations.create("数据", system_prompt="sys", model="m",
                                      settings=ConversationSettings(max_bytes=9000))
        written = [s.turns.commit(conv.id, pending(f"t{i}", f"问题 {i} 😀", f"answer\n{i}"))
                   for i in range(5)]
    with TurnlogStore.open(turnlog_home) as s:
        assert s.turns(conv.id) == tuple(written)
        again = s.conversations.get(conv.id)
        assert again.title == "数据" and again.settings.max_bytes == 9000
        assert [t.ordinal for t in s.turns(conv.id)] == [1, 2, 3, 4, 5]
        assert s.turns(conv.id)[0].usage == Usage(3, 4, 7)


def test_conversations_never_see_each_others_turns(store):
    a = store.conversations.create("a")
    b = store.conversations.create("b")
    store.turns.commit(a.id, pending("a1", "alpha"))
    store.turns.commit(b.id, pending("b1", "beta"))
    store.turns.commit(a.id, pending("a2", "alpha 2"))
    assert [t.question for t in store.turns(a.id)] == ["alpha", "alpha 2"]
    assert [t.question for t in store.turns(b.id)] == ["beta"]
    assert [t.ordinal for t in store.turns(b.id)] == [1]


def test_commit_is_idempotent_by_turn_id(store):
    conv = store.conversations.create("c")
    first = store.turns.commit(conv.id, pending("same", "q1", "a1"))
    second = store.turns.commit(conv.id, pending("same", "q1", "a1"))
    assert first == second
    assert len(store.turns(conv.id)) == 1
    with pytest.raises(TurnIdConflict):
        store.turns.commit(conv.id, pending("same", "a different question"))
    assert len(store.turns(conv.id)) == 1


def test_import_keeps_the_commit_rules_in_one_transaction(store):
    conv = store.conversations.create("imported", model="m")
    store.turns.commit(conv.id, pending("t1", "first 你好"))
    batch = [pending("t1", "first 你好"), pending("t2", "second 🙂"), pending("t2", "second 🙂"),
             pending("t3", "third")]
    imported = store.turns.commit_many(conv.id, batch)
    # The stored turn comes back as it is; a repeated id within the batch is one turn.
    assert [(t.id, t.ordinal) for t in imported] == [("t1", 1), ("t2", 2), ("t2", 2), ("t3", 3)]
    assert store.turns(conv.id) == tuple(imported[i] for i in (0, 1, 3))
    before = store.turns(conv.id)
    with pytest.raises(TurnIdConflict):
        store.turns.commit_many(conv.id, [pending("t4", "fourth"),
                                          pending("t2", "another question")])
    assert store.turns(conv.id) == before  # nothing of the refused batch stays
    # Ordinals go on after the newest, also after a refused batch.
    [next_turn] = store.turns.commit_many(conv.id, [pending("t5", "fifth")])
    assert next_turn.ordinal == 4


def test_stale_generation_is_not_written(store):
    conv = store.conversations.create("c")
    store.turns.commit(conv.id, pending("t1"))
    from turnlog.store.models import ConversationRow

    ConversationRow.update(generation=ConversationRow.generation + 1).execute(store.db)
    stale = replace(pending("t2"), generation=0)
    with pytest.raises(StoreError):
        store.turns.commit(conv.id, stale)
    assert [t.id for t in store.turns(conv.id)] == ["t1"]


def test_request_records_hold_numbers_not_text(store, turnlog_home):
    conv = store.conversations.create("c")
    store.turns.commit(conv.id, pending("t1", "ZEBRA-QUESTION", "ZEBRA-ANSWER"))
    store.records.add(RequestRecord(
        conversation_id=conv.id, started_at=datetime.now(UTC), model="m", outcome="timeout",
        body_bytes=100, max_bytes=16000, input_tokens=40, token_budget=1000, tokens_exact=False,
        sent=(1,), summarized=(), left_out=tuple(range(2, 100)), usage=Usage(),
    ))
    records = store.records.of(conv.id)
    assert len(records) == 1
    assert records[0].left_out == tuple(range(2, 100))
    assert records[0].outcome == "timeout"
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    dump = "\n".join(str(r) for r in con.execute("SELECT * FROM requests"))
    con.close()
    assert "ZEBRA" not in dump


def test_pragmas_and_schema_version(store):
    assert store.db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.db.execute_sql("PRAGMA secure_delete").fetchone()[0] == 1
    assert store.db.execute_sql("PRAGMA synchronous").fetchone()[0] == 2
    assert store.db.execute_sql("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_second_writer_process_is_refused(store, turnlog_home):
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from turnlog.store import TurnlogStore, AlreadyOpen
        try:
            TurnlogStore.open(Path({str(turnlog_home)!r}))
        except AlreadyOpen as err:
            print(err)
            sys.exit(7)
        sys.exit(0)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 7, result.stderr
    assert "already open" in result.stdout
    assert str(os.getpid()) in result.stdout


def test_second_writer_in_process_is_refused_and_reader_allowed(store, turnlog_home):
    with pytest.raises(AlreadyOpen):
        TurnlogStore.open(turnlog_home)


def test_lock_is_released_on_close(turnlog_home):
    TurnlogStore.open(turnlog_home).close()
    TurnlogStore.open(turnlog_home).close()


def test_corrupt_database_is_a_named_error(turnlog_home):
    (turnlog_home / "turnlog.sqlite3").write_bytes(b"this is not sqlite at all " * 400)
    with pytest.raises(DatabaseCorrupt) as info:
        TurnlogStore.open(turnlog_home)
    assert "damaged" in str(info.value)
    # The lock was released: fixing the file lets the next open succeed.
    (turnlog_home / "turnlog.sqlite3").unlink()
    TurnlogStore.open(turnlog_home).close()


def test_newer_schema_is_refused(turnlog_home):
    TurnlogStore.open(turnlog_home).close()
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer Turnlog"):
        TurnlogStore.open(turnlog_home)


def test_readonly_open_writes_nothing(turnlog_home):
    with TurnlogStore.open(turnlog_home) as s:
        conv = s.conversations.create("c")
        s.turns.commit(conv.id, pending("t1"))
    path = turnlog_home / "turnlog.sqlite3"
    before = path.read_bytes()
    with TurnlogStore.open(turnlog_home, readonly=True) as s:
        assert len(s.turns(conv.id)) == 1
        with pytest.raises(StoreError):
            s.conversations.create("nope")
    assert path.read_bytes() == before


def test_conversation_list_is_newest_first_and_searchable(store):
    a = store.conversations.create("Rust notes")
    b = store.conversations.create("周末计划")
    store.turns.commit(a.id, pending("x"))  # activity moves `a` to the top
    assert [c.id for c in store.conversations()] == [a.id, b.id]
    assert [c.title for c in store.conversations("计划")] == ["周末计划"]
    assert [c.title for c in store.conversations("rust")] == ["Rust notes"]


def test_request_records_are_bounded_per_conversation(store):
    conv = store.conversations.create("busy")
    other = store.conversations.create("quiet")
    store.records.max_per_conversation = 5

    def record(cid: int, outcome: str) -> RequestRecord:
        return RequestRecord(
            conversation_id=cid, started_at=datetime.now(UTC), model="m", outcome=outcome,
            body_bytes=1, max_bytes=2, input_tokens=1, token_budget=2, tokens_exact=False,
            sent=(), summarized=(), left_out=())

    store.records.add(record(other.id, "kept"))
    for i in range(8):
        store.records.add(record(conv.id, f"r{i}"))
    assert [r.outcome for r in store.records.of(conv.id)] == ["r3", "r4", "r5", "r6", "r7"]
    assert [r.outcome for r in store.records.of(other.id)] == ["kept"]


def test_database_and_its_wal_are_private(store, turnlog_home):
    store.conversations.create("c")
    for name in ("turnlog.sqlite3", "turnlog.sqlite3-wal"):
        assert (turnlog_home / name).stat().st_mode & 0o777 == 0o600, name


def test_store_modules_import_each_other_one_way():
    """log uses deletion, summaries, upgrade; they never import log (or each other)."""
    import ast
    from pathlib import Path

    import turnlog.store

    folder = Path(turnlog.store.__file__).parent
    imports = {}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        imports[path.stem] = {
            alias.name if node.module is None else node.module
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1
            for alias in node.names
        }
    for module in ("deletion", "summaries", "upgrade", "migrations", "rows", "errors",
                   "models", "search"):
        assert imports[module] <= {"errors", "models", "rows", "migrations", "search",
                                   "attachments", "proofs", "schema_version"}, module
    assert not imports["schema_version"], "the schema's number: a leaf"
    assert imports["proofs"] <= {"models", "rows", "attachments"}, "record proofs: near a leaf"
    assert not imports["search"], "the search index's module is a leaf"
    assert imports["attachments"] <= {"errors"}, "the attachments' module is all but a leaf"
    assert "upgrade" not in imports["migrations"] and "rows" not in imports["models"]
