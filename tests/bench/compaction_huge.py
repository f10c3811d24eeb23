"""Compaction of one huge turn: cutting a chunk costs the chunk, not the turn.

    .venv/bin/python tests/bench/compaction_huge.py [--sizes-mb 0.5 1 2] [--huge-mb 10]

Before: the old `take_chunk` split the whole remaining turn into every piece to keep
the first one, each piece's search starting at the whole length (quadratic). It is kept
here as the reference (`old_take_chunk`) and timed side by side with today's
`take_chunk` on the same text, cutting one chunk.

Then the whole path a send takes: a conversation whose oldest turn is a 10 MB import,
compacted with the default budget against an in-process endpoint (`FakeEndpoint`, the
tests' fake, answering each summary call at once). Goal: a named outcome (a summary, or
a `compaction_limit` / `summary_failed` failure) within 5 s, not the 120 s time limit.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from fakes import FakeEndpoint  # noqa: E402
from turnlog.core.body import RequestOptions  # noqa: E402
from turnlog.core.budget import Budget  # noqa: E402
from turnlog.core.compaction import (  # noqa: E402
    CompactionSettings,
    Compactor,
    json_len,
    take_chunk,
)
from turnlog.core.failures import ProviderFailure  # noqa: E402
from turnlog.core.model import ConversationSettings, Turn  # noqa: E402
from turnlog.core.projection import CostIndex  # noqa: E402
from turnlog.core.provider import CancelToken  # noqa: E402

GOAL_SECONDS = 5.0
ROOM = 10_000  # bytes of turns in one summary call, about what the default budget leaves
TEXT = "Ein langer Absatz mit Umlauten äöü, 中文字符, emoji 😀 and \"quotes\"\n"


def old_split_utf8(text: str, max_bytes: int, measure: Callable[[str], int]) -> list[str]:
    """The split as it was: every piece, each search starting at the whole length."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        lo, hi = start + 1, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if measure(text[start:mid]) <= max_bytes:
                lo = mid
            else:
                hi = mid - 1
        pieces.append(text[start:lo])
        start = lo
    return pieces


def old_take_chunk(blocks: list[str], max_bytes: int) -> tuple[str, list[str]]:
    used = taken = 0
    for block in blocks:
        size = json_len(block)
        if used + size > max_bytes:
            break
        used += size
        taken += 1
    if taken:
        return "".join(blocks[:taken]), blocks[taken:]
    first = old_split_utf8(blocks[0], max_bytes, json_len)[0]
    return first, [blocks[0][len(first):], *blocks[1:]]


def text_of(megabytes: float) -> str:
    size = int(megabytes * 1_000_000)
    return TEXT * (size // len(TEXT.encode()))


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def cut_one_chunk(sizes_mb: list[float]) -> None:
    print(f"cutting one {ROOM:,}-byte chunk from a turn of N MB:")
    print(f"{'turn':>8}  {'before (old)':>13}  {'after':>9}  {'ratio':>7}")
    for mb in sizes_mb:
        blocks = [text_of(mb)]
        old = timed(lambda b=blocks: old_take_chunk(b, ROOM))
        new = timed(lambda b=blocks: take_chunk(b, ROOM))
        assert old_take_chunk(blocks, ROOM)[0] == take_chunk(blocks, ROOM)[0]
        print(f"{mb:>6g} MB  {old:>11.3f} s  {new:>7.4f} s  {old / new:>6.0f}×")


def compact_huge(huge_mb: float) -> bool:
    now = datetime.now(UTC)
    huge = text_of(huge_mb)
    turns = [Turn("huge", 1, "Please keep this file.", huge, "m", "stop", now)]
    turns += [Turn(f"t{i}", i, f"question {i}", f"answer {i} " + "x" * 200, "m", "stop", now)
              for i in range(2, 60)]
    settings = ConversationSettings()
    budget = Budget(settings.max_bytes, 128_000, settings.output_reserve)

    class Summaries:
        def latest_summary(self, conversation_id: int) -> None:
            return None

        def save_summary(self, conversation_id: int, draft: object) -> object:
            raise AssertionError("a 10 MB turn cannot fit in 12 summary calls")

    compactor = Compactor(Summaries(), FakeEndpoint(), costs=CostIndex())  # type: ignore[arg-type]
    start = time.perf_counter()
    try:
        compactor.summarize(1, 0, turns, "and now?", CompactionSettings(
            "m", budget, RequestOptions()), system_prompt="", pinned=(), cancel=CancelToken(),
            progress=lambda k, n: None)
        outcome = "summarized"
    except ProviderFailure as err:
        outcome = f"{err.failure.kind.value}: {err.failure.message()}"
    elapsed = time.perf_counter() - start
    ok = elapsed <= GOAL_SECONDS
    print(f"\na send over a conversation whose turn 1 is {len(huge.encode()) / 1e6:.1f} MB "
          f"(byte limit {budget.max_bytes:,}):")
    print(f"  outcome after {elapsed:.2f} s: {outcome}")
    print(f"  goal ≤ {GOAL_SECONDS:.0f} s: {'met' if ok else 'MISSED'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", type=float, nargs="+", default=[0.25, 0.5, 1, 2])
    parser.add_argument("--huge-mb", type=float, default=10)
    args = parser.parse_args()
    cut_one_chunk(args.sizes_mb)
    return 0 if compact_huge(args.huge_mb) else 1


if __name__ == "__main__":
    raise SystemExit(main())
