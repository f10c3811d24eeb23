"""Delete for privacy: a turn, a conversation or everything, with every derived copy.

One transaction removes the turns, every summary covering any of them, their
search index entries (with the index merged so no token of them stays), and
request records' references to them (records keep only their numbers, so
usage totals survive). The store then checkpoints and truncates the WAL so no
copy of the deleted text stays in `-wal` (`secure_delete` has already
overwritten it in the main file) and removes any copy kept from before a schema
upgrade. The functions here take the database and run their own transaction;
the caller guards errors and drops what it cached.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import peewee

from ..core.proof import PIN_TEXT
from . import attachments, proofs, search
from .errors import NotFound
from .models import (
    ConversationRow,
    FolderRow,
    ForkRow,
    PinRow,
    RequestRow,
    SideAttemptRow,
    SideQuestionRow,
    SummaryRow,
    TurnAttachmentRow,
    TurnRow,
    UsageDayRow,
)
from .rows import expand_runs


@dataclass(frozen=True, slots=True)
class DeletionCounts:
    """What a delete removes, for the confirmation ("3 turns, 1 summary, 12 request records")."""

    conversations: int
    turns: int
    summaries: int
    requests: int
    pins: int = 0  # pinned facts taken from the deleted turns (or in the conversations)
    side_questions: int = 0
    files: int = 0  # files attached to the deleted turns' questions
    edited_summaries: int = 0  # of `summaries`, the versions the user wrote

    def describe(self) -> str:
        def n(count: int, one: str, many: str) -> str:
            return f"{count:,} {one if count == 1 else many}"

        parts = []
        if self.conversations:
            parts.append(n(self.conversations, "conversation", "conversations"))
        parts.append(n(self.turns, "turn", "turns"))
        summaries = n(self.summaries, "summary", "summaries")
        if self.edited_summaries:
            summaries += f" ({self.edited_summaries:,} edited by you)"
        parts.append(summaries)
        parts.append(n(self.requests, "request record", "request records"))
        if self.pins:
            parts.append(n(self.pins, "pinned fact", "pinned facts"))
        if self.side_questions:
            parts.append(n(self.side_questions, "side question", "side questions"))
        if self.files:
            parts.append(n(self.files, "attached file", "attached files"))
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


def _carried(row: RequestRow, ordinal: int, turn_id: str) -> bool:
    """Whether the request carried the turn: as its question, verbatim or in its summary."""
    return row.turn_id == turn_id or any(
        first <= ordinal <= last
        for field in (row.sent, row.summarized) for first, last in json.loads(field))


def _covering(conversation_id: int, ordinal: int) -> peewee.ModelSelect:
    return SummaryRow.select().where(
        (SummaryRow.conversation == conversation_id)
        & (SummaryRow.first_ordinal <= ordinal)
        & (SummaryRow.last_ordinal >= ordinal)
    )


def side_carrying(db: peewee.Database, conversation_id: int, ordinals: Iterable[int]
                   ) -> list[str]:
    """Side questions whose request carried one of these turns (verbatim or through the
    summary), or carried such a side question: their answers may echo it."""
    wanted = set(ordinals)
    gone: list[str] = []
    rows = (SideQuestionRow.select(SideQuestionRow.id, SideQuestionRow.sent,
                                   SideQuestionRow.summarized, SideQuestionRow.side_ids)
            .where(SideQuestionRow.conversation == conversation_id)
            .order_by(SideQuestionRow.created_at, SideQuestionRow.id))
    for row in rows.execute(db):
        if (wanted & {*expand_runs(row.sent), *expand_runs(row.summarized)}
                or set(json.loads(row.side_ids)) & set(gone)):
            gone.append(row.id)
    return gone


def attempts_carrying(db: peewee.Database, conversation_id: int, ordinals: Iterable[int]
                       ) -> list[int]:
    """Failed side requests that carried one of these turns."""
    wanted = set(ordinals)
    rows = (SideAttemptRow.select(SideAttemptRow.id, SideAttemptRow.carried)
            .where(SideAttemptRow.conversation == conversation_id))
    return [row.id for row in rows.execute(db) if wanted & set(expand_runs(row.carried))]


def _records_of(db: peewee.Database, conversation_id: int, ordinal: int, turn_id: str
                ) -> list[RequestRow]:
    rows = RequestRow.select().where(RequestRow.conversation == conversation_id)
    return [r for r in rows.execute(db) if _mentions(r, ordinal, turn_id)]


def pins_from(db: peewee.Database, conversation_id: int, turn_ids: Sequence[str]
              ) -> list[PinRow]:
    """The pins of a conversation taken from any of `turn_ids`."""
    rows_ = PinRow.select().where(PinRow.conversation == conversation_id)
    wanted = set(turn_ids)
    return [r for r in rows_.execute(db) if wanted & set(json.loads(r.sources))]


def drop_sources(db: peewee.Database, conversation_id: int, turn_ids: Sequence[str], *,
                 keep: bool) -> int:
    """Pins taken from the deleted turns: deleted, or (`keep`) kept without those sources
    (as typed when none is left). Returns how many pins were deleted."""
    gone = set(turn_ids)
    hit = pins_from(db, conversation_id, turn_ids)
    if not keep:
        PinRow.delete().where(PinRow.id.in_([r.id for r in hit])).execute(db)
        for row in hit:  # and the versions requests kept of them
            proofs.forget_item(db, PIN_TEXT, str(row.id), conversation_id)
        return len(hit)
    for row in hit:
        left = [s for s in json.loads(row.sources) if s not in gone]
        PinRow.update(sources=json.dumps(left)).where(PinRow.id == row.id).execute(db)
    return 0


def conversation_of(db: peewee.Database, turn_id: str) -> int:
    row = (TurnRow.select(TurnRow.conversation).where(TurnRow.id == turn_id)
           .tuples().first(db))
    if row is None:
        raise NotFound(f"There is no turn {turn_id}.")
    return int(row[0])


def _keys(db: peewee.Database, ids: Sequence[str]) -> list[tuple[str, int]]:
    """(id, ordinal) of these turns, their text unread (a damaged turn's may not be)."""
    return list(TurnRow.select(TurnRow.id, TurnRow.ordinal)
                .where(TurnRow.id.in_(list(ids))).tuples().execute(db))


def _delete_rows(db: peewee.SqliteDatabase, query: peewee.Query) -> int:
    """Run a delete of turns (or of what cascades to them); when the index cannot read
    a deleted turn's text (not valid UTF-8), delete again with the index's parts that
    held it made anew."""
    try:
        with db.atomic():
            return int(query.execute(db))
    except (peewee.OperationalError, sqlite3.OperationalError) as err:
        if not search.unreadable(err):
            raise
    with search.deleting_unreadable(db):
        return int(query.execute(db))


def preview_turns(db: peewee.Database, cid: int, ids: Sequence[str]) -> DeletionCounts:
    """What deleting these turns of conversation `cid` would remove."""
    summaries: dict[int, bool] = {}  # id: edited by the user
    records: set[int] = set()
    ordinals: list[int] = []
    for turn_id, ordinal in _keys(db, ids):
        summaries.update((s.id, s.edited_from is not None)
                         for s in _covering(cid, ordinal).execute(db))
        records.update(r.id for r in _records_of(db, cid, ordinal, turn_id))
        ordinals.append(ordinal)
    return DeletionCounts(0, len(ids), len(summaries), len(records),
                          len(pins_from(db, cid, ids)), len(side_carrying(db, cid, ordinals)),
                          _files_of(db, turn_ids=ids), sum(summaries.values()))


def forks_of(db: peewee.Database, conversation_id: int) -> list[int]:
    """The forks holding copies of this conversation's turns, forks of forks too."""
    found: list[int] = []
    todo = [conversation_id]
    while todo:
        children = [c for (c,) in ForkRow.select(ForkRow.conversation)
                    .where(ForkRow.source_id.in_(todo)).tuples().execute(db) if c not in found]
        found += children
        todo = children
    return found


def count(db: peewee.Database, conversation_ids: Iterable[int] | None) -> DeletionCounts:
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
        conversations.count(db),
        where(TurnRow).count(db),
        where(SummaryRow).count(db),
        where(RequestRow).count(db),
        where(PinRow).count(db),
        where(SideQuestionRow).count(db),
        _files_of(db, conversation_ids=conversation_ids),
    )


def _files_of(db: peewee.Database, *, turn_ids: Iterable[str] | None = None,
              conversation_ids: Iterable[int] | None = None) -> int:
    """How many files the questions of these turns (or conversations; neither: all) carry."""
    query = TurnAttachmentRow.select().join(TurnRow)
    if turn_ids is not None:
        query = query.where(TurnRow.id.in_(list(turn_ids)))
    if conversation_ids is not None:
        query = query.where(TurnRow.conversation.in_(list(conversation_ids)))
    return int(query.count(db))


def _unlink_records(db: peewee.Database, records: list[RequestRow], turn_id: str,
                    ordinal: int) -> None:
    for record in records:
        changes: dict[str, object] = {}
        for field in ("sent", "summarized", "left_out"):
            changes[field], _ = _runs_without(getattr(record, field), ordinal)
        if record.turn_id == turn_id:
            changes["turn_id"] = None
        if _carried(record, ordinal, turn_id):
            changes["sha256"] = None  # a hash of deleted text is a fingerprint of it
        # A record that rebuilds its body keeps naming its summary: shown deleted.
        if record.summary_id is not None and record.body_format is None and not \
                SummaryRow.select().where(SummaryRow.id == record.summary_id).exists(db):
            changes["summary_id"] = None
        RequestRow.update(changes).where(RequestRow.id == record.id).execute(db)


def delete_turns(db: peewee.SqliteDatabase, cid: int, ids: Sequence[str], *,
                 keep_pins: bool = False) -> DeletionCounts:
    """Delete turns of conversation `cid` (a turn, or a turn and its other versions) and
    everything derived from them (the caller re-links their supersede records), with
    the pins taken from them unless `keep_pins` (then they stay, as typed)."""
    with db.atomic("IMMEDIATE"):
        summaries = 0
        pins = drop_sources(db, cid, ids, keep=keep_pins)
        records: set[int] = set()
        turns = _keys(db, ids)
        files = _files_of(db, turn_ids=[i for i, _o in turns])
        sides = SideQuestionRow.delete().where(SideQuestionRow.id.in_(
            side_carrying(db, cid, [ordinal for _id, ordinal in turns]))).execute(db)
        SideAttemptRow.delete().where(SideAttemptRow.id.in_(
            attempts_carrying(db, cid, [ordinal for _id, ordinal in turns]))).execute(db)
        edited = 0
        for turn_id, ordinal in turns:
            covering = list(_covering(cid, ordinal).execute(db))
            edited += sum(s.edited_from is not None for s in covering)
            summaries += SummaryRow.delete().where(
                SummaryRow.id.in_([s.id for s in covering])).execute(db)
            found = _records_of(db, cid, ordinal, turn_id)
            records.update(r.id for r in found)
            _unlink_records(db, found, turn_id, ordinal)
        _delete_rows(db, TurnRow.delete().where(TurnRow.id.in_([i for i, _o in turns])))
        # Remaining ordinals keep their meaning (a gap, never renumbering); the new
        # generation refuses any write prepared before this delete.
        ConversationRow.update(generation=ConversationRow.generation + 1).where(
            ConversationRow.id == cid
        ).execute(db)
        search.purge(db)  # the search index's triggers forgot them: leave no token
        attachments.sweep(db)  # their files, unless another turn or a draft has them
    return DeletionCounts(0, len(ids), summaries, len(records), pins, sides, files, edited)


def delete_conversations(db: peewee.SqliteDatabase, ids: Sequence[int]) -> DeletionCounts:
    """Delete these conversations (several chosen at once, or a folder's) in one
    transaction; forks of them that stay forget which conversation they came from."""
    ids = list(ids)
    with db.atomic("IMMEDIATE"):
        counts = count(db, ids)
        # Foreign keys cascade to turns, summaries, supersede and request records, and
        # side questions and the usage of failed side requests.
        _delete_rows(db, ConversationRow.delete().where(ConversationRow.id.in_(ids)))
        ForkRow.update(source_id=None).where(ForkRow.source_id.in_(ids)).execute(db)
        search.purge(db)
        attachments.remove_drafts(db, ids)
        attachments.sweep(db)
    return counts


def delete_all(db: peewee.SqliteDatabase, *, usage_totals: bool = False) -> DeletionCounts:
    """Every conversation and what is derived from them; the daily usage totals (numbers
    only, kept across deletes) too with `usage_totals`."""
    with db.atomic("IMMEDIATE"):
        counts = count(db, None)
        if usage_totals:
            UsageDayRow.delete().execute(db)
        search.delete_all_turns(db)
        ConversationRow.delete().execute(db)
        FolderRow.delete().execute(db)  # their names are the user's words too
        proofs.forget_all(db)
        search.purge(db)
        attachments.remove_drafts(db, None)
        attachments.sweep(db)
    return counts
