"""Side questions: kept per conversation apart from its turns, never projected into it.

Deleted with their conversation (its foreign key) and with any turn they carried (see
`deletion`). The functions here run inside the caller's transaction and guard.
"""

from __future__ import annotations

import json

import peewee

from ..core.failures import FailureKind, StoreError
from ..core.request_record import ordinal_ranges
from ..core.side_records import SideAttempt, SideQuestion
from . import usage as totals
from .database import Database
from .models import ConversationRow, SideAttemptRow, SideQuestionRow
from .rows import expand_runs, parse_time, side_costing, side_usage_column, usage_of


def side_question(row: SideQuestionRow) -> SideQuestion:
    pricing, estimate, _, _ = side_costing(row.usage)
    return SideQuestion(
        id=row.id, question=row.question, answer=row.answer, model=row.model,
        created_at=parse_time(row.created_at), usage=usage_of(row.usage),
        body_bytes=row.body_bytes, input_tokens=row.input_tokens,
        tokens_exact=bool(row.tokens_exact), sent=expand_runs(row.sent),
        summarized=expand_runs(row.summarized), left_out=expand_runs(row.left_out),
        side_ids=tuple(json.loads(row.side_ids)), pricing=pricing, output_estimate=estimate,
    )


def side_questions(db: peewee.Database, conversation_id: int) -> list[SideQuestion]:
    """Oldest first."""
    query = (SideQuestionRow.select()
             .where(SideQuestionRow.conversation == conversation_id)
             .order_by(SideQuestionRow.created_at, SideQuestionRow.id))
    return [side_question(row) for row in query.execute(db)]


def add(db: peewee.Database, conversation_id: int, side: SideQuestion, *,
        spent_here: bool = True) -> SideQuestion:
    """Keep `side` unless its conversation was deleted meanwhile (then `StoreError`),
    counted in the usage totals when it was asked here (not when imported)."""
    if not ConversationRow.select().where(ConversationRow.id == conversation_id).exists(db):
        raise StoreError("The conversation was deleted while the side question ran.",
                         kind=FailureKind.CONVERSATION_GONE)
    if SideQuestionRow.select().where(SideQuestionRow.id == side.id).exists(db):
        return side  # kept already, and counted once
    SideQuestionRow.insert(
        id=side.id, conversation=conversation_id, question=side.question,
        answer=side.answer, model=side.model,
        created_at=side.created_at.isoformat(timespec="microseconds"),
        usage=side_usage_column(side.usage, side.pricing, side.output_estimate,
                                counted=spent_here),
        body_bytes=side.body_bytes, input_tokens=side.input_tokens,
        tokens_exact=side.tokens_exact, sent=json.dumps(ordinal_ranges(side.sent)),
        summarized=json.dumps(ordinal_ranges(side.summarized)),
        left_out=json.dumps(ordinal_ranges(side.left_out)), side_ids=json.dumps(side.side_ids),
    ).execute(db)
    if spent_here:
        totals.count_line(db, conversation_id, totals.side_line(
            side.created_at, side.model, side.tokens, side.pricing))
    return side


def side_attempts(db: peewee.Database, conversation_id: int) -> list[SideAttempt]:
    """The side requests that failed, oldest first."""
    query = (SideAttemptRow.select()
             .where(SideAttemptRow.conversation == conversation_id)
             .order_by(SideAttemptRow.created_at, SideAttemptRow.id))
    return [_attempt(row) for row in query.execute(db)]


def _attempt(row: SideAttemptRow) -> SideAttempt:
    pricing, estimate, sent, _ = side_costing(row.usage)
    return SideAttempt(parse_time(row.created_at), row.outcome, row.model, usage_of(row.usage),
                       expand_runs(row.carried), pricing, sent, estimate)


def add_attempt(db: peewee.Database, conversation_id: int, attempt: SideAttempt) -> None:
    """Keep a failed side request's usage unless its conversation was deleted meanwhile
    (then `StoreError`)."""
    if not ConversationRow.select().where(ConversationRow.id == conversation_id).exists(db):
        raise StoreError("The conversation was deleted while the side question ran.",
                         kind=FailureKind.CONVERSATION_GONE)
    SideAttemptRow.insert(
        conversation=conversation_id,
        created_at=attempt.created_at.isoformat(timespec="microseconds"),
        outcome=attempt.outcome, model=attempt.model,
        usage=side_usage_column(attempt.usage, attempt.pricing, attempt.output_estimate,
                                attempt.input_tokens, counted=True),
        carried=json.dumps(ordinal_ranges(attempt.carried)),
    ).execute(db)
    totals.count_line(db, conversation_id, totals.side_line(
        attempt.created_at, attempt.model, attempt.tokens, attempt.pricing))


class SideQuestions:
    """`store.side`: one store's side questions and its failed side requests."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def of(self, conversation_id: int) -> list[SideQuestion]:
        """The conversation's side questions, oldest first (never its turns)."""
        with self.database.guard():
            return side_questions(self.database.db, conversation_id)

    def add(self, conversation_id: int, question: SideQuestion, *,
            spent_here: bool = True) -> SideQuestion:
        """Keep a side question; one asked here (not imported) counts in the usage totals."""
        self.database.need_writer()
        with self.database.guard(), self.database.db.atomic():
            return add(self.database.db, conversation_id, question, spent_here=spent_here)

    def attempts(self, conversation_id: int) -> list[SideAttempt]:
        """The conversation's side requests that failed, with what they used."""
        with self.database.guard():
            return side_attempts(self.database.db, conversation_id)

    def add_attempt(self, conversation_id: int, attempt: SideAttempt) -> None:
        self.database.need_writer()
        with self.database.guard(), self.database.db.atomic():
            add_attempt(self.database.db, conversation_id, attempt)
