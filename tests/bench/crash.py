"""`kill -9` during streaming and commit, many times: kills / intact / partial answers.

    .venv/bin/python tests/bench/crash.py [--kills 200] [--seed 1]

Each kill runs `turnlog-cli ask` against the loopback server on a fresh data directory
and kills it at a random point of the stream, the commit or the close (see
tests/support/crashing.py for what is checked after each kill). Goal: every kill intact, 0
partial answers.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from crashing import run_kills  # noqa: E402
from loopback import LoopbackServer  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, LoopbackServer() as server:
        home = Path(tmp) / "home"
        os.environ["TURNLOG_HOME"] = str(home)
        start = time.perf_counter()
        tally = run_kills(server, home, args.kills, args.seed)
        elapsed = time.perf_counter() - start
    print(tally.line())
    print(f"{elapsed:.1f} s ({elapsed / max(tally.kills, 1):.2f} s per kill)")
    for problem in tally.problems:
        print("  " + problem)
    return 0 if tally.intact == tally.kills and tally.partial == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
