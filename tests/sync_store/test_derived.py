"""What is derived from the log travels too: rolling summaries with their kept versions and
the user's edits, request records (with the texts and tool sets their proofs keep), the
full results of tool calls and failed side requests. Every table a person's records live in
arrives the same on another machine (but what never travels: each machine's usage and
drafts); a request record made on one machine proves its body on the other; a delete
everywhere takes every one of them from every machine."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from cli_runs import cli
from every_table import dump as tables
from every_table import fill, pending
from loopback import Behaviour
from sync_stores import conversation_by_gid, file_bytes, gid_of, machines_open, published, pull
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.numbers import TurnNumbers
from turnlog.core.projection import CostIndex
from turnlog.core.proof import SYSTEM_TEXT, Remembered, RequestProof
from turnlog.core.request_record import RequestRecord
from turnlog.core.send import Committed, PendingTurn
from turnlog.core.summaries import VersionState
from turnlog.core.tools import ToolCall, ToolResult, ToolRound
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import request_of_turn
from turnlog.store import sync_derived, sync_records
from turnlog.store.sync_feed import NOT_CARRIED
from turnlog.store.sync_records import MAX_RECORD_BYTES

# Tables sync does not carry, each with why (the feed's `NOT_CARRIED` names the same).
LOCAL_TABLES = {
    "draft_attachments": "drafts",
    "usage_days": "usage",
    "usage_conversations": "usage",
}
DERIVED_TABLES = ("summaries", "requests", "side_attempts", "tool_results", "kept_texts",
                  "text_sets", "tool_sets", "side_questions", "forks")
PLANTED = ("HELIOTROPE-prompt", "HELIOTROPE-pin", "HELIOTROPE-summary", "HELIOTROPE-tool",
           "HELIOTROPE-question")
SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path) as opened:
        yield opened


def _as_synced(found: dict[str, list[str]]) -> dict[str, list[str]]:
    """Tables as compared across machines: when a conversation last changed here, and the
    mark that a failed side request was counted in this machine's usage, are each
    machine's own."""
    out = {}
    for table, rows in found.items():
        kept = []
        for row in rows:
            values = json.loads(row)
            values.pop("updated_at", None) if table == "conversations" else None
            if table == "side_attempts" and isinstance(values.get("usage"), dict):
                values["usage"].pop("counted", None)
            kept.append(json.dumps(values, sort_keys=True, ensure_ascii=False))
        out[table] = sorted(kept)
    return out


def test_every_table_arrives_the_same_and_only_usage_and_drafts_stay(machines):
    a, b = machines["A"], machines["B"]
    fill(a)
    first = pull(b, a)
    for kind in ("summary", "request", "side_attempt"):
        assert first.counts[kind] >= 1, kind
    before, after = _as_synced(tables(a)), _as_synced(tables(b))
    different = {table for table in before if before[table] != after[table]}
    for table in sorted(different - set(LOCAL_TABLES)):
        assert after[table] == before[table], table
    assert different <= set(LOCAL_TABLES)
    assert set(LOCAL_TABLES.values()) <= set(NOT_CARRIED)
    assert not tables(b)["usage_days"]  # spent on A: counted there only
    assert pull(b, a).counts == {}  # applied once
    assert {r["kind"] for r in published(b)} == set()  # never published back as B's own
    # Every conversation deleted everywhere from B: nothing derived stays on either.
    b.sync_feed.delete_conversations([c for (c,) in b.db.execute_sql(
        'SELECT "id" FROM "conversations"')], everywhere=True)
    pull(a, b)
    for store in (a, b):
        left = {table: store.db.execute_sql(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                for table in DERIVED_TABLES}
        assert left == dict.fromkeys(DERIVED_TABLES, 0)


def _send(store, loopback, cid, question):
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url), CostIndex()).send(
        request_for(store.conversations.get(cid), question, Route("loopback-model")))
    assert isinstance(outcome, Committed)
    return outcome.turn


def _compacted(a, loopback):
    """A long conversation whose requests carried a summary (then the user's edit of it),
    a pinned fact, a system prompt, a turn whose tool result was cut for sending and a
    turn asked again (the requests carried its new version); its turns numbered with a gap
    on A only."""
    cid = a.conversations.create("Garden", model="loopback-model", settings=SETTINGS,
                                 system_prompt=f"Answer briefly {PLANTED[0]}").id
    for i in range(1, 41):
        a.turns.commit(cid, PendingTurn(
            f"g{i}", f"question {i} {PLANTED[4]}: " + "问" * 40, f"answer {i}: " + "a" * 200,
            "m", "stop", Usage(), datetime.now(UTC)))
        if i == 3:  # a turn deleted before any other machine saw it: A numbers with a gap
            a.turns.commit(cid, PendingTurn("gone", "typo", "?", "m", "stop", Usage(),
                                            datetime.now(UTC)))
            a.sync_feed.delete_turn("gone", everywhere=True)
    a.turns.commit(cid, PendingTurn("g40v", "question 40 again", "answer 40 again", "m",
                                    "stop", Usage(), datetime.now(UTC), replaces="g40"))
    full = f"{PLANTED[3]} row\n" * 400
    searched = ToolRound((ToolCall("call_1", "search", '{"q": "x"}'),),
                         (ToolResult("call_1", full[:50], cut_bytes=len(full)),),
                         full_results={"call_1": full})
    a.turns.commit(cid, PendingTurn("g41", "search it", "found", "m", "stop", Usage(),
                                    datetime.now(UTC), tools=(searched,)))
    a.memory.add_pin(cid, f"Beds face south {PLANTED[1]}", sources=["g1"])
    loopback.default = Behaviour.answer("Summary v1.")
    made = _send(a, loopback, cid, "first?")
    a.records.edit_summary(cid, f"Edited: tulips {PLANTED[2]}", 9)
    edited = _send(a, loopback, cid, "second?")
    return cid, [made, edited]


def test_a_request_proves_its_body_on_the_machine_it_reached_and_deletes_reach_all(
        machines, loopback, tmp_path, monkeypatch):
    a, b = machines["A"], machines["B"]
    cid, sent = _compacted(a, loopback)
    for turn in sent:
        assert request_of_turn(a, cid, turn.id).verified
    pull(b, a)
    there = conversation_by_gid(b, gid_of(a, cid))
    numbered = [{t.id: t.ordinal for t in s.turns.all(c)}[sent[-1].id]
                for s, c in ((a, cid), (b, there))]
    assert numbered[0] == numbered[1] + 1  # each machine numbers its turns itself
    for turn in sent:
        rebuilt = request_of_turn(b, there, turn.id)
        assert rebuilt.verified, rebuilt.why
        assert rebuilt.body == request_of_turn(a, cid, turn.id).body
    # turnlog-cli sent on B says so too (the turn as B's window numbers it)
    monkeypatch.setenv("TURNLOG_HOME", str(b.home))
    ordinal = next(t.ordinal for t in b.turns.active(there) if t.id == sent[-1].id)
    number = TurnNumbers.of(b.turns.versions(there)).number(ordinal)
    shown = cli("sent", "--conversation", str(there), "--turn", str(number), "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["verified"] is True
    history = [(v.summary.content, v.state) for v in b.records.summary_history(there)]
    assert history == [(v.summary.content, v.state) for v in a.records.summary_history(cid)]
    assert history[-1] == (f"Edited: tulips {PLANTED[2]}", VersionState.CURRENT)
    assert b.turns.tool_result("g41", "call_1") == a.turns.tool_result("g41", "call_1")

    # An undo on B reaches A: the edit it made there stays only for the record that sent it.
    b.records.undo_summary_edit(there)
    pull(a, b)
    states = [v.state for v in a.records.summary_history(cid)]
    assert states == [v.state for v in b.records.summary_history(there)]
    assert states[-1] == VersionState.UNDONE

    # A turn the summary covers, deleted everywhere from B: its summaries go on both.
    b.sync_feed.delete_turn("g1", everywhere=True)
    pull(a, b)
    for store, conv in ((a, cid), (b, there)):
        assert store.records.summary_history(conv) == []
        assert not request_of_turn(store, conv, sent[0].id).verified
    assert PLANTED[2].encode() not in file_bytes(a) + file_bytes(b)

    b.sync_feed.delete_conversations([there], everywhere=True)
    pull(a, b)
    for store in (a, b):
        assert [r for r in published(store) if r["kind"] != "delete"] == []
        assert store.db.execute_sql(
            'SELECT (SELECT count(*) FROM "requests") + (SELECT count(*) FROM "summaries") + '
            '(SELECT count(*) FROM "tool_results") + (SELECT count(*) FROM "kept_texts")'
        ).fetchone()[0] == 0
    for store in (a, b):
        store.close()
    for path in tmp_path.rglob("*"):
        if path.is_file() and "machine-" in str(path):
            held = path.read_bytes()
            assert not [p for p in PLANTED if p.encode() in held], path


def test_what_is_derived_of_a_conversation_deleted_here_stays_out_and_bounds_hold(machines):
    a, b = machines["A"], machines["B"]
    fill(a)
    pull(b, a)
    (trips,) = [c for (c,) in a.db.execute_sql(
        'SELECT "id" FROM "conversations" WHERE "title" = \'Trips\'')]
    b.sync_feed.delete_conversations([conversation_by_gid(b, gid_of(a, trips))],
                                     everywhere=False)
    a.records.edit_summary(trips, "Three trips, one to Nara.", 8)
    made = RequestRecord(
        conversation_id=trips, started_at=datetime.now(UTC), model="m1", outcome="committed",
        body_bytes=9, max_bytes=9_000, input_tokens=3, token_budget=900, tokens_exact=True,
        sent=(), summarized=(), left_out=(), usage=Usage(1, 1, 2),
        proof=RequestProof(("ab" * 32,), texts=(Remembered(SYSTEM_TEXT, "", "Be brief."),)))
    a.records.add(made)
    # A record whose kept texts would not fit one change record travels without them.
    other = a.conversations.create("Other").id
    huge = Remembered(SYSTEM_TEXT, "", "x" * MAX_RECORD_BYTES)
    a.records.add(replace(made, conversation_id=other, proof=replace(made.proof,
                                                                     texts=(huge,))))
    applied = pull(b, a)
    assert applied.counts == {"conversation": 1, "request": 1}  # nothing of Trips
    assert b.db.execute_sql('SELECT "sha256", "texts_id" FROM "requests" r JOIN '
                            '"conversations" c ON c."id" = r."conversation_id" WHERE '
                            'c."title" = \'Other\'').fetchall() == [(None, None)]


def test_request_records_from_other_machines_are_bounded_as_this_machines_own(machines):
    a, b = machines["A"], machines["B"]
    on_a = a.conversations.create("Busy").id
    pull(b, a)
    on_b = conversation_by_gid(b, gid_of(a, on_a))
    b.records.max_per_conversation = 3
    start = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)

    def record(cid, minute, outcome, **kwargs):
        return RequestRecord(
            conversation_id=cid, started_at=start + timedelta(minutes=minute), model="m",
            outcome=outcome, body_bytes=1, max_bytes=2, input_tokens=1, token_budget=2,
            tokens_exact=False, sent=(), summarized=(), left_out=(), **kwargs)

    b.records.add(record(on_b, 10, "sent on B"))
    oldest = RequestProof(("ab" * 32,), texts=(Remembered(SYSTEM_TEXT, "", "Be brief."),))
    a.records.add(record(on_a, 0, "A at 9:00", proof=oldest))
    for minute in (1, 2, 3):
        a.records.add(record(on_a, minute, f"A at 9:0{minute}"))
    assert pull(b, a).counts == {"request": 4}
    # The oldest give way, wherever they were sent from; what only they kept goes along.
    kept = sorted(r.outcome for r in b.records.of(on_b))
    assert kept == ["A at 9:02", "A at 9:03", "sent on B"]
    assert b.db.execute_sql('SELECT count(*) FROM "text_sets"').fetchone()[0] == 0
    assert pull(b, a).counts == {}  # a record dropped here does not come back
    assert len(b.records.of(on_b)) == 3
    assert len(a.records.of(on_a)) == 4  # A bounds its own by its own limit


def test_a_record_naming_more_runs_of_turns_than_a_record_may_carry_travels_as_their_span(
        machines, monkeypatch):
    """The bound on a list in a change record, lowered (10,000 runs need 20,000 turns): a
    request that sent every other turn names more runs than another machine accepts, so
    it travels as the span they lie in; carried as it is, it would stop every sync."""
    for module in (sync_derived, sync_records):
        monkeypatch.setattr(module, "MAX_LIST", 3)
    a, b = machines["A"], machines["B"]
    on_a = a.conversations.create("Sparse").id
    a.turns.commit_many(on_a, [pending(f"s{i}", f"question {i}", i) for i in range(1, 9)])
    a.records.add(RequestRecord(
        conversation_id=on_a, started_at=datetime.now(UTC), model="m", outcome="ok",
        body_bytes=1, max_bytes=2, input_tokens=1, token_budget=2, tokens_exact=False,
        sent=(1, 3, 5, 7), summarized=(), left_out=()))
    assert pull(b, a).counts["request"] == 1
    on_b = conversation_by_gid(b, gid_of(a, on_a))
    numbered = {t.id: t.ordinal for t in b.turns.all(on_b)}
    (sent,) = [r.sent for r in b.records.of(on_b)]
    assert sent == tuple(range(numbered["s1"], numbered["s7"] + 1))
