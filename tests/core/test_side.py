"""Side questions in core: the side budget, the side history against a naive selector,
refusal with sizes, and the ask path with an in-process provider."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fakes import FakeEndpoint
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget, InvalidBudget
from turnlog.core.compaction import StoredSummary
from turnlog.core.failures import Failure, FailureKind, ProviderFailure
from turnlog.core.model import UNKNOWN_CONTEXT_WINDOW, ConversationSettings, Turn, Usage
from turnlog.core.projection import CostIndex, PartKind, ProjectionRefused, SummaryPart, project
from turnlog.core.provider import Reply
from turnlog.core.side import (
    SideAnswered,
    SideAsker,
    SideAttempt,
    SideFailed,
    SideQuestion,
    SideRequest,
    project_side,
    side_budget,
    usable_summary,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def turns_of(sizes: list[int]) -> list[Turn]:
    return [Turn(f"t{i}", i, f"问{i} " + "q" * s, f"答{i} " + "a" * s, "m", "stop", NOW)
            for i, s in enumerate(sizes, start=1)]


def sides_of(sizes: list[int]) -> list[SideQuestion]:
    return [SideQuestion(f"s{i}", f"btw {i} " + "x" * s, f"side answer {i} " + "y" * s, "m",
                         NOW) for i, s in enumerate(sizes, start=1)]


def naive(turn_costs, side_costs, covered, free_bytes, free_tokens, input_tokens):
    """The side history the plain way: at most 20 newest turns after the summary, within ¼
    of the input and 16,000 tokens, whole and contiguous; then side pairs, newest first,
    while they fit what is left."""
    cap = min(input_tokens // 4, 16_000)
    recent, used = 0, 0
    for b, t in reversed(turn_costs[covered:]):
        if recent == 20 or used + t > cap or b > free_bytes or t > free_tokens:
            break
        used, free_bytes, free_tokens, recent = used + t, free_bytes - b, free_tokens - t, \
            recent + 1
    sides = 0
    for b, t in reversed(side_costs):
        if b > free_bytes or t > free_tokens:
            break
        free_bytes, free_tokens, sides = free_bytes - b, free_tokens - t, sides + 1
    return recent, sides


# ----------------------------------------------------------------- budget arithmetic
@pytest.mark.parametrize(("reserve", "window", "expected"), [
    (256, 200_000, 200_000 - 256 - 8_192),
    (32_768, 200_000, 200_000 - 32_768 - 8_192),
    (8_192, 4_096, 4_096 - 8_192 - 205),
    (256, 2_000, 2_000 - 256 - 128),
])
def test_side_budget_at_the_bounds(reserve, window, expected):
    main = Budget(16_000, window, 1_024)
    side = side_budget(main, reserve)
    assert side.input_tokens == expected
    assert (side.max_bytes, side.context_window) == (16_000, window)
    assert main.output_reserve == 1_024  # the conversation's own is untouched


def test_side_budget_refuses_a_reserve_out_of_range():
    main = Budget(16_000, 200_000, 1_024)
    for bad in (255, 32_769):
        with pytest.raises(InvalidBudget, match="256 and 32,768"):
            side_budget(main, bad)


def test_unknown_window_is_assumed_for_side_questions():
    main = Budget.from_settings(ConversationSettings())
    side = side_budget(main, 8_192)
    assert side.context_window == UNKNOWN_CONTEXT_WINDOW and not side.window_known
    assert side.input_tokens == 200_000 - 8_192 - 8_192
    assert "assumed" in side.window_label


# ----------------------------------------------------------------- side history
@settings(max_examples=150, deadline=None)
@given(
    turn_sizes=st.lists(st.integers(0, 3_000), max_size=40),
    side_sizes=st.lists(st.integers(0, 2_000), max_size=8),
    covered_share=st.floats(0, 1),
    window=st.integers(1_000, 120_000),
    max_bytes=st.integers(1_000, 200_000),
)
def test_side_history_matches_the_naive_selector(turn_sizes, side_sizes, covered_share, window,
                                                 max_bytes):
    turns = turns_of(turn_sizes)
    sides = sides_of(side_sizes)
    covered = int(len(turns) * covered_share)
    summary = SummaryPart("Summary: 摘要", covered, 1) if covered else None
    budget = Budget(max_bytes, window, 256)
    costs = CostIndex()
    question = "what did we decide? 我们决定了什么？"
    try:
        mandatory = project([], question, model="m", budget=budget, system_prompt="sys",
                            summary=None if summary is None else
                            SummaryPart(summary.content, 0, 1), costs=costs)
    except ProjectionRefused:
        with pytest.raises(ProjectionRefused):
            project_side(turns, question, sides, model="m", budget=budget,
                         system_prompt="sys", summary=summary, costs=costs)
        return
    side = project_side(turns, question, sides, model="m", budget=budget, system_prompt="sys",
                        summary=summary, costs=costs)
    turn_costs = [(costs.cost(t).bytes, costs.cost(t).tokens) for t in turns]
    side_costs = [(costs.cost(s.as_pair()).bytes, costs.cost(s.as_pair()).tokens)
                  for s in sides]
    recent, n_sides = naive(turn_costs, side_costs, covered,
                            max_bytes - mandatory.body_bytes,
                            budget.input_tokens - mandatory.input_tokens, budget.input_tokens)
    p = side.projection
    assert p.sent == tuple(t.ordinal for t in turns[len(turns) - recent:])
    assert side.side_ids == tuple(s.id for s in sides[len(sides) - n_sides:])
    assert p.left_out == tuple(t.ordinal for t in turns[covered:len(turns) - recent])
    # Measured on the exact body, within both budgets, parts adding up.
    assert p.body_bytes == sum(part.bytes for part in p.parts) <= max_bytes
    assert p.input_tokens == sum(part.tokens for part in p.parts) <= budget.input_tokens
    body = json.loads(p.body)
    assert body["messages"][-1] == {"role": "user", "content": question}
    expected_pairs = [m for t in turns[len(turns) - recent:] for m in (t.question, t.answer)]
    expected_pairs += [m for s in sides[len(sides) - n_sides:] for m in (s.question, s.answer)]
    start = 1 + (summary is not None)
    assert [m["content"] for m in body["messages"][start:-1]] == expected_pairs


def test_recent_window_is_capped_at_twenty_pairs_and_16k_tokens():
    budget = Budget(10**7, 200_000, 256)
    side = project_side(turns_of([10] * 50), "q", [], model="m", budget=budget)
    assert side.projection.sent == tuple(range(31, 51))
    big = turns_of([9_000] * 10)
    costs = CostIndex()
    side = project_side(big, "q", [], model="m", budget=budget, costs=costs)
    tokens = sum(p.tokens for p in side.projection.parts if p.kind is PartKind.TURN)
    kept = side.projection.sent_count
    assert 0 < kept < 10
    assert tokens <= 16_000 < tokens + costs.cost(big[-kept - 1]).tokens
    assert side.left_out == tuple(range(1, 11 - side.projection.sent_count))


def test_a_side_pair_larger_than_what_is_left_stops_older_ones():
    budget = Budget(3_000, 200_000, 256)
    sides = sides_of([10, 4_000, 10])  # the middle one cannot fit: the oldest is not taken
    side = project_side([], "q", sides, model="m", budget=budget)
    assert side.side_ids == ("s3",)
    assert [p.kind for p in side.projection.parts].count(PartKind.SIDE) == 1


def test_a_side_question_that_cannot_fit_is_refused_with_sizes():
    budget = Budget(500, 200_000, 256)
    with pytest.raises(ProjectionRefused) as refused:
        project_side(turns_of([5]), "长" * 400, [], model="m", budget=budget,
                     system_prompt="sys")
    assert refused.value.mandatory_bytes > 500
    assert "500 bytes" in refused.value.describe()


def test_the_cached_summary_is_used_only_while_it_matches():
    turns = turns_of([10] * 5)
    from turnlog.core.compaction import CompactionSettings, ids_digest

    key = CompactionSettings("m", Budget(1, 1, 256), RequestOptions()).key
    stored = StoredSummary(7, 1, 1, 3, 3, ids_digest(turns[:3]), "decided: Friday", "m", key,
                           NOW, 10, 5)
    part = usable_summary(stored, turns, "m")
    assert part is not None and part.covered_count == 3 and "Friday" in part.content
    assert usable_summary(stored, turns, "other-model") is None
    assert usable_summary(stored, turns[1:], "m") is None


# ----------------------------------------------------------------- asking
class NoSummary:
    """The records part of `MemorySide`: no summary was ever made."""

    def latest_summary(self, conversation_id):
        return None


class MemorySide:
    """An in-memory `SideStore`: `turns` gives `turns`, and it is its own `side` part."""

    def __init__(self, turns):
        self.turns = lambda conversation_id: turns
        self.records = NoSummary()
        self.side = self
        self.sides: list[SideQuestion] = []
        self.attempts: list[SideAttempt] = []

    def of(self, conversation_id):
        return list(self.sides)

    def add(self, conversation_id, question):
        self.sides.append(question)
        return question

    def add_attempt(self, conversation_id, attempt):
        self.attempts.append(attempt)


def scripted(replies):
    """A `FakeEndpoint` answering chat calls from `replies` in turn (raising failures)."""
    queue = list(replies)

    def chat(body):
        reply = queue.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return FakeEndpoint(chat=chat)


def request(question: str) -> SideRequest:
    return SideRequest(1, question, "m", Budget(16_000, 8_000, 1_024),
                       RequestOptions(max_tokens=1_024))


def test_ask_keeps_the_answer_apart_and_carries_it_next_time():
    store = MemorySide(turns_of([20, 20]))
    endpoint = scripted([Reply("周五。", "stop"), Reply("Yes.", "stop")])
    stages = []
    out = SideAsker(store, endpoint).ask(request("什么时候？"),
                                         on_stage=lambda s, d: stages.append(s.value))
    assert isinstance(out, SideAnswered) and out.side.answer == "周五。"
    assert stages == ["preparing", "organizing turns", "answering"]
    assert out.side.sent == (1, 2)
    SideAsker(store, endpoint).ask(request("sure?"))
    second = json.loads(endpoint.bodies[-1])
    assert [m["content"] for m in second["messages"][-3:]] == ["什么时候？", "周五。", "sure?"]
    assert len(store.sides) == 2


@pytest.mark.parametrize("reply", [
    ProviderFailure(Failure(FailureKind.RATE_LIMITED)),
    Reply("cut", "length"),
    Reply("", "stop"),
])
def test_failures_give_the_draft_back_and_keep_nothing(reply):
    store = MemorySide(turns_of([20]))
    out = SideAsker(store, scripted([reply])).ask(request("btw?"))
    assert isinstance(out, SideFailed) and out.draft == "btw?"
    assert store.sides == []


def test_a_side_request_that_fails_after_the_server_counted_keeps_its_usage():
    store = MemorySide(turns_of([20, 20]))
    counted = Usage(30, 1_024, 1_054)
    endpoint = scripted([
        Reply("Cut off", "length", counted, "served-model"),
        ProviderFailure(Failure(FailureKind.TRUNCATED), partial="The st", usage=Usage(30, 2, 32)),
        Reply("Done.", "stop", Usage(30, 2, 32)),
    ])
    asker = SideAsker(store, endpoint)
    cut = asker.ask(request("Why?"))
    assert isinstance(cut, SideFailed) and cut.failure.kind is FailureKind.LENGTH
    assert cut.attempt == store.attempts[0]
    assert (cut.attempt.outcome, cut.attempt.model, cut.attempt.usage,
            cut.attempt.carried) == ("length", "served-model", counted, (1, 2))
    dropped = asker.ask(request("Why?"))
    assert isinstance(dropped, SideFailed) and dropped.attempt.outcome == "truncated"
    assert dropped.attempt.usage == Usage(30, 2, 32) and dropped.attempt.model == "m"
    assert isinstance(asker.ask(request("Why?")), SideAnswered)
    assert len(store.attempts) == 2 and len(store.sides) == 1  # an answer is no failed attempt
    refused = asker.ask(request("长" * 40_000))
    assert isinstance(refused, SideFailed) and refused.attempt is None  # never sent
    assert len(store.attempts) == 2
