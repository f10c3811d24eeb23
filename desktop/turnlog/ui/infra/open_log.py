"""What a feature works on the open conversation's log with, as one small part."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.model import Conversation
from ...store import TurnlogStore
from .changes import ChangeHub, OpenState
from .tasks import TaskRunner


@dataclass(frozen=True, slots=True)
class OpenLog:
    """The store, the runner whose storage lane works on it, the change bus (where storage
    changes are announced and changes of the open conversation's state asked), and that
    state, to read."""

    store: TurnlogStore
    runner: TaskRunner
    changes: ChangeHub
    state: OpenState

    def conversation(self) -> Conversation | None:
        """The open conversation (None: none is)."""
        return self.state.conversation
