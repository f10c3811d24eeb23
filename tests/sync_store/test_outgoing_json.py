"""A machine's change records as their JSON (`outgoing_json`, what a sync packs into its
objects): each is the record `outgoing` hands, whether SQLite wrote it (a plain turn) or
Python did (a turn with files or tool results, a version, a delete, every other kind), and
says what the sync reads of it without parsing it (real SQLite files)."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sync_stores import machines_open, pending
from turnlog.core.attachments import Attachment, AttachmentKind
from turnlog.core.model import Usage
from turnlog.core.pending import PendingTurn
from turnlog.core.tools import ToolCall, ToolResult, ToolRound
from turnlog.sync.payload import Payload, parse_payload

PHOTO = b"\x89PNG-kyoto-" + bytes(range(256)) * 8


@pytest.fixture
def store(tmp_path):
    with machines_open(tmp_path, "A") as opened:
        yield opened["A"]


def _everything(store) -> None:
    conv = store.conversations.create("Kyoto 🗾 京都")
    store.turns.commit(conv.id, pending("Where to stay? 住哪里？\n\"quoted\" \\ \t tab"))
    incomplete = replace(pending("Cut off?", "half an ans"), finish_reason="length",
                         reasoning="thinking 思考", incomplete="length",
                         usage=Usage(10, 20, 30))
    first = store.turns.commit(conv.id, incomplete)
    store.turns.commit(conv.id, pending("Cut off? again", replaces=first.id))
    photo = Attachment(name="temple.png", kind=AttachmentKind.IMAGE, mime="image/png",
                       size=len(PHOTO), digest=hashlib.sha256(PHOTO).hexdigest(), sent=PHOTO,
                       sent_mime="image/png", original=PHOTO, notes=("a note",))
    store.turns.commit(conv.id, replace(pending("What is in this photo?"),
                                        attachments=(photo,)))
    searched = ToolRound((ToolCall("call_1", "search", '{"q": "x"}'),),
                         (ToolResult("call_1", "found rows"),))
    store.turns.commit(conv.id, PendingTurn("g-tools", "search it", "found", "m", "stop",
                                            Usage(), datetime.now(UTC), tools=(searched,)))
    gone = store.conversations.create("Gone")
    store.turns.commit(gone.id, pending("soon deleted"))
    store.sync_feed.delete_conversations([gone.id], everywhere=True)


def _all_json(store, limit: int):
    found, cursor = [], 0
    while True:
        page, after = store.sync_feed.outgoing_json(cursor, limit)
        found += page
        if after == cursor:
            return found
        cursor = after


@pytest.mark.parametrize("limit", [1, 3, 1000])
def test_each_records_json_is_the_record_outgoing_hands(store, limit):
    _everything(store)
    records, _ = store.sync_feed.outgoing(0, 1000)
    written = _all_json(store, limit)
    assert [json.loads(o.json) for o in written] == records
    assert {r["kind"] for r in records} >= {"conversation", "turn", "version", "delete"}
    for outgoing, record in zip(written, records, strict=True):
        assert (outgoing.kind, outgoing.id, outgoing.conv) == \
            (record["kind"], record["id"], record["conv"])
        # what the sync reads: a delete's targets, a turn's files; a plain turn it never parses
        wanted = record["kind"] == "delete" or bool(record.get("files"))
        assert (outgoing.record == record) if wanted else outgoing.record is None
    assert any(o.record and o.record.get("files") for o in written)


def _opened(page) -> list[dict]:
    """The records of an object holding `page`, as the machine that opens it reads them."""
    machine = "m" * 32
    payload = Payload.fresh(machine, "laptop", 9, "2026-12-07T00:00:00+00:00", {}, page)
    data = payload.joined()
    assert len(data) == payload.size
    return parse_payload(data, machine, 9).sections[9]


@pytest.mark.parametrize("limit", [1, 3, 1000])
def test_a_page_read_by_columns_holds_what_the_records_say(store, limit):
    """What a sync packs into an object (`outgoing_page`): the same records, in the same
    order, as `outgoing_json`, once the object is opened (its plain turns by columns, the
    rest as JSON); the ids a delete everywhere can remove from it (each record's own and
    its conversation's, a delete's conversation not); the records the wire side reads (a
    delete's targets, a turn's files) and the cursor past the page."""
    _everything(store)
    cursor, columns = 0, 0
    while True:
        page = store.sync_feed.outgoing_page(cursor, limit)
        records, after = store.sync_feed.outgoing_json(cursor, limit)
        assert page.count == len(records)
        assert _opened(page) == [json.loads(r.json) for r in records]
        assert page.after == after
        assert page.ids == {r.id for r in records} | {
            r.conv for r in records if r.conv is not None and r.kind != "delete"}
        assert page.read == [r.record for r in records if r.record is not None]
        columns += page.turns.count if page.turns is not None else 0
        if after == cursor:
            assert not page.count
            assert 0 < columns < len(_all_json(store, 1000))  # turns by columns, the rest not
            return
        cursor = after


def test_a_page_leaves_out_what_was_deleted_since(store):
    """A conversation deleted here after it was journaled: its records (and its ids) are
    not in the page, the page goes on past them."""
    _everything(store)
    kept = store.conversations.create("kept 保留")
    store.turns.commit(kept.id, pending("stays"))
    gone = store.conversations.create("gone later")
    store.turns.commit(gone.id, pending("goes"))
    (gone_gid,) = store.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                       (gone.id,)).fetchone()
    store.sync_feed.delete_conversations([gone.id], everywhere=False)
    page = store.sync_feed.outgoing_page(0, 1000)
    texts = json.dumps(_opened(page), ensure_ascii=False)
    assert "stays" in texts and "goes" not in texts
    assert gone_gid not in page.ids
    assert page.after == store.sync_feed.outgoing_json(0, 1000)[1]


def _dangling(store, count: int) -> None:
    """Journal rows whose records are gone (none is built for them)."""
    for n in range(count):
        store.db.execute_sql('INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", '
                             '"value") VALUES (\'pin\', ?, NULL, ?, NULL)', (f"gone{n}",) * 2)


def test_a_page_of_records_gone_since_is_passed_over(store):
    """A page whose every record is gone since it was journaled is not handed as an empty
    page (the end of the journal, to a sync): the page after it is."""
    _dangling(store, 3)
    kept = store.conversations.create("kept 保留")
    store.turns.commit(kept.id, pending("stays 留下"))
    page = store.sync_feed.outgoing_page(0, 3)
    assert [r["kind"] for r in _opened(page)] == ["conversation", "turn"]
    assert page.after == store.sync_feed.outgoing_json(0, 1000)[1]
    assert store.sync_feed.outgoing_page(page.after, 3).count == 0


def test_a_plain_turn_written_by_sqlite_is_the_one_python_builds(store):
    """Two writers of one turn record: SQLite's for a plain turn, Python's for the rest."""
    _everything(store)
    feed = store.sync_feed
    turns = [o for o in _all_json(store, 1000) if o.kind == "turn"]
    assert len(turns) == 5
    for outgoing in turns:
        built = feed._turn_record(outgoing.id)
        assert built is not None
        record = json.loads(outgoing.json)
        assert {k: record[k] for k in built} == built
        assert set(record) - set(built) == {"v", "kind", "id", "conv", "hlc"}
    plain = json.loads(turns[0].json)
    assert plain["question"] == "Where to stay? 住哪里？\n\"quoted\" \\ \t tab"
    assert "住哪里" in turns[0].json.decode()  # UTF-8 as it is, not escaped
    cut = json.loads(turns[1].json)
    assert (cut["reasoning"], cut["incomplete"], cut["finish_reason"]) == \
        ("thinking 思考", "length", "length")
    assert json.loads(cut["usage"]) == json.loads(feed.db.execute_sql(
        'SELECT "usage" FROM "turns" WHERE "id" = ?', (turns[1].id,)).fetchone()[0])


def test_a_turn_renumbered_since_it_was_journaled_keeps_its_record(store):
    """A turn is found by the row number its journal row carries; one whose number changed
    since (VACUUM may renumber a table's rows) is found by its id: the same records."""
    _everything(store)
    before = _all_json(store, 1000)
    db = store.db
    (by_number,) = db.execute_sql(
        'SELECT count(*) FROM "sync_journal" j JOIN "turns" t ON t."rowid" = j."turn_row" AND '
        't."id" = j."gid" WHERE j."kind" = \'turn\'').fetchone()
    assert by_number == 5
    low, high = db.execute_sql('SELECT min("rowid"), max("rowid") FROM "turns"').fetchone()
    db.execute_sql('UPDATE "turns" SET "rowid" = -"rowid"')  # numbered the other way round:
    db.execute_sql('UPDATE "turns" SET "rowid" = ? + "rowid"', (low + high,))  # each its own
    assert _all_json(store, 1000) == before  # number now names another turn
    db.execute_sql('UPDATE "sync_journal" SET "turn_row" = NULL')
    assert _all_json(store, 1000) == before


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def _turn_shapes(draw):
    """A turn as a send or an import stores it: any text, a cut-off or stopped answer with
    its reason, reasoning, usage; now and then a newer version of the turn before."""
    finish = draw(st.sampled_from(["stop", "length", "content_filter"]))
    return {"question": draw(_text), "answer": draw(_text), "model": draw(_text),
            "finish": finish, "reasoning": draw(_text),
            "incomplete": None if finish == "stop" else draw(st.none() | st.just(finish)),
            "usage": Usage(*draw(st.tuples(*[st.integers(0, 2**40)] * 3))),
            "version": draw(st.booleans())}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes=st.lists(_turn_shapes(), min_size=1, max_size=6))
def test_each_turn_sqlite_writes_is_the_record_python_builds(tmp_path_factory, shapes):
    """Whatever a turn holds, the record SQLite writes from its row (found by its row
    number) is the one Python builds for it: the same fields, the same values."""
    with machines_open(tmp_path_factory.mktemp("shapes"), "A") as opened:
        store = opened["A"]
        conv = store.conversations.create("shapes 形状")
        last = None
        for shape in shapes:
            turn = PendingTurn(
                uuid.uuid4().hex, shape["question"], shape["answer"], shape["model"],
                shape["finish"], shape["usage"], datetime.now(UTC),
                replaces=last if shape["version"] else None,
                reasoning=shape["reasoning"], incomplete=shape["incomplete"])
            last = store.turns.commit(conv.id, turn).id
        feed = store.sync_feed
        turns = [o for o in _all_json(store, 4) if o.kind == "turn"]
        assert len(turns) == len(shapes)
        for outgoing in turns:
            record, built = json.loads(outgoing.json), feed._turn_record(outgoing.id)
            assert outgoing.record is None
            assert {k: record[k] for k in built} == built
            assert set(record) - set(built) == {"v", "kind", "id", "conv", "hlc"}
