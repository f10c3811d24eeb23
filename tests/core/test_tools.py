"""Projection with tool exchanges: the turn is the unit, so no request ever carries a tool
call without its result or a result without its call (property test), and the bytes
measured are the bytes sent."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from attachment_samples import image, text_file
from tool_exchange_checks import check_exchanges_whole
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.model import Turn
from turnlog.core.projection import CostIndex, PartKind, ProjectionRefused, project
from turnlog.core.tools import Approval, ToolCall, ToolResult, ToolRound, ToolSpec

STAMP = datetime(2026, 12, 1, tzinfo=UTC)
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@st.composite
def tool_rounds(draw):
    rounds = []
    for r in range(draw(st.integers(0, 3))):
        count = draw(st.integers(1, 3))
        calls = tuple(ToolCall(f"c{r}_{i}", draw(st.sampled_from(["echo", "search", "写"])),
                               json.dumps({"q": draw(text)}, ensure_ascii=False))
                      for i in range(count))
        results = tuple(ToolResult(c.id, draw(text), draw(st.booleans()), 0.1,
                                   draw(st.sampled_from(list(Approval)))) for c in calls)
        rounds.append(ToolRound(calls, results, draw(text)))
    return tuple(rounds)


def files(draw) -> tuple:
    """None, a text file or an image (a turn may hold files and tools both)."""
    made = []
    for k in range(draw(st.integers(0, 2))):
        made.append(image(f"p{k}.png", draw(st.integers(10, 400))) if draw(st.booleans())
                    else text_file(f"f{k}.txt", draw(text)))
    return tuple(made)


@st.composite
def logs(draw):
    return [Turn(f"t{n}", n, draw(text), draw(text), "m", "stop", STAMP,
                 tools=draw(tool_rounds()), attachments=files(draw))
            for n in range(1, draw(st.integers(0, 8)) + 1)]


@settings(max_examples=150, deadline=None)
@given(logs(), st.integers(600, 6_000), st.integers(300, 3_000), st.booleans())
def test_no_projection_splits_a_tool_exchange(turns, max_bytes, window, offer_tools):
    budget = Budget(max_bytes=max_bytes, context_window=window + 512, output_reserve=256)
    tools = [ToolSpec("echo", "Echo the text.", {"type": "object"})] if offer_tools else []
    try:
        projection = project(turns, "next?", model="m", budget=budget,
                             options=RequestOptions(), tools=tools)
    except ProjectionRefused:
        return
    body = json.loads(projection.body)
    check_exchanges_whole(body["messages"])
    assert len(projection.body) == sum(p.bytes for p in projection.parts)
    assert len(projection.body) <= max_bytes
    assert ("tools" in body) is offer_tools
    assert any(p.kind is PartKind.TOOLS for p in projection.parts) is offer_tools
    # The turns sent are whole: each is its question, its exchange, its answer.
    sent = [t for t in turns if t.ordinal in projection.sent]
    expected = sum(2 + sum(1 + len(r.calls) for r in t.tools) for t in sent)
    assert len(body["messages"]) == expected + 1


def test_a_turn_with_tools_costs_exactly_its_messages():
    rounds = (ToolRound((ToolCall("c1", "echo", '{"text":"你好"}'),),
                        (ToolResult("c1", "你好"),), "查一下"),)
    budget = Budget(max_bytes=100_000, context_window=20_000, output_reserve=1_024)
    without = project([], "q", model="m", budget=budget)
    for attached in ((), (text_file("a.txt", "文件"), image("b.png", 300))):
        turn = Turn("t1", 1, "问", "答", "m", "stop", STAMP, tools=rounds,
                    attachments=attached)
        costs = CostIndex()
        with_turn = project([turn], "q", model="m", budget=budget, costs=costs)
        assert with_turn.body_bytes - without.body_bytes == costs.cost(turn).bytes
        messages = json.loads(with_turn.body)["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant",
                                                 "user"]
        assert isinstance(messages[0]["content"], list if attached else str)
