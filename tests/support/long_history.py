"""A long conversation, and which of its turns are on screen."""

from __future__ import annotations

import uuid

from turnlog.core.model import ConversationSettings
from turnlog.store import TurnlogStore
from turnlog.ui.transcript.model import Role

GAP_EVERY = 997  # every 997th ordinal is missing, as after deletes


def long_ordinals(count: int, gaps: bool = True) -> list[int]:
    """`count` ordinals from 1 up, with a gap every `GAP_EVERY` unless not `gaps`."""
    ordinals: list[int] = []
    ordinal = 0
    while len(ordinals) < count:
        ordinal += 1
        if ordinal % GAP_EVERY or not gaps:
            ordinals.append(ordinal)
    return ordinals


def seed_long(store: TurnlogStore, title: str, count: int, *, compaction: bool = False,
              gaps: bool = True) -> tuple[int, list[int]]:
    """A conversation of `count` turns written in one transaction (rows like the store's
    own, many at once: committing them one by one would take the test minutes)."""
    # A byte limit that sends the newest ~12 turns: fewer than a page of rows.
    conversation = store.conversations.create(
        title, model="loopback-model",
        settings=ConversationSettings(compaction=compaction, max_bytes=1_200))
    ordinals = long_ordinals(count, gaps)
    stamp = "2026-01-02T03:04:05.000006+00:00"
    rows = ((uuid.uuid4().hex, conversation.id, o, f"question {o}", f"answer {o}",
             "loopback-model", "stop", stamp) for o in ordinals)
    with store.db.atomic():
        store.db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        store.db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                             (ordinals[-1] + 1, conversation.id))
    return conversation.id, ordinals


def newest_on_screen(window, ordinal: int) -> bool:  # noqa: ANN001
    model = window.transcript
    rows = model.rowCount()
    if not rows or model.index(rows - 1).data(Role.ORDINAL) != ordinal:
        return False
    rect = window.view.visualRect(model.index(rows - 1))
    return window.view.viewport().rect().intersects(rect)
