"""A turn with tools, end to end: the loopback chat server asks for tools, a real MCP
server over stdio runs them, the real SQLite store keeps the turn — or, on any failure,
nothing, with the draft back and what ran listed."""

from __future__ import annotations

import json
import sys
import threading

import pytest

from loopback import Behaviour
from mcp_peers import PEER_SCRIPT
from turnlog.config.secrets import SessionKeys
from turnlog.config.tool_servers import new_server
from turnlog.core.failures import FailureKind
from turnlog.core.model import ConversationSettings
from turnlog.core.projection import CostIndex, PartKind
from turnlog.core.provider import CancelToken
from turnlog.core.send import Committed, Failed
from turnlog.core.tools import DECLINED, Approval, ToolBounds
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.tool_use import SendTools
from turnlog.store import TurnlogStore
from turnlog.toolhost.host import ToolHost

ROUTE = Route("loopback-model")
QUESTION = "把“你好”写进文件，再告诉我结果"


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def host():
    tool_host = ToolHost()
    yield tool_host
    tool_host.close()


PEER = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)])


class Approvals:
    """The person at the approval card: answers in order, and what they were shown."""

    def __init__(self, *answers: Approval | None) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, str, str]] = []

    def __call__(self, call, server, timeout_s, cancel):
        self.asked.append((call.name, server, call.pretty_arguments()))
        return self.answers.pop(0) if self.answers else Approval.DENY


def send(store, loopback, host, approvals, *, conversation=None, question=QUESTION,
         bounds=None, cancel=None, always=None, settings=None):
    conversation = conversation or store.conversations.create(
        "tools", settings=settings or ConversationSettings())
    tools = SendTools(host, [PEER], SessionKeys(), approvals, bounds=bounds, always=always)
    request = request_for(conversation, question, ROUTE, tools=tools)
    provider = ChatCompletionsProvider(loopback.base_url)
    outcome = sender_for(store, provider, CostIndex()).send(request, cancel=cancel)
    return conversation, outcome


def log_rows(store):
    return (store.db.execute_sql("SELECT * FROM turns").fetchall(),
            store.db.execute_sql("SELECT * FROM tool_results").fetchall())


def test_a_two_round_tool_loop_is_committed_as_one_turn(store, loopback, host, tmp_path):
    target = tmp_path / "hello.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "你好"})),
                        text="我先写文件。"),
        Behaviour.calls(("echo", '{"text":"done"}')),
        Behaviour.answer("文件已写好：你好。"),
    )
    approvals = Approvals(Approval.RUN, Approval.RUN)
    conversation, outcome = send(store, loopback, host, approvals)
    assert isinstance(outcome, Committed), outcome
    assert target.read_text(encoding="utf-8") == "你好"
    assert [name for name, _s, _a in approvals.asked] == ["write_file", "echo"]
    assert approvals.asked[0][1] == "peer" and '"text": "你好"' in approvals.asked[0][2]
    (turn,) = store.turns(conversation.id)
    assert turn.answer == "文件已写好：你好。"
    assert [len(r.calls) for r in turn.tools] == [1, 1]
    assert turn.tools[0].content == "我先写文件。"
    assert turn.tools[0].results[0].content.startswith("wrote 6 bytes")
    assert turn.tools[1].results[0].approval is Approval.RUN

    first, second, third = (r.json() for r in loopback.requests)
    assert {t["function"]["name"] for t in first["tools"]} >= {"echo", "write_file"}
    assert second["messages"][-2]["tool_calls"][0]["function"]["name"] == "write_file"
    assert second["messages"][-1]["role"] == "tool"
    assert len(third["messages"]) == len(first["messages"]) + 4

    # The next request carries the turn whole: question, both rounds, answer.
    loopback.script(Behaviour.answer("好的"))
    _c, again = send(store, loopback, host, Approvals(), conversation=conversation,
                     question="谢谢")
    assert isinstance(again, Committed)
    sent = loopback.requests[-1].json()["messages"]
    roles = [m["role"] for m in sent]
    assert roles == ["user", "assistant", "tool", "assistant", "tool", "assistant", "user"]
    kinds = [p.kind for p in again.projection.parts]
    assert PartKind.TOOLS in kinds


def test_parallel_calls_a_denial_and_always_allow(store, loopback, host, tmp_path):
    written = tmp_path / "denied.txt"
    loopback.script(
        Behaviour.calls(("echo", '{"text":"一"}'),
                        ("write_file", json.dumps({"path": str(written), "text": "x"})),
                        ("echo", '{"text":"二"}'), stream=True),
        Behaviour.answer("好"),
    )
    always: set[str] = set()
    approvals = Approvals(Approval.ALWAYS, Approval.DENY)
    _c, outcome = send(store, loopback, host, approvals, always=always)
    assert isinstance(outcome, Committed), outcome
    assert not written.exists()
    (tool_round,) = outcome.turn.tools
    assert [r.approval for r in tool_round.results] == [Approval.ALWAYS, Approval.DENY,
                                                        Approval.ALLOWED]
    assert tool_round.results[1].content == DECLINED and not tool_round.results[1].ran
    assert [name for name, _s, _a in approvals.asked] == ["echo", "write_file"]
    assert always == {"echo"}


def test_malformed_arguments_and_a_failing_tool_are_results(store, loopback, host):
    loopback.script(
        Behaviour.calls(("echo", '{"text": "unfinished'), ("fail", '{"reason":"磁盘满了"}'),
                        stream=False),
        Behaviour.answer("两个工具都出错了"),
    )
    approvals = Approvals(Approval.RUN)
    _c, outcome = send(store, loopback, host, approvals)
    assert isinstance(outcome, Committed), outcome
    bad, failed = outcome.turn.tools[0].results
    assert bad.is_error and not bad.ran and "not JSON" in bad.content
    assert failed.is_error and failed.ran
    assert [name for name, _s, _a in approvals.asked] == ["fail"]  # nothing to approve


def test_a_big_result_is_cut_for_sending_and_kept_whole(store, loopback, host):
    loopback.script(Behaviour.calls(("big", '{"size": 300000}')), Behaviour.answer("收到"))
    _c, outcome = send(store, loopback, host, Approvals(Approval.RUN),
                       settings=ConversationSettings(max_bytes=1_000_000))
    assert isinstance(outcome, Committed), outcome
    (result,) = outcome.turn.tools[0].results
    assert result.cut_bytes == 200_000
    assert "Turnlog cut this result: 200,000 of its 300,000 bytes" in result.content
    sent = loopback.requests[1].json()["messages"][-1]["content"]
    assert sent == result.content
    kept = store.turns.tool_result(outcome.turn.id, result.call_id)
    assert kept is not None and len(kept) == 300_000


@pytest.mark.parametrize(("behaviours", "answers", "bounds", "code"), [
    ([Behaviour.calls(("echo", '{"text":"again"}'))] * 3, [Approval.RUN] * 3,
     ToolBounds(max_rounds=2), "tool_rounds"),
    ([Behaviour.calls(("hang", "{}"))], [Approval.RUN], ToolBounds(call_timeout_s=0.5),
     "tool_timeout"),
    ([Behaviour.calls(("echo", '{"text":"x"}'))], [None], ToolBounds(), "tool_approval_timeout"),
    ([Behaviour.calls(("big", '{"size": 60000}'))], [Approval.RUN], ToolBounds(),
     "tool_overflow"),
])
def test_every_bound_is_a_named_failure_with_the_log_unchanged_and_what_ran_listed(
        store, loopback, host, behaviours, answers, bounds, code):
    loopback.script(*behaviours, Behaviour.answer("never committed"))
    conversation = store.conversations.create(
        "bounds", settings=ConversationSettings(max_bytes=40_000))
    before = log_rows(store)
    _c, outcome = send(store, loopback, host, Approvals(*answers), conversation=conversation,
                       bounds=bounds)
    assert isinstance(outcome, Failed), outcome
    assert outcome.failure.kind is FailureKind.TOOLS and outcome.failure.code == code
    assert outcome.draft == QUESTION
    assert log_rows(store) == before
    ran = [line for line in outcome.failure.ran]
    if code == "tool_approval_timeout":
        assert ran == []
    else:
        assert ran and "These tool calls ran" in outcome.failure.message()


def test_a_model_error_after_a_tool_ran_lists_the_side_effect(store, loopback, host, tmp_path):
    target = tmp_path / "effect.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "done"}))),
        Behaviour.server_error(),
    )
    conversation = store.conversations.create("effects")
    before = log_rows(store)
    _c, outcome = send(store, loopback, host, Approvals(Approval.RUN), conversation=conversation)
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.HTTP_STATUS
    assert target.exists()
    assert len(outcome.failure.ran) == 1 and outcome.failure.ran[0].startswith("write_file ")
    assert outcome.answer is None and outcome.draft == QUESTION
    assert log_rows(store) == before


def test_cancel_while_waiting_for_approval_fails_as_stopped(store, loopback, host):
    loopback.script(Behaviour.calls(("echo", '{"text":"x"}')))
    cancel = CancelToken()

    def ask(call, server, timeout_s, token):
        threading.Timer(0.1, cancel.cancel).start()
        token.wait(5)
        return None

    _c, outcome = send(store, loopback, host, ask, cancel=cancel)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.CANCELLED
    assert store.db.execute_sql("SELECT count(*) FROM turns").fetchone() == (0,)


def test_tools_off_sends_no_tools_field(store, loopback):
    loopback.script(Behaviour.answer("没有工具"))
    conversation = store.conversations.create("plain")
    request = request_for(conversation, "你好", ROUTE)
    outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url),
                         CostIndex()).send(request)
    assert isinstance(outcome, Committed)
    assert "tools" not in loopback.requests[-1].json()


def test_a_tool_list_that_cannot_fit_is_refused_with_its_size(store, loopback, host):
    conversation = store.conversations.create("tiny",
                                              settings=ConversationSettings(max_bytes=1_200))
    _c, outcome = send(store, loopback, host, Approvals(), conversation=conversation)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.REFUSED
    assert outcome.refusal is not None and outcome.refusal.tools_bytes > 0
    assert f"the tool list alone {outcome.refusal.tools_bytes:,} bytes" in \
        outcome.failure.detail
    assert loopback.requests == []


def test_the_turn_s_deadline_ends_a_call_and_time_waiting_for_approval_is_not_counted(
        store, loopback, host):
    loopback.script(Behaviour.calls(("hang", "{}")))
    _c, outcome = send(store, loopback, host, Approvals(Approval.RUN),
                       bounds=ToolBounds(deadline_s=0.5))
    assert isinstance(outcome, Failed) and outcome.failure.code == "tool_deadline"
    assert outcome.failure.ran and outcome.failure.ran[0].startswith("hang")

    class SlowPerson(Approvals):
        def __call__(self, call, server, timeout_s, cancel):
            cancel.wait(1.0)  # a second at the card, longer than the whole deadline
            return super().__call__(call, server, timeout_s, cancel)

    loopback.script(Behaviour.calls(("echo", '{"text":"慢"}')), Behaviour.answer("好了"))
    _c, slow = send(store, loopback, host, SlowPerson(Approval.RUN),
                    bounds=ToolBounds(deadline_s=0.8))
    assert isinstance(slow, Committed), slow


def test_a_tool_turn_leaving_the_verbatim_part_is_summarized_without_a_tools_field(
        store, loopback, host):
    """The rolling summary covers a turn with tools like any turn: its calls and results
    are in the text summarized; the summary request itself offers no tools."""
    from datetime import UTC, datetime

    from turnlog.core.compaction import SUMMARY_PROMPT
    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.core.tools import ToolCall, ToolResult, ToolRound

    settings = ConversationSettings(max_bytes=6_000, context_window=32_768,
                                    output_reserve=1_024)
    conversation = store.conversations.create("long", settings=settings)
    rounds = (ToolRound((ToolCall("c1", "search", '{"q":"西湖"}'),),
                        (ToolResult("c1", "西湖 is open all year"),)),)
    for i in range(1, 25):
        store.turns.commit(conversation.id, PendingTurn(
            f"t{i}", f"question {i} " + "问" * 60, f"answer {i} " + "a" * 150, "m", "stop",
            Usage(), datetime.now(UTC), tools=rounds if i == 1 else ()))
    loopback.default = Behaviour.answer("Summary: they searched 西湖.")
    loopback.script(Behaviour.answer("Summary: they searched 西湖."), Behaviour.answer("好"))
    _c, outcome = send(store, loopback, host, Approvals(), conversation=conversation,
                       question="继续")
    assert isinstance(outcome, Committed), outcome
    summaries = [r.json() for r in loopback.requests
                 if r.json()["messages"][0]["content"] == SUMMARY_PROMPT]
    assert summaries and all("tools" not in body for body in summaries)
    folded = "\n".join(m["content"] for body in summaries for m in body["messages"])
    assert "Tool call: search {\"q\":\"西湖\"} → 西湖 is open all year" in folded
    final = loopback.requests[-1].json()
    assert "tools" in final
    check_whole(final["messages"])


def check_whole(messages):
    from tool_exchange_checks import check_exchanges_whole

    check_exchanges_whole(messages)
