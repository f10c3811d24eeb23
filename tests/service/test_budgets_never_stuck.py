"""Budgets that never get stuck, over real HTTP and a real SQLite file.

Every reserve is sized to the window it serves: the default output reserve is
min(8,192, window ÷ 4) (never below 256), a reserve set by you is kept, and one that
leaves the question no room is refused naming the setting to change with its value. A
summary call plans its own input and output within the window. And across window sizes,
whenever the smallest request (system prompt and question, no turns) fits, the send
reaches the server and is answered, whatever the log holds.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from loopback import Behaviour
from turnlog.core.budget import ESTIMATE, REPLY_PRIMING_TOKENS, Budget
from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.failures import FailureKind
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex, ProjectionRefused, project
from turnlog.core.send import Committed, Failed, PendingTurn
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for, side_request_for
from turnlog.store import TurnlogStore

MODEL = "loopback-model"
SYSTEM = "You answer briefly. 简短回答。"


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def seed(store: TurnlogStore, n: int, settings: ConversationSettings, size: int = 300):
    conv = store.conversations.create("budgets", model=MODEL, settings=settings,
                                      system_prompt=SYSTEM)
    for i in range(1, n + 1):
        store.turns.commit(conv.id, PendingTurn(
            f"b{conv.id}-{i}", f"问题 {i}: " + "预算" * (size // 8) + " q" * (size // 4),
            f"answer {i}: " + "a " * (size // 2), MODEL, "stop", Usage(), datetime.now(UTC)))
    return store.conversations.get(conv.id)


def send(store, loopback, conv, question="And now? 现在呢？"):
    provider = ChatCompletionsProvider(loopback.base_url)
    return sender_for(store, provider, CostIndex()).send(
        request_for(conv, question, Route(MODEL)))


def chats(loopback):
    return [r.json() for r in loopback.requests if r.path == "/v1/chat/completions"]


def wire_tokens(body) -> int:
    """The estimate (which errs high) of a body's input, as the budget counts it."""
    return sum(ESTIMATE.message_tokens(m["role"], m["content"]) for m in body["messages"]) \
        + REPLY_PRIMING_TOKENS


@pytest.mark.parametrize(("window", "reserve"), [
    (4_096, 1_024), (32_768, 8_192), (200_000, 8_192), (8_192, 2_048), (1_024, 256),
    (512, 128),
    (None, 8_192),  # unknown: 200,000 assumed
])
def test_the_default_output_reserve_is_sized_to_the_window(store, loopback, window, reserve):
    conv = seed(store, 2, ConversationSettings(context_window=window))
    assert isinstance(send(store, loopback, conv), Committed)
    assert chats(loopback)[-1]["max_tokens"] == reserve  # the answer's (after any summary)
    side = side_request_for(conv, "aside?", Route(MODEL))
    assert side.budget.output_reserve == side.options.max_tokens == reserve


def test_a_reserve_set_by_you_is_kept(store, loopback):
    conv = seed(store, 2, ConversationSettings(context_window=32_768, output_reserve=1_500,
                                               side_output_reserve=600))
    assert isinstance(send(store, loopback, conv), Committed)
    assert chats(loopback)[0]["max_tokens"] == 1_500
    assert side_request_for(conv, "aside?", Route(MODEL)).options.max_tokens == 600


def test_a_reserve_that_leaves_no_input_is_refused_with_the_sizes_and_the_fix(store,
                                                                               loopback):
    conv = seed(store, 2, ConversationSettings(context_window=4_096, output_reserve=4_000))
    outcome = send(store, loopback, conv)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.REFUSED
    assert chats(loopback) == []  # nothing was sent
    detail = outcome.failure.detail
    assert "input budget is -109 tokens" in detail  # 4,096 − 4,000 − 205
    fix = re.search(r"set the output reserve to ([\d,]+) tokens", detail)
    assert fix is not None, detail
    fixed = ConversationSettings(context_window=4_096,
                                 output_reserve=int(fix.group(1).replace(",", "")))
    conv = store.conversations.update(conv.id, settings=fixed)
    assert isinstance(send(store, loopback, conv), Committed)


def test_a_question_too_large_for_the_window_names_the_window_to_set(store, loopback):
    conv = seed(store, 0, ConversationSettings(context_window=1_024))
    outcome = send(store, loopback, conv, "长问题 " * 900)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.REFUSED
    window = re.search(r"set the context window to at least ([\d,]+) tokens",
                       outcome.failure.detail)
    assert window is not None, outcome.failure.detail
    assert chats(loopback) == []
    wide = ConversationSettings(context_window=int(window.group(1).replace(",", "")))
    conv = store.conversations.update(conv.id, settings=wide)
    assert isinstance(send(store, loopback, conv, "长问题 " * 900), Committed)


def test_the_summary_call_plans_its_input_and_output_within_the_window(store, loopback):
    conv = seed(store, 40, ConversationSettings(context_window=4_096, max_bytes=200_000))
    assert isinstance(send(store, loopback, conv), Committed)
    summaries = [b for b in chats(loopback) if b["messages"][0]["content"] == SUMMARY_PROMPT]
    assert summaries, "40 turns do not fit 4,096 tokens: a summary is made"
    for body in summaries:
        assert body["max_tokens"] == 1_024  # a quarter of the window, not 2,048
        margin = Budget(1, 4_096, 256).safety_margin
        assert wire_tokens(body) + body["max_tokens"] + margin <= 4_096
    answer = chats(loopback)[-1]
    assert "Summary of the earlier conversation" in answer["messages"][1]["content"]
    assert wire_tokens(answer) + answer["max_tokens"] <= 4_096


WINDOWS = [512, 640, 768, 1_024, 1_536, 2_048, 3_000, 4_096, 8_192, 32_768]


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("compaction", [True, False])
def test_no_window_leaves_a_conversation_stuck(store, loopback, window, compaction):
    """Whenever the smallest request (system prompt and question, no turns) fits the
    budget, the send reaches the server, fits the window, and is answered; otherwise it
    is refused before anything is sent, naming the setting to change."""
    settings = ConversationSettings(context_window=window, compaction=compaction)
    conv = seed(store, 30, settings)
    question = "What did we decide? 我们决定了什么？"
    request = request_for(conv, question, Route(MODEL))
    try:
        project((), question, model=MODEL, budget=request.budget, system_prompt=SYSTEM,
                options=request.options)
    except ProjectionRefused as refusal:
        minimal_fits, fix = False, refusal.fix
    else:
        minimal_fits, fix = True, None
    loopback.script(*(Behaviour.answer("A short summary of 预算.") for _ in range(12)),
                    Behaviour.answer("Answered."))
    outcome = send(store, loopback, conv, question)
    if minimal_fits:
        assert isinstance(outcome, Committed), outcome
        for body in chats(loopback):
            assert wire_tokens(body) + body["max_tokens"] <= window
    else:
        assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.REFUSED
        assert chats(loopback) == [] and fix is not None
