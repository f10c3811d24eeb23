"""turnlog-cli sent: the request that produced an answer, rebuilt from its record, as the
exact bytes the loopback server received (`--body | sha256sum` is the stored hash) or as
its parts and marks (`--json`), verified; what cannot be rebuilt is said, never guessed."""

from __future__ import annotations

import hashlib
import json
import os
import pty
import sqlite3
import subprocess
import sys

from cli_runs import add_profile, cli


def cli_bytes(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          timeout=60, env=os.environ.copy())


def stored_hashes(home) -> list[str | None]:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return [json.loads(h)[-1] if h else None
                for (h,) in con.execute("SELECT sha256 FROM requests ORDER BY id")]
    finally:
        con.close()


def test_sent_body_is_the_wire_bytes_and_json_says_verified(loopback, turnlog_home):
    add_profile(loopback)
    assert cli("ask", "--new", "--title", "sent", "Remember ORCHID-17.").returncode == 0
    assert cli("pin", "add", "--conversation", "1", "The code is ORCHID-17 🌸").returncode == 0
    assert cli("ask", "--conversation", "1", "What is the code? 你好").returncode == 0
    wire = [r.body for r in loopback.requests if r.path.endswith("/chat/completions")]
    assert len(wire) == 2
    for number, body in enumerate(wire, start=1):
        result = cli_bytes("sent", "--conversation", "1", "--turn", str(number), "--body")
        assert result.returncode == 0, result.stderr
        assert result.stdout == body
        assert hashlib.sha256(result.stdout).hexdigest() == stored_hashes(turnlog_home)[
            number - 1]
    shown = cli("sent", "--conversation", "1", "--turn", "2", "--json")
    assert shown.returncode == 0, shown.stderr
    out = json.loads(shown.stdout)
    assert out["verified"] is True and out["why"] is None
    assert out["stored_sha256"] == out["rebuilt_sha256"] == hashlib.sha256(wire[1]).hexdigest()
    assert out["marks"]["sent verbatim"] == [[1, 1]]
    kinds = [(p["kind"], p["state"]) for p in out["parts"]]
    assert ("pin", "shown") in kinds and ("turn", "shown") in kinds
    assert out["parts"][-1]["text"] == "What is the code? 你好"


def test_sent_names_what_it_cannot_do(loopback, turnlog_home):
    add_profile(loopback)
    assert cli("ask", "--new", "--title", "sent", "hello").returncode == 0
    missing = cli("sent", "--conversation", "1", "--turn", "7", "--json")
    assert missing.returncode == 1 and "has no turn 7" in missing.stderr
    no_round = cli("sent", "--conversation", "1", "--turn", "1", "--round", "2", "--json")
    assert no_round.returncode == 1 and "1 round" in no_round.stderr
    assert cli("sent", "--conversation", "1", "--turn", "1").returncode == 2  # --json|--body
    # A record whose hash was forgotten (text it carried was removed) gives no body.
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute("UPDATE requests SET sha256 = NULL")
    con.commit()
    con.close()
    refused = cli_bytes("sent", "--conversation", "1", "--turn", "1", "--body")
    assert refused.returncode == 1 and refused.stdout == b""
    assert b"no verified body" in refused.stderr


def test_sent_body_on_a_terminal_shows_controls_instead_of_obeying_them(loopback, turnlog_home):
    """An answer may carry a bidi override (U+202E) or a C1 control: piped, `--body` is the
    exact bytes; on a terminal the person sees them written out, as every command shows
    conversation text."""
    add_profile(loopback)
    assert cli("ask", "--new", "--title", "sent", "abc\u202edef \u009b31m").returncode == 0
    piped = cli_bytes("sent", "--conversation", "1", "--turn", "1", "--body")
    assert piped.returncode == 0 and "\u202e".encode() in piped.stdout
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "turnlog.cli", "sent", "--conversation", "1", "--turn", "1",
         "--body"], stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.DEVNULL,
        env=os.environ.copy())
    os.close(slave)
    seen = b""
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal hung up: the command ended
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=60) == 0
    finally:
        os.close(master)
    text = seen.decode("utf-8")
    assert "abc" in text and "def" in text
    assert "\u202e" not in text and "\u009b" not in text


def test_sent_names_turns_by_the_numbers_the_window_shows_with_versions_and_a_fork(
        loopback, turnlog_home):
    add_profile(loopback)
    for args in (("--new", "--title", "numbers", "one"), ("--conversation", "1", "two"),
                 ("--conversation", "1", "--regenerate"), ("--conversation", "1", "three")):
        result = cli("ask", *args)
        assert result.returncode == 0, result.stderr
    out = json.loads(cli("sent", "--conversation", "1", "--turn", "3", "--json").stdout)
    assert out["verified"] is True
    assert out["marks"]["sent verbatim"] == [[1, 2]]
    turns = [(p["kind"], p["turn"]) for p in out["parts"] if p["turn"] is not None]
    assert turns == [("turn", 1), ("turn", 2), ("question", 3)]
    assert [p["ordinal"] for p in out["parts"] if p["turn"] is not None] == [1, 3, 4]

    fork = cli("fork", "--conversation", "1", "--at", "3")
    assert fork.returncode == 0, fork.stderr
    assert cli("ask", "--conversation", "2", "four").returncode == 0
    out = json.loads(cli("sent", "--conversation", "2", "--turn", "3", "--json").stdout)
    assert out["verified"] is True and out["marks"]["sent verbatim"] == [[1, 2]]
    assert [(p["kind"], p["turn"]) for p in out["parts"] if p["turn"] is not None] == [
        ("turn", 1), ("turn", 2), ("question", 3)]
