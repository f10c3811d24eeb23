"""What an import brings in, before the store writes it: conversations read from a file
(Turnlog's JSON lines, a ChatGPT export), each with its turns and what was left out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .pending import PendingTurn
from .side_records import SideQuestion

SOURCE_NAMES = {"chatgpt": "ChatGPT"}


def source_name(source: str) -> str:
    """How an import's source is named to a person ("ChatGPT")."""
    return SOURCE_NAMES.get(source, source)


class ImportProblem(ValueError):
    """A file that cannot be imported, said in words a person can act on."""


class ImportCancelled(Exception):
    """The person cancelled an import; the transaction is rolled back."""


@dataclass(frozen=True, slots=True)
class ImportedTurn:
    """A turn as the file has it; `ordinal` when the file numbers its turns."""

    pending: PendingTurn
    ordinal: int | None = None


@dataclass(slots=True)
class ImportedConversation:
    """One conversation read from a file.

    `source_ids`: the turn ids come from the source (a ChatGPT message id), so a
    re-import finds what it already brought in and adds only what is new. Otherwise the
    ids are the file's own (a Turnlog export): kept where free, a fresh one where taken.
    A turn id of `""` gets a fresh one when written. `turns` may be a one-shot iterable
    read from the file as it is written, so a long
    conversation never sits in memory whole.
    """

    title: str
    system_prompt: str
    model: str
    turns: Iterable[ImportedTurn]
    created_at: datetime | None = None
    updated_at: datetime | None = None
    settings: dict[str, Any] | None = None
    next_ordinal: int | None = None
    source_ids: bool = False
    skipped: Counter[str] = field(default_factory=Counter)
    # Turn id → the id of the turn that replaced it (versions), as the file has them;
    # complete once `turns` has been read through.
    superseded_by: dict[str, str] = field(default_factory=dict)
    # The conversation's memory as an export's header has it (pins with the file's turn
    # ids as sources, notes, preferences), and its side questions, read after its turns.
    memory: dict[str, list[dict[str, Any]]] | None = None
    side_questions: list[SideQuestion] = field(default_factory=list)
    # Where a conversation from elsewhere comes from ("chatgpt") and the model it had
    # there: provenance, never its `model` (a request names the profile's model, or one
    # the user picks). A Turnlog file gives back its conversation's own chosen model.
    source: str = ""
    source_model: str = ""


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What happened to one conversation: `id` is None when nothing was stored (every
    turn was skipped)."""

    id: int | None
    title: str
    turns: int
    skipped: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "turns": self.turns,
                "skipped": [{"reason": r, "count": n} for r, n in self.skipped]}

    def describe(self) -> str:
        where = f"conversation {self.id}" if self.id is not None else "not imported"
        line = f"{where}: {self.title} — {self.turns:,} turns imported"
        if self.skipped:
            line += "; skipped: " + "; ".join(f"{r}: {n:,}" for r, n in self.skipped)
        return line
