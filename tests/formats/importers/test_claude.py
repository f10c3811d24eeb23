"""`turnlog-cli import` of a Claude data export (a generated one: English and Chinese,
thinking, a tool call, an attachment with extracted text, an edited question, a file the
export lacks, a project and the account data), as `conversations.json` and as the
downloaded `.zip`, read back through `turnlog-cli show`; twice, adding nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import claude_export as claude
from turnlog.store import TurnlogStore


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())


def imported(path: Path) -> dict:
    result = cli("import", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def shown(conversation: int) -> str:
    result = cli("show", str(conversation))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def export_zip(tmp_path) -> Path:
    return claude.write_zip(tmp_path / "claude-export.zip", claude.conversations())


def test_the_zip_comes_through_with_thinking_tools_attachments_and_the_branch_in_use(
        export_zip, turnlog_home):
    report = imported(export_zip)
    assert report["source"] == "Claude export (.zip)"
    trip, poem, lost = report["conversations"]
    assert (trip["title"], trip["turns"], trip["attached"], trip["skipped"]) == \
        ("Trip budget", 2, 1, [])
    assert poem["turns"] == 2 and {s["reason"]: s["count"] for s in poem["skipped"]} == {
        "messages on other branches (edited questions, retried answers)": 2,
        "files the export names but does not carry (images, PDFs)": 1}
    assert lost["id"] is None and lost["skipped"] == [
        {"reason": "questions without an answer", "count": 1}]
    # The project is a folder and an assistant, its prompt shown; the account data is
    # named, not imported.
    assert report["projects"] == [{"folder": "Travel", "assistant": "Travel",
                                   "prompt": "Answer in EUR.", "files": ["rules.md"],
                                   "added": True, "problem": ""}]
    assert report["skipped"] == [
        {"reason": "account data (users.json), never stored", "count": 1}]
    assert report["totals"]["project descriptions (a folder and an assistant have no place "
                            "for one)"] == 1

    text = shown(trip["id"])
    assert "(imported from Claude)" in text
    assert "> Here is my budget. What is the total?\n> attached: budget.csv" in text
    assert "tool call web_search" in text and "1 EUR = 1.08 USD" in text
    assert "The total is 420 EUR (about 454 USD)." in text and "You're welcome." in text
    poem_text = shown(poem["id"])
    assert "秋风起，落叶黄，明月照故乡。" in poem_text and "再长一点，加上月亮 🌕" in poem_text
    assert "（旧版本）" not in poem_text  # the answer to the edited-away question
    assert "[file: moon.jpg]" in poem_text

    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        first = store.turns.all(trip["id"])[0]
        assert first.reasoning == "Add 300 and 120."  # kept, never sent
        [tool_round] = first.tools
        assert tool_round.content == "Let me check the rate."
        assert tool_round.calls[0].name == "web_search"
        assert json.loads(tool_round.calls[0].arguments) == {"query": "EUR USD rate"}
        assert first.attachments[0].text == "item,cost\nhotel,300\ntrain,120\n"
        assert first.created_at.isoformat().startswith("2024-06-01T10:02")
    database = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    try:
        everything = " ".join(str(v) for table in ("conversations", "turns")
                              for row in database.execute(f"SELECT * FROM {table}")
                              for v in row)
    finally:
        database.close()
    for never in ("ada@example.org", "Ada Example", "+15550100"):
        assert never not in everything


def test_importing_the_json_after_the_zip_adds_nothing(export_zip, tmp_path, turnlog_home):
    first = imported(export_zip)
    again = imported(claude.write_json(tmp_path / "conversations.json",
                                       claude.conversations()))
    assert again["source"] == "Claude export"
    assert [c["id"] for c in again["conversations"]] == [c["id"] for c in
                                                         first["conversations"]]
    assert again["totals"]["turns"] == 0 and again["totals"]["already imported"] == 4
    assert shown(first["conversations"][0]["id"]).count("## turn") == 2


def test_a_later_export_with_a_file_the_first_lacked_attaches_it_dated(tmp_path,
                                                                       turnlog_home):
    """The first export named budget.csv without its text; the later one (the .zip)
    carries it: it is attached to the turn imported before, marked as added by import,
    and the turn's question stays as it was."""
    lacking = claude.conversations()
    del lacking[0]["chat_messages"][0]["attachments"][0]["extracted_content"]
    [trip, *_] = imported(claude.write_json(tmp_path / "first.json", lacking))["conversations"]
    before = shown(trip["id"])
    assert "[file: budget.csv]" in before and "attached:" not in before
    result = cli("import", str(claude.write_zip(tmp_path / "later.zip",
                                                claude.conversations())))
    assert result.returncode == 0, result.stderr
    assert "attached 1 file to 1 earlier imported turn" in result.stderr
    after = shown(trip["id"])
    assert "[file: budget.csv]" in after  # the question as it was imported, unchanged
    assert "attached: budget.csv — text" in after and "added by import on " in after
    again = cli("import", str(tmp_path / "later.zip"))
    assert again.returncode == 0 and "earlier imported" not in again.stderr


def test_the_plain_report_names_the_source_and_what_was_skipped(export_zip, turnlog_home):
    result = cli("import", str(export_zip))
    assert result.returncode == 0, result.stderr
    assert "Claude export (.zip): 3 conversations read, 4 turns imported, 1 files " \
           "attached; skipped: " in result.stderr
    assert "Claude project “Travel”: folder Travel, assistant Travel added" in result.stderr
    assert "account data (users.json), never stored: 1" in result.stderr


def test_a_large_conversation_is_walked_message_by_message(tmp_path, turnlog_home,
                                                            monkeypatch):
    from turnlog.formats.importers import tree

    monkeypatch.setattr(tree, "SPILL_BYTES", 2_000)
    big = claude.conversation("c-big", "Long", [
        claude.message(f"m{i}", "human" if i % 2 == 0 else "assistant", i % 60,
                       [claude.said(f"message {i} 第{i}条")]) for i in range(400)])
    path = claude.write_json(tmp_path / "conversations.json", [big, *claude.conversations()])
    from turnlog.service.transfer import import_file
    with TurnlogStore.open(turnlog_home) as store:
        report = import_file(store, path)
        assert [o.turns for o in report] == [200, 2, 2, 0]
        turns = store.turns.all(report[0].id)
        assert (turns[0].question, turns[-1].answer) == ("message 0 第0条", "message 399 第399条")


@pytest.mark.parametrize(("content", "expected"), [
    ('[{"uuid": "x", "chat_messages": 5}]', None),
    ('[{"uuid": "x", "chat_messages": [1, {"sender": "human"}]}]', None),
    ('[{"chat_messages": []}, 7]',
     "conversation 2 of conversations.json is not a JSON object but int"),
    ('[{"uuid": "x", "chat_messages": [{"sender": "human", "text": "hi"}', "ends early"),
])
def test_odd_or_broken_files_are_tolerated_or_named(tmp_path, turnlog_home, content,
                                                    expected):
    path = tmp_path / "conversations.json"
    path.write_text(content)
    result = cli("import", str(path))
    if expected is None:  # unknown shapes are passed over, nothing imported
        assert result.returncode == 0, result.stderr
        assert "0 turns imported" in result.stderr
    else:
        assert result.returncode == 1 and expected in result.stderr
