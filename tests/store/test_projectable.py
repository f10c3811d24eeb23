"""What a preview of a send reads in one go (`store.conversations.projectable`, plain SQL
on one connection) is what the store's parts read: the same summary in effect, the same
pins, notes and preferences, the same versions; a damaged conversation gives its rows
that could not be read and nothing else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from every_table import fill, pending
from turnlog.core.model import ConversationSettings
from turnlog.store import NotFound, TurnlogStore


def test_what_a_preview_reads_is_what_the_store_parts_read(tmp_path: Path):
    with TurnlogStore.open(tmp_path) as store:
        fill(store)  # an edited summary, a pin taken from a turn, an assistant's note
        trips = next(c for c in store.conversations.list() if c.title == "Trips")
        store.memory.add_note(trips.id, "Prefers trains", priority=5)
        store.memory.add_pin(trips.id, "Typed pin 中文", kind="constraint")
        store.memory.add_preference("Answer in English", priority=2)
        store.turns.commit(trips.id, pending("t4b", "search it again", 40, replaces="t4"))
        plain = store.conversations.create("Plain")
        store.conversations.update(plain.id, settings=ConversationSettings(preferences=False))
        store.turns.commit(plain.id, pending("p1", "just one", 50))
        for conversation in (trips.id, plain.id):
            read = store.conversations.projectable(conversation)
            found = store.conversations.readable_turns(conversation)
            assert (read.found.conversation, read.found.turns, read.found.skipped) == (
                found.conversation, found.turns, found.skipped)
            assert read.summary == store.records.latest_summary(conversation)
            assert read.memory == store.memory(conversation)
            assert read.versions is not None
            assert read.versions.superseded == store.turns.versions(conversation).superseded
            assert read.versions.groups() == store.turns.versions(conversation).groups()
        trips_read = store.conversations.projectable(trips.id)
        assert trips_read.summary is not None and "Kyoto" in trips_read.summary.content
        assert trips_read.versions.superseded == frozenset({"t4"})
        assert store.conversations.projectable(plain.id).summary is None
        with pytest.raises(NotFound):
            store.conversations.projectable(plain.id + 100)


def test_a_conversation_with_unreadable_rows_gives_only_those(tmp_path: Path):
    with TurnlogStore.open(tmp_path) as store:
        cid = store.conversations.create("Damaged").id
        for i in range(1, 4):
            store.turns.commit(cid, pending(f"d{i}", f"question {i}", i))
        store.memory.add_pin(cid, "A pin")
    con = sqlite3.connect(tmp_path / "turnlog.sqlite3")
    with con:  # garbage inside one row: an answer that is not UTF-8
        con.execute("PRAGMA trusted_schema = 1")
        con.execute("DROP TRIGGER IF EXISTS turns_append_only_update")
        con.execute("UPDATE turns SET answer = CAST(x'ff00' AS TEXT) WHERE id = 'd2'")
    con.close()
    with TurnlogStore.open(tmp_path, readonly=True) as store:
        read = store.conversations.projectable(cid)
    assert [s.ordinal for s in read.found.skipped] == [2]
    assert [t.id for t in read.found.turns] == ["d1", "d3"]
    assert read.memory is None and read.summary is None and read.versions is None
