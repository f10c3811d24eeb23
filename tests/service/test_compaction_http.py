"""Compaction over real HTTP: the loopback server plays both the summarizer and the model.

The same paths as core/test_compaction.py, through the real httpx provider and the
real SQLite store, so what the summarizer and the model receive is checked on
the wire.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from compaction_http_setup import ANSWER, long_seed
from loopback import Behaviour
from turnlog.core.compaction import SUMMARY_PROMPT, preview
from turnlog.core.failures import FailureKind
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, Failed, PendingTurn
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.store import TurnlogStore

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def seed(store: TurnlogStore, n: int, settings: ConversationSettings = SETTINGS):
    conv = store.conversations.create("http", model="loopback-model", settings=settings)
    for i in range(1, n + 1):
        store.turns.commit(conv.id, PendingTurn(
            f"h{conv.id}-{i}", f"question {i}: " + "问" * 40 + "q" * 200,
            f"answer {i}: " + "a" * 200, "m", "stop", Usage(), datetime.now(UTC)))
    return conv


def send(store, loopback, conv, question="now?"):
    provider = ChatCompletionsProvider(loopback.base_url)
    return sender_for(store, provider, CostIndex()).send(
        request_for(conv, question, Route("loopback-model")))


def summary_calls(loopback):
    return [r.json() for r in loopback.requests
            if r.json()["messages"][0]["content"] == SUMMARY_PROMPT]


def chat_calls(loopback):
    return [r for r in loopback.requests
            if r.json()["messages"][0]["content"] != SUMMARY_PROMPT]


@pytest.mark.parametrize("n", [19, 20, 21, 50])
def test_replayed_conversations(store, loopback, n):
    loopback.default = Behaviour.answer("Summary: the user asked numbered questions.",
                                        usage={"prompt_tokens": 50, "completion_tokens": 8,
                                               "total_tokens": 58})
    conv = seed(store, n)
    outcome = send(store, loopback, conv)
    assert isinstance(outcome, Committed)
    p = outcome.projection
    assert set(p.summarized) | set(p.sent) == set(range(1, n + 1)) and p.left_out == ()
    [wire] = chat_calls(loopback)
    assert wire.body == p.body and len(wire.body) <= SETTINGS.max_bytes
    if p.summarized:
        assert wire.json()["messages"][0]["content"].startswith(
            f"Summary of the earlier conversation (turns 1–{len(p.summarized)})")
        for call in summary_calls(loopback):
            assert call["max_tokens"] == 2048 and "tools" not in call
        record = store.records.of(conv.id)[-1]
        assert record.extra_usage and all(u.total_tokens == 58 for u in record.extra_usage)
    else:
        assert summary_calls(loopback) == []


def test_summary_reused_across_restart_then_extended(turnlog_home, loopback):
    loopback.default = Behaviour.answer("Summary v1.")
    with TurnlogStore.open(turnlog_home) as store:
        conv = seed(store, 40)
        assert isinstance(send(store, loopback, conv), Committed)
        first = store.records.latest_summary(conv.id)
    calls = len(summary_calls(loopback))
    with TurnlogStore.open(turnlog_home) as store:
        conv = store.conversations.get(conv.id)
        loopback.default = Behaviour.answer("Summary v2.")
        assert isinstance(send(store, loopback, conv, "again"), Committed)
        new_calls = summary_calls(loopback)[calls:]
        for call in new_calls:  # only turns beyond the old cover are folded, onto v1
            fold = call["messages"][1]["content"]
            assert fold.startswith("Previous summary:\nSummary v1.")
            assert f"[Turn {first.last_ordinal}]" not in fold


def test_summary_failures_over_http(store, loopback):
    conv = seed(store, 40)
    before = [t.id for t in store.turns(conv.id)]
    for behaviour, words in [(Behaviour.length("partial summ"), "cut off"),
                             (Behaviour.empty(), "empty"),
                             (Behaviour.tool_calls(), "tool")]:
        loopback.script(behaviour)
        outcome = send(store, loopback, conv, "keep me")
        assert isinstance(outcome, Failed)
        assert outcome.failure.kind is FailureKind.SUMMARY_FAILED
        assert words in outcome.failure.message()
        assert outcome.failure.stage.startswith("compacting (chunk 1 of")
        assert outcome.draft == "keep me"
        assert [t.id for t in store.turns(conv.id)] == before
        assert store.records.latest_summary(conv.id) is None
    loopback.script(Behaviour.rate_limited("9"))
    outcome = send(store, loopback, conv)
    assert outcome.failure.kind is FailureKind.RATE_LIMITED
    assert outcome.failure.stage.startswith("compacting")
    assert chat_calls(loopback) == []


def test_overflow_recovered_once_and_partial_stream_not_retried(store, loopback):
    conv = seed(store, 10, ConversationSettings(max_bytes=8_000, context_window=32_768,
                                                output_reserve=1024, compaction=False))
    loopback.script(Behaviour.openai_overflow(), Behaviour.answer("fine"))
    assert isinstance(send(store, loopback, conv), Committed)
    first, second = (json.loads(r.body) for r in loopback.requests)
    assert len(second["messages"]) == len(first["messages"]) - 2
    loopback.script(Behaviour.vllm_overflow(), Behaviour.ollama_overflow())
    outcome = send(store, loopback, conv, "twice")
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.CONTEXT_OVERFLOW
    assert len(loopback.requests) == 4  # one attempt, one recovery, never a third
    loopback.script(Behaviour.cut("half an ans", after_chunks=1))
    outcome = send(store, loopback, conv, "partial")
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.TRUNCATED
    assert len(loopback.requests) == 5


def previewed(store: TurnlogStore, conv, question: str):
    """What the preview (the window's and `turnlog-cli project`'s) says a send carries."""
    request = request_for(conv, question, Route("loopback-model"))
    return preview(store.turns.log(conv.id), question, model=request.model, budget=request.budget,
                   system_prompt=conv.system_prompt, options=request.options,
                   costs=CostIndex(), compaction=True, cached=store.records.latest_summary(conv.id),
                   target=conv.settings.compaction_share)


def replay(store, loopback, conv, sends: int) -> tuple[int, int]:
    """Preview then send `sends` questions; every final preview must be the wire body and
    cost no summary call; a preview that will compact must name what the send folds.
    Returns the summary calls made and how many previews were final."""
    calls = finals = 0
    for n in range(sends):
        question = f"Step {n}: what next? " + "and why " * 10
        shown = previewed(store, conv, question)
        before = len(summary_calls(loopback))
        outcome = send(store, loopback, conv, question)
        assert isinstance(outcome, Committed), outcome
        made = len(summary_calls(loopback)) - before
        if shown.final:
            finals += 1
            assert made == 0
            assert loopback.requests[-1].body == shown.projection.body
        else:
            assert made >= 1
            folded = [int(x) for call in summary_calls(loopback)[before:]
                      for x in re.findall(r"\[Turn (\d+)\]", call["messages"][1]["content"])]
            assert folded == list(shown.to_summarize)
            assert outcome.projection.summarized == shown.summarized
        calls += made
    return calls, finals


def test_replay_one_summary_call_per_many_sends_and_final_previews_are_the_body(
        turnlog_home, loopback):
    loopback.default = Behaviour.answer(ANSWER)
    with TurnlogStore.open(turnlog_home) as store:
        conv = long_seed(store, 120)
        calls, finals = replay(store, loopback, conv, 40)
        assert calls <= 40 // 8 and finals >= 35
        answered = [len(r.body) for r in chat_calls(loopback)]
        assert sorted(answered)[len(answered) // 2] >= 16_000 // 2
    # Across a restart the cached summary is reused from disk: final, no call.
    with TurnlogStore.open(turnlog_home) as store:
        conv = store.conversations.get(conv.id)
        shown = previewed(store, conv, "After the restart?")
        assert shown.final and shown.state == "cached"
        before = len(loopback.requests)
        assert isinstance(send(store, loopback, conv, "After the restart?"), Committed)
        assert len(loopback.requests) == before + 1
        assert loopback.requests[-1].body == shown.projection.body

        # Deleting a covered turn deletes the summary; the next send plans again.
        covered = store.records.latest_summary(conv.id)
        victim = next(t for t in store.turns(conv.id) if t.ordinal == covered.first_ordinal + 1)
        store.privacy.delete_turn(victim.id)
        conv = store.conversations.get(conv.id)
        assert store.records.latest_summary(conv.id) is None
        shown = previewed(store, conv, "After the delete?")
        assert not shown.final and shown.state == "to_make"
        before = len(summary_calls(loopback))
        outcome = send(store, loopback, conv, "After the delete?")
        assert isinstance(outcome, Committed) and len(summary_calls(loopback)) > before
        assert victim.ordinal not in outcome.projection.summarized + outcome.projection.sent
        assert outcome.projection.summarized == shown.summarized


def test_a_100000_turn_conversation_is_continued_within_the_bounds(turnlog_home, loopback):
    """A backlog far longer than 12 summary calls can fold never blocks: the summary covers
    its newest part, the older turns are marked not sent, and the preview said so."""
    import time

    loopback.default = Behaviour.answer("Summary: the newest imported turns.")
    with TurnlogStore.open(turnlog_home) as store:
        conv = store.conversations.create("imported", model="loopback-model")
        # Rows like the store's own, written many at once (`import_turns` checks each).
        stamp = "2026-01-02T03:04:05.000006+00:00"
        rows = ((f"big-{i}", conv.id, i, f"Question {i}: " + "q" * 100,
                 f"Answer {i}: " + "a" * 100, "loopback-model", "stop", stamp)
                for i in range(1, 100_001))
        with store.db.atomic():
            store.db.cursor().executemany(
                "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
                "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            store.db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                                 (100_001, conv.id))
        conv = store.conversations.get(conv.id)
        shown = previewed(store, conv, "Where were we?")
        assert not shown.final and shown.summarized[0] > 1
        started = time.monotonic()
        outcome = send(store, loopback, conv, "Where were we?")
        took = time.monotonic() - started
        assert isinstance(outcome, Committed), outcome
        calls = len(summary_calls(loopback))
        assert 1 <= calls <= 12 and took < 120
        p = outcome.projection
        first = p.summarized[0]
        assert p.summarized == shown.summarized == tuple(range(first, p.summarized[-1] + 1))
        assert p.left_out == tuple(range(1, first))
        assert p.sent == tuple(range(p.summarized[-1] + 1, 100_001))
        assert len(loopback.requests[-1].body) <= conv.settings.max_bytes
        record = store.records.of(conv.id)[-1]
        assert record.outcome == "committed" and record.left_out == p.left_out
        assert len(record.extra_usage) == calls
        # The next question reuses that summary: final, and exactly the body sent.
        shown = previewed(store, conv, "And then?")
        assert shown.final and shown.projection.left_out == tuple(range(1, first))
        assert isinstance(send(store, loopback, conv, "And then?"), Committed)
        assert loopback.requests[-1].body == shown.projection.body
        assert len(summary_calls(loopback)) == calls


def test_a_side_question_reuses_the_cached_summary_and_changes_nothing(store, loopback,
                                                                       turnlog_home):
    """Over HTTP: the side request carries the cached summary (no summary call), the recent
    window and the question; the turns between are left out and named; the log, the
    summary cache and the request records stay byte for byte as they were."""
    import sqlite3

    from turnlog.core.side import SideAnswered
    from turnlog.service.chat import side_asker_for, side_request_for

    loopback.default = Behaviour.answer("Summary: the user asked numbered questions.")
    conv = seed(store, 50)
    assert isinstance(send(store, loopback, conv), Committed)
    assert store.records.latest_summary(conv.id) is not None

    def dump():
        con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
        try:
            return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                    for t in ("conversations", "turns", "summaries", "requests")}
        finally:
            con.close()

    for i in range(1, 31):  # turns after the summary's end, more than the recent window
        store.turns.commit(conv.id, PendingTurn(f"late-{i}", f"later question {i}",
                                                f"later answer {i}", "m", "stop", Usage(),
                                                datetime.now(UTC)))
    side_settings = ConversationSettings(**{**SETTINGS.to_json(), "max_bytes": 100_000})
    conv = store.conversations.update(conv.id, settings=side_settings)
    loopback.script(Behaviour.answer("你们决定了编号问题。"))
    before, calls = dump(), len(loopback.requests)
    request = side_request_for(conv, "我们决定了什么？", Route("loopback-model"))
    outcome = side_asker_for(store, ChatCompletionsProvider(loopback.base_url),
                             CostIndex()).ask(request)
    assert isinstance(outcome, SideAnswered)
    assert len(loopback.requests) == calls + 1  # one side request, no summary call
    wire = loopback.requests[-1]
    assert wire.body == outcome.projection.body
    messages = wire.json()["messages"]
    assert messages[0]["content"].startswith("Summary of the earlier conversation")
    p = outcome.projection.projection
    assert len(p.sent) == 20 and p.summarized and p.left_out  # ≤ 20 pairs, gap named
    assert max(p.summarized) < min(p.left_out) and max(p.left_out) < min(p.sent)
    assert outcome.side.left_out == p.left_out
    assert dump() == before
