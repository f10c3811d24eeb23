"""The one body builder over combinations of everything a send depends on: tools on or
off, text and image attachments, pins, preferences and notes, a stored summary, edit,
regenerate (with a fresh seed), continue, sampling, a side question, the built-in model
ready or starting.

In every combination where no summary must be made first and the model is ready the
preview says final; wherever it says final, its body is byte for byte what the loopback
server received from the send, and the request record's size is the wire's."""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from attachfiles import png_bytes
from loopback import LoopbackServer
from mcp_peers import PEER_SCRIPT
from turnlog.config.tool_servers import new_server
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, PendingTurn
from turnlog.core.side import SideQuestion
from turnlog.formats.file_reading import read_bytes
from turnlog.providers import CUSTOM, ChatCompletionsProvider
from turnlog.service.chat import Route, pending_local_route, sender_for
from turnlog.service.new_version import CONTINUE, EDIT, REGENERATE, new_version
from turnlog.service.request_body import (
    MODEL_STARTING,
    NO_IMAGES,
    SUMMARY_FIRST,
    Ask,
    build,
    new_sample_seed,
    send_request,
)
from turnlog.service.tool_use import SendTools, tool_preview
from turnlog.store import TurnlogStore
from turnlog.toolhost.host import ToolHost

MODEL = "loopback-model"
LONG = "A long answer about the harbour's tides and the ferry timetable. " * 24


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One store, one loopback server and one MCP tool server (the test peer, started
    once) for every example; each example has a conversation of its own."""
    home = tmp_path_factory.mktemp("turnlog-home")
    server = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)])
    host = ToolHost()
    with LoopbackServer() as loopback, TurnlogStore.open(home) as store:
        tools = SendTools(host, [server], None, lambda call, name, timeout_s, cancel: None)
        assert tools.specs(), tools.problems
        yield store, loopback, host, server
    host.close()


def _files(text: bool, image: bool):
    files = []
    if text:
        files.append(read_bytes("notes.txt", "第一行 notes\n".encode()))
    if image:
        files.append(read_bytes("chart.png", png_bytes(48, 24)))
    return tuple(files)


def _conversation(store, *, summary: bool, sampling: bool):
    settings = ConversationSettings(
        max_bytes=9_000 if summary else 64_000, context_window=32_000, compaction=summary,
        temperature=0.3 if sampling else None, top_p=0.9 if sampling else None)
    conversation = store.conversations.create("combination", model=MODEL, settings=settings)
    pending = [PendingTurn(uuid.uuid4().hex, f"Question {n}?", LONG if summary else "Short.",
                           MODEL, "stop", Usage(), datetime.now(UTC)) for n in range(1, 8)]
    store.turns.commit_many(conversation.id, pending)
    return store.conversations.get(conversation.id)


def _memory(store, conversation, *, pins: bool, notes: bool, preferences: bool):
    if pins:
        store.memory.add_pin(conversation.id, "The ferry ticket is FR-2291.")
    if notes:
        store.memory.add_note(conversation.id, "Prefers the morning crossing.", priority=2)
    if preferences:
        store.memory.add_preference(f"Answer briefly ({conversation.id}).")


def _make_summary(store, loopback, conversation, provider):
    """A summary made by a real send through the loopback server, so one is stored."""
    outcome = sender_for(store, provider, CostIndex()).send(send_request(Ask(
        conversation, "Before we go on?", Route(MODEL), memory=store.memory(conversation.id))))
    assert isinstance(outcome, Committed), outcome
    assert store.records.latest_summary(conversation.id) is not None


@settings(max_examples=24, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(tools_on=st.booleans(), text=st.booleans(), image=st.booleans(), pins=st.booleans(),
       notes=st.booleans(), preferences=st.booleans(), summary=st.booleans(),
       act=st.sampled_from([None, EDIT, REGENERATE, CONTINUE]), sampling=st.booleans(),
       side=st.booleans(), starting=st.booleans())
def test_final_previews_are_what_goes_on_the_wire(world, tools_on, text, image, pins, notes,
                                                 preferences, summary, act, sampling, side,
                                                 starting):
    store, loopback, host, server = world
    provider = ChatCompletionsProvider(loopback.base_url, preset=CUSTOM)
    conversation = _conversation(store, summary=summary, sampling=sampling)
    if summary:
        _make_summary(store, loopback, conversation, provider)
    if act == CONTINUE:  # a turn kept incomplete, the newest
        store.turns.commit(conversation.id, PendingTurn(
            uuid.uuid4().hex, "And the rest?", "The rest is", MODEL, "length", Usage(),
            datetime.now(UTC), incomplete="length"))
    _memory(store, conversation, pins=pins, notes=notes, preferences=preferences)
    if side:
        store.side.add(conversation.id, SideQuestion(
            uuid.uuid4().hex, "Aside: which pier?", "Pier 4.", MODEL, datetime.now(UTC)))
    question, files, replaces, partial = "Which ferry should I take?", _files(text, image), \
        None, None
    if act is not None:
        version = new_version(store, conversation.id, act, "Which ferry, then?", files)
        question, files, replaces, partial = version.question, version.attachments, \
            version.turn.id, version.partial
    running = Route(MODEL, seed=True)  # a server that takes a seed: Regenerate sends one
    tools = SendTools(host, [server], None, lambda *args: None) if tools_on else None
    ask = Ask(conversation, question, pending_local_route(MODEL, 32_000) if starting
              else running, store.turns.log(conversation.id), attachments=files,
              memory=store.memory(conversation.id),
              summary=store.records.latest_summary(conversation.id), replaces=replaces,
              partial=partial,
              tool_specs=tool_preview(host, [server]).specs if tools_on else (),
              seed=new_sample_seed(running) if act == REGENERATE else None)
    built = build(ask)  # the preview: what the counter and the inspector show
    assert built.planned is not None, built.refusal
    if starting:  # the built-in model takes no images: Send refuses those first
        assert built.not_final == (NO_IMAGES if image else MODEL_STARTING)
        return
    summary_first = not built.planned.final
    event(f"summary {built.planned.state}")
    assert built.final == (not summary_first), built.not_final
    if summary_first:
        assert built.not_final == SUMMARY_FIRST
        return
    if tools_on:  # the preview offers what the send offers
        assert [t["function"]["name"] for t in json.loads(built.body)["tools"]] == \
            [spec.name for spec in tools.specs()]
    before = len(loopback.requests)
    outcome = sender_for(store, provider, CostIndex()).send(
        send_request(replace(ask, route=running, tools=tools, turn_id=None)))
    assert isinstance(outcome, Committed), outcome
    assert len(loopback.requests) == before + 1  # no summary call: the body went as previewed
    wire = loopback.requests[-1].body
    event("final, compared with the wire")
    assert wire == built.body
    record = store.records.of(conversation.id)[-1]
    assert record.body_bytes == len(wire) == outcome.projection.body_bytes
    assert json.loads(wire).get("seed") == record.seed == ask.seed
    assert (ask.seed is not None) == (act == REGENERATE)
