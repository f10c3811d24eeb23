"""Edit and resend, as the send session sees it: which turn a send makes a new version of.

The version controls start and leave editing by asking the owner of the open
conversation's state (`OpenChange.edit`, `OpenChange.leave_edit`); the send session and
the live preview only ask that owner which turn is edited. Nobody keeps a copy, so they
cannot disagree.
"""

from __future__ import annotations

from typing import Protocol


class EditedTurn(Protocol):
    """Which turn, if any, the draft is a new version of."""

    def turn_for(self, conversation_id: int | None) -> str | None:
        """The turn a send in `conversation_id` makes a new version of, if it is edited."""
        ...
