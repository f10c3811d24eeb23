"""The CLI against hostile files and text: malformed imports, escape sequences, a damaged
log, a stolen lock; plus `ask -` and no empty conversation after a failed `ask --new`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from damage import scribble_over_table
from loopback import Behaviour
from places import DATA

HOSTILE = "title \x1b]0;owned\x07 \x1b[2J \x9b31m \u202egnp.exe \x1b]8;;http://x\x1b\\link"


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env={**os.environ, **(env or {})})


def write_lines(tmp_path: Path, *lines: str, bom: bool = False) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "".join(
        line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
    return path


HEADER = json.dumps({"turnlog": 1, "title": "Imported"})
TURN = json.dumps({"question": "q", "answer": "a"})


def conversations(home: Path) -> int:
    if not (home / "turnlog.sqlite3").exists():
        return 0
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return con.execute("SELECT count(*) FROM conversations").fetchone()[0]
    finally:
        con.close()


# --- import ------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    ("[" * 200_000 + "]" * 200_000, "line 2 is nested too deeply"),
    ('{"question": ' + "[" * 200_000 + "]" * 200_000 + "}", "line 2 is nested too deeply"),
    ('{"question": "q", "answer": "a", "n": ' + "9" * 5000 + "}",
     "line 2 holds a value that cannot be read"),
    ('{"question": "q", "answer": "a\\ud800"}', "line 2: 'answer' holds text that is not valid"),
    ('{"question": "q", "answer": "' + "x" * (4 * 1024 * 1024 + 1) + '"}',
     "line 2: 'answer' is 4,194,305 bytes; a turn's text may be at most 4,194,304 bytes "
     "(4 MiB"),
])
def test_malformed_import_lines_are_named_and_nothing_is_imported(tmp_path, turnlog_home,
                                                                  line, expected):
    source = write_lines(tmp_path, HEADER, line, TURN)
    result = cli("import", str(source))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr[:300]
    assert conversations(turnlog_home) == 0


@pytest.mark.parametrize("key", ["title", "system"])
def test_a_lone_surrogate_in_the_header_is_named(tmp_path, turnlog_home, key):
    line = json.dumps({"turnlog": 1, key: "bad \udc80 text"})  # written as a \\udc80 escape
    source = write_lines(tmp_path, line, TURN)
    result = cli("import", str(source))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"line 1: '{key}' holds text that is not valid UTF-8" in result.stderr
    assert conversations(turnlog_home) == 0


def test_a_byte_order_mark_is_accepted(tmp_path, turnlog_home):
    result = cli("import", str(write_lines(tmp_path, HEADER, TURN, bom=True)))
    assert result.returncode == 0, result.stderr
    assert conversations(turnlog_home) == 1


# --- terminal safety -----------------------------------------------------------------------

def test_escape_sequences_are_shown_not_obeyed_on_a_terminal(tmp_path, turnlog_home):
    header = json.dumps({"turnlog": 1, "title": HOSTILE, "system": "s\x1b[2J"})
    turn = json.dumps({"question": "q\x1b]52;c;SGVsbG8=\x07", "answer": "line\n\ttab \u202eevil"})
    assert cli("import", str(write_lines(tmp_path, header, turn))).returncode == 0
    tty = {"TURNLOG_TERMINAL": "1"}
    for command in (["list"], ["show", "1"], ["export", "1", "--format", "markdown"]):
        shown = cli(*command, env=tty)
        assert shown.returncode == 0, shown.stderr
        assert not any(c in shown.stdout for c in "\x1b\x07\x9b\u202e"), command
        assert "\\x1b]0;owned\\x07" in shown.stdout and "\\u202egnp.exe" in shown.stdout
    shown = cli("show", "1", env=tty).stdout
    assert "\\x1b]52;c;SGVsbG8=\\x07" in shown and "line\n\ttab \\u202eevil" in shown
    raw = cli("show", "1", "--raw", env=tty).stdout
    assert HOSTILE in raw and "\x1b]52;c;SGVsbG8=\x07" in raw
    piped = cli("show", "1").stdout  # not a terminal: the bytes as they are
    assert HOSTILE in piped


def add_profile(loopback) -> None:
    result = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                 loopback.base_url, "--model", "loopback-model", input="")
    assert result.returncode == 0, result.stderr


def test_streamed_answers_are_escaped_on_a_terminal(loopback):
    add_profile(loopback)
    loopback.script(Behaviour.answer("Hi \x1b]0;title\x07 and \u202e!", chunks=3),
                    Behaviour.answer("Hi \x1b]0;title\x07 again", chunks=3))
    shown = cli("ask", "--new", "hello", env={"TURNLOG_TERMINAL": "1"})
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "Hi \\x1b]0;title\\x07 and \\u202e!\n"
    raw = cli("ask", "--conversation", "1", "--raw", "again", env={"TURNLOG_TERMINAL": "1"})
    assert raw.stdout == "Hi \x1b]0;title\x07 again\n"


# --- ask -, ask --new ----------------------------------------------------------------------

def test_ask_dash_reads_the_question_from_stdin(loopback):
    add_profile(loopback)
    long_question = "A long question, past what a shell line holds comfortably. " * 150 + "End?"
    loopback.script(Behaviour.answer("Read it all."))
    result = cli("ask", "--new", "-", input=long_question + "\n")
    assert result.returncode == 0, result.stderr
    assert loopback.requests[-1].json()["messages"][-1]["content"] == long_question


def test_a_failed_ask_new_leaves_no_conversation(loopback, turnlog_home):
    add_profile(loopback)
    for behaviour in (Behaviour.server_error(), Behaviour.cut(), Behaviour.empty()):
        loopback.script(behaviour)
        result = cli("ask", "--new", "Which conversation?")
        assert result.returncode == 4, result.stderr
        assert "Which conversation?" in result.stderr
    assert cli("list").stdout == "no conversations yet\n"
    assert conversations(turnlog_home) == 0


# --- damage and read-only --------------------------------------------------------------------

def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_writes_are_refused_on_a_damaged_log(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    loopback.script(*[Behaviour.answer("x" * 3000) for _ in range(30)])
    for i in range(30):
        assert cli("ask", "--new" if i == 0 else "--conversation", *([] if i == 0 else ["1"]),
                   f"q{i}").returncode == 0
    path = turnlog_home / "turnlog.sqlite3"
    scribble_over_table(path)
    before = digest(path)
    sent = len(loopback.requests)
    for args in (["--conversation", "1"], ["--new"]):
        result = cli("ask", *args, "Still there?")
        assert result.returncode == 4 and "failure: storage_damaged" in result.stderr
        assert "Still there?" in result.stderr and "Traceback" not in result.stderr
    imported = cli("import", str(write_lines(tmp_path, HEADER, TURN)))
    assert imported.returncode == 1
    assert imported.stderr.startswith("error: storage_damaged: ")
    assert len(loopback.requests) == sent  # refused before anything was sent
    assert digest(path) == before


def test_show_and_export_skip_and_report_undecodable_rows(loopback, turnlog_home, tmp_path):
    lines = [HEADER] + [json.dumps({"question": f"q{i}", "answer": f"answer {i}"})
                        for i in range(1, 301)]
    assert cli("import", str(write_lines(tmp_path, *lines))).returncode == 0
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute("UPDATE turns SET question = CAST(X'ff00fe' AS TEXT) WHERE ordinal = 42")
    con.commit()
    con.close()
    exported = cli("export", "1")
    assert exported.returncode == 5
    assert len(exported.stdout.splitlines()) == 1 + 299
    assert "1 of 300 turns could not be read" in exported.stderr
    assert "turn 42: question is not valid UTF-8" in exported.stderr
    shown = cli("show", "1")
    assert shown.returncode == 5 and "## turn 43" in shown.stdout
    assert "## turn 42" not in shown.stdout
    # The damaged turn can be deleted (the search index cannot read its text either).
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    (bad,) = con.execute("SELECT id FROM turns WHERE ordinal = 42").fetchone()
    con.close()
    deleted = cli("delete", "--turn", bad, "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert deleted.stdout.startswith("deleted 1 turn")
    exported = cli("export", "1")
    assert exported.returncode == 0 and len(exported.stdout.splitlines()) == 1 + 299


@pytest.mark.parametrize("kind", ["empty", "rollback-journal", "schema-v1"])
def test_read_only_commands_leave_the_file_byte_identical(loopback, turnlog_home, tmp_path,
                                                          kind):
    path = turnlog_home / "turnlog.sqlite3"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "schema-v1":
        shutil.copyfile(DATA / "turnlog-v1.sqlite3", path)
    else:
        assert cli("import", str(write_lines(tmp_path, HEADER, TURN))).returncode == 0
        con = sqlite3.connect(path)
        con.execute("PRAGMA journal_mode = DELETE")
        con.close()
    before = digest(path)
    names = sorted(p.name for p in turnlog_home.iterdir())
    results = [cli(*args) for args in (["list"], ["show", "1"], ["export", "1"],
                                       ["project", "--conversation", "1", "--question", "q"])]
    assert digest(path) == before
    # A WAL database's readers share its -shm (SQLite makes it, and an empty -wal, beside
    # the file); nothing else appears and nothing is written into the -wal.
    after = sorted(p.name for p in turnlog_home.iterdir())
    assert [n for n in after if not n.endswith(("-wal", "-shm"))] == names
    wal = turnlog_home / "turnlog.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert all("Traceback" not in r.stderr for r in results)
    if kind == "schema-v1":
        assert all(r.returncode == 1 for r in results)
        assert all("storage_needs_upgrade" in r.stderr for r in results)
    if kind == "empty":
        assert results[0].stdout == "no conversations yet\n"
    if kind == "rollback-journal":
        assert all(r.returncode == 0 for r in results), [r.stderr for r in results]


# --- the writer lock -------------------------------------------------------------------------

def test_deleting_the_lock_path_mid_stream_does_not_let_a_second_writer_in(
        loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    # Slow enough that the first writer still streams while a loaded machine starts the
    # second process.
    loopback.script(Behaviour.slow("word " * 40, delay_s=0.25, chunks=40))
    first = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "ask", "--new", "slow"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=os.environ.copy())
    try:
        loopback.wait_for_requests(1, timeout=20)
        time.sleep(0.3)
        (turnlog_home / "turnlog.lock").unlink()
        second = cli("import", str(write_lines(tmp_path, HEADER, TURN)))
        assert second.returncode == 1
        assert second.stderr.startswith("error: storage_in_use: Turnlog is already open")
    finally:
        out, err = first.communicate(timeout=30)
    assert first.returncode == 0, err
    assert conversations(turnlog_home) == 1


def test_a_damaged_title_is_listed_not_fatal(turnlog_home, tmp_path):
    assert cli("import", str(write_lines(tmp_path, HEADER, TURN))).returncode == 0
    assert cli("import", str(write_lines(tmp_path, HEADER, TURN))).returncode == 0
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute("UPDATE conversations SET title = CAST(X'4f6bff21' AS TEXT), "
                "settings = 'not json' WHERE id = 1")
    con.commit()
    con.close()
    listed = cli("list")
    assert listed.returncode == 0, listed.stderr
    assert "Ok\ufffd!" in listed.stdout and "Imported" in listed.stdout
    shown = cli("show", "1")
    assert shown.returncode == 0 and shown.stdout.startswith("# Ok\ufffd!")
