"""What an answer cost, end to end against the loopback server (which reports usage): the
request record keeps the route's prices, and an answer's cost adds its tool rounds and the
title call made from it."""

from __future__ import annotations

import sys
from decimal import Decimal

import pytest

from loopback import Behaviour
from mcp_peers import PEER_SCRIPT
from turnlog.config.secrets import SessionKeys
from turnlog.config.tool_servers import new_server
from turnlog.core.cost import Prices, Pricing, Tokens
from turnlog.core.model import ConversationSettings
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed
from turnlog.core.titles import name_by_model
from turnlog.core.tools import Approval
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.tool_use import SendTools
from turnlog.store import TurnlogStore
from turnlog.toolhost.host import ToolHost

PRICES = Prices(Decimal("1"), Decimal("10"), None, "USD", "2026-12-01")
ROUTE = Route("loopback-model", pricing=Pricing("Work", PRICES))
PEER = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)])


def used(prompt: int, completion: int) -> dict[str, int]:
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def test_tool_rounds_and_the_title_call_add_to_the_answer_s_cost(store, loopback):
    conversation = store.conversations.create("tools", settings=ConversationSettings())
    loopback.script(Behaviour.calls(("echo", '{"text":"x"}'), usage=used(100, 10)),
                    Behaviour.calls(("echo", '{"text":"y"}'), usage=used(200, 20)),
                    Behaviour.answer("Done.", usage=used(300, 30)))
    host = ToolHost()
    try:
        tools = SendTools(host, [PEER], SessionKeys(), lambda *a: Approval.RUN)
        request = request_for(conversation, "Echo twice", ROUTE, tools=tools)
        outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                             CostIndex()).send(request)
    finally:
        host.close()
    assert isinstance(outcome, Committed), outcome
    (record,) = store.records.of(conversation.id)
    assert record.pricing == Pricing("Work", PRICES)
    assert record.tokens == Tokens(600, 0, 60)
    assert record.cost == Decimal("0.0012")  # 600 × 1 + 60 × 10 per million
    turn = outcome.turn
    loopback.script(Behaviour.answer("Echo test", usage=used(50, 3)))
    name_by_model(store, ChatCompletionsProvider(loopback.base_url), conversation, turn,
                  "loopback-model", pricing=ROUTE.pricing)
    line = store.usage.turn_costs(conversation.id)[turn.id]
    assert (line.requests, line.input, line.output) == (2, 650, 63)
    assert line.cost == Decimal("0.00128")
    (day,) = store.usage.days()
    assert (day.requests, day.cost) == (2, Decimal("0.00128"))
