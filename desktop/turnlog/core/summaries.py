"""A rolling summary as the store keeps it (`StoredSummary`) and as compaction hands it
over to be kept (`SummaryDraft`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from .body import SYSTEM
from .budget import ESTIMATE
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
    replaced_id: int | None = None  # the summary in effect when this one was made
    edited_from: int | None = None  # rewritten by the user from that version
    undone: bool = False  # an edit the user undid (kept while a request record names it)

    @property
    def edited(self) -> bool:
        """Whether the user wrote this version (an edit of `edited_from`)."""
        return self.edited_from is not None


class VersionState(StrEnum):
    CURRENT = "current"  # what requests carry from now on
    EARLIER = "earlier"  # replaced by a newer summary or edit
    UNDONE = "undone"  # an edit the user undid


@dataclass(frozen=True, slots=True)
class SummaryVersion:
    """One entry of a conversation's compaction history: a summary as it was made (by a
    model or edited by the user), what stands now, and the requests that carried it."""

    summary: StoredSummary
    state: VersionState
    record_ids: tuple[int, ...]  # the request records that carried it, oldest first
    replaced_kept: bool  # whether the summary it replaced is still kept
    # The request during which a model made it (its summary calls counted there): its
    # record, and the turn it answered with that turn's ordinal (None: the request
    # failed, or its record is no longer kept).
    made_in: int | None = None
    made_for: str | None = None
    made_for_ordinal: int | None = None
    # Not in effect though nothing replaced it: the summary chosen over it (two machines
    # summarized at the same time; the one made later by the sync's clock is used).
    set_aside_for: int | None = None

    @property
    def folded(self) -> tuple[int, int]:
        """The ordinals it covers (first, last)."""
        return self.summary.first_ordinal, self.summary.last_ordinal


class SummaryEditError(ValueError):
    """A summary edit or undo that cannot be done, in words for the user."""


MAX_EDITED_SUMMARY_BYTES = 16 * 1024  # as large as a model's summary may be


def edited_text(text: str) -> str:
    """`text` as an edited summary keeps it (surrounding blank space dropped); raises
    `SummaryEditError` for an empty text or one over the size limit."""
    text = text.strip()
    if not text:
        raise SummaryEditError("the summary would be empty; write what it should say, or "
                               "undo the edit instead")
    size = len(text.encode("utf-8"))
    if size > MAX_EDITED_SUMMARY_BYTES:
        raise SummaryEditError(f"the summary is {size:,} bytes, over the "
                               f"{MAX_EDITED_SUMMARY_BYTES:,}-byte limit")
    return text


def edited_tokens(text: str) -> int:
    """The tokens an edited summary is shown with (an estimate, erring high)."""
    return ESTIMATE.message_tokens(SYSTEM, text)


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


def folded_span(version: SummaryVersion,
                kept: dict[int, StoredSummary]) -> tuple[int, int] | None:
    """The ordinals (first, last) that `version`'s making folded in: the turns after the
    summary it replaced, or all it covers when it replaced none. None: it folded none (an
    edit), or what it replaced is no longer kept (`kept`: the kept ones by id)."""
    made = version.summary
    if made.edited:
        return None
    if made.replaced_id is None:
        return made.first_ordinal, made.last_ordinal
    prior = kept.get(made.replaced_id)
    if prior is None:
        return None
    if prior.first_ordinal != made.first_ordinal or prior.last_ordinal >= made.last_ordinal:
        return made.first_ordinal, made.last_ordinal
    return prior.last_ordinal + 1, made.last_ordinal
