"""Projection speed: the naive selector vs `project()`, side by side in one run.

    .venv/bin/python tests/bench/projection.py [--sizes 1000 10000 100000] [--time-box 5]

For each log size (turns of about 1 KiB, English, Chinese and emoji mixed) the
log is built in memory and a `CostIndex` is warmed once ("load", reported on
its own: the app does this when a conversation opens). Then, for three byte
budgets, both selectors pick the turns for the same question:

- naive: serialize the whole body with every turn, drop the oldest, repeat
  (the reference the property tests compare against, imported from them);
- Turnlog: `project()` with the warmed index.

A small budget is the naive selector's worst case (it re-serializes almost the
whole log once per dropped turn), so it runs inside a time box and is reported
as "> N s" when it does not finish. Both must pick the same turns.
Goal: `project()` on 100,000 turns in ≤ 10 ms after load, at the default budget.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from projection_reference import make_turns, naive_select  # noqa: E402
from turnlog.core.body import utf8_len  # noqa: E402
from turnlog.core.budget import Budget  # noqa: E402
from turnlog.core.projection import CostIndex, Projection, project  # noqa: E402

GOAL_TURNS = 100_000
GOAL_SECONDS = 0.010
QUESTION = "Summarise what we decided about the ORCHID-17 schedule. 请用中文回答 🙏"

PIECES = [
    "The build on the staging box failed again after the dependency bump; ",
    "we pinned the compiler and the cache key now includes the lockfile hash. ",
    "周三的会议上我们决定把发布推迟一周，先修复数据迁移的问题。",
    "用户反馈说导出功能在大文件上很慢，需要分批写入磁盘。",
    "Emoji check: 🚀✨🧪 — deploy, polish, test. 👍🏽 ",
    'Quoted "config" values with back\\slashes and\ttabs\nand newlines. ',
    "数据库连接池的上限是 64，超时设为 30 秒。",
    "Next step: write the migration, run it on a copy, compare row counts. ",
]


def make_text(seed: int, target_bytes: int) -> str:
    out: list[str] = [f"#{seed} "]
    size = utf8_len(out[0])
    i = seed
    while size < target_bytes:
        piece = PIECES[i % len(PIECES)]
        out.append(piece)
        size += utf8_len(piece)
        i += 3
    return "".join(out)


def build_log(n: int) -> tuple:
    # About 1 KiB per turn: a short question and a longer answer.
    return make_turns([(make_text(i, 256), make_text(i + 1, 768)) for i in range(n)])


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def fmt_s(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds:8.2f} s "


BUDGETS = (("16,000 B", 16_000), ("1 MB", 1_000_000), ("everything", 10**12))


def bench_size(n: int, time_box: float) -> float:
    """Print one block of rows for a log of `n` turns; return `project()`'s time at 16,000 B."""
    turns = build_log(n)
    log_bytes = sum(utf8_len(t.question) + utf8_len(t.answer) for t in turns)
    costs = CostIndex()
    load = best_of(lambda: costs.warm(turns), 1)
    print(
        f"{n:>8,} turns, {log_bytes / 2**20:,.1f} MiB of text; "
        f"load (warm CostIndex) {fmt_s(load).strip()}"
    )
    default_s = float("nan")
    for label, max_bytes in BUDGETS:
        # The token budget is set out of the way: this measures selection by bytes.
        budget = Budget(max_bytes, 10**12, 8_192)

        def turnlog(budget: Budget = budget) -> Projection:
            return project(turns, QUESTION, model="bench-model", budget=budget, costs=costs)

        ours = turnlog()
        ours_s = best_of(turnlog, 20 if ours.body_bytes < 2**20 else 3)

        start = time.perf_counter()
        try:
            naive = naive_select(
                turns, QUESTION, model="bench-model", budget=budget, deadline=start + time_box
            )
        except TimeoutError:
            naive = None
        naive_s = time.perf_counter() - start
        if naive is None:
            naive_txt, ratio_txt = f"> {naive_s:5.1f} s ", f"> {naive_s / ours_s:,.0f}×"
        else:
            if naive.sent != ours.sent or naive.body != ours.body:
                raise SystemExit(f"MISMATCH: {n:,} turns, budget {label}: selections differ")
            ratio = naive_s / ours_s
            naive_txt = fmt_s(naive_s)
            ratio_txt = f"{ratio:,.1f}×" if ratio < 10 else f"{ratio:,.0f}×"
        print(
            f"{'':>8} {label:>12} {ours.sent_count:>7,} {naive_txt:>14} "
            f"{fmt_s(ours_s):>12} {ratio_txt:>10}"
        )
        if max_bytes == 16_000:
            default_s = ours_s
    return default_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, GOAL_TURNS])
    parser.add_argument(
        "--time-box", type=float, default=5.0, help="seconds the naive selector may take per case"
    )
    args = parser.parse_args()

    print(f"{'turns':>8} {'budget':>12} {'kept':>7} {'naive':>14} {'Turnlog':>12} {'ratio':>10}")
    results = {n: bench_size(n, args.time_box) for n in args.sizes}

    goal = (
        f"Goal: project() on {GOAL_TURNS:,} turns at the default 16,000-byte budget "
        f"≤ {GOAL_SECONDS * 1e3:.0f} ms after load"
    )
    if GOAL_TURNS not in results:
        print(f"\n{goal}: not measured (add {GOAL_TURNS} to --sizes)")
        return 0
    met = results[GOAL_TURNS] <= GOAL_SECONDS
    print(f"\n{goal}: {fmt_s(results[GOAL_TURNS]).strip()} — {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
