"""Send with no conversation open starts one for the question (`start`), titled after it
once it is answered; the question is sent when it has loaded (`ready`).

A first send that failed leaves no conversation behind: the conversation Send started
for a question typed with none open, still without a turn, is deleted (on the storage
worker) and closed, and the question stays in the composer, kept on disk as the draft of
no conversation (`drafts.NO_CONVERSATION`) until it is sent and saved. While the banner
offers its answer so far (Keep, Continue: `partial_answers`), the conversation stays for
them; dismissing that offer removes it then."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject

from ...core.outcome import Committed
from ..infra.changes import Changes
from ..infra.open_log import OpenLog
from ..infra.operations import (
    announce,
    create_conversation,
    remove_unanswered_conversation,
)
from ..request.send_session import SendResult, SendSession
from .banner import FailureBanner
from .composer import Composer

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FirstSendParts:
    """What a first send works with: storage, the send session it listens to, the
    composer and banner whose question and failure stay on show, and the open
    conversation."""

    log: OpenLog
    session: SendSession
    composer: Composer
    banner: FailureBanner
    default_model: Callable[[], str]  # the model a new conversation starts with
    failed: Callable[[BaseException], None]  # a storage operation failed


class FirstSendUndo(QObject):
    """Listens to the send session (after the window showed how the send ended)."""

    def __init__(self, parts: FirstSendParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self._kept = ""  # the question saved as the draft of no conversation
        # The conversation a send waits for (-1 while it is being created), when Send was
        # pressed with no conversation open.
        self.waiting: int | None = None
        parts.session.finished.connect(self.finished)

    def start(self, text: str) -> None:
        """Start a conversation for `text` (none is open); it is sent once loaded, so
        loading cannot replace the pending row."""
        if not text.strip() or self.waiting is not None:
            return
        parts = self.parts

        def created(changes: Changes) -> None:
            assert changes.conversation is not None
            self.waiting = changes.conversation.id
            announce(parts.log.changes, changes, self)

        def failed(error: BaseException) -> None:
            self.waiting = None
            parts.failed(error)

        self.waiting = -1  # creating
        create_conversation(parts.log.store, parts.default_model(),
                            first_send=True).run(parts.log.runner, on_success=created,
                                                 on_failure=failed)

    def ready(self, conversation_id: int) -> bool:
        """Whether `conversation_id`, just loaded, is the one a question waits for."""
        if self.waiting != conversation_id:
            return False
        self.waiting = None
        return True

    def finished(self, result: SendResult) -> None:
        """A send failed: if its conversation was started for it and has no turn, the
        question is kept as the draft of no conversation and the conversation goes."""
        parts = self.parts
        if isinstance(result.outcome, Committed) or parts.log.runner.closed:
            return
        if result.outcome.answer is not None:
            return  # its answer so far is offered: kept or continued into the conversation
        store, cid = parts.log.store, result.conversation_id
        text = self._kept = parts.composer.text() or result.draft[0]

        remove_unanswered_conversation(store, cid, text).run(
            parts.log.runner, on_success=self._removed, on_failure=parts.failed)

    def _removed(self, changes: Changes) -> None:
        """Close the deleted conversation; the question and the failure stay on show."""
        if not changes.deleted:
            return
        parts = self.parts
        composer, banner = parts.composer, parts.banner
        draft = (composer.text(), composer.cursor_position())
        failure, partial = banner.failure, banner.partial.toPlainText()
        shown = banner.isVisible()
        announce(parts.log.changes, changes, self)
        if parts.log.conversation() is not None:
            return  # another conversation was opened meanwhile: the draft waits on disk
        if composer.text() != draft[0]:
            composer.restore(*draft)
        if composer.text() != self._kept:
            composer.announce_draft()  # typed since: kept as the draft of none too
        if shown and failure is not None:
            banner.show_failure(failure, partial)
