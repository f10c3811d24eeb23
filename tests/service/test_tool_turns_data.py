"""A turn with tools as data: exported and imported with its exchange, forked with it,
deleted with it (its full results too, and nothing of it left in the file)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.core.tools import Approval, ToolCall, ToolResult, ToolRound
from turnlog.formats.export import export_jsonl, export_markdown
from turnlog.service.transfer import import_file
from turnlog.store import TurnlogStore

SECRET_RESULT = "机密结果-" + "x" * 300_000
ROUNDS = (ToolRound(
    (ToolCall("call_1", "search", '{"q":"香山"}'), ToolCall("call_2", "write_file", "{}")),
    (ToolResult("call_1", "晴 [cut]", False, 0.5, Approval.RUN, 200_000),
     ToolResult("call_2", "The user declined to run this tool call.", False, 0.0,
                Approval.DENY, ran=False)),
    "查一下", {"call_1": SECRET_RESULT}),)


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def commit_tool_turn(store):
    conversation = store.conversations.create("工具")
    turn = store.turns.commit(conversation.id, PendingTurn(
        "turn-tools", "天气？", "晴。", "m", "stop", Usage(), datetime(2026, 12, 1, tzinfo=UTC),
        tools=ROUNDS))
    return conversation, turn


def test_export_and_import_carry_the_exchange(store, tmp_path):
    conversation, turn = commit_tool_turn(store)
    assert turn.tools == ROUNDS
    text = export_jsonl(conversation, store.turns(conversation.id))
    line = json.loads(text.splitlines()[1])
    assert [c["name"] for c in line["tool_rounds"][0]["calls"]] == ["search", "write_file"]
    path = tmp_path / "export.jsonl"
    path.write_text(text, encoding="utf-8")
    store.privacy.delete_conversation(conversation.id)
    (imported,) = import_file(store, path)
    (back,) = store.turns(imported.id)
    assert back.tools == ROUNDS
    markdown = export_markdown(conversation, (turn,))
    assert markdown.index("天气？") < markdown.index("**Tool call:** `search`") \
        < markdown.index("晴。")
    assert "`write_file` (not run" in markdown


def test_a_damaged_exchange_in_an_import_is_named(store, tmp_path):
    conversation, _turn = commit_tool_turn(store)
    lines = export_jsonl(conversation, store.turns(conversation.id)).splitlines()
    bad = json.loads(lines[1])
    bad["tool_rounds"][0]["calls"][0].pop("result")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(bad, ensure_ascii=False)]) + "\n",
                    encoding="utf-8")
    with pytest.raises(Exception, match="tool_rounds"):
        import_file(store, path)


def test_delete_removes_the_exchange_and_its_full_results_from_the_file(store, turnlog_home):
    conversation, turn = commit_tool_turn(store)
    assert store.turns.tool_result(turn.id, "call_1") == SECRET_RESULT
    store.privacy.delete_turn(turn.id)
    assert store.turns.tool_result(turn.id, "call_1") is None
    assert store.db.execute_sql("SELECT count(*) FROM tool_results").fetchone() == (0,)
    store.close()
    data = b"".join(p.read_bytes() for p in turnlog_home.glob("turnlog.sqlite3*"))
    assert "机密结果".encode() not in data and "香山".encode() not in data


def test_a_fork_keeps_the_turns_exchanges(store):
    conversation, turn = commit_tool_turn(store)
    store.turns.commit(conversation.id, PendingTurn(
        "turn-2", "然后？", "好。", "m", "stop", Usage(), datetime(2026, 12, 1, tzinfo=UTC)))
    fork, _draft = store.forks.at(conversation.id, 2)
    (copy,) = store.turns(fork.id)
    assert copy.tools == ROUNDS and copy.id != turn.id
