"""A rolling summary as the store keeps it (`StoredSummary`) and as compaction hands it
over to be kept (`SummaryDraft`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .model import Usage


@dataclass(frozen=True, slots=True)
class StoredSummary:
    """A cached summary and its provenance. It covers the first `covered_count` turns
    of the log, identified by `covered_digest` over their ids."""

    id: int
    conversation_id: int
    first_ordinal: int
    last_ordinal: int
    covered_count: int
    covered_digest: str
    content: str
    model: str
    settings_key: str
    created_at: datetime
    content_bytes: int
    content_tokens: int
    usages: tuple[Usage, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SummaryDraft:
    covered_turn_ids: tuple[str, ...]
    first_ordinal: int
    last_ordinal: int
    covered_digest: str
    content: str
    model: str
    settings_key: str
    content_tokens: int
    usages: tuple[Usage, ...]
    warnings: tuple[str, ...]
    generation: int


def summary_text(stored: StoredSummary) -> str:
    """The summary as it appears in a request: a system message naming what it covers."""
    span = (
        f"turn {stored.first_ordinal}"
        if stored.first_ordinal == stored.last_ordinal
        else f"turns {stored.first_ordinal}–{stored.last_ordinal}"
    )
    return f"Summary of the earlier conversation ({span}):\n{stored.content}"
