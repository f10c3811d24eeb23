"""The change bus: every storage operation answers with the `Changes` it made, and one
`ChangeHub` per window publishes them with their origin (the object that started the
operation). Each view refreshes from what changed and skips its own echo; nobody emits on
another object's signal.

The open conversation's state (`OpenState`: the conversation, its newest summary, its
memory, the turn edit and resend makes a new version of) has one owner. Whoever wants it
changed asks on the same bus (`ChangeHub.ask` with an `OpenChange` and its origin); the
owner applies the change before any view hears it, and everyone else only reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Signal

from .deletion_text import counts_text
from .languages import plural

if TYPE_CHECKING:  # what a change names; the first screen loads none of their modules
    from ...core.memory import Memory
    from ...core.model import Conversation, Turn
    from ...core.summaries import StoredSummary
    from ...store.deletion import DeletionCounts


@dataclass(frozen=True, slots=True)
class Changes:
    """What one storage operation changed, for the views that show it."""

    conversation: Conversation | None = None  # a conversation as it is now
    provider: bool = False  # the provider profile in use (or its settings) changed
    created: bool = False  # `conversation` is new
    renamed: bool = False  # `conversation` has a new title
    settings: bool = False  # `conversation`'s limits, system prompt or model changed
    appended: Turn | None = None  # a turn added to the end of `conversation`'s log
    deleted: frozenset[int] = frozenset()  # ids of the conversations deleted
    everything: bool = False  # all history was deleted
    turns_deleted: tuple[str, ...] = ()
    turns_of: int | None = None  # the conversation the deleted turns belonged to
    summary: StoredSummary | None = None  # `turns_of`'s newest summary after the delete
    counts: DeletionCounts | None = None  # what a delete removed
    keys_removed: int | None = None  # API keys removed with all history (None: not asked)
    imported: frozenset[int] = frozenset()  # ids of the conversations an import added
    folders: bool = False  # folders, or which conversation is in one or starred, changed

    @property
    def listing(self) -> bool:
        """Whether the conversation list shows something else now."""
        return self.created or self.renamed or bool(self.deleted) or self.everything \
            or bool(self.imported) or self.folders

    def closes(self, conversation_id: int | None) -> bool:
        """Whether the conversation `conversation_id` (None: none open) is gone."""
        return self.everything or conversation_id in self.deleted

    def message(self) -> str:
        """The status line after a delete ("" for other changes)."""
        if self.counts is None:
            return ""
        text = QCoreApplication.translate("Changes", "Deleted %1.").replace(
            "%1", counts_text(self.counts)
        )
        if self.keys_removed is not None:
            n = self.keys_removed
            text += " " + plural(
                QCoreApplication.translate("Changes", "Removed %n API key(s).", None, n), n
            )
        return text


@dataclass(frozen=True, slots=True)
class OpenChange:
    """A change of the open conversation's state, asked of its owner. Made by the named
    constructors; the fields not named by one stay as they are."""

    opened: bool = False  # `conversation` is the one open now (None: none is)
    conversation: Conversation | None = None
    summary_of: int | None = None  # `summary` is this conversation's newest, as stored
    summary: StoredSummary | None = None
    memory_of: int | None = None  # `memory` is this conversation's, as stored
    memory: Memory | None = None
    editing: tuple[int, str] | None = None  # (conversation, turn) edited and resent now
    edit_left: bool = False  # edit and resend is over (sent, or left with Esc)

    @classmethod
    def opening(cls, conversation: Conversation | None) -> OpenChange:
        """`conversation` opens (the same one again: as it is stored now)."""
        return cls(opened=True, conversation=conversation)

    @classmethod
    def summary_read(cls, conversation_id: int, summary: StoredSummary | None) -> OpenChange:
        return cls(summary_of=conversation_id, summary=summary)

    @classmethod
    def memory_read(cls, conversation_id: int, memory: Memory) -> OpenChange:
        return cls(memory_of=conversation_id, memory=memory)

    @classmethod
    def edit(cls, conversation_id: int, turn_id: str) -> OpenChange:
        """The draft is now a new version of `turn_id` in `conversation_id`."""
        return cls(editing=(conversation_id, turn_id))

    @classmethod
    def leave_edit(cls) -> OpenChange:
        return cls(edit_left=True)


class OpenState(Protocol):
    """The open conversation's state, to read (its owner is the only one to change it)."""

    @property
    def conversation(self) -> Conversation | None: ...

    @property
    def summary(self) -> StoredSummary | None: ...

    @property
    def memory(self) -> Memory: ...

    @property
    def editing(self) -> tuple[int, str] | None: ...

    def turn_for(self, conversation_id: int | None) -> str | None: ...


class ChangeHub(QObject):
    """Where the window's changes are announced: `changed(changes, origin)` after every
    storage operation, `asked(change, origin)` for every change of the open conversation's
    state; `origin` is whoever started it (a view compares it with itself to skip its own
    echo)."""

    changed = Signal(object, object)  # (Changes, origin)
    asked = Signal(object, object)  # (OpenChange, origin)

    def publish(self, changes: Changes, origin: object) -> None:
        """Announce that `origin`'s operation changed `changes`."""
        self.changed.emit(changes, origin)

    def ask(self, change: OpenChange, origin: object) -> None:
        """Ask the owner of the open conversation's state to apply `origin`'s `change`."""
        self.asked.emit(change, origin)
