"""The fuzz tests run for a given time with fresh random seeds:
`tests/journeys/hostile_input/test_fuzz.py`
(both importers, the reply readers, the CLI's argument paths),
`tests/journeys/hostile_input/test_fuzz_named_files.py`
(attachments, profiles.json, tools.json, an mcpServers file)
and the property tests of the readers of server bytes.

    .venv/bin/python tests/bench/fuzz.py [--minutes 15] [--examples 500]

Each round runs every test with `--examples` examples under a new Hypothesis seed; prints
the rounds, the examples that passed (Hypothesis's own statistics), the examples per
second, and every failure (its seed, to run it again with `--hypothesis-seed`). Exit 1 if
any failed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
FILES = [
    "journeys/hostile_input/test_fuzz.py",
    "providers/test_wire.py",
    "journeys/hostile_input/test_fuzz_named_files.py",
    "toolhost/test_fuzz.py",
    "ui/transcript/test_rendering_fuzz.py",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--examples", type=int, default=500)
    args = parser.parse_args()
    env = dict(os.environ, TURNLOG_FUZZ_EXAMPLES=str(args.examples))
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    rounds = tests_run = examples = 0
    failures: list[tuple[int, str]] = []
    while time.monotonic() < deadline:
        seed = random.randrange(2**32)
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "--hypothesis-show-statistics", f"--hypothesis-seed={seed}",
             *(str(TESTS / name) for name in FILES)],
            cwd=TESTS.parent, env=env, capture_output=True, text=True, check=False)
        rounds += 1
        passed = re.search(r"(\d+) passed", done.stdout)
        tests_run += int(passed.group(1)) if passed else 0
        examples += sum(int(n) for n in re.findall(r"- (\d+) passing", done.stdout))
        if done.returncode != 0:
            failures.append((seed, done.stdout[-4000:]))
            print(f"round {rounds}: FAILED with seed {seed}", flush=True)
        else:
            print(f"round {rounds}: passed (seed {seed})", flush=True)
    took = time.monotonic() - started
    print(f"\n{rounds} rounds in {took / 60:.1f} min; {tests_run} test runs, {examples:,} "
          f"examples passed ({examples / took:,.0f} a second); failures: {len(failures)}")
    for seed, output in failures:
        print(f"\n--- seed {seed}\n{output}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
