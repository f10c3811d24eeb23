"""What did the model see when it said this? Every committed request's body rebuilt from
its record's references, byte for byte, checked against the SHA-256 kept when it was
sent — over a replay with a compaction, memory edits, a system prompt change, an
attachment, a tool exchange, a regenerated and an edited answer; through the real
loopback chat server and a real SQLite store."""

from __future__ import annotations

import hashlib
import json
import sys
from datetime import UTC, datetime

import pytest

from attachfiles import png_bytes, write
from loopback import Behaviour
from mcp_peers import PEER_SCRIPT
from turnlog.config.secrets import SessionKeys
from turnlog.config.tool_servers import new_server
from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.proof import FAILED, NOT_VERIFIABLE, PartState
from turnlog.core.send import Committed, Failed, PendingTurn
from turnlog.core.tools import Approval
from turnlog.formats.file_reading import read_file
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import rebuild, record_of_turn, sent_request
from turnlog.service.tool_use import SendTools
from turnlog.store import TurnlogStore
from turnlog.toolhost.host import ToolHost

ROUTE = Route("loopback-model")
SETTINGS = ConversationSettings(max_bytes=9_000, context_window=32_768, output_reserve=1024,
                                temperature=0.7)
PEER = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)])


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def seed(store, n, settings=SETTINGS, system_prompt="Answer briefly. 简短回答。"):
    conv = store.conversations.create("records", model="loopback-model", settings=settings,
                                      system_prompt=system_prompt)
    for i in range(1, n + 1):
        store.turns.commit(conv.id, PendingTurn(
            f"r{conv.id}-{i}", f"question {i}: " + "问" * 40 + "q" * 200,
            f"answer {i}: " + "a" * 200, "m", "stop", Usage(), datetime.now(UTC)))
    return conv


def chat_bodies(loopback, since):
    return [r.body for r in loopback.requests[since:]
            if r.json()["messages"][0]["content"] != SUMMARY_PROMPT]


class Replay:
    """Sends through the real sender, remembering the bodies each put on the wire."""

    def __init__(self, store, loopback, conv):
        self.store, self.loopback, self.cid = store, loopback, conv.id
        self.wire: dict[str, list[bytes]] = {}  # turn id → bodies sent, in order

    def send(self, question, *, attachments=(), tools=None, replaces=None):
        conv = self.store.conversations.get(self.cid)
        since = len(self.loopback.requests)
        request = request_for(conv, question, ROUTE, memory=self.store.memory(self.cid),
                              attachments=attachments, tools=tools, replaces=replaces)
        provider = ChatCompletionsProvider(self.loopback.base_url)
        outcome = sender_for(self.store, provider, CostIndex()).send(request)
        assert isinstance(outcome, Committed), outcome
        self.wire[outcome.turn.id] = chat_bodies(self.loopback, since)
        return outcome


def check_all(store, replay):
    """Every request of the replay rebuilds to exactly the bytes the server received,
    and each hashes to its stored hash: verified."""
    for turn_id, bodies in replay.wire.items():
        sources = store.records.sources(record_of_turn(store, replay.cid, turn_id))
        for k, wire in enumerate(bodies, start=1):
            rebuilt = rebuild(sources, k)
            assert rebuilt.why == "", (turn_id, k, rebuilt.why)
            assert rebuilt.verified and rebuilt.rounds == len(bodies)
            assert rebuilt.body == wire
            assert rebuilt.stored_sha256 == hashlib.sha256(wire).hexdigest()


@pytest.fixture(scope="module")
def host():
    tool_host = ToolHost()
    yield tool_host
    tool_host.close()


def test_every_request_of_a_replay_rebuilds_byte_for_byte_and_verifies(
        store, loopback, host, tmp_path):
    conv = seed(store, 30)
    replay = Replay(store, loopback, conv)
    first = replay.send("What did we say first?")
    assert first.projection.summary is not None  # a compaction stood in for old turns
    pin = store.memory.add_pin(conv.id, "The budget is 500 € 💶")
    preference = store.memory.add_preference("Use metric units.", priority=5)
    store.memory.add_note(conv.id, "Background: a trip to Oslo.", priority=4)
    replay.send("And the budget?")
    # Additions never change what an old request shows.
    store.memory.edit_pin(pin.id, "The budget is 500 € 💶, flights included")
    store.memory.edit_preference(preference.id, "Use metric units, always.", priority=5)
    replay.send("Still the budget?")
    store.conversations.update(conv.id, system_prompt="Answer briefly. 简短回答。 Cite.")
    replay.send("Which units?")
    photo = write(tmp_path, "chart.png", png_bytes(64, 48, marker="chart"))
    notes = write(tmp_path, "notes.txt", "水\n外套\n".encode())
    replay.send("Look at these.", attachments=(read_file(photo), read_file(notes)))
    loopback.script(Behaviour.calls(("echo", '{"text":"香山 🍁"}'), text="Let me check."),
                    Behaviour.answer("It says 香山."))
    tools = SendTools(host, [PEER], SessionKeys(), lambda *a: Approval.RUN)
    tool_turn = replay.send("Echo 香山 please", tools=tools)
    assert len(replay.wire[tool_turn.turn.id]) == 2
    loopback.script(Behaviour.answer("A second sample."))
    regenerated = replay.send("Echo 香山 please", tools=None, replaces=tool_turn.turn.id)
    replay.send("Edited question", replaces=regenerated.turn.id)
    replay.send("One more after the versions.")
    check_all(store, replay)

    # The window's numbering: the tool turn's number shows its newest version in use.
    numbers = {t.id: n for n, t in enumerate(store.turns(conv.id), start=1)}
    last = store.turns(conv.id)[-1]
    shown = sent_request(store, conv.id, numbers[last.id])
    assert shown.verified and shown.body == replay.wire[last.id][-1]
    marks = shown.marks
    assert marks["sent verbatim"] and marks["in summary"]


def test_a_record_keeps_references_not_text(store, loopback):
    conv = seed(store, 30, system_prompt="")
    replay = Replay(store, loopback, conv)
    for i in range(5):
        replay.send(f"question number {i} " + "x" * 300)
    rows = store.db.execute_sql(
        "SELECT sent, summarized, left_out, run_first, run_last, sha256, options "
        "FROM requests WHERE body_format = 1").fetchall()
    assert len(rows) == 5
    for row in rows:
        assert len("".join(str(v) for v in row).encode()) < 600
        assert "question" not in "".join(str(v) for v in row)
    assert store.db.execute_sql("SELECT count(*) FROM kept_texts").fetchone()[0] == 0


def test_failed_requests_keep_no_body_and_say_so(store, loopback):
    conv = seed(store, 2)
    loopback.script(Behaviour.length())
    request = request_for(conv, "cut?", ROUTE)
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                         CostIndex()).send(request)
    assert isinstance(outcome, Failed)
    (row,) = store.db.execute_sql("SELECT id, body_format, sha256 FROM requests").fetchall()
    assert row[1:] == (None, None)
    shown = rebuild(store.records.sources(row[0]))
    assert shown.body is None and shown.why == FAILED and not shown.verified


def test_a_record_from_before_request_hashes_is_not_verifiable(store):
    conv = seed(store, 3)
    from turnlog.core.send import RequestRecord

    store.records.add(RequestRecord(conv.id, datetime.now(UTC), "m", "committed", 900,
                                    9_000, 300, 7_000, False, (1, 2), (), (),
                                    turn_id=f"r{conv.id}-3"))
    (record_id,) = store.records.ids_of(conv.id, f"r{conv.id}-3")
    shown = rebuild(store.records.sources(record_id))
    assert shown.why == NOT_VERIFIABLE and shown.body is None and not shown.verified
    assert shown.marks["sent verbatim"] == [(1, 2)]
    question = [p for p in shown.parts if p.kind == "question"]
    assert question[0].state is PartState.SHOWN and question[0].ordinal == 3


def test_tool_definitions_are_stored_once_and_go_with_the_last_record(store, loopback, host):
    conv = seed(store, 1)
    replay = Replay(store, loopback, conv)
    tools = SendTools(host, [PEER], SessionKeys(), lambda *a: Approval.RUN)
    replay.send("a", tools=tools)
    replay.send("b", tools=tools)
    assert store.db.execute_sql("SELECT count(*) FROM tool_sets").fetchone()[0] == 1
    definitions = store.db.execute_sql("SELECT definitions FROM tool_sets").fetchone()[0]
    assert "echo" in {t["function"]["name"] for t in json.loads(definitions)}
    store.memory.add_preference("Metric units.")
    replay.send("c", tools=tools)
    assert store.db.execute_sql("SELECT count(*) FROM kept_texts").fetchone()[0] == 2
    store.privacy.delete_conversation(conv.id)
    for table in ("tool_sets", "text_sets", "text_set_members", "kept_texts"):
        assert store.db.execute_sql(f"SELECT count(*) FROM {table}").fetchone()[0] == 0


def _record(store, cid, turn_id, summary_id=None):
    from turnlog.core.proof import RequestProof
    from turnlog.core.send import RequestRecord

    store.records.add(RequestRecord(cid, datetime.now(UTC), "m", "committed", 900, 9_000,
                                    300, 7_000, False, (1,), (), (), turn_id=turn_id,
                                    summary_id=summary_id,
                                    proof=RequestProof(sha256=("0" * 64,))))


def test_earlier_versions_stay_while_a_record_shows_them_and_go_with_the_last(
        store, loopback):
    from turnlog.core.compaction import SummaryDraft
    from turnlog.store.summaries import KEEP_PER_CONVERSATION

    conv = seed(store, 4)
    replay = Replay(store, loopback, conv)
    pin = store.memory.add_pin(conv.id, "version 1")
    sent = [replay.send("q0")]
    for n in range(2, 5):  # each edit only adds: every version a record shows is kept
        store.memory.edit_pin(pin.id, "version 1" + "".join(f" +{k}" for k in range(2, n + 1)))
        sent.append(replay.send(f"q{n}"))
    pins = "SELECT count(*) FROM kept_texts WHERE kind = 'pin'"
    assert store.db.execute_sql(pins).fetchone()[0] == 4
    check_all(store, replay)

    # A record naming an older summary keeps it past the newest few …
    def summary(n):
        return store.records.save_summary(conv.id, SummaryDraft(
            (f"r{conv.id}-1",), 1, 1, f"d{n}", f"summary {n}", "m", "k", 5, (), (),
            store.conversations.generation(conv.id)))

    old = summary(0)
    _record(store, conv.id, f"r{conv.id}-2", summary_id=old.id)
    for n in range(1, KEEP_PER_CONVERSATION + 2):
        summary(n)
    assert store.records.summary(old.id) is not None
    # … and, with the records that showed them, the versions they alone named go.
    store.records.max_per_conversation = 1
    _record(store, conv.id, f"r{conv.id}-3")
    assert store.records.summary(old.id) is None
    assert store.db.execute_sql(pins).fetchone()[0] == 0
