"""`turnlog-cli import` of a DeepSeek data export (generated: Chinese with thinking and a
regenerated answer, English with a web search fragment and a file), read back through
`turnlog-cli show`; twice, adding nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import deepseek_export as deepseek
from turnlog.store import TurnlogStore


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())


def imported(path: Path) -> dict:
    result = cli("import", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_branch_in_use_comes_through_with_its_thinking(tmp_path, turnlog_home):
    report = imported(deepseek.write_zip(tmp_path / "deepseek.zip", deepseek.conversations()))
    assert report["source"] == "DeepSeek export (.zip)"
    poem, weather = report["conversations"]
    assert (poem["title"], poem["turns"]) == ("秋天的诗", 2)
    assert poem["skipped"] == [{"reason": "messages on other branches (regenerated answers, "
                                "edits)", "count": 1}]
    assert {s["reason"] for s in weather["skipped"]} == {
        "files the export names but does not carry",
        "fragments other than question, answer and thinking (e.g. web search)"}
    shown = cli("show", str(poem["id"]))
    assert shown.returncode == 0, shown.stderr
    assert "(imported from DeepSeek · deepseek-chat)" in shown.stdout
    assert "> 写一首关于秋天的诗\n\n秋风起，落叶黄。" in shown.stdout
    assert "Autumn wind rises, leaves turn gold." in shown.stdout
    assert "旧的回答" not in shown.stdout
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        first, second = store.turns.all(poem["id"])
        assert (first.reasoning, second.reasoning) == ("写短一点。", "")
        assert (first.model, second.model) == ("deepseek-reasoner", "deepseek-chat")
        assert first.created_at == datetime.fromisoformat(deepseek.stamp(3))


def test_importing_the_same_export_again_adds_nothing(tmp_path, turnlog_home):
    path = deepseek.write_json(tmp_path / "conversations.json", deepseek.conversations())
    first = imported(path)
    again = imported(path)
    assert [c["id"] for c in again["conversations"]] == [c["id"] for c in
                                                         first["conversations"]]
    assert again["totals"]["turns"] == 0 and again["totals"]["already imported"] == 3
