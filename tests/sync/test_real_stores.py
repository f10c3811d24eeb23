"""Sync between real data directories (`TurnlogStore.open(home)` and its own feed) through one
storage folder: a fork made by appends on two machines at once is the same on both, a file
a later import adds to a synced turn reaches the other with its bytes, and a delete
everywhere leaves no text of what it deleted on any machine, in what the forks hold too,
nor in any live object opened with the passphrase."""

from __future__ import annotations

import json
import zipfile

import pytest

import chatgpt_export as gpt
from attachfiles import png_bytes
from sync_lists import StoreFeed
from sync_machines import live_plaintexts, make_machine
from turnlog.service.transfer import import_file

SECRET = "SECRET-the-gate-code-4417"
TEMPLE_MARK = "TEMPLE-PIXELS-7731"
TEMPLE = png_bytes(40, 30, marker=TEMPLE_MARK)


@pytest.fixture
def pair(tmp_path):
    storage = tmp_path / "Sync"
    machines = [make_machine(tmp_path, name, storage, StoreFeed) for name in ("laptop", "desk")]
    yield machines
    for machine in machines:
        machine.close()


def _sync_all(machines, rounds: int = 2) -> None:
    for _ in range(rounds):
        for machine in machines:
            report = machine.sync()
            assert report.problems == [], report.problems


def _forked(pair) -> str:
    """A conversation with a first turn holding SECRET, then a turn each machine appended
    after it before hearing of the other's: one of them goes to a fork."""
    a, b = pair
    conv = a.feed.new_conversation("Gate")
    a.feed.add_turn(conv, f"remember {SECRET}", "noted")
    _sync_all(pair)
    a.feed.add_turn(conv, "asked on the laptop", "yes")
    b.feed.add_turn(conv, "asked on the desk", "no")
    _sync_all(pair)
    return conv


def _held(machine) -> bytes:
    machine.feed.checkpoint()
    return machine.feed.file_bytes()


def test_a_fork_made_by_two_machines_appending_at_once_is_the_same_on_both(pair):
    _forked(pair)
    a, b = pair
    dumps = [a.feed.dump(), b.feed.dump()]
    forks = [c for c in dumps[0].values() if c["fork"]]
    assert len(forks) == 1
    assert dumps[0] == dumps[1]  # the fork says it continued on the same machine on both
    # Where a person sees the fork, it names that machine by its name, not its id.
    shown = set()
    for machine in pair:
        store = machine.feed.store
        (fork,) = [c for (c,) in store.db.execute_sql(
            'SELECT "conversation_id" FROM "forks" WHERE "continued_on" IS NOT NULL')]
        origin = store.forks.origin(fork)
        shown.add(origin.continued_on)
        assert origin.describe().startswith(f"continued on {origin.continued_on}, from “Gate”")
    assert shown in ({"laptop"}, {"desk"})  # each machine numbers the turn its own way


def test_a_delete_everywhere_takes_the_fork_sync_made_along_on_every_machine(pair):
    conv = _forked(pair)
    a, b = pair
    a.feed.delete_everywhere(conv)
    _sync_all(pair)
    assert a.feed.dump() == b.feed.dump() == {}
    for machine in pair:
        assert SECRET.encode() not in _held(machine)
        assert b"asked on the desk" not in _held(machine)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    assert SECRET.encode() not in opened and b"asked on the" not in opened


def test_a_turn_deleted_everywhere_leaves_no_copy_in_a_fork(pair):
    conv = _forked(pair)
    a, b = pair
    first = next(t for t, (q, _a, _m) in a.feed.dump()[conv]["turns"].items() if SECRET in q)
    a.feed.store.sync_feed.delete_turn(first, everywhere=True)
    _sync_all(pair)
    assert a.feed.dump() == b.feed.dump()
    for machine in pair:
        assert SECRET.encode() not in _held(machine), machine.name
    assert SECRET.encode() not in b"".join(live_plaintexts(a.folder, a.keys))


def _derived(machine, conv: str) -> str:
    """On `machine`: a turn whose tool result was cut for sending, a summary of the turn
    before it, a request record keeping a pinned fact's text, a failed side request.
    Returns the summarized turn's id."""
    from datetime import UTC, datetime

    from turnlog.core.compaction import SummaryDraft
    from turnlog.core.model import Usage
    from turnlog.core.pending import PendingTurn
    from turnlog.core.proof import PIN_TEXT, Remembered, RequestProof
    from turnlog.core.request_record import RequestRecord
    from turnlog.core.side_records import SideAttempt
    from turnlog.core.tools import ToolCall, ToolResult, ToolRound

    store, now = machine.feed.store, datetime.now(UTC)
    cid = machine.feed._local_id(conv)
    first = machine.feed.add_turn(conv, "plan the beds", "south-facing")
    full = "TOOL-RESULT-ACACIA " * 300
    store.turns.commit(cid, PendingTurn("derived-2", "look it up", "found", "m", "stop",
                                        Usage(), now, tools=(ToolRound(
                                            (ToolCall("c1", "search", "{}"),),
                                            (ToolResult("c1", full[:20], cut_bytes=len(full)),),
                                            full_results={"c1": full}),)))
    store.records.save_summary(cid, SummaryDraft((first,), 1, 1, "d", "SUMMARY-BIRCH", "m",
                                                 "k", 3, (), (), 0))
    pin = store.memory.add_pin(cid, "PIN-CEDAR", sources=["derived-2"])
    store.records.add(RequestRecord(
        conversation_id=cid, started_at=now, model="m", outcome="committed", body_bytes=9,
        max_bytes=9_000, input_tokens=3, token_budget=900, tokens_exact=True, sent=(2,),
        summarized=(1,), left_out=(), usage=Usage(1, 1, 2), turn_id="derived-2",
        proof=RequestProof(("ab" * 32,), run_first="derived-2", run_last="derived-2",
                           run_first_ordinal=2, run_last_ordinal=2, run_count=1,
                           texts=(Remembered(PIN_TEXT, str(pin.id), "PIN-CEDAR"),))))
    store.side.add_attempt(cid, SideAttempt(now, "length", "m", Usage(4, 0, 4), carried=(1,)))
    return first


def test_what_is_derived_travels_and_deletes_leave_none_of_it_in_a_live_object(pair):
    a, b = pair
    conv = a.feed.new_conversation("Beds")
    summarized = _derived(a, conv)
    _sync_all(pair)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    for word in (b"TOOL-RESULT-ACACIA", b"SUMMARY-BIRCH", b"PIN-CEDAR"):
        assert word in opened  # sealed in the objects, not left behind
    held = b.feed.store.db.execute_sql(
        'SELECT (SELECT count(*) FROM "summaries"), (SELECT count(*) FROM "requests"), '
        '(SELECT count(*) FROM "side_attempts"), (SELECT count(*) FROM "tool_results")'
    ).fetchone()
    assert held == (1, 1, 1, 1)
    # The summary rewritten on B, its earlier versions forgotten there: the text it had
    # goes from A and from every live object; the rewrite stays.
    cid_b = b.feed._local_id(conv)
    b.feed.store.records.edit_summary(cid_b, "SUMMARY-DAPHNE", 2)
    _sync_all(pair)
    b.feed.store.records.forget_earlier_summaries(cid_b)
    _sync_all(pair)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    assert b"SUMMARY-BIRCH" not in opened + _held(a) and b"SUMMARY-DAPHNE" in opened
    assert [v.summary.content for v in a.feed.store.records.summary_history(
        a.feed._local_id(conv))] == ["SUMMARY-DAPHNE"]
    # The summarized turn, deleted everywhere: its summary goes from every live object.
    b.feed.store.sync_feed.delete_turn(summarized, everywhere=True)
    _sync_all(pair)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    assert b"SUMMARY-DAPHNE" not in opened and b"TOOL-RESULT-ACACIA" in opened
    # The turn the pin was taken from: the pin goes, and the request record that kept its
    # text, with the turn's tool result, from every machine and every live object.
    a.feed.store.sync_feed.delete_turn("derived-2", everywhere=True)
    _sync_all(pair)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    for machine in pair:
        held = _held(machine)
        for word in (b"TOOL-RESULT-ACACIA", b"PIN-CEDAR"):
            assert word not in held and word not in opened, (machine.name, word)
        assert machine.feed.store.db.execute_sql(
            'SELECT count(*) FROM "requests"').fetchone()[0] == 0
    a.feed.delete_everywhere(conv)
    _sync_all(pair)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    for machine in pair:
        held = _held(machine)
        for word in (b"TOOL-RESULT-ACACIA", b"SUMMARY-BIRCH", b"SUMMARY-DAPHNE", b"PIN-CEDAR"):
            assert word not in held and word not in opened, (machine.name, word)


def test_a_file_a_later_import_adds_travels_with_its_bytes_and_goes_with_its_turn(
        pair, tmp_path):
    a, b = pair
    import_file(a.feed.store, gpt.write_json(tmp_path / "conversations.json",
                                             gpt.conversations()))
    _sync_all(pair)
    with zipfile.ZipFile(tmp_path / "export.zip", "w") as archive:  # the richer form, later
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", TEMPLE)
    import_file(a.feed.store, tmp_path / "export.zip")
    assert a.sync().files_up == 1
    down = b.sync()
    assert (down.files_down, down.problems) == (1, [])
    [(turn_id, digest, added)] = b.feed.store.db.execute_sql(
        'SELECT "turn_id", "original", "added_at" FROM "turn_attachments"').fetchall()
    assert added and b.feed.store.attachments.original(digest) == TEMPLE
    assert TEMPLE_MARK.encode() in _held(b) and list((tmp_path / "Sync").rglob("*.tlb"))
    b.feed.store.sync_feed.delete_turn(turn_id, everywhere=True)
    _sync_all(pair)
    for machine in pair:
        assert machine.feed.store.db.execute_sql(
            'SELECT (SELECT count(*) FROM "turn_attachments") + (SELECT count(*) FROM '
            '"blobs")').fetchone()[0] == 0
        assert TEMPLE_MARK.encode() not in _held(machine)
    assert [p for p in (tmp_path / "Sync").rglob("*.tlb")] == []  # no file object is left


def test_records_after_a_page_of_records_gone_since_reach_the_other_machine(pair):
    """More journal rows than a sync's first page whose records are gone since (none is
    built): the same sync goes on past them to the conversation after them."""
    a, b = pair
    for n in range(600):
        a.feed.store.db.execute_sql(
            'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") VALUES '
            '(\'pin\', ?, NULL, ?, NULL)', (f"gone{n}",) * 2)
    conv = a.feed.new_conversation("After the gap 之后")
    a.feed.add_turn(conv, "still synced?", "yes 是的")
    assert a.sync().published_records == 2
    assert b.sync().problems == []
    held = b.feed.dump()
    assert held[conv]["title"] == "After the gap 之后"
