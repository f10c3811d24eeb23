"""Reasoning models and per-conversation sampling, end to end over HTTP and SQLite.

A reasoning model (DeepSeek's reasoner, Qwen3 behind vLLM or llama.cpp …) streams its
thought as `reasoning_content` before the answer. Turnlog keeps it apart from the
answer, stores it with the turn, and never sends it back. Temperature, top_p and max
output tokens are the conversation's: each is in the body exactly when set.
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from loopback import Behaviour
from turnlog.core.body import Message, RequestOptions, build_body
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.provider import CancelToken
from turnlog.core.send import Committed
from turnlog.providers import DEEPSEEK, ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.store import TurnlogStore
from turnlog.store.migrations import SCHEMA_VERSION
from turnlog.store.salvage import readable_turns
from turnlog.ui.request.inspector_text import reasoning_text

KEY = "sk-test-Zx81kQ2mVb7pLr4T"
THOUGHT = "The user greets me in Chinese. 用户在打招呼，我应该礼貌地回答。 🤔"
ANSWER = "你好！How can I help?"


def chat_body(text: str = "你好", *, stream: bool = True) -> bytes:
    return build_body("deepseek-reasoner", [Message("user", text)],
                      RequestOptions(stream=stream))


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
def test_reasoning_content_is_read_apart_from_the_answer(loopback, stream):
    loopback.script(Behaviour.answer(ANSWER, reasoning=THOUGHT, chunks=4))
    provider = ChatCompletionsProvider(loopback.base_url, api_key=KEY, preset=DEEPSEEK)
    answer: list[str] = []
    thought: list[str] = []
    reply = provider.complete(chat_body(stream=stream), on_delta=answer.append,
                              cancel=CancelToken(), on_reasoning=thought.append)
    assert (reply.content, reply.reasoning, reply.finish_reason) == (ANSWER, THOUGHT, "stop")
    assert "".join(answer) == ANSWER
    assert "".join(thought) == THOUGHT
    if stream:
        assert len(thought) > 1, "the reasoning reaches the caller as it streams"


def test_without_a_reasoning_listener_the_reasoning_still_comes_back_and_never_leaks(loopback):
    loopback.script(Behaviour.answer(ANSWER, reasoning=THOUGHT))
    provider = ChatCompletionsProvider(loopback.base_url)
    answer: list[str] = []
    reply = provider.complete(chat_body(), on_delta=answer.append, cancel=CancelToken())
    assert "".join(answer) == ANSWER == reply.content
    assert reply.reasoning == THOUGHT


def test_a_key_echoed_into_the_reasoning_is_redacted(loopback):
    loopback.script(Behaviour.answer(ANSWER, reasoning=f"The header said Bearer {KEY} ok",
                                     chunks=7))
    provider = ChatCompletionsProvider(loopback.base_url, api_key=KEY)
    thought: list[str] = []
    reply = provider.complete(chat_body(), on_delta=lambda text: None, cancel=CancelToken(),
                              on_reasoning=thought.append)
    assert KEY not in reply.reasoning and KEY not in "".join(thought)
    assert "[redacted]" in reply.reasoning


def test_reasoning_is_kept_with_the_turn_and_never_sent_back(loopback, turnlog_home):
    settings = ConversationSettings(temperature=0.3, top_p=0.9, output_reserve=2048)
    with TurnlogStore.open(turnlog_home) as store:
        conversation = store.conversations.create("thinking", model="deepseek-reasoner",
                                                  settings=settings)
        provider = ChatCompletionsProvider(loopback.base_url, api_key=KEY, preset=DEEPSEEK)
        route = Route("deepseek-reasoner", include_usage=True)
        loopback.script(Behaviour.answer(ANSWER, reasoning=THOUGHT,
                                         usage={"prompt_tokens": 9, "completion_tokens": 30,
                                                "total_tokens": 39,
                                                "completion_tokens_details": {
                                                    "reasoning_tokens": 25}}),
                        Behaviour.answer("Second answer."))
        sender = sender_for(store, provider, CostIndex())
        streamed: list[str] = []
        first = sender.send(request_for(conversation, "你好", route),
                            on_reasoning=streamed.append)
        assert isinstance(first, Committed)
        assert first.turn.reasoning == THOUGHT == "".join(streamed)
        assert first.turn.answer == ANSWER
        [stored] = store.turns(conversation.id)
        assert (stored.reasoning, stored.answer) == (THOUGHT, ANSWER)
        # The server's count of reasoning tokens is kept with the usage.
        assert stored.usage == Usage(9, 30, 39, reasoning_tokens=25)
        assert reasoning_text(stored.reasoning, stored.usage).startswith(
            f"{len(THOUGHT.encode()):,} bytes · 25 tokens (reported by the server)")

        second = sender.send(request_for(conversation, "And now?", route))
        assert isinstance(second, Committed)
    # The second request carries the first turn's question and answer, not its thought:
    # byte for byte the body a log without reasoning would send.
    sent = loopback.requests[-1].body
    assert sent == (
        '{"model":"deepseek-reasoner","messages":[{"role":"user","content":"你好"},'
        '{"role":"assistant","content":"你好！How can I help?"},'
        '{"role":"user","content":"And now?"}],"stream":true,'
        '"stream_options":{"include_usage":true},"max_tokens":2048,"temperature":0.3,'
        '"top_p":0.9}').encode()
    assert "用户在打招呼".encode() not in sent


@pytest.mark.parametrize(("settings", "options"), [
    pytest.param(ConversationSettings(), '"max_tokens":8192', id="defaults"),
    pytest.param(ConversationSettings(temperature=0.7, top_p=0.95, output_reserve=1024),
                 '"max_tokens":1024,"temperature":0.7,"top_p":0.95', id="all-set"),
    pytest.param(ConversationSettings(temperature=0.0, send_max_tokens=False), '"temperature":0.0',
                 id="server-default-max-tokens"),
    pytest.param(ConversationSettings(top_p=0.5, send_max_tokens=False), '"top_p":0.5',
                 id="only-top-p"),
])
def test_sampling_settings_are_in_the_body_exactly_when_set(loopback, turnlog_home, settings,
                                                            options):
    with TurnlogStore.open(turnlog_home) as store:
        conversation = store.conversations.create("sampling", model="m", settings=settings)
        conversation = store.conversations.get(conversation.id)  # as stored and read back
        provider = ChatCompletionsProvider(loopback.base_url)
        outcome = sender_for(store, provider, CostIndex()).send(
            request_for(conversation, "Hi", Route("m")))
        assert isinstance(outcome, Committed)
    assert loopback.requests[-1].body == (
        '{"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true'
        + ("," + options if options else "") + "}").encode()
    # The output reserve follows max output tokens, and stays for "server default".
    assert outcome.projection.budget.output_reserve == settings.output_reserve


def test_settings_stored_by_an_older_version_keep_their_body(turnlog_home):
    old = {"max_bytes": 16000, "context_window": None, "output_reserve": 4096,
           "compaction": True, "temperature": 0.5, "stream": True, "compaction_target": 50}
    settings = ConversationSettings.from_json(old)
    assert (settings.top_p, settings.send_max_tokens) == (None, True)
    assert ConversationSettings.from_json({"temperature": "hot", "top_p": True,
                                           "send_max_tokens": "no"}) == ConversationSettings()


@pytest.mark.parametrize("version", [1, 2])
def test_an_upgraded_database_keeps_its_turns_and_holds_reasoning(tmp_path, version):
    from schema_fixtures import FIXTURES
    home = tmp_path / "home"
    home.mkdir()
    shutil.copyfile(FIXTURES[version], home / "turnlog.sqlite3")
    with TurnlogStore.open(home) as store:
        conversation = store.conversations()[0]
        before = store.turns(conversation.id)
        assert before and all(turn.reasoning == "" for turn in before)
        from datetime import UTC, datetime

        from turnlog.core.send import PendingTurn
        store.turns.commit(conversation.id, PendingTurn(
            "new-turn", "Why?", "Because.", "m", "stop", Usage(), datetime.now(UTC),
            reasoning=THOUGHT))
        assert store.turns(conversation.id)[-1].reasoning == THOUGHT
        cid = conversation.id
    con = sqlite3.connect(home / "turnlog.sqlite3")
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
    # What can be read of a (damaged) log carries the reasoning too.
    assert readable_turns(home / "turnlog.sqlite3", cid).turns[-1].reasoning == THOUGHT


def test_salvage_reads_a_log_from_before_the_reasoning_column(tmp_path):
    from schema_fixtures import FIXTURES
    copy = tmp_path / "v2.sqlite3"
    shutil.copyfile(FIXTURES[2], copy)
    found = readable_turns(copy, 1, immutable=True)
    assert found.turns and all(turn.reasoning == "" for turn in found.turns)
    assert not found.skipped

