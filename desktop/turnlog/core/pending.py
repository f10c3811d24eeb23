"""What is about to enter the log: a complete reply about to be appended (`core.send`
makes it; `store.turns` commits it). The question is checked before it is sent
(`failures.check_question`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from .model import Usage

if TYPE_CHECKING:  # a turn's files and tool exchange: loaded with the first one made or read
    from .attachments import Attachment
    from .tools import ToolRound


@dataclass(frozen=True, slots=True)
class PendingTurn:
    """A complete reply about to be appended. `id` is client-generated: committing it
    twice stores it once."""

    id: str
    question: str
    answer: str
    model: str
    finish_reason: str
    usage: Usage
    created_at: datetime
    generation: int | None = None
    # A new version of the last turn: committed with a record that it replaces this turn.
    replaces: str | None = None
    reasoning: str = ""
    # Kept by the person although incomplete: why (`core.partial`); None for a reply that
    # passed `validate_reply`.
    incomplete: str | None = None
    # The question's files, stored with the turn in the same transaction.
    attachments: tuple[Attachment, ...] = ()
    # The tool exchange that led to the answer, committed with it in one transaction.
    tools: tuple[ToolRound, ...] = ()
