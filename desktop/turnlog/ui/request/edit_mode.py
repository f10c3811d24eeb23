"""Edit and resend's one piece of state: which turn the draft is a new version of.

The version controls start and leave it; the send session (the next send there commits a
new version of that turn) and the live preview (it previews the turns before it) ask it.
Nobody keeps a copy, so the three cannot disagree.
"""

from __future__ import annotations


class EditMode:
    """The turn being edited, as (conversation id, turn id), or none."""

    def __init__(self) -> None:
        self._editing: tuple[int, str] | None = None

    @property
    def editing(self) -> tuple[int, str] | None:
        return self._editing

    def start(self, conversation_id: int, turn_id: str) -> None:
        """The draft is now a new version of `turn_id` in `conversation_id`."""
        self._editing = (conversation_id, turn_id)

    def leave(self) -> None:
        self._editing = None

    def turn_for(self, conversation_id: int | None) -> str | None:
        """The turn a send in `conversation_id` makes a new version of, if it is edited."""
        editing = self._editing
        return editing[1] if editing is not None and editing[0] == conversation_id else None
