"""turnlog-cli log commands, run as real processes against a real data directory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from cli_log_runs import (
    ORCHID,
    cli,
    project,
    two_turns,  # noqa: F401 - fixtures
)


def commit_in_new_process(conversation: int, turn_id: str, question: str, answer: str) -> None:
    """Append a complete turn through the store, in a process of its own (a restart)."""
    code = textwrap.dedent(f"""
        from datetime import UTC, datetime
        from turnlog.core.model import Usage
        from turnlog.core.send import PendingTurn
        from turnlog.config.paths import data_dir
        from turnlog.store import TurnlogStore
        with TurnlogStore.open(data_dir()) as store:
            store.turns.commit({conversation}, PendingTurn({turn_id!r}, {question!r}, {answer!r},
                "m", "stop", Usage(), datetime.now(UTC)))
    """)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_orchid_scenario_projection_follows_the_budget_and_survives_restart(
        two_turns, turnlog_home):  # noqa: F811 - the fixture
    db = turnlog_home / "turnlog.sqlite3"
    question = "What is my project code?"
    rc, wide = project(two_turns, question)
    assert rc == 0 and wide["sent"] == [1, 2] and "ORCHID-17" in wide["body"]
    # Shrink the byte budget so only the newest turn fits.
    turn2_bytes = wide["body_bytes"] - len(
        json.dumps({"role": "user", "content": ORCHID}, ensure_ascii=False,
                   separators=(",", ":")).encode()) - len(
        json.dumps({"role": "assistant", "content": "Noted: ORCHID-17."}, ensure_ascii=False,
                   separators=(",", ":")).encode()) - 2
    before = db.read_bytes()
    rc, narrow = project(two_turns, question, "--max-bytes", str(turn2_bytes))
    assert rc == 0
    # Compaction is on (the default), but no summary call fits a body this small (its
    # prompt alone is larger): turn 1 is left out, named, and the body is the final one
    # rather than a plan whose summary call would fail before anything is answered.
    assert narrow["sent"] == [2] and narrow["left_out"] == [1] and narrow["summarized"] == []
    assert narrow["final"] is True and narrow["summary"]["state"] == "none"
    assert "ORCHID-17" not in narrow["body"]
    assert narrow["body_bytes"] == len(narrow["body"].encode("utf-8")) <= turn2_bytes
    assert db.read_bytes() == before, "projecting must not write"

    commit_in_new_process(two_turns, "t3", "Remind me later.", "I will, with ORCHID in mind.")
    rc, small = project(two_turns, question, "--max-bytes", str(turn2_bytes))
    assert rc == 0 and 1 not in small["sent"] and small["sent"][-1] == 3
    rc, widened = project(two_turns, question, "--max-bytes", "100000")
    assert rc == 0 and widened["sent"] == [1, 2, 3] and widened["left_out"] == []
    assert "ORCHID-17" in widened["body"]

    before = db.read_bytes()
    rc, refused = project(two_turns, "x" * 500, "--max-bytes", "300")
    assert rc == 3
    assert refused["refused"] is True and refused["max_bytes"] == 300
    assert refused["mandatory_bytes"] > 300
    assert db.read_bytes() == before, "a refused projection must not write"


def test_project_body_is_the_exact_wire_body(two_turns):  # noqa: F811 - the fixture
    rc, out = project(two_turns, "引号 \"quoted\" \\ back\nslash\ttab \x01 ctl 🎉")
    assert rc == 0
    body = json.loads(out["body"])
    assert body["model"] == "m1"
    assert body["messages"][0] == {"role": "system", "content": "Be brief."}
    assert body["messages"][-1]["content"] == "引号 \"quoted\" \\ back\nslash\ttab \x01 ctl 🎉"
    assert "\\u" not in out["body"].replace("\\u0001", "")  # CJK is not escaped
    assert out["tokens_exact"] is False and out["input_tokens"] > 0


def test_export_import_round_trip(two_turns, tmp_path):  # noqa: F811 - the fixture
    first = cli("export", str(two_turns))
    assert first.returncode == 0
    path = tmp_path / "again.jsonl"
    path.write_text(first.stdout, encoding="utf-8")
    again = cli("import", str(path), "--model", "other", "--as-copies")
    assert again.returncode == 0
    copy = int(again.stdout)
    exported = [json.loads(line) for line in cli("export", str(copy)).stdout.splitlines()]
    original = [json.loads(line) for line in first.stdout.splitlines()]
    assert exported[0]["model"] == "other"
    assert [(t["question"], t["answer"]) for t in exported[1:]] == [
        (t["question"], t["answer"]) for t in original[1:]]
    listing = cli("list").stdout
    assert "ORCHID" in listing and "2 turns" in listing
    shown = cli("show", str(two_turns)).stdout
    assert ORCHID in shown and "你好" in shown


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b'{"title": "no header"}\n', "header"),
    (b'{"turnlog": 1}\nnot json\n', "line 2 is not JSON"),
    (b'{"turnlog": 1}\n{"question": "q", "answer": ""}\n', "'answer' must be"),
    (b'{"turnlog": 1}\n\xff\xfe broken\n', "utf-8"),
])
def test_bad_import_is_named_and_writes_nothing(tmp_path, turnlog_home, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    result = cli("import", str(path))
    assert result.returncode == 1
    assert message.lower() in result.stderr.lower()
    assert not (turnlog_home / "turnlog.sqlite3").exists()


def test_unknown_conversation_is_a_plain_error(two_turns):  # noqa: F811 - the fixture
    result = cli("export", "999")
    assert result.returncode == 1
    assert "no conversation 999" in result.stderr


def test_token_budget_refuses_a_cjk_question_that_fits_in_bytes(two_turns):  # noqa: F811 - the fixture
    # 400 CJK characters: 1,200 bytes, well inside the byte limit, but the 1,000-token
    # window leaves 616 input tokens and the estimate must not undercount CJK.
    rc, out = project(two_turns, "中" * 400, "--window", "1000", "--output-reserve", "256")
    assert rc == 3
    assert out["reason"] == "tokens" and out["token_budget"] == 1000 - 256 - 128
    assert out["mandatory_tokens"] > out["token_budget"]


def test_out_of_range_output_reserve_is_explained(two_turns):  # noqa: F811 - the fixture
    result = cli("project", "--conversation", str(two_turns), "--question", "q",
                 "--output-reserve", "100")
    assert result.returncode == 2
    assert "between 256 and 32,768" in result.stderr
