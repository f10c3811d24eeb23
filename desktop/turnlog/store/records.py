"""`store.records`: what each request sent and used (numbers and references, never
message text), and the rolling summaries derived from the log."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from . import rows, summaries
from .conversations import conversation_row
from .database import Database
from .models import RequestRow, TurnRow, insert

if TYPE_CHECKING:  # what a request adds (its proof, its usage) loads with the first record
    from ..core.proof import Sources
    from ..core.request_record import RequestRecord
    from ..core.summaries import StoredSummary, SummaryDraft, SummaryVersion

MAX_RECORDS_PER_CONVERSATION = 5_000


class Records:
    """Request records and summaries of one store."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.db = database.db
        self.max_per_conversation = MAX_RECORDS_PER_CONVERSATION

    def add(self, record: RequestRecord) -> None:
        from ..core.request_record import ordinal_ranges
        from . import proofs, usage

        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            if conversation_row(self.db, record.conversation_id) is None:
                return  # deleted while the request ran: nothing to keep
            usage.count(self.db, record)
            proof = record.proof
            insert(
                self.db, RequestRow,
                conversation=record.conversation_id,
                started_at=record.started_at.isoformat(timespec="microseconds"),
                model=record.model,
                outcome=record.outcome,
                status=record.status,
                body_bytes=record.body_bytes,
                max_bytes=record.max_bytes,
                input_tokens=record.input_tokens,
                token_budget=record.token_budget,
                tokens_exact=record.tokens_exact,
                sent=json.dumps(ordinal_ranges(record.sent)),
                summarized=json.dumps(ordinal_ranges(record.summarized)),
                left_out=json.dumps(ordinal_ranges(record.left_out)),
                usage=rows.usage_json(record.usage, record.seed),
                extra_usage=json.dumps([u.to_json() for u in record.extra_usage]),
                duration_s=record.duration_s,
                first_token_s=record.first_token_s,
                turn_id=record.turn_id,
                summary_id=record.summary_id,
                attempt=record.attempt,
                profile=record.pricing.profile,
                prices=usage.prices_json(record),
                output_estimate=record.output_estimate,
                round_usage=json.dumps([u.to_json() for u in record.round_usage]),
                **proofs.columns(self.db, record.conversation_id, proof),
            )
            # Bounded: the oldest records of a busy conversation (by when they were sent,
            # those from other machines too, as a sync bounds them) give way to new ones.
            stale = (
                RequestRow.select(RequestRow.id)
                .where(RequestRow.conversation == record.conversation_id)
                .order_by(RequestRow.started_at.desc(), RequestRow.id.desc())
                .offset(self.max_per_conversation)
            )
            if RequestRow.delete().where(RequestRow.id.in_(stale)).execute(self.db):
                # Versions only those records named go with them (texts and tool sets by
                # the schema's triggers, summaries here).
                summaries.prune(self.db, record.conversation_id)

    def of(self, conversation_id: int) -> list[RequestRecord]:
        with self.database.guard():
            found = list(
                RequestRow.select()
                .where(RequestRow.conversation == conversation_id)
                .order_by(RequestRow.id)
                .execute(self.db)
            )
        return [rows.request_record(r) for r in found]

    def ids_of(self, conversation_id: int, turn_id: str) -> list[int]:
        """The records of the requests that produced turn `turn_id`, oldest first."""
        with self.database.guard():
            return [i for (i,) in RequestRow.select(RequestRow.id).where(
                (RequestRow.conversation == conversation_id) & (RequestRow.turn_id == turn_id))
                .order_by(RequestRow.id).tuples().execute(self.db)]

    def turn_at(self, conversation_id: int, ordinal: int) -> str | None:
        """The id of the turn stored at `ordinal` (None: none is)."""
        with self.database.guard():
            return TurnRow.select(TurnRow.id).where(
                (TurnRow.conversation == conversation_id) & (TurnRow.ordinal == ordinal)
            ).scalar(self.db)

    def sources(self, record_id: int) -> Sources | None:
        """What record `record_id`'s references lead to now (None: no such record)."""
        from . import proofs

        with self.database.guard(), self.db.atomic():
            row = RequestRow.select().where(RequestRow.id == record_id).first(self.db)
            return proofs.sources(self.db, row) if row is not None else None

    def latest_summary(self, conversation_id: int) -> StoredSummary | None:
        with self.database.guard():
            return summaries.latest_summary(self.db, conversation_id)

    def summary(self, summary_id: int) -> StoredSummary | None:
        with self.database.guard():
            return summaries.summary(self.db, summary_id)

    def save_summary(self, conversation_id: int, draft: SummaryDraft) -> StoredSummary:
        self.database.need_writer()
        with self.database.guard():
            return summaries.save_summary(self.db, conversation_id, draft)

    def summary_history(self, conversation_id: int) -> list[SummaryVersion]:
        """The conversation's compaction history, oldest first."""
        with self.database.guard(), self.db.atomic():
            return summaries.history(self.db, conversation_id)

    def edit_summary(self, conversation_id: int, text: str,
                     content_tokens: int) -> StoredSummary:
        """The user's rewrite of the summary in effect, sent from now on."""
        self.database.need_writer()
        with self.database.guard():
            return summaries.edit_summary(self.db, conversation_id, text, content_tokens)

    def undo_summary_edit(self, conversation_id: int) -> StoredSummary:
        """Back to the version the summary in effect was edited from."""
        self.database.need_writer()
        with self.database.guard():
            return summaries.undo_summary_edit(self.db, conversation_id)

    def forget_earlier_summaries(self, conversation_id: int) -> int:
        """Remove every version of the summary but the one in effect."""
        self.database.need_writer()
        with self.database.guard():
            return summaries.forget_earlier_summaries(self.db, conversation_id)
