"""Export all, then import into a fresh data directory: every past answer's request still
rebuilds there, byte for byte, to the body its stored SHA-256 proves — after a replay
with a compaction, memory, a system prompt change, an attachment, a tool exchange and
versions, through the real loopback chat server and real SQLite stores."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import pytest

from attachfiles import png_bytes, write
from loopback import Behaviour
from mcp_peers import PEER_SCRIPT
from turnlog.config.secrets import SessionKeys
from turnlog.config.tool_servers import new_server
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, PendingTurn
from turnlog.core.tools import Approval
from turnlog.formats.file_reading import read_file
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import rebuild
from turnlog.service.tool_use import SendTools
from turnlog.service.transfer import export_all, import_file
from turnlog.store import TurnlogStore
from turnlog.toolhost.host import ToolHost

ROUTE = Route("loopback-model")
SETTINGS = ConversationSettings(max_bytes=9_000, context_window=32_768, output_reserve=1024,
                                temperature=0.7)
PEER = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)])


@pytest.fixture(scope="module")
def host():
    tool_host = ToolHost()
    yield tool_host
    tool_host.close()


def send(store, loopback, conv_id, question, **extra):
    request = request_for(store.conversations.get(conv_id), question, ROUTE,
                          memory=store.memory(conv_id), **extra)
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                         CostIndex()).send(request)
    assert isinstance(outcome, Committed), outcome
    return outcome


def replay(store, loopback, host, tmp_path) -> int:
    """A conversation whose requests carried everything a body can carry."""
    conv = store.conversations.create("records", model="loopback-model", settings=SETTINGS,
                                      system_prompt="Answer briefly. 简短回答。")
    for i in range(1, 31):
        store.turns.commit(conv.id, PendingTurn(
            f"r-{i}", f"question {i}: " + "问" * 40 + "q" * 200, f"answer {i}: " + "a" * 200,
            "m", "stop", Usage(), datetime.now(UTC)))
    first = send(store, loopback, conv.id, "What did we say first?")
    assert first.projection.summary is not None  # a compaction stood in for old turns
    store.memory.add_pin(conv.id, "The budget is 500 € 💶")
    store.memory.add_preference("Use metric units.", priority=5)
    store.memory.add_note(conv.id, "Background: a trip to Oslo.", priority=4)
    send(store, loopback, conv.id, "And the budget?")
    store.conversations.update(conv.id, system_prompt="Answer briefly. 简短回答。 Cite.")
    photo = write(tmp_path, "chart.png", png_bytes(64, 48, marker="chart"))
    send(store, loopback, conv.id, "Look at this.", attachments=(read_file(photo),))
    loopback.script(Behaviour.calls(("echo", '{"text":"香山 🍁"}'), text="Let me check."),
                    Behaviour.answer("It says 香山."))
    tools = SendTools(host, [PEER], SessionKeys(), lambda *a: Approval.RUN)
    tool_turn = send(store, loopback, conv.id, "Echo 香山 please", tools=tools)
    loopback.script(Behaviour.answer("A second sample."))
    again = send(store, loopback, conv.id, "Echo 香山 please", replaces=tool_turn.turn.id)
    send(store, loopback, conv.id, "Edited question", replaces=again.turn.id)
    send(store, loopback, conv.id, "One more after the versions.")
    return conv.id


def proven(store) -> list[tuple[str, str, int]]:
    """Every committed record with a hash, each round rebuilt: (its turn's question, the
    hash, whether the rebuilt body verified)."""
    found = []
    for (record_id,) in store.db.execute_sql(
            "SELECT id FROM requests WHERE body_format IS NOT NULL ORDER BY id"):
        sources = store.records.sources(record_id)
        for k in range(1, len(sources.sha256 or (None,)) + 1):
            shown = rebuild(sources, k)
            found.append((sources.answered.question, shown.stored_sha256,
                          int(shown.verified)))
    return found


def test_every_imported_request_record_rebuilds_to_its_hash(turnlog_home, loopback, host,
                                                             tmp_path):
    with TurnlogStore.open(turnlog_home) as source:
        replay(source, loopback, host, tmp_path)
        source.conversations.create("an empty one first")  # numbers differ after import
        before = proven(source)
        done = export_all(source, tmp_path / "all.zip")
    assert len(before) >= 8 and all(ok for _q, _h, ok in before)
    with TurnlogStore.open(tmp_path / "fresh") as target:
        target.conversations.create("this directory's own")
        target.memory.add_pin(target.conversations.create("another").id, "Unrelated pin")
        import_file(target, done.path)
        after = proven(target)
        count = target.db.execute_sql("SELECT count(*) FROM requests").fetchone()[0]
        import_file(target, done.path)  # a second import adds nothing
        assert target.db.execute_sql("SELECT count(*) FROM requests").fetchone()[0] == count
    # The same questions, the same hashes, every one verified in the importing directory.
    assert after == before


def test_a_deleted_pin_in_the_importing_directory_takes_its_kept_texts(turnlog_home, loopback,
                                                                        host, tmp_path):
    """The texts a record carried are named by this directory's pins: deleting the pin
    here forgets its kept versions and the hashes of the requests that carried it."""
    with TurnlogStore.open(turnlog_home) as source:
        replay(source, loopback, host, tmp_path)
        done = export_all(source, tmp_path / "all")
    with TurnlogStore.open(tmp_path / "fresh") as target:
        target.memory.add_pin(target.conversations.create("first").id, "Other pin")
        import_file(target, done.path)
        [conv] = [c for c in target.conversations() if c.title == "records"]
        [pin] = target.memory.pins(conv.id)
        target.memory.remove_pin(pin.id)
        texts = [t for (t,) in target.db.execute_sql("SELECT text FROM kept_texts")]
        assert not any("500 €" in t for t in texts)
        assert "Other pin" not in texts  # never carried by a request, never kept
        after = proven(target)
    carried = [ok for question, _h, ok in after if question != "What did we say first?"]
    assert carried and not any(carried)
