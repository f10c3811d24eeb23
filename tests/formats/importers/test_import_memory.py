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
# The child's own peak (VmHWM of its process image), written when it exits: the rusage a
# parent gets back counts the pages of the forking test process too (151 MB after a
# module of fuzz tests, for an import that peaks at 95).
CHILD = ("import atexit, runpy, sys\n"
         "out = sys.argv.pop(1)\n"
         "def peak():\n"
         "    for line in open('/proc/self/status'):\n"
         "        if line.startswith('VmHWM:'):\n"
         "            open(out, 'w').write(line.split()[1])\n"
         "atexit.register(peak)\n"
         "sys.argv = ['turnlog-cli'] + sys.argv[1:]\n"
         "runpy.run_module('turnlog.cli', run_name='__main__')\n")


def test_a_long_conversation_imports_in_bounded_memory(tmp_path, turnlog_home):
    path = gpt.write_long(tmp_path / "conversations.json", 20_000)
    report = tmp_path / "report.txt"  # a file, not a pipe: nobody reads it meanwhile
    peak = tmp_path / "peak-kib.txt"
    with report.open("wb") as err:
        child = subprocess.run([sys.executable, "-c", CHILD, str(peak), "import", str(path)],
                               env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=err)
    assert child.returncode == 0, report.read_text(errors="replace")[-2000:]
    peak_mb = int(peak.read_text()) / 1024
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
