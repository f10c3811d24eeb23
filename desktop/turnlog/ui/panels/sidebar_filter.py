"""What the sidebar lists for the text in its search box (in the folder chosen): the
conversations whose title holds it at once (a small query, on the GUI
thread), and those whose turns match it a moment later, from a full-text search on the
storage worker (on a large log it takes longer than a keystroke should). An answer for a
text that has changed since is dropped."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QObject, Signal

from ...core.model import Conversation
from ...store import TurnlogStore
from ..infra import operations
from ..infra.tasks import TaskRunner

log = logging.getLogger(__name__)


class ConversationFilter(QObject):
    """`conversations(text)` is the list to show now; `found` brings the full list (titles
    and text) for the newest text asked, once the storage worker has it."""

    found = Signal(object)  # list[Conversation]
    failed = Signal(str)  # what went wrong, for the window's banner

    def __init__(self, store: TurnlogStore, runner: TaskRunner,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.runner = store, runner
        self._asked = 0  # the newest request; an older one's answer is dropped
        self.pending = False  # a content search for the newest text is on its way

    def conversations(self, text: str, folder: int | None = None) -> Sequence[Conversation]:
        """Every conversation (no text), or those whose title holds `text`, with a search
        of their turns started on the storage worker; `folder`: only those in it (0: in
        none)."""
        self._asked += 1
        asked = self._asked
        if not text or self.runner.closed:
            self.pending = False
            return self.store.conversations.listing(text, folder=folder)
        store = self.store
        self.pending = True
        operations.filter_conversations(store, text, folder).run(
            self.runner, on_success=lambda found: self._arrived(asked, found),
            on_failure=lambda error: self._failed(asked, error))
        return store.conversations.listing(text, content=False, folder=folder)

    def _arrived(self, asked: int, found: list[Conversation]) -> None:
        if asked != self._asked:
            return  # the text changed since: its own answer is on its way
        self.pending = False
        self.found.emit(found)

    def _failed(self, asked: int, error: BaseException) -> None:
        log.warning("searching the conversations' text failed: %s", error)
        if asked == self._asked:
            self.pending = False
            self.failed.emit(QCoreApplication.translate(
                "ConversationFilter", "Could not search the conversations' text: {error}"
            ).format(error=error))
