"""Projection against the obviously-correct selector: serialize, drop the oldest, repeat."""

from __future__ import annotations

import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from projection_reference import make_turns, naive_request, naive_select, pinned_message
from turnlog.core.body import ASSISTANT, SYSTEM, USER, Message, RequestOptions, build_body
from turnlog.core.budget import Budget, safety_margin
from turnlog.core.projection import (
    CostIndex,
    Mark,
    PartKind,
    ProjectionRefused,
    RefusalReason,
    SummaryPart,
    project,
)

# Text that stresses JSON escaping and UTF-8 width.
TRICKY = (
    list('"\\/\n\r\t')
    + [chr(c) for c in range(0x20)]
    + [
        "你",
        "好",
        "語",
        "😀",
        "🧪",
        "\u200d",
        "\u2028",
        "\x7f",
        "é",
    ]
)
texts = st.text(
    alphabet=st.one_of(st.sampled_from(TRICKY), st.characters(codec="utf-8")), max_size=30
)
pairs_st = st.lists(st.tuples(texts, texts), max_size=12)


@st.composite
def scenarios(draw):
    pairs = draw(pairs_st)
    turns = make_turns(pairs, first_ordinal=draw(st.integers(1, 50)))
    covered = draw(st.integers(0, len(turns)))
    summary = draw(
        st.none() | st.builds(SummaryPart, texts, st.just(covered), st.none() | st.integers(1, 9))
    )
    question = draw(texts)
    system_prompt = draw(texts)
    pinned = tuple(draw(st.lists(texts, max_size=3)))
    options = draw(
        st.builds(
            RequestOptions,
            stream=st.booleans(),
            include_usage=st.booleans(),
            max_tokens=st.none() | st.integers(1, 99_999),
            temperature=st.none() | st.sampled_from([0.0, 0.7, 1.25]),
        )
    )
    model = draw(
        st.text(alphabet=st.sampled_from(TRICKY + list("abc-.:")), min_size=1, max_size=12)
    )
    request = dict(
        model=model, system_prompt=system_prompt, options=options, pinned=pinned, summary=summary
    )
    # Size of the request carrying the newest k uncovered turns, for k = 0 … all.
    sizes = [
        naive_request(turns[len(turns) - k :] if k else (), question, **request)
        for k in range(len(turns) - covered + 1)
    ]
    # Budgets around the sizes in play, so that every outcome (all, some, none sent,
    # refused) is drawn and selection is tried exactly at, one under and one over the edge.
    mode = draw(st.sampled_from(["bytes edge", "tokens edge", "both edges", "between", "anywhere"]))
    top_bytes, top_tokens = len(sizes[-1][0]) + 10, sizes[-1][1] + 10
    edge = st.integers(0, len(sizes) - 1).flatmap(lambda k: st.just(sizes[k]))
    if mode == "between" or mode == "anywhere":
        low = mode == "anywhere"
        max_bytes = draw(st.integers(1 if low else len(sizes[0][0]), top_bytes))
        input_tokens = draw(st.integers(1 if low else sizes[0][1], top_tokens))
    else:
        max_bytes, input_tokens = top_bytes, top_tokens
        if mode != "tokens edge":
            max_bytes = max(1, len(draw(edge)[0]) + draw(st.integers(-1, 1)))
        if mode != "bytes edge":
            input_tokens = max(1, draw(edge)[1] + draw(st.integers(-1, 1)))
    # The smallest window whose input budget (window − reserve − margin) reaches the draw.
    window = input_tokens + 256 + 128
    while window - 256 - safety_margin(window) < input_tokens:
        window += 1
    budget = Budget(max_bytes, window, 256)
    # A cap on verbatim turns (what overflow recovery uses), usually absent.
    max_verbatim = draw(st.none() | st.none() | st.integers(0, len(turns) + 1))
    return dict(
        max_verbatim=max_verbatim,
        turns=turns,
        question=question,
        model=model,
        budget=budget,
        system_prompt=system_prompt,
        options=options,
        pinned=pinned,
        summary=summary,
    )


@settings(max_examples=500, deadline=None)
@given(scenarios())
def test_projection_matches_the_naive_selector(case):
    expected = naive_select(**case)
    if expected is None:
        event("refused")
        with pytest.raises(ProjectionRefused) as refused:
            project(**case)
        err = refused.value
        assert err.max_bytes == case["budget"].max_bytes
        assert err.token_budget == case["budget"].input_tokens
        if err.reason is RefusalReason.BYTES:
            assert err.mandatory_bytes > err.max_bytes
        else:
            assert err.mandatory_bytes <= err.max_bytes
            assert err.mandatory_tokens > err.token_budget
        return

    uncovered = len(case["turns"]) - (case["summary"].covered_count if case["summary"] else 0)
    event(
        "all sent"
        if len(expected.sent) == uncovered
        else "none sent"
        if not expected.sent
        else "some sent"
    )
    projection = project(**case)
    assert projection.sent == expected.sent
    assert projection.body == expected.body
    assert projection.input_tokens == expected.tokens


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_projection_accounts_for_every_byte_and_keeps_whole_newest_turns(case):
    try:
        projection = project(**case)
    except ProjectionRefused as err:
        budget = case["budget"]
        assert err.mandatory_bytes > budget.max_bytes or err.mandatory_tokens > budget.input_tokens
        return
    turns, budget = case["turns"], case["budget"]
    body = projection.body

    # Measured on the exact body, within both budgets.
    assert len(body) == projection.body_bytes == sum(p.bytes for p in projection.parts)
    assert projection.input_tokens == sum(p.tokens for p in projection.parts)
    assert projection.body_bytes <= budget.max_bytes
    assert projection.input_tokens <= budget.input_tokens
    assert body == build_body(case["model"], projection.messages, case["options"])
    assert not projection.tokens_exact

    # The sent turns are a contiguous suffix of the log; nothing is split.
    covered = case["summary"].covered_count if case["summary"] else 0
    ordinals = tuple(t.ordinal for t in turns)
    k = projection.sent_count
    assert projection.sent == (ordinals[len(ordinals) - k :] if k else ())
    if case["max_verbatim"] is not None:
        assert k <= case["max_verbatim"]
    assert projection.summarized == ordinals[:covered]
    assert projection.summarized + projection.left_out + projection.sent == ordinals
    assert projection.sent_turn_ids == tuple(t.id for t in turns[len(turns) - k :])

    sent_messages = [
        {"role": role, "content": text}
        for t in turns[len(turns) - k :]
        for role, text in ((USER, t.question), (ASSISTANT, t.answer))
    ]
    decoded = json.loads(body)["messages"]
    prefix_count = len(decoded) - len(sent_messages) - 1
    assert decoded[prefix_count:-1] == sent_messages
    assert decoded[-1] == {"role": USER, "content": case["question"]}
    assert all(m["role"] == SYSTEM for m in decoded[:prefix_count])

    turn_parts = [p for p in projection.parts if p.kind is PartKind.TURN]
    assert [p.ordinal for p in turn_parts] == list(projection.sent)
    assert projection.parts[0].kind is PartKind.ENVELOPE
    assert projection.parts[-1].kind is PartKind.QUESTION

    marks = projection.marks_by_ordinal()
    assert [o for o, m in marks.items() if m is Mark.SENT] == list(projection.sent)
    assert [o for o, m in marks.items() if m is Mark.SUMMARY] == list(projection.summarized)
    assert [o for o, m in marks.items() if m is Mark.NOT_SENT] == list(projection.left_out)
    # Looked up one at a time (the window's rows), the marks are the same.
    assert {o: projection.mark_of_ordinal(o) for o in marks} == marks
    assert projection.mark_of_ordinal(0) is None
    assert projection.mark_of_ordinal(max(ordinals, default=0) + 1) is None
    assert projection.same_marks(project(**case))


@settings(max_examples=100, deadline=None)
@given(scenarios())
def test_mandatory_size_is_the_body_with_no_turns(case):
    request = {
        k: v for k, v in case.items() if k not in ("turns", "budget", "question", "max_verbatim")
    }
    body, tokens = naive_request((), case["question"], **request)
    try:
        projection = project(**case)
    except ProjectionRefused as err:
        assert (err.mandatory_bytes, err.mandatory_tokens) == (len(body), tokens)
        return
    assert (projection.mandatory_bytes, projection.mandatory_tokens) == (len(body), tokens)


@settings(max_examples=100, deadline=None)
@given(scenarios())
def test_a_shared_cost_index_gives_the_same_projection(case):
    costs = CostIndex()
    costs.warm(case["turns"])
    try:
        fresh = project(**case)
    except ProjectionRefused:
        with pytest.raises(ProjectionRefused):
            project(**case, costs=costs)
        return
    warmed = project(**case, costs=costs)
    again = project(**{**case, "turns": list(case["turns"])}, costs=costs)
    assert fresh.body == warmed.body == again.body
    assert fresh.sent == warmed.sent == again.sent


BUDGET = Budget(16_000, 200_000, 8_192)


def test_a_large_newer_turn_is_never_skipped_to_fit_smaller_older_ones():
    turns = make_turns([("short", "one"), ("short", "two"), ("big " * 500, "x")])
    budget = Budget(1_000, 200_000, 8_192)
    projection = project(turns, "next?", model="m", budget=budget)
    assert projection.sent == ()
    assert projection.left_out == (1, 2, 3)


def test_everything_fits_in_a_generous_budget():
    turns = make_turns([("My project code is ORCHID-17.", "Noted."), ("你好", "😀 你好！")])
    projection = project(
        turns, "What is my project code?", model="m", budget=BUDGET, system_prompt="Be brief."
    )
    assert projection.sent == (1, 2)
    assert b"ORCHID-17" in projection.body
    messages = json.loads(projection.body)["messages"]
    assert [m["role"] for m in messages] == [SYSTEM, USER, ASSISTANT, USER, ASSISTANT, USER]


def test_shrinking_the_byte_budget_drops_the_oldest_turn_first():
    turns = make_turns([("My project code is ORCHID-17.", "Noted."), ("Second?", "Yes.")])
    full = project(turns, "Code?", model="m", budget=BUDGET)
    newest_only = Budget(full.body_bytes - 1, 200_000, 8_192)
    projection = project(turns, "Code?", model="m", budget=newest_only)
    assert projection.sent == (2,)
    assert projection.left_out == (1,)
    assert b"ORCHID-17" not in projection.body


def test_token_budget_limits_even_when_bytes_would_fit():
    turns = make_turns([("你好" * 100, "好" * 100)] * 3)
    tight_tokens = Budget(10**6, 400 + 256 + 128, 256)  # 400 input tokens
    projection = project(turns, "再说一次", model="m", budget=tight_tokens)
    assert projection.body_bytes < 10**6
    assert projection.sent == ()
    assert projection.input_tokens <= 400


def test_refusal_carries_the_sizes_and_says_nothing_was_sent():
    question = "长" * 2_000
    with pytest.raises(ProjectionRefused) as refused:
        project(
            make_turns([("a", "b")]),
            question,
            model="m",
            budget=Budget(1_000, 200_000, 256),
            system_prompt="Be brief.",
        )
    err = refused.value
    assert err.reason is RefusalReason.BYTES
    expected_body = build_body(
        "m", [Message(SYSTEM, "Be brief."), Message(USER, question)], RequestOptions()
    )
    assert err.mandatory_bytes == len(expected_body)
    assert err.max_bytes == 1_000
    assert err.excess_bytes == len(expected_body) - 1_000
    assert f"{len(expected_body):,} bytes" in str(err)
    assert "1,000 bytes" in str(err)
    assert "Nothing was sent" in str(err)
    payload = err.to_json()
    assert payload["refused"] is True
    assert payload["mandatory_bytes"] == len(expected_body)
    assert payload["max_bytes"] == 1_000


def test_refusal_by_tokens_names_tokens_and_whether_they_are_estimated():
    budget = Budget(10**6, 1_000, 256)  # 1,000 − 256 − 128 = 616 input tokens
    with pytest.raises(ProjectionRefused) as refused:
        project((), "字" * 300, model="m", budget=budget)
    err = refused.value
    assert err.reason is RefusalReason.TOKENS
    assert err.token_budget == 616
    assert err.mandatory_tokens > 616
    assert "an estimated" in str(err)
    assert "616 tokens" in str(err)


def test_pinned_facts_are_mandatory():
    pinned = ("Name: Ada", "Prefers metric units")
    projection = project(
        make_turns([("q", "a")]), "hi", model="m", budget=BUDGET, system_prompt="sys", pinned=pinned
    )
    messages = projection.messages
    assert messages[0] == Message(SYSTEM, "sys")
    assert messages[1] == pinned_message(pinned)
    assert [p.kind for p in projection.parts] == [
        PartKind.ENVELOPE,
        PartKind.SYSTEM,
        PartKind.PINNED,
        PartKind.TURN,
        PartKind.QUESTION,
    ]
    budget = Budget(projection.mandatory_bytes - 1, 200_000, 8_192)
    with pytest.raises(ProjectionRefused):
        project((), "hi", model="m", budget=budget, system_prompt="sys", pinned=pinned)


def test_summary_stands_in_for_the_oldest_turns_and_is_never_dropped():
    turns = make_turns([("one", "1"), ("two", "2"), ("three", "3"), ("four", "4")])
    summary = SummaryPart("Earlier: counted to two.", covered_count=2, summary_id=7)
    projection = project(turns, "five?", model="m", budget=BUDGET, summary=summary)
    assert projection.summarized == (1, 2)
    assert projection.sent == (3, 4)
    assert projection.left_out == ()
    assert Message(SYSTEM, "Earlier: counted to two.") in projection.messages

    only_summary = Budget(projection.body_bytes - 1, 200_000, 8_192)
    tighter = project(turns, "five?", model="m", budget=only_summary, summary=summary)
    assert tighter.sent == (4,)
    assert tighter.left_out == (3,)
    assert tighter.summarized == (1, 2)


def test_summary_covering_more_turns_than_the_log_is_a_programming_error():
    with pytest.raises(ValueError):
        project(
            make_turns([("a", "b")]),
            "q",
            model="m",
            budget=BUDGET,
            summary=SummaryPart("s", covered_count=2),
        )


def test_the_projection_keeps_its_own_view_of_the_log():
    turns = list(make_turns([("a", "b"), ("c", "d")]))
    projection = project(turns, "q", model="m", budget=BUDGET)
    turns.clear()
    assert projection.sent == (1, 2)
    assert projection.sent_turn_ids == ("t1", "t2")


def test_selection_work_does_not_grow_with_the_dropped_part_of_the_log():
    calls = 0

    class CountingIndex(CostIndex):
        def cost(self, turn, *, images=True):
            nonlocal calls
            calls += 1
            return super().cost(turn, images=images)

    turns = make_turns([("question " * 30, "answer " * 90)] * 5_000)
    projection = project(turns, "q", model="m", budget=BUDGET, costs=CountingIndex())
    kept = projection.sent_count
    assert 0 < kept < 100
    # One look at each kept turn and at the first one that did not fit, then one per kept
    # turn to describe the parts: nothing proportional to the 5,000 turns in the log.
    assert calls == 2 * kept + 1
