"""Which turn a new version acts on: Regenerate, Edit and resend and Continue make a new
version of the newest turn of the active line, never of an older one (forking from an
older turn is its own act)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.attachments import Attachment
from ..core.model import Turn
from ..core.send import PartialAnswer

REGENERATE = "regenerate"
EDIT = "edit"
CONTINUE = "continue"


class PagedLine(Protocol):
    """The turns part of a store (`store.turns`), as a new version reads it."""

    def log(self, conversation_id: int) -> Sequence[Turn]: ...


class ActiveLine(Protocol):
    """Where the active line of a conversation is read (`TurnlogStore` is one)."""

    @property
    def turns(self) -> PagedLine: ...


class NothingToVersion(Exception):
    """The conversation has no turn a new version can be made of, in plain words."""


@dataclass(frozen=True, slots=True)
class NewVersion:
    """A new version of `turn`: the question it asks, its files, and with Continue the
    partial answer it asks the rest of."""

    turn: Turn
    question: str
    attachments: tuple[Attachment, ...]
    partial: PartialAnswer | None = None


def newest_turn(store: ActiveLine, conversation_id: int) -> Turn | None:
    """The newest turn of the active line (one page read, however long the log)."""
    line = store.turns.log(conversation_id)
    return line[len(line) - 1] if len(line) else None


def new_version(store: ActiveLine, conversation_id: int, act: str, question: str = "",
                attachments: Sequence[Attachment] = ()) -> NewVersion:
    """The new version `act` (REGENERATE, EDIT with `question`, CONTINUE) makes of the
    newest turn; a new version asks with that turn's files unless given others. Raises
    `NothingToVersion`."""
    last = newest_turn(store, conversation_id)
    if last is None:
        raise NothingToVersion("This conversation has no turn to make a new version of.")
    if act == CONTINUE and not last.incomplete:
        raise NothingToVersion("The last turn is complete: there is nothing to continue.")
    partial = PartialAnswer.of_kept(conversation_id, last) if act == CONTINUE else None
    asked = question if act == EDIT else last.question
    return NewVersion(last, asked, tuple(attachments) or last.attachments, partial)
