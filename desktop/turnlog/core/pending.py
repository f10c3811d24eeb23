"""What is about to enter the log: a question checked before it is sent, and a complete
reply about to be appended (`core.send` makes it; `store.turns` commits it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from .failures import Failure, FailureKind
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



def check_question(question: str) -> Failure | None:
    """Refuse blank questions and text that cannot be encoded as UTF-8 (a lone surrogate)."""
    if not question.strip():
        return Failure(FailureKind.BLANK_QUESTION, hint="Type a question first")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as err:
        return Failure(
            FailureKind.INVALID_TEXT,
            detail=f"character {err.start + 1} is half of a broken character pair (a lone "
            f"surrogate, often left by a bad paste)",
            hint="Delete or retype that character and send again",
        )
    return None
