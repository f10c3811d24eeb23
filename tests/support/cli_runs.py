"""Running turnlog-cli in a child process against a data directory with a loopback profile, and
reading what it stored."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from loopback import Behaviour


def cli(*args: str, input: str | None = None, timeout: float = 60
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=timeout, env=os.environ.copy())


def add_profile(loopback, name: str = "loop", *extra: str) -> None:
    result = cli("profile", "add", name, "--preset", "custom", "--base-url", loopback.base_url,
                 "--model", "loopback-model", *extra, input="")
    assert result.returncode == 0, result.stderr


def export(cid: int) -> str:
    result = cli("export", str(cid))
    assert result.returncode == 0, result.stderr
    return result.stdout


def request_rows(home: Path) -> list[tuple]:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return con.execute("SELECT * FROM requests ORDER BY id").fetchall()
    finally:
        con.close()


FAILURES = [
    (Behaviour.rate_limited("7"), "rate_limited", "Retry after 7 s"),
    (Behaviour.server_error(), "http_status", "500"),
    (Behaviour.unauthorized(), "auth", "key"),
    (Behaviour.error(404, "The model `loopback-model` does not exist"), "model_not_found",
     "does not exist"),
    (Behaviour.error(413, "Request too large"), "request_too_large", ""),
    (Behaviour.error(504, "Gateway timeout"), "timeout", ""),
    (Behaviour.cut(), "truncated", ""),
    (Behaviour.empty_stream(), "truncated", ""),
    (Behaviour.length(), "length", "output limit"),
    (Behaviour.empty(), "empty", ""),
    (Behaviour.no_finish_reason(), "no_finish_reason", ""),
    (Behaviour.tool_calls(), "other_finish_reason", "tool"),
    (Behaviour.garbage(), "malformed", ""),
    (Behaviour.huge(5 * 1024 * 1024), "response_too_large", ""),
]
