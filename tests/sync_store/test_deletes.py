"""Deletes with a scope: everywhere (a delete record of ids only, tombstones kept for good,
the text erased on every machine that reads it) or on this machine only (a marker keeps
later records out; the others keep it); re-importing a deleted source is a new act."""

from __future__ import annotations

import io
import json

import pytest

from chatgpt_export import conversations as export_of
from chatgpt_export import kyoto
from sync_stores import (
    conversation_by_gid,
    dump,
    file_bytes,
    gid_of,
    machines_open,
    pending,
    published,
    pull,
)
from turnlog.formats.importers import chatgpt

SECRET = "the door code is 7391-secret"


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path, "ABC") as opened:
        yield opened


def _private_conversation(a, b):
    conv = a.conversations.create(f"Title about {SECRET}")
    turn = a.turns.commit(conv.id, pending(f"remember {SECRET}", f"noted: {SECRET}"))
    a.memory.add_pin(conv.id, f"pin: {SECRET}", sources=[turn.id])
    a.conversations.update(conv.id, system_prompt=f"prompt {SECRET}")
    pull(b, a)
    return conv.id, conversation_by_gid(b, gid_of(a, conv.id)), turn


def test_a_delete_everywhere_erases_the_text_on_the_machine_that_reads_it(machines):
    a, b = machines["A"], machines["B"]
    on_a, on_b, turn = _private_conversation(a, b)
    gid = gid_of(a, on_a)
    assert SECRET.encode() in file_bytes(b)
    a.sync_feed.delete_conversations([on_a], everywhere=True)
    records = published(a)
    assert [r["kind"] for r in records] == ["delete"]
    assert SECRET not in json.dumps(records)  # ids only: no title, no text
    assert {gid, turn.id} <= set(records[0]["targets"])
    applied = pull(b, a)
    assert gid in applied.erased and turn.id in applied.erased
    assert conversation_by_gid(b, gid) is None
    assert SECRET.encode() not in file_bytes(b)
    assert SECRET.encode() not in file_bytes(a)
    assert {gid, turn.id} <= b.sync_feed.deleted()
    assert list(b.search("door")) == []


def test_a_record_arriving_after_the_delete_is_kept_out_for_good(machines):
    a, b, c = machines["A"], machines["B"], machines["C"]
    on_a, on_b, _turn = _private_conversation(a, b)
    # B appended offline before it heard of the delete; C reads B's turn after the delete.
    b.turns.commit(on_b, pending(f"more about {SECRET}"))
    a.sync_feed.delete_conversations([on_a], everywhere=True)
    pull(c, a)
    pull(c, b)
    assert conversation_by_gid(c, gid_of(b, on_b)) is None
    assert SECRET.encode() not in file_bytes(c)
    pull(b, a)
    pull(a, b)
    assert SECRET.encode() not in file_bytes(a) + file_bytes(b)
    assert dump(a) == dump(b) == dump(c)


def test_a_turn_deleted_everywhere_goes_with_its_versions(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Mixed")
    kept = a.turns.commit(conv.id, pending("keep me"))
    first = a.turns.commit(conv.id, pending("drop", f"answer with {SECRET}"))
    a.turns.commit(conv.id, pending("drop", f"again {SECRET}", replaces=first.id))
    pull(b, a)
    on_b = conversation_by_gid(b, gid_of(a, conv.id))
    a.sync_feed.delete_turn(first.id, everywhere=True)
    pull(b, a)
    assert [t.id for t in b.turns.all(on_b)] == [kept.id]
    assert SECRET.encode() not in file_bytes(b)


def test_a_delete_on_this_machine_keeps_later_records_out_here_only(machines):
    a, b = machines["A"], machines["B"]
    on_a, on_b, _turn = _private_conversation(a, b)
    b.sync_feed.delete_conversations([on_b], everywhere=False)
    assert published(b) == []  # nothing about it leaves this machine
    a.turns.commit(on_a, pending("a later turn on A"))
    a.conversations.update(on_a, title="Renamed on A")
    pull(b, a)
    assert conversation_by_gid(b, gid_of(a, on_a)) is None
    assert SECRET.encode() not in file_bytes(b)
    pull(a, b)
    assert a.conversations.get(on_a).title == "Renamed on A"  # still there on A


def test_reimporting_a_source_deleted_everywhere_is_a_new_conversation(machines):
    a, b = machines["A"], machines["B"]
    items = json.dumps(export_of(kyoto()))

    def imported(store):
        store.imports.write(chatgpt.conversations(io.StringIO(items), "conversations.json"))
        return {gid for (gid,) in store.db.execute_sql('SELECT "gid" FROM "conversations"')}

    first = imported(a)
    assert imported(b) == first  # two machines importing one export hold one conversation
    pull(b, a)
    assert len(dump(b)) == 3  # the conversation, preferences, folders
    (conv,) = [conversation_by_gid(a, g) for g in first]
    a.sync_feed.delete_conversations([conv], everywhere=True)
    pull(b, a)
    again = imported(a)
    assert again and again.isdisjoint(first)
    assert imported(b) == again  # the same new id on every machine that imports it again
    pull(b, a)
    (revived,) = [conversation_by_gid(b, g) for g in again]
    assert [t.question for t in b.turns.active(revived)] == \
        [t.question for t in a.turns.active(conversation_by_gid(a, *again))]
