"""Shared set-up for the window tests: a real store in the test's data directory,
seeded through the store's own append path."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from turnlog.cli.log_commands import export_lines
from turnlog.core.model import Conversation, ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore


def seed(
    store: TurnlogStore,
    title: str,
    pairs: Iterable[tuple[str, str]],
    *,
    model: str = "loopback-model",
    system_prompt: str = "",
    settings: ConversationSettings | None = None,
) -> Conversation:
    conversation = store.create_conversation(
        title, model=model, system_prompt=system_prompt, settings=settings
    )
    pending = [
        PendingTurn(uuid.uuid4().hex, q, a, model, "stop", Usage(), datetime.now(UTC))
        for q, a in pairs
    ]
    if pending:
        store.import_turns(conversation.id, pending)
    return store.conversation(conversation.id)


def exported(home: Path, conversation_id: int) -> list[str]:
    """The conversation as `turnlog-cli export` prints it, read through a fresh
    read-only open of the database file (what is on disk, not a cache)."""
    with TurnlogStore.open(home, readonly=True) as reader:
        conversation = reader.conversation(conversation_id)
        return export_lines(conversation, reader.turns(conversation_id))


def numbered(count: int, *, size: int = 40) -> Sequence[tuple[str, str]]:
    return [(f"question {i} " + "q" * size, f"answer {i} " + "a" * size)
            for i in range(1, count + 1)]
