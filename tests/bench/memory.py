"""Memory selection: brute force, the exact knapsack and the greedy pass side by side.

    .venv/bin/python tests/bench/memory.py [--rounds 20]

Random instances (priorities 1–5, items of 40–400 bytes and 10–120 tokens, a share of
10 % of a 16,000-byte / 183,616-token budget, then a tight 800 bytes / 200 tokens) at
8, 16, 32 and 64 items. For each size: the median time of each method, and how often
the greedy pass fell short of the exact total priority (and by how much at worst).
Brute force runs up to 16 items only (2^16 subsets). Goal: the exact choice for 64
items within its bound (no fallback) in well under 10 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from memory_reference import brute_force  # noqa: E402
from turnlog.core.memory import Cost, choose_exact, choose_greedy  # noqa: E402

LIMITS = {"share of the default budget": Cost(1_600, 18_361), "tight": Cost(800, 200)}


def instance(rng: random.Random, n: int) -> tuple[list[int], list[Cost]]:
    return ([rng.randint(1, 5) for _ in range(n)],
            [Cost(rng.randint(40, 400), rng.randint(10, 120)) for _ in range(n)])


def total(priorities: list[int], mask: int) -> int:
    return sum(p for i, p in enumerate(priorities) if mask >> i & 1)


def timed(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args)
    return (time.perf_counter() - start) * 1000, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(16)
    print(f"{'limit':30} {'items':>5} {'brute ms':>9} {'exact ms':>9} {'greedy ms':>9} "
          f"{'exact/brute':>11} {'fallbacks':>9} {'greedy short':>12} {'worst gap':>9}")
    for name, limit in LIMITS.items():
        for n in (8, 16, 32, 64):
            brute, exact, greedy, short, fallbacks, worst = [], [], [], 0, 0, 0
            for _ in range(args.rounds):
                priorities, costs = instance(rng, n)
                ms, mask = timed(choose_exact, priorities, costs, limit)
                exact.append(ms)
                if mask is None:
                    fallbacks += 1
                    continue
                if n <= 16:
                    ms_b, best = timed(brute_force, priorities, costs, limit)
                    brute.append(ms_b)
                    assert best == mask, "the exact choice must equal brute force"
                ms_g, fast = timed(choose_greedy, priorities, costs, limit)
                greedy.append(ms_g)
                gap = total(priorities, mask) - total(priorities, fast)
                short += gap > 0
                worst = max(worst, gap)
            b = statistics.median(brute) if brute else None
            e = statistics.median(exact)
            print(f"{name:30} {n:>5} {f'{b:.2f}' if b else '—':>9} {e:>9.2f} "
                  f"{statistics.median(greedy):>9.3f} "
                  f"{f'{e / b:.3f}' if b else '—':>11} {fallbacks:>9} "
                  f"{f'{short}/{args.rounds}':>12} {worst:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
