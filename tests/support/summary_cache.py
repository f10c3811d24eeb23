"""A cached rolling summary as the store keeps one, for planning tests."""

from __future__ import annotations

from datetime import UTC, datetime

from turnlog.core.compaction import (
    StoredSummary,
    ids_digest,
)
from turnlog.core.model import Turn

MODEL = "m"


CACHED_TEXT = "summary of the oldest turns"


def cached_summary(turns: list[Turn], count: int, key: str, *, ids_of=None) -> StoredSummary:
    covered = turns[:count]
    digest = ids_digest(ids_of(covered) if ids_of else covered)
    return StoredSummary(7, 1, 1, count, count, digest, CACHED_TEXT, MODEL, key,
                         datetime.now(UTC), len(CACHED_TEXT), 8)
