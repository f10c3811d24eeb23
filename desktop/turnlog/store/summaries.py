"""Rolling summaries: derived from the log, written only while their source is unchanged.

The functions here take the database where they write and run their own transaction;
the caller guards errors.
"""

from __future__ import annotations

import json

import peewee

from ..core.failures import FailureKind, StoreError
from ..core.summaries import StoredSummary, SummaryDraft
from .models import ConversationRow, RequestRow, SummaryRow, TurnRow, insert
from .rows import now_iso, stored_summary

KEEP_PER_CONVERSATION = 3  # the newest few; older ones are superseded and removed


def latest_summary(db: peewee.Database, conversation_id: int) -> StoredSummary | None:
    row = (
        SummaryRow.select()
        .where(SummaryRow.conversation == conversation_id)
        .order_by(SummaryRow.id.desc())
        .first(db)
    )
    return stored_summary(row) if row is not None else None


def summary(db: peewee.Database, summary_id: int) -> StoredSummary | None:
    row = SummaryRow.select().where(SummaryRow.id == summary_id).first(db)
    return stored_summary(row) if row is not None else None


def save_summary(
    db: peewee.SqliteDatabase, conversation_id: int, draft: SummaryDraft
) -> StoredSummary:
    """Write `draft` unless its source changed meanwhile (generation check at write time)."""
    gone = StoreError(
        "The history this summary was made from was deleted while it was being made; "
        "the summary was discarded.",
        kind=FailureKind.CONVERSATION_GONE,
    )
    with db.atomic("IMMEDIATE"):
        conv = ConversationRow.select().where(ConversationRow.id == conversation_id).first(db)
        if conv is None or conv.generation != draft.generation:
            raise gone
        ids = list(draft.covered_turn_ids)
        present = 0
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            present += (
                TurnRow.select()
                .where((TurnRow.id.in_(batch)) & (TurnRow.conversation == conversation_id))
                .count(db)
            )
        if present != len(ids):
            raise gone
        row = insert(
            db, SummaryRow,
            conversation=conversation_id,
            first_ordinal=draft.first_ordinal,
            last_ordinal=draft.last_ordinal,
            covered_count=len(ids),
            covered_digest=draft.covered_digest,
            covered_ids=json.dumps(ids),
            content=draft.content,
            model=draft.model,
            settings_key=draft.settings_key,
            created_at=now_iso(),
            content_bytes=len(draft.content.encode("utf-8")),
            content_tokens=draft.content_tokens,
            usages=json.dumps([u.to_json() for u in draft.usages]),
            warnings=json.dumps(list(draft.warnings), ensure_ascii=False),
        )
        prune(db, conversation_id)
    return stored_summary(row)


def prune(db: peewee.Database, conversation_id: int) -> None:
    """Remove the summaries older than the newest few that no request record able to
    rebuild its body names any more (an earlier version stays while a record shows it)."""
    stale = (
        SummaryRow.select(SummaryRow.id)
        .where(SummaryRow.conversation == conversation_id)
        .order_by(SummaryRow.id.desc())
        .offset(KEEP_PER_CONVERSATION)
    )
    named = RequestRow.select(RequestRow.summary_id).where(
        (RequestRow.conversation == conversation_id) & RequestRow.body_format.is_null(False)
        & RequestRow.summary_id.is_null(False))
    SummaryRow.delete().where(SummaryRow.id.in_(stale) & SummaryRow.id.not_in(named)
                              ).execute(db)
    # One kept only for the requests that carried it needs its text and its span, not the
    # list of every turn id it covered (megabytes on a long log).
    SummaryRow.update(covered_ids="[]").where(
        SummaryRow.id.in_(stale) & (SummaryRow.covered_ids != "[]")).execute(db)
