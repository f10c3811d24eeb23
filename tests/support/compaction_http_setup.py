"""A long conversation seeded for compaction over the loopback server."""

from __future__ import annotations

from datetime import UTC, datetime

from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore

# ------------------------------------------------------- the preview is the body
ANSWER = "Answer: " + "plant the tulips along the fence, then water them " * 4


def long_seed(store: TurnlogStore, n: int, settings: ConversationSettings | None = None):
    """`n` turns of about 430 bytes, imported in one go; the first three state key facts."""
    facts = [("Never delete the backups. Keep that in mind for every plan.", "Understood."),
             ("We are on build 4.2.17 of the installer.", "Noted, build 4.2.17."),
             ("Our tracking ticket is ORCHID-17.", "Got it: ORCHID-17.")]
    pairs = facts + [(f"Question {i}: " + "tell me more about the garden plans " * 5, ANSWER)
                     for i in range(len(facts) + 1, n + 1)]
    conv = store.conversations.create("replay", model="loopback-model",
                                      settings=settings or ConversationSettings())
    store.turns.commit_many(conv.id, [
        PendingTurn(f"r{conv.id}-{i}", q, a, "loopback-model", "stop", Usage(),
                    datetime.now(UTC)) for i, (q, a) in enumerate(pairs, start=1)])
    return store.conversations.get(conv.id)
