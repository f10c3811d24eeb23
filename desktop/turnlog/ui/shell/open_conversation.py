"""The open conversation's state, with its one owner.

`OpenConversation` holds the conversation open in the window, its newest stored summary,
its memory (pins, notes, preferences as the preview and a send carry them) and the turn
edit and resend makes a new version of. It changes them only from the change bus: what
others ask (`ChangeHub.ask`, an `OpenChange` with its origin) and what storage
operations announce (`ChangeHub.publish`: the open conversation as saved now, the newest
summary after a delete). It hears the bus before any view does (the window makes it
first), so a view refreshing from a change reads the state that change made.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from ...core.memory import NO_MEMORY, Memory
from ...core.model import Conversation
from ...core.summaries import StoredSummary
from ..infra.changes import ChangeHub, Changes, OpenChange


class OpenConversation(QObject):
    """The conversation open in one window and what goes with it (`OpenState`)."""

    def __init__(self, hub: ChangeHub, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._conversation: Conversation | None = None
        self._summary: StoredSummary | None = None
        self._memory: Memory = NO_MEMORY
        self._editing: tuple[int, str] | None = None
        hub.asked.connect(self._asked)
        hub.changed.connect(self._stored)

    # ------------------------------------------------------------------- reading
    @property
    def conversation(self) -> Conversation | None:
        return self._conversation

    @property
    def summary(self) -> StoredSummary | None:
        return self._summary

    @property
    def memory(self) -> Memory:
        return self._memory

    @property
    def editing(self) -> tuple[int, str] | None:
        return self._editing

    @property
    def open_id(self) -> int | None:
        return self._conversation.id if self._conversation is not None else None

    def turn_for(self, conversation_id: int | None) -> str | None:
        """The turn a send in `conversation_id` makes a new version of, if it is edited."""
        editing = self._editing
        return editing[1] if editing is not None and editing[0] == conversation_id else None

    # ------------------------------------------------------------------ applying
    def _asked(self, change: OpenChange, _origin: object) -> None:
        if change.opened:
            opened = change.conversation
            if opened is None or opened.id != self.open_id:  # nothing of the last one stays
                self._summary, self._memory = None, NO_MEMORY
            self._conversation = opened
        open_id = self.open_id
        if change.summary_of is not None and change.summary_of == open_id:
            self._summary = change.summary
        if change.memory_of is not None and change.memory_of == open_id \
                and change.memory is not None:
            self._memory = change.memory
        if change.editing is not None:
            self._editing = change.editing
        elif change.edit_left:
            self._editing = None

    def _stored(self, changes: Changes, _origin: object) -> None:
        """A storage operation's changes: the open conversation as saved now, its newest
        summary after some of its turns were deleted. (Closing one that was deleted is the
        window's to ask, after it let go of what it showed.)"""
        open_id, changed = self.open_id, changes.conversation
        if changed is not None and changed.id == open_id and not changes.closes(open_id):
            self._conversation = changed
        if changes.turns_deleted and changes.turns_of is not None \
                and changes.turns_of == open_id:
            self._summary = changes.summary
