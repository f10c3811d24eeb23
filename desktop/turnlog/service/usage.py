"""What was used and spent, as the Usage view and `turnlog-cli usage` both show it: per
day and month, per profile and model, with totals per currency.

Without a conversation the numbers are the daily totals the store keeps (deleted
conversations' spend included); for one conversation, its request records, each costed
at the prices it kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from ..core.cost import UsageLine, grouped

DAILY_TOTALS = "daily totals"
CONVERSATION = "conversation"


class UsageSource(Protocol):
    """The usage part of a store (`store.usage`)."""

    def days(self, since: date | None = None) -> list[UsageLine]: ...

    def of_conversation(self, conversation_id: int,
                        since: date | None = None) -> list[UsageLine]: ...


@dataclass(frozen=True, slots=True)
class UsageReport:
    """Usage per day and per month (each per profile and model), and the totals per
    currency. `source`: `DAILY_TOTALS` (they outlive deleted conversations) or
    `CONVERSATION`."""

    source: str
    days: Sequence[UsageLine]
    months: Sequence[UsageLine]
    models: Sequence[UsageLine]
    totals: Sequence[UsageLine]
    since: date | None = None
    conversation_id: int | None = None

    @property
    def empty(self) -> bool:
        return not self.days

    @property
    def estimated(self) -> bool:
        return any(line.estimated for line in self.totals)

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "conversation": self.conversation_id,
                "since": self.since.isoformat() if self.since else None,
                "includes_deleted_conversations": self.source == DAILY_TOTALS,
                "totals": [line.to_json() for line in self.totals],
                "by_model": [line.to_json() for line in self.models],
                "months": [line.to_json() for line in self.months],
                "days": [line.to_json() for line in self.days]}


def usage_report(source: UsageSource, *, conversation_id: int | None = None,
                 since: date | None = None) -> UsageReport:
    """The report of the store's daily totals, or of one conversation's requests."""
    if conversation_id is None:
        lines = source.days(since)
    else:
        lines = source.of_conversation(conversation_id, since)
    return UsageReport(
        CONVERSATION if conversation_id is not None else DAILY_TOTALS,
        grouped(lines), grouped(lines, period="month"), grouped(lines, period="all"),
        grouped(lines, period="all", by_model=False), since, conversation_id)


class TurnCostSource(UsageSource, Protocol):
    def conversation_totals(self, conversation_id: int) -> list[UsageLine]: ...

    def turn_costs(self, conversation_id: int) -> dict[str, UsageLine]: ...

    def turn_cost(self, conversation_id: int, turn_id: str) -> UsageLine | None: ...


@dataclass(frozen=True, slots=True)
class ConversationCosts:
    """What a conversation's requests used and cost: in all (one line per currency) and
    per turn id of its newest turns (its answer's requests, summary calls, tool rounds
    and title call)."""

    conversation_id: int
    totals: Sequence[UsageLine]
    turns: dict[str, UsageLine]


def conversation_costs(source: TurnCostSource, conversation_id: int) -> ConversationCosts:
    """Read in a bounded number of rows, however long the conversation."""
    totals = source.conversation_totals(conversation_id)
    return ConversationCosts(conversation_id,
                             grouped(totals, period="all", by_model=False),
                             source.turn_costs(conversation_id))
