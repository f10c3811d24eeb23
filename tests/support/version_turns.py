"""Turns pending commit, to make versions of."""

from __future__ import annotations

from datetime import UTC, datetime

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn

STAMP = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def pending(turn_id: str, question: str, answer: str, replaces: str | None = None
            ) -> PendingTurn:
    return PendingTurn(id=turn_id, question=question, answer=answer, model="m",
                       finish_reason="stop", usage=Usage(), created_at=STAMP,
                       replaces=replaces)
