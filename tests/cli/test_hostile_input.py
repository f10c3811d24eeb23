"""`turnlog-cli` given hostile input by a person or a file: text that is not Unicode,
sizes past the limits, odd data directories. Each is a named error, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from loopback import Behaviour


def cli(*args: str | bytes, input: str | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env={**os.environ, **(env or {})})


def write(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def count(home: Path, table: str) -> int:
    if not (home / "turnlog.sqlite3").exists():
        return 0
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        con.close()


HEADER = {"turnlog": 1, "title": "Imported"}
TURN = {"question": "q", "answer": "a"}


@pytest.fixture
def conversation(tmp_path, loopback) -> None:
    assert cli("import", str(write(tmp_path, HEADER, TURN))).returncode == 0
    assert cli("profile", "add", "loop", "--preset", "custom", "--base-url",
               loopback.base_url, "--model", "loopback-model", input="").returncode == 0


# --- lone surrogates ---------------------------------------------------------------------

# As a shell passes them: bytes that are not UTF-8 (a surrogate encoded, a stray byte).
NOT_UTF8 = [b"bad \xed\xa0\x80 text", b"bad \xff text"]


@pytest.mark.parametrize(("command", "text"), [
    (["pin", "add", "--conversation", "1"], NOT_UTF8[0]),
    (["note", "add", "--conversation", "1"], NOT_UTF8[1]),
    (["pref", "add"], NOT_UTF8[1]),
    (["btw", "--conversation", "1"], NOT_UTF8[0]),
    (["ask", "--conversation", "1"], NOT_UTF8[1]),
], ids=["pin", "note", "pref", "btw", "ask"])
def test_typed_text_that_is_not_unicode_is_named(conversation, loopback, turnlog_home,
                                                 command, text):
    sent = len(loopback.requests)
    result = cli(*command, text)
    assert "Traceback" not in result.stderr, result.stderr[-1500:]
    if command[0] in ("ask", "btw"):  # named, the question given back
        assert result.returncode == 4 and "failure: invalid_text" in result.stderr
        assert "here it is:\nbad \\udc" in result.stderr
    else:
        assert result.returncode == 1
        assert "error: invalid_text: the text is not valid UTF-8" in result.stderr
    assert len(loopback.requests) == sent
    assert [count(turnlog_home, t) for t in ("pins", "notes", "preferences", "turns")] == \
        [0, 0, 0, 1]


def test_a_file_name_that_is_not_utf8_still_imports(tmp_path, turnlog_home):
    """Any bytes name a file: only text that is kept or sent must be UTF-8."""
    name = os.fsencode(tmp_path) + b"/caf\xe9.jsonl"
    with open(name, "w", encoding="utf-8") as out:
        out.write(json.dumps(HEADER) + "\n" + json.dumps(TURN) + "\n")
    result = cli("import", name)
    assert result.returncode == 0, result.stderr
    assert count(turnlog_home, "conversations") == 1


@pytest.mark.parametrize("lines", [
    [{**HEADER, "memory": {"pins": [{"text": "p \ud800"}]}}, TURN],
    [{**HEADER, "memory": {"notes": [{"text": "n \udfff"}]}}, TURN],
    [{**HEADER, "memory": {"preferences": [{"text": "\ud800"}]}}, TURN],
    [HEADER, TURN, {"side_question": {"question": "s \ud800", "answer": "x"}}],
    [HEADER, TURN, {"side_question": {"question": "s", "answer": "x \ud800"}}],
], ids=["pin", "note", "preference", "side-question", "side-answer"])
def test_an_imported_lone_surrogate_anywhere_is_named(tmp_path, turnlog_home, lines):
    result = cli("import", str(write(tmp_path, *lines)))
    assert "Traceback" not in result.stderr, result.stderr[-1500:]
    assert result.returncode == 1
    assert "holds text that is not valid UTF-8 (a lone surrogate)" in result.stderr
    assert count(turnlog_home, "conversations") == 0


# --- size limits -------------------------------------------------------------------------

def test_a_pin_past_the_limit_is_named_typed_or_imported(tmp_path, turnlog_home):
    assert cli("import", str(write(tmp_path, HEADER, TURN))).returncode == 0
    typed = cli("pin", "add", "--conversation", "1", "x" * 20_000)
    assert "Traceback" not in typed.stderr and typed.returncode == 1
    assert typed.stderr == ("error: text_too_long: The text is 20,000 characters; a pin, "
                            "note or preference may be at most 16,384.\n")
    for key, size, said in [
        ("pins", 2_000_000, "'memory.pins.text' is 10,000,000 bytes"),  # 10 MB
        ("pins", 20_000, "a text in 'memory.pins' is 99,999 characters; a pin, note or "
                         "preference may be at most 16,384"),
        ("notes", 20_000, "a text in 'memory.notes' is 99,999 characters"),
    ]:
        header = {**HEADER, "memory": {key: [{"text": "fact " * size}]}}
        result = cli("import", str(write(tmp_path, header, TURN)))
        assert "Traceback" not in result.stderr and result.returncode == 1, result.stderr[-999:]
        assert f"line 1: {'' if size > 1e6 else 'the header' + chr(39) + 's memory: '}{said}" \
            in result.stderr
    assert count(turnlog_home, "pins") == 0 and count(turnlog_home, "conversations") == 1


def test_a_side_answer_past_the_answer_limit_is_not_imported(tmp_path, turnlog_home):
    side = {"side_question": {"question": "s", "answer": "y" * (4 * 1024 * 1024 + 1)}}
    result = cli("import", str(write(tmp_path, HEADER, TURN, side)))
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert "line 3: 'side_question.answer' is 4,194,305 bytes" in result.stderr
    assert count(turnlog_home, "conversations") == 0


# --- terminal safety ---------------------------------------------------------------------

HOSTILE = "title \x1b]0;owned\x07 \x1b[2J \x9b31m \u202egnp.exe \x1b]52;c;SGVsbG8=\x07 end"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def test_json_output_escapes_c1_controls_and_bidi_overrides(tmp_path):
    header = {**HEADER, "title": HOSTILE, "memory": {"pins": [{"text": "pin " + HOSTILE}]}}
    turn = {"question": "q " + HOSTILE, "answer": "searchable " + HOSTILE}
    assert cli("import", str(write(tmp_path, header, turn))).returncode == 0
    for command in (["project", "--conversation", "1", "--question", "q", "--json"],
                    ["pin", "list", "--conversation", "1", "--json"],
                    ["search", "searchable", "--json"],
                    ["import", str(write(tmp_path, header, turn)), "--json"]):
        result = cli(*command)
        assert result.returncode == 0, result.stderr
        assert not any(c in result.stdout for c in RAW), command
        assert "\\u009b" in result.stdout and "\\u202e" in result.stdout, command
        read_back = json.loads(result.stdout)
        if command[0] == "project":  # the pin, inside the body as sent
            read_back = json.loads(read_back["body"])
        assert any(HOSTILE in text for text in strings(read_back)), command


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(
        value, list) else []
    return [text for item in items for text in strings(item)]


def test_every_command_shows_hostile_text_escaped_on_a_terminal(tmp_path, loopback):
    """A hostile title, question, answer, pin, note, preference and profile name: no
    command's output on a terminal carries a control or bidi override raw."""
    header = {**HEADER, "title": HOSTILE, "system": "sys " + HOSTILE,
              "memory": {"pins": [{"text": "pin " + HOSTILE}],
                         "notes": [{"text": "note " + HOSTILE}],
                         "preferences": [{"text": "pref " + HOSTILE}]}}
    turn = {"question": "findme " + HOSTILE, "answer": "answer " + HOSTILE}
    side = {"side_question": {"question": "side " + HOSTILE, "answer": "aside " + HOSTILE}}
    assert cli("import", str(write(tmp_path, header, turn, side))).returncode == 0
    tty = {"TURNLOG_TERMINAL": "1"}
    added = cli("profile", "add", HOSTILE, "--preset", "custom", "--base-url",
                loopback.base_url, "--model", "m " + HOSTILE, input="", env=tty)
    loopback.script(Behaviour.answer("fresh " + HOSTILE))
    runs = [added] + [cli(*command, env=tty, input="n\n") for command in (
        ["list"], ["show", "1"], ["export", "1"], ["export", "1", "--format", "markdown"],
        ["project", "--conversation", "1", "--question", "q"], ["search", "findme"],
        ["pin", "list", "--conversation", "1"], ["note", "list", "--conversation", "1"],
        ["pref", "list"], ["btw", "--list", "--conversation", "1"], ["profile", "list"],
        ["ask", "--conversation", "1", "again"], ["delete", "--conversation", "1"],
        ["fork", "--conversation", "1", "--at", "1"])]
    for run in runs:
        out = run.stdout + run.stderr
        assert "Traceback" not in out, run.args
        assert not any(c in out for c in RAW), (run.args, out[:400])
        if run.args[3] in ("project", "delete", "list", "show"):  # shown, not dropped
            assert "\\x1b]0;owned\\x07" in out and "\\u202egnp.exe" in out, run.args
    assert cli("list").stdout.count("\n") == 2, "the delete was declined: nothing went"
