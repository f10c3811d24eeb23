"""No lost draft: what is typed in the composer is saved per conversation as you type
(debounced, written on the storage worker to a private file, see `store.drafts`),
restored when the conversation opens, removed once it was sent and saved, and with the
conversation when it is deleted. What is typed with no conversation open is kept as the
draft of no conversation (`drafts.NO_CONVERSATION`): restored when the window starts or
returns to no conversation open, carried into the conversation its first send starts,
and removed once that send was saved. The draft's attached files go the same way, kept
in the database (`DraftFiles`, the store) rather than in the draft's file."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ...core.attachments import Attachment
from ...core.model import Conversation
from ...core.outcome import Committed
from ...store.drafts import NO_CONVERSATION
from ..infra import operations
from ..infra.changes import Changes
from ..infra.operations import DraftFiles
from ..infra.tasks import TaskRunner
from .composer import Composer

if TYPE_CHECKING:  # a send's result, handed in when one ends
    from ..request.send_session import SendResult

log = logging.getLogger(__name__)
SAVE_DELAY_MS = 500


class DraftKeeper(QObject):
    """Keeps the composer's text on disk, and its files in `files`, for the conversation
    they were typed and attached in."""

    def __init__(self, home: Path, runner: TaskRunner, composer: Composer,
                 current: Callable[[], Conversation | None], running: Callable[[], bool],
                 parent: QObject | None = None, *, files: DraftFiles | None = None) -> None:
        super().__init__(parent)
        self.home, self.runner, self.composer = home, runner, composer
        self.files = files
        self._files_dirty = False  # attached or removed since the last save
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
        composer.attachments_changed.connect(self._attached)
        self._read(NO_CONVERSATION)  # the window starts with no conversation open

    def _attached(self) -> None:
        if not self._quiet and not self.composer.busy:
            self._files_dirty = True

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
        self._run(operations.save_draft(self.home, self._owner, self.composer.text()))
        if self._files_dirty and self.files is not None:
            self._files_dirty = False
            self._run(operations.save_draft_files(self.files, self._owner,
                                                  self.composer.attachments))

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
            self._set_files(())
        self._owner = cid
        if unowned and cid != NO_CONVERSATION and (self.composer.text().strip()
                                                   or self.composer.attachments):
            self._carried = True  # typed with nothing open: it belongs to this one now
            self._dirty = True
            self._files_dirty = bool(self.composer.attachments)
            self._timer.start()
        self._read(cid)

    def _read(self, cid: int) -> None:
        if self.runner.closed:
            return
        operations.read_draft(self.home, cid).run(
            self.runner, on_success=lambda text: self._restore(cid, text), on_failure=_bug)
        files = self.files
        if files is not None:
            operations.read_draft_files(files, cid).run(
                self.runner, on_success=lambda found: self._restore_files(cid, found),
                on_failure=_bug)

    def _restore_files(self, conversation_id: int, found: tuple[Attachment, ...]) -> None:
        if self._owner != conversation_id or self.composer.busy or not found:
            return
        if conversation_id == NO_CONVERSATION and self._current() is not None:
            return
        if not self.composer.attachments:
            self._set_files(found)

    def _set_files(self, files: tuple[Attachment, ...]) -> None:
        self._quiet = True
        try:
            self.composer.set_attachments(files)
        finally:
            self._quiet = False

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
            self._dirty = self._files_dirty = False
        self._run(operations.remove_draft(self.home, conversation_id))
        self._forget_files(conversation_id)
        if self._carried:  # saved where it was carried: the draft of none goes too
            self._carried = False
            self._run(operations.remove_draft(self.home, NO_CONVERSATION))
            self._forget_files(NO_CONVERSATION)

    def _forget_files(self, conversation_id: int) -> None:
        if self.files is not None:
            self._run(operations.save_draft_files(self.files, conversation_id, ()))

    def forget(self, changes: Changes) -> None:
        """Conversations were deleted: so are their drafts (after any save queued before)."""
        if changes.everything:
            self._timer.stop()
            self._dirty = self._carried = False
            self._run(operations.remove_all_drafts(self.home))
        for cid in changes.deleted:
            if self._owner == cid:
                self._timer.stop()
                self._dirty = False
                self._owner = None
            self._run(operations.remove_draft(self.home, cid))

    def _run(self, op: operations.StorageOp[None]) -> None:
        """Keep or forget a draft on the storage lane (a fault of the disk or the store is
        logged there: a draft is a convenience; anything else is a bug)."""
        if not self.runner.closed:
            op.run(self.runner, on_success=lambda _none: None, on_failure=_bug)


def _bug(error: BaseException) -> None:
    raise error  # not the environment: for the crash report
