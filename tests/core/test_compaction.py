"""Compaction: the plan's invariants, the cache, bounds, failures and overflow recovery.

The store is the real SQLite store; the chat endpoint is `FakeEndpoint`, an
in-process provider that answers summary calls and chat calls from a script
(the loopback-server tests cover the same paths over real HTTP).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction_setup import MemorySummaries, request, seed, sender_for
from fakes import FakeEndpoint
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.compaction import (
    CompactionResult,
    CompactionSettings,
    Compactor,
    chunk_turns,
    key_facts,
    missing_key_facts,
    recent_count,
    split_utf8,
)
from turnlog.core.failures import Failure, FailureKind, ProviderFailure
from turnlog.core.model import Conversation, ConversationSettings, Turn, Usage
from turnlog.core.projection import CostIndex, project
from turnlog.core.provider import CancelToken, Reply
from turnlog.core.send import Committed, Failed, Sender
from turnlog.store import TurnlogStore


def make_turns(n: int, size: int = 60) -> list[Turn]:
    now = datetime.now(UTC)
    return [
        Turn(f"t{i}", i, f"问题 {i} " + "q" * size, f"answer {i} " + "a" * size, "m", "stop", now)
        for i in range(1, n + 1)
    ]


def compaction_settings(max_bytes: int, window: int = 200_000) -> CompactionSettings:
    return CompactionSettings("m", Budget(max_bytes, window, 1024), RequestOptions())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(0, 400), min_size=0, max_size=45),
    max_bytes=st.integers(2_500, 30_000),
    window=st.sampled_from([4_096, 8_192, 32_768, 200_000]),
)
def test_plan_covers_a_prefix_and_keeps_the_rest_verbatim(sizes, max_bytes, window):
    turns = [
        Turn(f"t{i}", i, f"q{i} " + "字" * s, f"a{i} " + "x😀" * s, "m", "stop",
             datetime.now(UTC))
        for i, s in enumerate(sizes, start=1)
    ]
    costs = CostIndex()
    compactor = Compactor(MemorySummaries(), FakeEndpoint(), costs=costs)
    cs = compaction_settings(max_bytes, window)
    try:
        result = compactor.summarize(1, 0, turns, "now?", cs, system_prompt="sys", pinned=(),
                                     cancel=CancelToken(), progress=lambda k, n: None)
    except ProviderFailure as err:
        # Only a budget too small to summarize anything in may fail, and it says so.
        assert err.failure.kind in (FailureKind.SUMMARY_FAILED, FailureKind.COMPACTION_LIMIT)
        return
    covered = result.summary.covered_count if result.summary else 0
    first = result.summary.first if result.summary else 0
    projection = project(turns, "now?", model="m", budget=cs.budget, system_prompt="sys",
                         summary=result.summary, costs=costs)
    # left out ∪ summarized ∪ verbatim = all turns, in that order; no split turn. Turns
    # are left out only before the summary, for a backlog longer than the calls can fold.
    assert projection.left_out == tuple(t.ordinal for t in turns[:first])
    assert projection.summarized == tuple(t.ordinal for t in turns[first:covered])
    assert projection.sent == tuple(t.ordinal for t in turns[covered:])
    assert projection.body_bytes <= cs.budget.max_bytes
    assert projection.input_tokens <= cs.budget.input_tokens
    assert result.calls <= 12
    if result.summary is None:
        plain = project(turns, "now?", model="m", budget=cs.budget, system_prompt="sys")
        assert plain.sent_count == len(turns)


def test_recent_window_holds_all_three_limits():
    costs = CostIndex()
    turns = make_turns(50, size=40)
    assert recent_count(turns, Budget(10**6, 200_000, 1024), costs) == 20
    big = make_turns(30, size=4_000)  # ≈ 1,600+ tokens each
    budget = Budget(10**7, 200_000, 1024)
    kept = recent_count(big, budget, costs)
    assert sum(costs.cost(t).tokens for t in big[-kept:]) <= 16_000
    assert sum(costs.cost(t).tokens for t in big[-kept - 1:]) > 16_000
    small_window = Budget(10**6, 8_192, 1024)
    kept = recent_count(turns, small_window, costs)
    assert sum(costs.cost(t).tokens for t in turns[-kept:]) <= small_window.input_tokens // 4


def test_split_utf8_never_cuts_a_character():
    text = "a中😀é" * 300
    for limit in (6, 7, 64, 1000):
        pieces = split_utf8(text, limit)
        assert "".join(pieces) == text
        assert all(len(p.encode()) <= limit for p in pieces)


def test_chunks_keep_whole_turns_when_they_fit():
    turns = make_turns(10, size=100)
    chunks = chunk_turns(turns, 800)
    assert all(len(c.encode()) <= 800 for c in chunks)
    for turn in turns:
        assert sum(f"[Turn {turn.ordinal}]\n" in c for c in chunks) == 1
    huge = make_turns(1, size=5_000)
    assert len(chunk_turns(huge, 1_000)) > 5


# ---------------------------------------------------------------- with SQLite


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def export(store: TurnlogStore, cid: int):
    latest = store.records.latest_summary(cid)
    return [(t.id, t.ordinal, t.question, t.answer) for t in store.turns(cid)], [
        s.id for s in ([latest] if latest else [])]


@pytest.mark.parametrize("n", [19, 20, 21, 50])
def test_replayed_conversations_fit_with_a_summary(store, n):
    conv = seed(store, n)
    endpoint = FakeEndpoint()
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Committed)
    p = outcome.projection
    assert set(p.summarized) | set(p.sent) == set(range(1, n + 1))
    assert p.left_out == ()
    assert p.body_bytes <= 12_000
    if p.summarized:
        assert p.summarized == tuple(range(1, len(p.summarized) + 1))
        assert "Summary of the earlier conversation" in json.loads(p.body)["messages"][0][
            "content"] or json.loads(p.body)["messages"][0]["role"] == "system"
        assert outcome.record.summary_id == store.records.latest_summary(conv.id).id


def test_summary_is_reused_across_restart_and_extended_incrementally(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        conv = seed(store, 40)
        endpoint = FakeEndpoint()
        assert isinstance(sender_for(store, endpoint).send(request(conv)), Committed)
        first_calls = len(endpoint.summary_calls)
        assert first_calls >= 1
        first = store.records.latest_summary(conv.id)
    with TurnlogStore.open(turnlog_home) as store:
        endpoint = FakeEndpoint()
        outcome = sender_for(store, endpoint).send(request(conv, "again"))
        assert isinstance(outcome, Committed)
        # One more turn (41) entered the log; at most the turns beyond the old cover
        # are folded in, never the ones already summarized.
        for call in endpoint.summary_calls:
            fold = call["messages"][1]["content"]
            assert f"[Turn {first.last_ordinal}]" not in fold
            assert first.content in fold
        latest = store.records.latest_summary(conv.id)
        assert latest.covered_count >= first.covered_count


def test_unchanged_log_reuses_the_cached_summary_without_calls(store):
    conv = seed(store, 30)
    sender_for(store, FakeEndpoint()).send(request(conv))
    endpoint = FakeEndpoint()
    # The projection of the same log with the same question needs the same cover.
    compactor = Compactor(store.records, endpoint, costs=CostIndex())
    turns = store.turns(conv.id)
    cached = store.records.latest_summary(conv.id)
    generation = store.conversations.generation(conv.id)
    result = compactor.summarize(conv.id, generation, turns[:cached.covered_count
                                 + 20], "q", CompactionSettings("m", Budget.from_settings(
                                     conv.settings), RequestOptions()), system_prompt="",
                                 pinned=(), cancel=CancelToken(), progress=lambda k, n: None,
                                 min_covered=cached.covered_count)
    assert result.stored.id == cached.id
    assert endpoint.summary_calls == []


@pytest.mark.parametrize(("reply", "words"), [
    (Reply("", "stop"), "empty"),
    (Reply("partial summ", "length"), "cut off"),
    (Reply("", "tool_calls", tool_calls=True), "tool"),
    (Reply("x" * 20_000, "stop"), "over the"),
    (Reply("odd", "content_filter"), "content_filter"),
])
def test_summary_failures_are_named_and_change_nothing(store, reply, words):
    conv = seed(store, 40)
    before = export(store, conv.id)
    endpoint = FakeEndpoint(summary=lambda text: Reply(
        reply.content, reply.finish_reason, Usage(50, 7, 57), tool_calls=reply.tool_calls))
    outcome = sender_for(store, endpoint).send(request(conv, "keep me"))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.SUMMARY_FAILED
    assert words in outcome.failure.message()
    assert outcome.failure.stage.startswith("compacting (chunk 1 of")
    assert outcome.draft == "keep me"
    assert export(store, conv.id) == before
    assert endpoint.chat_calls == []
    record = store.records.of(conv.id)[-1]
    assert record.outcome == "summary_failed"
    assert Usage(50, 7, 57) in record.extra_usage


def test_provider_failure_during_compaction_keeps_its_name_and_stage(store):
    conv = seed(store, 40)

    def fail(text):
        raise ProviderFailure(Failure(FailureKind.RATE_LIMITED, retry_after=7))

    outcome = sender_for(store, FakeEndpoint(summary=fail)).send(request(conv))
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.RATE_LIMITED
    assert outcome.failure.stage.startswith("compacting")
    assert store.records.latest_summary(conv.id) is None


def test_twelve_call_bound(store):
    conv = seed(store, 60, size=1_500)
    conv = store.conversations.update(conv.id, settings=ConversationSettings(
        max_bytes=5_000, context_window=32_768, output_reserve=1024))
    endpoint = FakeEndpoint()
    outcome = sender_for(store, endpoint, max_calls=3).send(request(conv))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.COMPACTION_LIMIT
    assert "more than 3 summary calls" in outcome.failure.message()
    assert len(endpoint.summary_calls) == 3
    assert store.records.latest_summary(conv.id) is None


def test_time_bound(store):
    conv = seed(store, 60, size=1_500)
    conv = store.conversations.update(conv.id, settings=ConversationSettings(
        max_bytes=5_000, context_window=32_768, output_reserve=1024))
    now = [0.0]

    def slow_summary(text):
        now[0] += 50.0  # each call takes 50 s of the 120 s allowed
        return Reply("short", "stop")

    costs = CostIndex()
    endpoint = FakeEndpoint(summary=slow_summary)
    sender = Sender(store, endpoint, costs=costs,
                    compactor=Compactor(store.records, endpoint, costs=costs, clock=lambda: now[0]))
    outcome = sender.send(request(conv))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.COMPACTION_LIMIT
    assert "longer than 120 s" in outcome.failure.message()
    assert len(endpoint.summary_calls) == 3


def test_late_summary_after_clear_is_not_stored(store):
    conv = seed(store, 40)

    def summary_then_clear(text):
        from turnlog.store.models import ConversationRow

        # The user deletes history while the summary call is running.
        ConversationRow.update(generation=ConversationRow.generation + 1).where(
            ConversationRow.id == conv.id).execute(store.db)
        return Reply("a summary", "stop")

    outcome = sender_for(store, FakeEndpoint(summary=summary_then_clear)).send(request(conv))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.CONVERSATION_GONE
    assert store.records.latest_summary(conv.id) is None


def overflow(text=""):
    raise ProviderFailure(Failure(FailureKind.CONTEXT_OVERFLOW), partial=text)


def overflow_once():
    """A chat endpoint that overflows on its first call and answers after; records bodies."""
    calls: list[dict] = []

    def chat(body):
        calls.append(body)
        if len(calls) == 1:
            overflow()
        return Reply("fine", "stop")

    return calls, chat


def seed_without_compaction(store: TurnlogStore, n: int) -> Conversation:
    conv = seed(store, n)
    return store.conversations.update(conv.id, settings=ConversationSettings(
        max_bytes=12_000, context_window=32_768, output_reserve=1024, compaction=False))


def test_overflow_is_recovered_once_with_a_smaller_body(store):
    conv = seed_without_compaction(store, 10)
    calls, chat = overflow_once()
    endpoint = FakeEndpoint(chat=chat)
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Committed)
    first, second = endpoint.bodies
    assert len(second) < len(first)
    assert len(calls[1]["messages"]) == len(calls[0]["messages"]) - 2  # one whole turn fewer
    records = store.records.of(conv.id)
    assert [r.outcome for r in records] == ["context_overflow", "committed"]
    assert records[-1].attempt == 2


def test_overflow_is_not_recovered_twice(store):
    conv = seed_without_compaction(store, 10)
    before = export(store, conv.id)
    endpoint = FakeEndpoint(chat=lambda body: overflow())
    outcome = sender_for(store, endpoint).send(request(conv, "q?"))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.CONTEXT_OVERFLOW
    assert len(endpoint.chat_calls) == 2
    assert outcome.draft == "q?" and export(store, conv.id) == before


def test_overflow_with_compaction_folds_one_more_turn(store):
    conv = seed(store, 10)
    calls, chat = overflow_once()
    endpoint = FakeEndpoint(chat=chat)
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Committed)
    assert outcome.projection.summarized == (1,)
    assert len(endpoint.summary_calls) == 1


def test_partial_stream_overflow_is_not_retried(store):
    conv = seed(store, 10)
    endpoint = FakeEndpoint(chat=lambda body: overflow("half an ans"))
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Failed)
    assert outcome.partial == "half an ans"
    assert len(endpoint.chat_calls) == 1


KEY_TURNS = [
    ("Never delete the backups, whatever happens.", "Understood: backups stay."),
    ("We ship build 4.2.17 on Friday.", "Build 4.2.17 noted."),
    ("The ticket is ORCHID-17; logs are in /var/log/orchid/app.log.", "Got it."),
]


def test_key_facts_demanded_and_dropped_ones_flagged(store):
    conv = seed(store, 40, texts=KEY_TURNS)
    facts = key_facts(store.turns(conv.id)[:3])
    assert {"4.2.17", "ORCHID-17", "/var/log/orchid/app.log"} <= set(facts)
    assert any("Never delete the backups" in f for f in facts)
    assert missing_key_facts(facts, "Backups: never delete the backups. 4.2.17, ORCHID-17, "
                             "/var/log/orchid/app.log") == []
    endpoint = FakeEndpoint(summary=lambda text: Reply("Shipping soon; ticket ORCHID-17.", "stop"))
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Committed)
    prompt = endpoint.summary_calls[0]["messages"][0]["content"]
    for demand in ("numbers", "identifiers", "versions", "file paths", "commands", "decision",
                   "do not"):
        assert demand in prompt
    warnings = store.records.latest_summary(conv.id).warnings
    assert "4.2.17" in warnings and "/var/log/orchid/app.log" in warnings
    assert any("Never delete the backups" in w for w in warnings)
    assert "ORCHID-17" not in warnings


def test_compaction_off_leaves_old_turns_out(store):
    conv = seed(store, 40)
    conv = store.conversations.update(conv.id, settings=ConversationSettings(
        max_bytes=12_000, context_window=32_768, output_reserve=1024, compaction=False))
    endpoint = FakeEndpoint()
    outcome = sender_for(store, endpoint).send(request(conv))
    assert isinstance(outcome, Committed)
    assert outcome.projection.summarized == () and outcome.projection.left_out
    assert endpoint.summary_calls == []


def test_result_accumulates_usage_of_every_call(store):
    conv = seed(store, 60, size=200)
    conv = store.conversations.update(conv.id, settings=ConversationSettings(
        max_bytes=6_000, context_window=32_768, output_reserve=1024))
    outcome = sender_for(store, FakeEndpoint()).send(request(conv))
    assert isinstance(outcome, Committed)
    record = store.records.of(conv.id)[-1]
    assert len(record.extra_usage) >= 2
    assert all(u == Usage(10, 5, 15) for u in record.extra_usage)
    assert CompactionResult  # exported for the window's progress display
