"""Delete for privacy: a turn, a conversation or everything, with every derived copy.

One transaction removes the turns, every summary covering any of them, and
request records' references to them (records keep only their numbers, so
usage totals survive). The store then checkpoints and truncates the WAL so no
copy of the deleted text stays in `-wal` (`secure_delete` has already
overwritten it in the main file) and removes any copy kept from before a schema
upgrade. The functions here take the database and run their own transaction;
the caller guards errors and drops what it cached.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

import peewee

from .errors import NotFound
from .models import ConversationRow, RequestRow, SideQuestionRow, SummaryRow, TurnRow
from .rows import expand_runs


@dataclass(frozen=True, slots=True)
class DeletionCounts:
    """What a delete removes, for the confirmation ("3 turns, 1 summary, 12 request records")."""

    conversations: int
    turns: int
    summaries: int
    requests: int
    side_questions: int = 0

    def describe(self) -> str:
        def n(count: int, one: str, many: str) -> str:
            return f"{count:,} {one if count == 1 else many}"

        parts = []
        if self.conversations:
            parts.append(n(self.conversations, "conversation", "conversations"))
        parts.append(n(self.turns, "turn", "turns"))
        parts.append(n(self.summaries, "summary", "summaries"))
        parts.append(n(self.requests, "request record", "request records"))
        if self.side_questions:
            parts.append(n(self.side_questions, "side question", "side questions"))
        return ", ".join(parts)


def _runs_without(text: str, ordinal: int) -> tuple[str, bool]:
    runs = json.loads(text)
    out: list[list[int]] = []
    hit = False
    for first, last in runs:
        if first <= ordinal <= last:
            hit = True
            if first < ordinal:
                out.append([first, ordinal - 1])
            if ordinal < last:
                out.append([ordinal + 1, last])
        else:
            out.append([first, last])
    return json.dumps(out), hit


def _mentions(row: RequestRow, ordinal: int, turn_id: str) -> bool:
    if row.turn_id == turn_id:
        return True
    return any(
        first <= ordinal <= last
        for field in (row.sent, row.summarized, row.left_out)
        for first, last in json.loads(field)
    )


def _covering(conversation_id: int, ordinal: int) -> peewee.ModelSelect:
    return SummaryRow.select().where(
        (SummaryRow.conversation == conversation_id)
        & (SummaryRow.first_ordinal <= ordinal)
        & (SummaryRow.last_ordinal >= ordinal)
    )


def _side_carrying(conversation_id: int, ordinal: int) -> list[str]:
    """Side questions whose request carried turn `ordinal` (verbatim or through the
    summary), or carried such a side question: their answers may echo it."""
    gone: list[str] = []
    rows = (SideQuestionRow.select(SideQuestionRow.id, SideQuestionRow.sent,
                                   SideQuestionRow.summarized, SideQuestionRow.side_ids)
            .where(SideQuestionRow.conversation == conversation_id)
            .order_by(SideQuestionRow.created_at, SideQuestionRow.id))
    for row in rows:
        if (ordinal in expand_runs(row.sent) or ordinal in expand_runs(row.summarized)
                or set(json.loads(row.side_ids)) & set(gone)):
            gone.append(row.id)
    return gone


def _records_of(conversation_id: int, ordinal: int, turn_id: str) -> list[RequestRow]:
    rows = RequestRow.select().where(RequestRow.conversation == conversation_id)
    return [r for r in rows if _mentions(r, ordinal, turn_id)]


def preview_turn(turn_id: str) -> DeletionCounts:
    row = TurnRow.get_or_none(TurnRow.id == turn_id)
    if row is None:
        raise NotFound(f"There is no turn {turn_id}.")
    return DeletionCounts(
        0, 1, _covering(row.conversation_id, row.ordinal).count(),
        len(_records_of(row.conversation_id, row.ordinal, turn_id)),
        len(_side_carrying(row.conversation_id, row.ordinal)),
    )


def count(conversation_ids: Iterable[int] | None) -> DeletionCounts:
    """What deleting these conversations (`None`: all of them) would remove."""
    def where(model: type[peewee.Model]) -> peewee.ModelSelect:
        query = model.select()
        if conversation_ids is not None:
            query = query.where(model.conversation.in_(list(conversation_ids)))
        return query

    conversations = ConversationRow.select()
    if conversation_ids is not None:
        conversations = conversations.where(ConversationRow.id.in_(list(conversation_ids)))
    return DeletionCounts(
        conversations.count(),
        where(TurnRow).count(),
        where(SummaryRow).count(),
        where(RequestRow).count(),
        where(SideQuestionRow).count(),
    )


def _unlink_records(records: list[RequestRow], turn_id: str, ordinal: int) -> None:
    for record in records:
        changes: dict[str, object] = {}
        for field in ("sent", "summarized", "left_out"):
            changes[field], _ = _runs_without(getattr(record, field), ordinal)
        if record.turn_id == turn_id:
            changes["turn_id"] = None
        if record.summary_id is not None and SummaryRow.get_or_none(
            SummaryRow.id == record.summary_id
        ) is None:
            changes["summary_id"] = None
        RequestRow.update(changes).where(RequestRow.id == record.id).execute()


def delete_turn(db: peewee.SqliteDatabase, turn_id: str) -> tuple[int, DeletionCounts]:
    """Delete one turn and everything derived from it; returns its conversation id."""
    with db.atomic("IMMEDIATE"):
        row = TurnRow.get_or_none(TurnRow.id == turn_id)
        if row is None:
            raise NotFound(f"There is no turn {turn_id}.")
        cid, ordinal = row.conversation_id, row.ordinal
        summaries = SummaryRow.delete().where(
            SummaryRow.id.in_([s.id for s in _covering(cid, ordinal)])
        ).execute()
        records = _records_of(cid, ordinal, turn_id)
        _unlink_records(records, turn_id, ordinal)
        sides = SideQuestionRow.delete().where(
            SideQuestionRow.id.in_(_side_carrying(cid, ordinal))).execute()
        TurnRow.delete().where(TurnRow.id == turn_id).execute()
        # Remaining ordinals keep their meaning (a gap, never renumbering); the new
        # generation refuses any write prepared before this delete.
        ConversationRow.update(generation=ConversationRow.generation + 1).where(
            ConversationRow.id == cid
        ).execute()
    return cid, DeletionCounts(0, 1, summaries, len(records), sides)


def delete_conversation(db: peewee.SqliteDatabase, conversation_id: int) -> DeletionCounts:
    with db.atomic("IMMEDIATE"):
        counts = count([conversation_id])
        # Foreign keys cascade to turns, summaries, request records and side questions.
        ConversationRow.delete().where(ConversationRow.id == conversation_id).execute()
    return counts


def delete_all(db: peewee.SqliteDatabase) -> DeletionCounts:
    with db.atomic("IMMEDIATE"):
        counts = count(None)
        ConversationRow.delete().execute()
    return counts
