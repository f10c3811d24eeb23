"""Rolling summaries: derived from the log, written only while their source is unchanged.

The functions here take the database where they write and run their own transaction;
the caller guards errors.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import peewee

from ..core.failures import FailureKind, StoreError
from .models import ConversationRow, RequestRow, SummaryRow, TurnRow, insert
from .rows import CURRENT_SUMMARY, now_iso, stored_summary

if TYPE_CHECKING:  # a summary's records: loaded with the first one read, made or edited
    from ..core.summaries import StoredSummary, SummaryDraft, SummaryVersion

KEEP_PER_CONVERSATION = 3  # the newest few; older ones are superseded and removed


def _current_id(db: peewee.Database, conversation_id: int) -> int | None:
    """The summary in effect, by one rule every machine evaluates alike (row ids are each
    machine's own): of the versions not undone, the one made last by the sync's clock
    (whose reading ends in its machine's id, so two are never equal), then the greater
    global id. On one machine that is the newest, as the clock runs ahead of every reading
    it has applied: an edit or a summary made after another machine's arrived is used.
    Two machines that each summarized offline end with the same one in effect; the other
    stays a kept version, set aside. (Not the one covering the most turns: a summary made
    afresh after a change of settings may cover fewer than the one before it.)"""
    row = db.execute_sql(CURRENT_SUMMARY, (conversation_id,)).fetchone()
    return None if row is None else int(row[0])


def _current_row(db: peewee.Database, conversation_id: int) -> SummaryRow | None:
    found = _current_id(db, conversation_id)
    return None if found is None else SummaryRow.select().where(SummaryRow.id == found).first(db)


def latest_summary(db: peewee.Database, conversation_id: int) -> StoredSummary | None:
    row = _current_row(db, conversation_id)
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
        current = _current_row(db, conversation_id)
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
            replaced_id=current.id if current is not None else None,
        )
        prune(db, conversation_id)
    return stored_summary(row)


def _named_by_records(db: peewee.Database, conversation_id: int) -> peewee.Select:
    """The summary ids that request records able to rebuild their body name."""
    return RequestRow.select(RequestRow.summary_id).where(
        (RequestRow.conversation == conversation_id) & RequestRow.body_format.is_null(False)
        & RequestRow.summary_id.is_null(False))


def edit_summary(db: peewee.SqliteDatabase, conversation_id: int, text: str,
                 content_tokens: int) -> StoredSummary:
    """A new version of the summary in effect, with the user's `text` (already checked by
    `edited_text`): it covers the same turns, stands in for them from now on, and the
    next compaction folds from it. Raises `SummaryEditError`."""
    from ..core.summaries import SummaryEditError

    with db.atomic("IMMEDIATE"):
        current = _current_row(db, conversation_id)
        if current is None:
            raise SummaryEditError("this conversation has no summary to edit (one is made "
                                   "when its turns no longer fit a request)")
        if current.content == text:
            raise SummaryEditError("the text is the summary as it already stands")
        row = insert(
            db, SummaryRow,
            conversation=conversation_id,
            first_ordinal=current.first_ordinal,
            last_ordinal=current.last_ordinal,
            covered_count=current.covered_count,
            covered_digest=current.covered_digest,
            covered_ids=current.covered_ids,
            content=text,
            model=current.model,
            settings_key=current.settings_key,
            created_at=now_iso(),
            content_bytes=len(text.encode("utf-8")),
            content_tokens=content_tokens,
            usages="[]",
            warnings="[]",
            replaced_id=current.id,
            edited_from=current.id,
        )
        prune(db, conversation_id)
    return stored_summary(row)


def undo_summary_edit(db: peewee.SqliteDatabase, conversation_id: int) -> StoredSummary:
    """Return to the version the summary in effect was edited from; returns that version.
    The undone text is removed, or kept (never sent again) while a request record that
    carried it remains. Raises `SummaryEditError`."""
    from ..core.summaries import SummaryEditError

    with db.atomic("IMMEDIATE"):
        current = _current_row(db, conversation_id)
        if current is None or current.edited_from is None:
            raise SummaryEditError("the summary in effect is not an edit of yours: there is "
                                   "no edit to undo")
        previous = SummaryRow.select().where(SummaryRow.id == current.edited_from).first(db)
        if previous is None:
            raise SummaryEditError("the version this edit was made from is no longer kept")
        if current.id in {i for (i,) in _named_by_records(db, conversation_id).tuples()
                          .execute(db)}:
            SummaryRow.update(undone=True).where(SummaryRow.id == current.id).execute(db)
        else:
            SummaryRow.delete().where(SummaryRow.id == current.id).execute(db)
        prune(db, conversation_id)
    return stored_summary(previous)


def forget_earlier_summaries(db: peewee.SqliteDatabase, conversation_id: int) -> int:
    """Remove every version of the conversation's summary but the one in effect (edited-
    away texts included). The records that carried them can no longer rebuild their
    body, and forget its hash (a hash of removed text is a fingerprint of it). Returns
    how many were removed."""
    with db.atomic("IMMEDIATE"):
        current = _current_row(db, conversation_id)
        keep = current.id if current is not None else -1
        earlier = (SummaryRow.conversation == conversation_id) & (SummaryRow.id != keep)
        RequestRow.update(sha256=None).where(
            (RequestRow.conversation == conversation_id)
            & RequestRow.summary_id.in_(SummaryRow.select(SummaryRow.id).where(earlier))
        ).execute(db)
        return int(SummaryRow.delete().where(earlier).execute(db))


def history(db: peewee.Database, conversation_id: int) -> list[SummaryVersion]:
    """The conversation's compaction history, oldest first: every summary still kept, what
    stands now, and the request records that carried each."""
    from ..core.summaries import SummaryVersion, VersionState

    wanted = [f for f in SummaryRow._meta.sorted_fields if f.name != "covered_ids"]
    found = list(SummaryRow.select(*wanted).where(SummaryRow.conversation == conversation_id)
                 .order_by(SummaryRow.id).execute(db))
    carried: dict[int, list[int]] = {}
    made_in: dict[int, tuple[int, str | None]] = {}  # summary: (record, turn answered)
    for record_id, summary_id, calls, turn_id in (
        RequestRow.select(RequestRow.id, RequestRow.summary_id, RequestRow.extra_usage,
                          RequestRow.turn_id)
        .where((RequestRow.conversation == conversation_id)
               & RequestRow.summary_id.is_null(False))
        .order_by(RequestRow.id).tuples().execute(db)
    ):
        carried.setdefault(summary_id, []).append(record_id)
        if calls != "[]" and summary_id not in made_in:  # its summary calls ran here
            made_in[summary_id] = (record_id, turn_id)
    answered = [t for _r, t in made_in.values() if t is not None]
    ordinals = dict(TurnRow.select(TurnRow.id, TurnRow.ordinal).where(
        TurnRow.id.in_(answered)).tuples().execute(db)) if answered else {}
    kept = {row.id for row in found}
    current = _current_id(db, conversation_id)
    # A version nothing kept replaced nor was edited from, yet not in effect: set aside by
    # the rule of `_current_id` (another machine summarized at the same time).
    followed = {row.replaced_id for row in found} | {row.edited_from for row in found}
    return [
        SummaryVersion(
            summary=stored_summary(row),
            state=(VersionState.UNDONE if row.undone else VersionState.CURRENT
                   if row.id == current else VersionState.EARLIER),
            record_ids=tuple(carried.get(row.id, ())),
            replaced_kept=row.replaced_id in kept,
            set_aside_for=(current if current is not None and row.id != current
                           and not row.undone and row.id not in followed else None),
            **_made_in(made_in.get(row.id) if row.edited_from is None else None, ordinals),
        )
        for row in found
    ]


def _made_in(found: tuple[int, str | None] | None,
             ordinals: dict[str, int]) -> dict[str, object]:
    if found is None:
        return {}
    record_id, turn_id = found
    ordinal = ordinals.get(turn_id) if turn_id is not None else None
    return {"made_in": record_id, "made_for": turn_id if ordinal is not None else None,
            "made_for_ordinal": ordinal}


def _undo_chain(db: peewee.Database, conversation_id: int) -> list[int]:
    """The versions Undo can return to: what the summary in effect was edited from, and
    so on back (each edit's own earlier version)."""
    chain: list[int] = []
    row = _current_row(db, conversation_id)
    while row is not None and row.edited_from is not None and len(chain) < 1_000:
        chain.append(row.edited_from)
        row = SummaryRow.select(SummaryRow.id, SummaryRow.edited_from).where(
            SummaryRow.id == row.edited_from).first(db)
    return chain


def prune(db: peewee.Database, conversation_id: int) -> None:
    """Remove the summaries older than the newest few that no request record able to
    rebuild its body names any more (an earlier version stays while a record shows it,
    and while Undo can return to it). A text the user edited away, or an undone edit, is
    kept only for such a record or for Undo."""
    stale = (
        SummaryRow.select(SummaryRow.id)
        .where(SummaryRow.conversation == conversation_id)
        .order_by(SummaryRow.id.desc())
        .offset(KEEP_PER_CONVERSATION)
    )
    edited_away = SummaryRow.select(SummaryRow.edited_from).where(
        (SummaryRow.conversation == conversation_id) & SummaryRow.edited_from.is_null(False))
    named = _named_by_records(db, conversation_id)
    undo_to = _undo_chain(db, conversation_id)
    current = _current_id(db, conversation_id)
    SummaryRow.delete().where(
        (SummaryRow.conversation == conversation_id) & (SummaryRow.id != (current or -1))
        & (SummaryRow.id.in_(stale) | SummaryRow.id.in_(edited_away) | SummaryRow.undone)
        & SummaryRow.id.not_in(named) & SummaryRow.id.not_in(undo_to)).execute(db)
    # One kept only for the requests that carried it needs its text and its span, not the
    # list of every turn id it covered (megabytes on a long log).
    SummaryRow.update(covered_ids="[]").where(
        SummaryRow.id.in_(stale) & (SummaryRow.id != (current or -1))
        & (SummaryRow.covered_ids != "[]")).execute(db)
