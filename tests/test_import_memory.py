"""Importing a long ChatGPT conversation takes memory bounded by batches, not by its
size: a 20,000-turn conversation (about 19 MB of JSON, 44,000 messages) is imported by
`turnlog-cli import` in a child process whose peak resident memory is measured. Before
the message tree was walked message by message this took 239 MB; now about 95 MB."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import chatgpt_export as gpt

PEAK_MB = 150


def test_a_long_conversation_imports_in_bounded_memory(tmp_path, turnlog_home):
    path = gpt.write_long(tmp_path / "conversations.json", 20_000)
    report = tmp_path / "report.txt"  # a file, not a pipe: nobody reads it meanwhile
    with report.open("wb") as err:
        child = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "import", str(path)],
                                 env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=err)
        _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0, report.read_text(errors="replace")[-2000:]
    peak_mb = usage.ru_maxrss / 1024
    assert peak_mb < PEAK_MB, f"peak {peak_mb:.0f} MB"
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    try:
        (turns,) = con.execute("SELECT count(*) FROM turns").fetchone()
        first, last = con.execute("SELECT min(question), max(ordinal) FROM turns").fetchone()
        (source,) = con.execute("SELECT source_model FROM conversations").fetchone()
    finally:
        con.close()
    assert (turns, last, source) == (20_000, 20_000, "gpt-4o")
    assert first.startswith("Question 0 word budget 预算")
