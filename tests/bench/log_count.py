"""`store.turns.log()` at 100 and 100,000 turns: what a send (and opening a conversation)
pays to learn the active line's length and newest ordinal.

    .venv/bin/python tests/bench/log_count.py [--sizes 100 100000] [--calls 200]

For each size a conversation of that many turns is written into a temporary data
directory; then `store.turns.log(id)` is called `--calls` times, each after one more turn is
committed (as a send does), and the median and the worst call are printed. The first
call of a conversation (when it opens) is printed on its own.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore


def pending(index: int) -> PendingTurn:
    return PendingTurn(f"turn-{index}", f"question {index}", f"answer {index}", "m", "stop",
                       Usage(), datetime.now(UTC))


def measure(size: int, calls: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder, TurnlogStore.open(Path(folder)) as store:
        cid = store.conversations.create("bench").id
        store.turns.commit_many(cid, [pending(i) for i in range(size)])
        started = time.perf_counter()
        store.turns.log(cid)
        first = time.perf_counter() - started
        times = []
        for index in range(size, size + calls):
            store.turns.commit(cid, pending(index))
            started = time.perf_counter()
            log = store.turns.log(cid)
            times.append(time.perf_counter() - started)
            assert len(log) == index + 1
        return first, statistics.median(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 100_000])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    for size in args.sizes:
        first, median, worst = measure(size, args.calls)
        print(f"{size:>7,} turns: first log() {first * 1000:7.2f} ms; after each commit: "
              f"median {median * 1000:6.3f} ms, worst {worst * 1000:6.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
