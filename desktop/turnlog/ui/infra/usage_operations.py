"""What was used and spent, read and forgotten: one named operation each, on the storage
lane (`operations.StorageOp`)."""

from __future__ import annotations

from datetime import date

from ...core.cost import UsageLine
from ...service.usage import ConversationCosts, UsageReport, conversation_costs, usage_report
from ...store import TurnlogStore
from .operations import StorageOp


def read_conversation_costs(store: TurnlogStore, conversation_id: int
                            ) -> StorageOp[ConversationCosts]:
    """A conversation's cost in all and per turn (its request records)."""
    return StorageOp("read the conversation's costs",
                     lambda: conversation_costs(store.usage, conversation_id))


def read_turn_cost(store: TurnlogStore, conversation_id: int, turn_id: str
                   ) -> StorageOp[UsageLine | None]:
    """What one turn's answer used and cost, however old the turn (its records)."""
    return StorageOp("read a turn's cost",
                     lambda: store.usage.turn_cost(conversation_id, turn_id))


def read_usage(store: TurnlogStore, since: date | None = None) -> StorageOp[UsageReport]:
    """The daily totals (deleted conversations' spend included), per day and month."""
    return StorageOp("read usage", lambda: usage_report(store.usage, since=since))


def forget_usage_totals(store: TurnlogStore) -> StorageOp[int]:
    """Forget the daily totals; conversations and their records stay."""
    return StorageOp("forget the usage totals", store.usage.forget_all)
