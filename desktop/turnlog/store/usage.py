"""`store.usage`: what requests used and cost, day by day, per profile and model.

The daily totals (`usage_days`) are counted as each request record and each side request
(answered or failed) is kept, in the same transaction, and hold numbers only (no text of a
conversation, no ids): a deleted conversation's spend still counts. A conversation's own
usage is read from its request records and side requests, each costed at the prices it
kept.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Iterable
from datetime import UTC, date, datetime
from decimal import Decimal

import peewee

from ..core.cost import Pricing, Tokens, UsageLine, cost, plain
from ..core.request_record import RequestRecord
from ..core.title_sources import TITLE_OUTCOME
from . import rows
from .database import Database
from .models import (
    RequestRow,
    SideAttemptRow,
    SideQuestionRow,
    TurnRow,
    UsageConversationRow,
    UsageDayRow,
)

RECENT_RECORDS = 32  # the records a conversation's turn costs are read from when it opens


def day_of(record: RequestRecord) -> str:
    """The day a request counts on: its start, in UTC (the same day on every machine)."""
    return record.started_at.astimezone(UTC).date().isoformat()


def line_of(record: RequestRecord) -> UsageLine:
    """A request's line: its day, profile, model, counts and cost."""
    prices = record.pricing.prices
    tokens = record.tokens
    amount = record.cost
    return UsageLine(day_of(record), record.pricing.profile, record.model,
                     prices.currency if prices is not None else "", 1, tokens.input,
                     tokens.cached, tokens.output, int(tokens.estimated),
                     int(prices is None), amount)


def count(db: peewee.Database, record: RequestRecord) -> None:
    """Add `record` to its day's totals and its conversation's (inside the caller's
    transaction)."""
    count_line(db, record.conversation_id, line_of(record))


def side_line(when: datetime, model: str, tokens: Tokens, pricing: Pricing) -> UsageLine:
    """A side request's line (an answered side question's or a failed attempt's)."""
    prices = pricing.prices
    return UsageLine(when.astimezone(UTC).date().isoformat(), pricing.profile, model,
                     prices.currency if prices is not None else "", 1, tokens.input,
                     tokens.cached, tokens.output, int(tokens.estimated),
                     int(prices is None), cost(tokens, prices))


def count_line(db: peewee.Database, conversation_id: int, line: UsageLine) -> None:
    """Add `line` to its day's totals and the conversation's (inside the caller's
    transaction)."""
    if not (line.input or line.output):
        return  # nothing was used (refused before sending, a connection that failed)
    _add(db, UsageDayRow, {"day": line.day}, line)
    _add(db, UsageConversationRow, {"conversation": conversation_id}, line)


def _add(db: peewee.Database, table: type[UsageDayRow] | type[UsageConversationRow],
         where: dict[str, object], line: UsageLine) -> None:
    keys = {**where, "profile": line.profile, "model": line.model,
            "currency": line.currency}
    key = functools.reduce(operator.and_, [getattr(table, k) == v for k, v in keys.items()])
    row = table.select(table.cost).where(key).first(db)
    if row is None:
        table.insert(**keys, requests=0, input_tokens=0, cached_tokens=0, output_tokens=0,
                     estimated=0, unpriced=0, cost="").execute(db)
        old_cost: Decimal | None = None
    else:
        old_cost = Decimal(row.cost) if row.cost else None
    new_cost = old_cost if line.cost is None else (old_cost or Decimal(0)) + line.cost
    table.update(
        requests=table.requests + line.requests,
        input_tokens=table.input_tokens + line.input,
        cached_tokens=table.cached_tokens + line.cached,
        output_tokens=table.output_tokens + line.output,
        estimated=table.estimated + line.estimated,
        unpriced=table.unpriced + line.unpriced,
        cost="" if new_cost is None else plain(new_cost),
    ).where(key).execute(db)


def side_lines(db: peewee.Database, conversation_id: int) -> list[UsageLine]:
    """The lines of a conversation's side questions and failed side requests that count in
    the usage totals (asked here since side requests were counted: not imported)."""
    from ..core.side_records import spent  # what a side question cost: read with one

    out = []
    for row in (SideQuestionRow.select(SideQuestionRow.created_at, SideQuestionRow.model,
                                       SideQuestionRow.usage, SideQuestionRow.input_tokens)
                .where(SideQuestionRow.conversation == conversation_id).execute(db)):
        pricing, estimate, _, counted = rows.side_costing(row.usage)
        tokens = spent(rows.usage_of(row.usage), row.input_tokens, estimate)
        if counted:  # asked here, not imported
            out.append(side_line(rows.parse_time(row.created_at), row.model, tokens, pricing))
    for row in (SideAttemptRow.select(SideAttemptRow.created_at, SideAttemptRow.model,
                                      SideAttemptRow.usage)
                .where(SideAttemptRow.conversation == conversation_id).execute(db)):
        pricing, estimate, sent, counted = rows.side_costing(row.usage)
        tokens = spent(rows.usage_of(row.usage), sent, estimate)
        if counted:
            out.append(side_line(rows.parse_time(row.created_at), row.model, tokens, pricing))
    return [line for line in out if line.input or line.output]


def per_turn(records: Iterable[RequestRecord], at: dict[int, str]) -> dict[str, UsageLine]:
    """Per turn id, the lines of `records` (oldest first) that produced its answer, and of
    the title calls made from it (its ordinal → its id in `at`)."""
    out: dict[str, UsageLine] = {}
    for record in records:
        turn = record.turn_id
        if turn is None and record.outcome.startswith(TITLE_OUTCOME) and record.sent:
            turn = at.get(record.sent[0])
        if turn is None:
            continue
        line = line_of(record).keyed("", record.pricing.profile, record.model)
        out[turn] = out[turn] + line if turn in out else line
    return out


def prices_json(record: RequestRecord) -> str | None:
    prices = record.pricing.prices
    return json.dumps(prices.to_json()) if prices is not None else None


class UsageTotals:
    """The daily totals of one store, and a conversation's usage from its records."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.db = database.db

    def days(self, since: date | None = None) -> list[UsageLine]:
        """Every day's totals (from `since` on), oldest first."""
        query = UsageDayRow.select().order_by(UsageDayRow.day, UsageDayRow.profile,
                                              UsageDayRow.model, UsageDayRow.currency)
        if since is not None:
            query = query.where(UsageDayRow.day >= since.isoformat())
        with self.database.guard():
            found = list(query.execute(self.db))
        return [UsageLine(r.day, r.profile, r.model, r.currency, r.requests, r.input_tokens,
                          r.cached_tokens, r.output_tokens, r.estimated, r.unpriced,
                          Decimal(r.cost) if r.cost else None) for r in found]

    def any(self) -> bool:
        """Whether any daily total is kept (one indexed row read: fine on any thread)."""
        with self.database.guard():
            return UsageDayRow.select(UsageDayRow.day).limit(1).scalar(self.db) is not None

    def of_conversation(self, conversation_id: int,
                        since: date | None = None) -> list[UsageLine]:
        """The lines of a conversation's request records, then of its side requests (from
        `since` on)."""
        with self.database.guard():
            found = list(RequestRow.select().where(RequestRow.conversation == conversation_id)
                         .order_by(RequestRow.id).execute(self.db))
            sides = side_lines(self.db, conversation_id)
        lines = [*(line_of(rows.request_record(r)) for r in found), *sides]
        return [line for line in lines if since is None or line.day >= since.isoformat()]

    def conversation_totals(self, conversation_id: int) -> list[UsageLine]:
        """A conversation's totals per profile, model and currency (a few rows, however
        long its log)."""
        with self.database.guard():
            found = list(UsageConversationRow.select()
                         .where(UsageConversationRow.conversation == conversation_id)
                         .execute(self.db))
        return [UsageLine("", r.profile, r.model, r.currency, r.requests, r.input_tokens,
                          r.cached_tokens, r.output_tokens, r.estimated, r.unpriced,
                          Decimal(r.cost) if r.cost else None) for r in found]

    def turn_costs(self, conversation_id: int,
                   newest: int = RECENT_RECORDS) -> dict[str, UsageLine]:
        """Per turn id, what its answer used and cost — the requests that produced it (their
        summary calls and tool rounds included) and the title call made from it — for the
        turns of the conversation's `newest` request records (a bounded read: the turns a
        conversation opens at)."""
        with self.database.guard():
            found = [rows.request_record(r) for r in RequestRow.select()
                     .where(RequestRow.conversation == conversation_id)
                     .order_by(RequestRow.id.desc()).limit(newest).execute(self.db)]
            titled = {r.sent[0] for r in found if r.turn_id is None and r.sent
                      and r.outcome.startswith(TITLE_OUTCOME)}
            at = dict(TurnRow.select(TurnRow.ordinal, TurnRow.id).where(
                (TurnRow.conversation == conversation_id) & TurnRow.ordinal.in_(titled))
                .tuples().execute(self.db)) if titled else {}
        return per_turn(reversed(found), at)

    def turn_cost(self, conversation_id: int, turn_id: str) -> UsageLine | None:
        """What turn `turn_id`'s answer used and cost, as `turn_costs` counts it, however
        old the turn (the conversation's records that name it, and its title calls)."""
        with self.database.guard():
            ordinal = TurnRow.select(TurnRow.ordinal).where(
                (TurnRow.conversation == conversation_id) & (TurnRow.id == turn_id)
            ).scalar(self.db)
            named = (RequestRow.turn_id == turn_id) | (
                RequestRow.turn_id.is_null() & RequestRow.outcome.startswith(TITLE_OUTCOME))
            found = [rows.request_record(r) for r in RequestRow.select()
                     .where((RequestRow.conversation == conversation_id) & named)
                     .order_by(RequestRow.id).execute(self.db)]
        return per_turn(found, {ordinal: turn_id} if ordinal is not None else {}).get(turn_id)

    def forget_all(self) -> int:
        """Forget every daily total; returns how many days' rows went."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            return int(UsageDayRow.delete().execute(self.db))

