"""No lost draft: what is typed in the composer is saved per conversation as you type
(debounced, written on the storage worker to a private file, see `store.drafts`),
restored when the conversation opens, removed once it was sent and saved, and with the
conversation when it is deleted. What is typed with no conversation open is kept as the
draft of no conversation (`drafts.NO_CONVERSATION`): restored when the window starts or
returns to no conversation open, carried into the conversation its first send starts,
and removed once that send was saved."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from ...core.model import Conversation
from ...core.send import Committed
from ...store import drafts
from ...store.drafts import NO_CONVERSATION
from ..infra.changes import Changes
from ..infra.tasks import TaskContext, TaskRunner
from ..request.send_session import SendResult
from .composer import Composer

log = logging.getLogger(__name__)
SAVE_DELAY_MS = 500


class DraftKeeper(QObject):
    """Keeps the composer's text on disk for the conversation it was typed in."""

    def __init__(self, home: Path, runner: TaskRunner, composer: Composer,
                 current: Callable[[], Conversation | None], running: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home, self.runner, self.composer = home, runner, composer
        self._current, self._running = current, running
        # The conversation the composer's text belongs to (NO_CONVERSATION: none open).
        self._owner: int | None = NO_CONVERSATION
        self._quiet = False  # set while the text is changed here, not typed
        self._dirty = False  # typed since the last save
        self._carried = False  # the draft of no conversation went into one: kept until sent
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        composer.draft_changed.connect(self._edited)
        self._read(NO_CONVERSATION)  # the window starts with no conversation open

    def _edited(self) -> None:
        if self._quiet or self.composer.busy:
            return
        conversation = self._current()
        self._owner = NO_CONVERSATION if conversation is None else conversation.id
        self._dirty = True
        self._timer.start()

    def flush(self) -> None:
        """Write the pending draft now (not while a send holds the question: the last
        saved draft stays until the answer is saved)."""
        self._timer.stop()
        if self._owner is None or not self._dirty or self._running() or self.runner.closed:
            return
        self._dirty = False
        self._on_storage("save the draft", drafts.save_draft, self._owner,
                         self.composer.text())

    def opened(self, conversation: Conversation | None) -> None:
        """A conversation was opened (None: closed): the last one's text is saved and
        leaves the composer; this one's kept draft comes back."""
        previous = self._owner
        if self._timer.isActive():
            self.flush()
        cid = NO_CONVERSATION if conversation is None else conversation.id
        unowned = previous in (None, NO_CONVERSATION)
        if not unowned and cid != previous:
            self._set_text("")
        self._owner = cid
        if unowned and cid != NO_CONVERSATION and self.composer.text().strip():
            self._carried = True  # typed with nothing open: it belongs to this one now
            self._dirty = True
            self._timer.start()
        self._read(cid)

    def _read(self, cid: int) -> None:
        if self.runner.closed:
            return
        self.runner.run(TaskRunner.STORAGE, "read the draft",
                        lambda _context: drafts.load_draft(self.home, cid),
                        on_success=lambda text: self._restore(cid, text),
                        on_failure=_bug)

    def _restore(self, conversation_id: int, text: str) -> None:
        if self._owner != conversation_id or self.composer.busy or not text:
            return
        if conversation_id == NO_CONVERSATION and self._current() is not None:
            return
        if not self.composer.text():
            self._set_text(text)

    def _set_text(self, text: str) -> None:
        self._quiet = True
        try:
            self.composer.set_draft(text)
        finally:
            self._quiet = False
        self.composer.announce_draft()  # the preview follows; the keeper ignores it
        self._timer.stop()

    def sent(self, result: SendResult) -> None:
        """The answer was saved: the question is in the log, its draft goes."""
        if isinstance(result.outcome, Committed):
            self.saved(result.conversation_id)

    def saved(self, conversation_id: int) -> None:
        """The question is in the log of `conversation_id` (answered, or its answer so far
        kept): its draft goes."""
        if self._owner == conversation_id:
            self._timer.stop()
            self._dirty = False
        self._on_storage("remove the draft", drafts.remove_draft, conversation_id)
        if self._carried:  # saved where it was carried: the draft of none goes too
            self._carried = False
            self._on_storage("remove the draft", drafts.remove_draft, NO_CONVERSATION)

    def forget(self, changes: Changes) -> None:
        """Conversations were deleted: so are their drafts (after any save queued before)."""
        if changes.everything:
            self._timer.stop()
            self._dirty = self._carried = False
            self._on_storage("remove the drafts", drafts.remove_all_drafts)
        for cid in changes.deleted:
            if self._owner == cid:
                self._timer.stop()
                self._dirty = False
                self._owner = None
            self._on_storage("remove the draft", drafts.remove_draft, cid)

    def _on_storage(self, name: str, fn: Callable[..., None], *args: object) -> None:
        if self.runner.closed:
            return
        home = self.home

        def work(_context: TaskContext) -> None:
            try:
                fn(home, *args)
            except OSError as err:  # a draft is a convenience: never a failure
                log.warning("Could not %s: %s", name, err)

        self.runner.run(TaskRunner.STORAGE, name, work, on_success=lambda _none: None,
                        on_failure=_bug)


def _bug(error: BaseException) -> None:
    raise error  # not the environment: for the crash report
