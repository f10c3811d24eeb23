"""The change bus: every storage operation answers with the `Changes` it made, and one
`ChangeHub` per window publishes them with their origin (the object that started the
operation). Each view refreshes from what changed and skips its own echo; nobody emits on
another object's signal.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Signal

from ...core.compaction import StoredSummary
from ...core.model import Conversation, Turn
from ...store.deletion import DeletionCounts
from .deletion_text import counts_text
from .languages import plural


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

    @property
    def listing(self) -> bool:
        """Whether the conversation list shows something else now."""
        return self.created or self.renamed or bool(self.deleted) or self.everything \
            or bool(self.imported)

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


class ChangeHub(QObject):
    """Where the window's storage changes are announced: `changed(changes, origin)` after
    every operation, `origin` being whoever started it (a view compares it with itself to
    skip its own echo)."""

    changed = Signal(object, object)  # (Changes, origin)

    def publish(self, changes: Changes, origin: object) -> None:
        """Announce that `origin`'s operation changed `changes`."""
        self.changed.emit(changes, origin)
