"""Any bench of tests/bench at an earlier revision and at this checkout, run alternately in
one session, with the median of each figure side by side.

    .venv/bin/python tests/bench/compare.py --before REV [--runs 5] BENCH.py [ARGS...]

e.g. `tests/bench/compare.py --before 746a40a --runs 5 window.py --turns 10000`. The
revision's `desktop/` and `tests/` are exported with `git archive` and its own copy of the
bench runs against its own package (benches import the modules of their revision). Runs
alternate before, after, before, … so load on the machine weighs on both alike. Every
output line that carries numbers is matched across runs by its words; printed: its words,
then per number the median before → after and their ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def export(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "desktop", "tests"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_once(tree: Path, bench: str, args: list[str]) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree / "desktop"),
                                                       str(tree / "tests")]))
    done = subprocess.run([sys.executable, str(tree / "tests" / "bench" / bench), *args],
                          env=env, capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"{bench} failed in {tree}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def figures(output: str) -> dict[str, list[float]]:
    """Each line with numbers: its words (numbers blanked) → its numbers."""
    found: dict[str, list[float]] = {}
    for line in output.splitlines():
        numbers = NUMBER.findall(line)
        if numbers:
            found[NUMBER.sub("#", line.strip())] = [float(n.replace(",", "")) for n in numbers]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, metavar="REV")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("bench")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    runs: dict[str, list[dict[str, list[float]]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="turnlog-compare-") as tmp:
        before = export(args.before, Path(tmp))
        for index in range(args.runs):
            for label, tree in (("before", before), ("after", ROOT)):
                runs[label].append(figures(run_once(tree, args.bench, args.args)))
                print(f"run {index + 1} {label}: done", flush=True)
    print(f"\n{args.bench} {' '.join(args.args)}: medians of {args.runs} runs, "
          f"{args.before} → this checkout")
    for words in runs["after"][0]:
        if not all(words in run for run in runs["before"] + runs["after"]):
            continue
        count = len(runs["after"][0][words])
        cells = []
        for position in range(count):
            try:
                old = statistics.median(run[words][position] for run in runs["before"])
                new = statistics.median(run[words][position] for run in runs["after"])
            except IndexError:
                break
            ratio = f" ({new / old:.2f}×)" if old else ""
            cells.append(f"{old:g} → {new:g}{ratio}")
        print(f"  {words}\n      " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
