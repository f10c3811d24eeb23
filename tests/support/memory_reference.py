"""The obviously correct memory selection (brute force) that the knapsack is checked against."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from turnlog.core.memory import (
    Cost,
)


def brute_force(priorities: Sequence[int], costs: Sequence[Cost], limit: Cost) -> int:
    """Every subset; the best by total priority, then fewer bytes, then the set holding
    the oldest item the other lacks."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    best_mask = 0
    for size in range(len(priorities) + 1):
        for combo in itertools.combinations(range(len(priorities)), size):
            used_bytes = sum(costs[i].bytes for i in combo)
            used_tokens = sum(costs[i].tokens for i in combo)
            if used_bytes > limit.bytes or used_tokens > limit.tokens:
                continue
            # Older first: compare membership item by item, oldest first.
            members = tuple(0 if i in combo else 1 for i in range(len(priorities)))
            key = (-sum(priorities[i] for i in combo), used_bytes, members)
            if best is None or key < best:
                best = key
                best_mask = sum(1 << i for i in combo)
    return best_mask
