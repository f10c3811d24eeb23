"""`kill -9` during streaming and commit, and what must hold afterwards.

One kill: `turnlog-cli ask` streams a known answer from the loopback server; once the
request has arrived, the process gets SIGKILL after a random delay spread over the
stream, the commit and the close. Then the log must be intact: `integrity_check` ok, the
turns contiguous, every answer complete (never a partial one), and the count either as
before or one more; the writer lock must be free again (a writer opens the store).

Used by tests/journeys/crash/test_kill_during_commit.py (50 kills, in CI)
and tests/bench/crash.py (200 kills).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from loopback import Behaviour, LoopbackServer
from turnlog.store import TurnlogStore

ANSWER = "A complete answer, streamed word by word, 完整的回答 ✓. " * 6
CHUNKS = 12
DELAY_S = 0.004
# The stream, then the commit (an fsync'ed transaction), the request record and the close.
WINDOW_S = CHUNKS * DELAY_S + 0.06


@dataclass
class Tally:
    kills: int = 0
    intact: int = 0
    partial: int = 0
    committed: int = 0
    not_committed: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"kills {self.kills}, intact {self.intact}, partial answers {self.partial}, "
                f"killed before the commit {self.not_committed}, after it {self.committed}")


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "turnlog.cli", *args]


def prepare(server: LoopbackServer, home: Path) -> None:
    """A profile for the loopback server and a conversation with one complete turn. Every
    request gets the same streamed answer: once the log outgrows the byte budget, a send
    first asks for a summary, which is then killed too (a summary commit)."""
    server.default = Behaviour.slow(ANSWER, delay_s=DELAY_S, chunks=CHUNKS)
    env = {**os.environ, "TURNLOG_HOME": str(home)}
    subprocess.run(cli_command("profile", "add", "loop", "--preset", "custom", "--base-url",
                               server.base_url, "--model", "loopback-model"),
                   input="", text=True, capture_output=True, env=env, check=True, timeout=60)
    subprocess.run(cli_command("ask", "--new", "--title", "Crash", "question 0"),
                   text=True, capture_output=True, env=env, check=True, timeout=60)


def answers(home: Path) -> tuple[str, list[tuple[int, str]]]:
    con = sqlite3.connect(home / "turnlog.sqlite3")  # recovers a hot WAL, as the app does
    try:
        integrity = ", ".join(r[0] for r in con.execute("PRAGMA integrity_check"))
        found = con.execute("SELECT ordinal, answer FROM turns WHERE conversation_id = 1 "
                            "ORDER BY ordinal").fetchall()
    finally:
        con.close()
    return integrity, found


def kill_once(server: LoopbackServer, home: Path, rng: random.Random, tally: Tally) -> None:
    _, before = answers(home)
    seen = len(server.requests)
    proc = subprocess.Popen(cli_command("ask", "--conversation", "1", f"question {tally.kills}"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "TURNLOG_HOME": str(home)})
    try:
        server.wait_for_requests(seen + 1, timeout=30)
        time.sleep(rng.uniform(0, WINDOW_S))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    server.wait_idle(timeout=10)
    tally.kills += 1
    check(home, len(before), tally)


def check(home: Path, count: int, tally: Tally) -> None:
    problems = []
    try:
        with TurnlogStore.open(home) as store:  # the lock is free, the store opens
            store.database.check_sound()
    except Exception as err:  # noqa: BLE001 - any failure to reopen is a finding
        problems.append(f"reopen: {type(err).__name__}: {err}")
    integrity, found = answers(home)
    if integrity != "ok":
        problems.append(f"integrity_check: {integrity}")
    if [o for o, _ in found] != list(range(1, len(found) + 1)):
        problems.append(f"ordinals not contiguous: {[o for o, _ in found][-5:]}")
    partial = sum(1 for _, answer in found if answer != ANSWER)
    if partial:
        tally.partial += partial
        problems.append(f"{partial} partial answer(s)")
    if len(found) == count + 1:
        tally.committed += 1
    elif len(found) == count:
        tally.not_committed += 1
    else:
        problems.append(f"turn count went from {count} to {len(found)}")
    if problems:
        tally.problems.append(f"kill {tally.kills}: " + "; ".join(problems))
    else:
        tally.intact += 1


def run_kills(server: LoopbackServer, home: Path, kills: int, seed: int) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    prepare(server, home)
    for _ in range(kills):
        kill_once(server, home, rng, tally)
    return tally
