"""The check before the first write of a session, on a large log.

    .venv/bin/python tests/bench/quick_check.py [--turns 100000] [--turn-bytes 1000]

Builds a database with one conversation of N turns (question + answer of about
`--turn-bytes` bytes, rows written straight into the schema the store made), then times,
side by side, the check the store runs before its first write (`check_sound`:
`PRAGMA quick_check` plus a write that is rolled back) against the full
`PRAGMA integrity_check`, each on a cold open (a fresh connection; the file may still be
in the OS cache, as it is after the app's start). Goal: `check_sound` ≤ 1 s at 100,000
turns; above that the window must run it on its worker before enabling Send.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.store.search import install  # noqa: E402

GOAL_SECONDS = 1.0
TEXT = "A turn about the ORCHID-17 schedule, 中文 and emoji 😀; " * 40


def build(home: Path, turns: int, turn_bytes: int) -> None:
    with TurnlogStore.open(home) as store:
        store.conversations.create("big")
    half = TEXT.encode()[: turn_bytes // 2].decode("utf-8", "ignore")
    con = sqlite3.connect(home / "turnlog.sqlite3")
    install(con)  # the search index's triggers derive its text
    with con:
        con.executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at, usage) VALUES (?, 1, ?, ?, ?, 'm', 'stop', "
            "'2026-01-01T00:00:00+00:00', NULL)",
            ((uuid.uuid4().hex, i, f"{i} {half}", f"{half} {i}") for i in range(1, turns + 1)))
        con.execute("UPDATE conversations SET next_ordinal = ?", (turns + 1,))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def timed_check_sound(home: Path) -> float:
    with TurnlogStore.open(home) as store:
        start = time.perf_counter()
        store.database.check_sound()
        return time.perf_counter() - start


def timed_integrity(home: Path) -> float:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        start = time.perf_counter()
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return time.perf_counter() - start
    finally:
        con.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--turn-bytes", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        start = time.perf_counter()
        build(home, args.turns, args.turn_bytes)
        size = (home / "turnlog.sqlite3").stat().st_size
        print(f"{args.turns:,} turns, {size / 1e6:.0f} MB (built in "
              f"{time.perf_counter() - start:.1f} s)")
        sound = min(timed_check_sound(home) for _ in range(3))
        full = min(timed_integrity(home) for _ in range(3))
    print(f"check_sound (quick_check + rolled-back write): {sound:.3f} s")
    print(f"integrity_check:                               {full:.3f} s  "
          f"({full / sound:.1f}× the quick check)")
    ok = sound <= GOAL_SECONDS
    print(f"goal ≤ {GOAL_SECONDS:.0f} s: {'met' if ok else 'MISSED: run it on the worker'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
