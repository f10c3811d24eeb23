"""A store seeded for compaction, a sender scripted per request, and summaries kept in memory."""

from __future__ import annotations

from datetime import UTC, datetime

from turnlog.core.budget import Budget
from turnlog.core.compaction import (
    Compactor,
)
from turnlog.core.model import Conversation, ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import PendingTurn, Sender, SendRequest
from turnlog.store import TurnlogStore


class MemorySummaries:
    """In-memory `SummaryStore` for the property tests (the SQLite one is tested below)."""

    def __init__(self) -> None:
        self.rows: list = []

    def latest_summary(self, conversation_id):
        return self.rows[-1] if self.rows else None

    def save_summary(self, conversation_id, draft):
        from turnlog.core.compaction import StoredSummary

        stored = StoredSummary(
            len(self.rows) + 1, conversation_id, draft.first_ordinal, draft.last_ordinal,
            len(draft.covered_turn_ids), draft.covered_digest, draft.content, draft.model,
            draft.settings_key, datetime.now(UTC), len(draft.content.encode()),
            draft.content_tokens, draft.usages, draft.warnings)
        self.rows.append(stored)
        return stored


def seed(store: TurnlogStore, n: int, size: int = 300, texts=None) -> Conversation:
    conv = store.conversations.create("c", model="m", settings=ConversationSettings(
        max_bytes=12_000, context_window=32_768, output_reserve=1024))
    for i in range(1, n + 1):
        q, a = texts[i - 1] if texts and i <= len(texts) else (
            f"question {i} " + "q" * size, f"answer {i} " + "a" * size)
        store.turns.commit(conv.id, PendingTurn(f"{conv.id}-t{i}", q, a, "m", "stop", Usage(),
                                                datetime.now(UTC)))
    return conv


def sender_for(store, endpoint, **kw) -> Sender:
    costs = CostIndex()
    return Sender(store, endpoint, costs=costs,
                  compactor=Compactor(store.records, endpoint, costs=costs, **kw))


def request(conv: Conversation, question: str = "and now?") -> SendRequest:
    return SendRequest(conv, question, "m", Budget.from_settings(conv.settings))
