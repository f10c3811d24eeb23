"""Turns pending commit, to make versions of."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn

STAMP = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def pending(turn_id: str, question: str, answer: str, replaces: str | None = None
            ) -> PendingTurn:
    return PendingTurn(id=turn_id, question=question, answer=answer, model="m",
                       finish_reason="stop", usage=Usage(), created_at=STAMP,
                       replaces=replaces)


def numbered_pair(i: int, question_fill: int = 180, answer_fill: int = 180) -> tuple[str, str]:
    """Turn `i`'s question and answer, numbered and padded to a steady size."""
    return f"question {i}: " + "q" * question_fill, f"answer {i}: " + "a" * answer_fill


def fresh(question: str, answer: str, replaces: str | None = None) -> PendingTurn:
    """A turn answered just now by the loopback server's model, with a new id."""
    return PendingTurn(uuid.uuid4().hex, question, answer, "loopback-model", "stop", Usage(),
                       datetime.now(UTC), replaces=replaces)
