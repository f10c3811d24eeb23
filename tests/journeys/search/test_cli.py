"""`turnlog-cli search`, run as a real process against a real data directory."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=120, env=os.environ.copy())


@pytest.fixture
def seeded(turnlog_home) -> dict[str, int]:
    with TurnlogStore.open(turnlog_home) as store:
        plans = store.conversations.create("周末计划")
        code = store.conversations.create("Project \x1b]0;pwned\x07 notes")
        for n, (question, answer) in enumerate([("周末去哪里？", "去香山看红叶。"),
                                                 ("带什么？", "水和外套。")], start=1):
            store.turns.commit(plans.id, PendingTurn(f"p{n}", question, answer, "m", "stop",
                                                     Usage(), datetime.now(UTC)))
        for n in range(1, 31):
            store.turns.commit(code.id, PendingTurn(f"c{n}", f"Where is ORCHID-17 part {n}?",
                                                    "In the vault.", "m", "stop", Usage(),
                                                    datetime.now(UTC)))
        return {"plans": plans.id, "code": code.id}


def test_json_names_conversation_title_turn_id_and_snippet(seeded):
    result = cli("search", "香山", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"results": [
        {"conversation": seeded["plans"], "title": "周末计划", "turn": 1, "turn_id": "p1",
         "snippet": "去[香山]看红叶。", "superseded": False}]}


def test_text_output_and_the_limit(seeded):
    result = cli("search", "orchid", "--limit", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 6  # a heading line and a snippet line per result
    assert "turn 30" in lines[0] and "[ORCHID]-17" in lines[1]
    assert result.stderr == "30 matches, 3 shown (--limit for more)\n"
    assert len(json.loads(cli("search", "orchid", "--json", "--limit", "25").stdout)
               ["results"]) == 25


def test_titles_are_shown_safely_on_a_terminal(seeded):
    env = {**os.environ, "TURNLOG_TERMINAL": "1"}
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", "search", "notes"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert "\x1b" not in result.stdout and "\\x1b]0;pwned\\x07" in result.stdout


@pytest.mark.parametrize("query", ["nothing-here", "*", '"', "a AND", "AND", "C++", "(", ":"])
def test_no_match_or_odd_input_exits_0(seeded, query):
    result = cli("search", query, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"results": []}


def test_searching_writes_nothing(seeded, turnlog_home):
    path = turnlog_home / "turnlog.sqlite3"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    assert cli("search", "红叶").returncode == 0
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_no_database_yet_is_no_match(turnlog_home):
    result = cli("search", "anything", "--json")
    assert (result.returncode, json.loads(result.stdout)) == (0, {"results": []})
    assert not (turnlog_home / "turnlog.sqlite3").exists()


@pytest.mark.parametrize("limit", ["0", "-1", "x"])
def test_a_bad_limit_is_an_error(seeded, limit):
    result = cli("search", "orchid", "--limit", limit)
    assert result.returncode == 2 and "--limit" in result.stderr
