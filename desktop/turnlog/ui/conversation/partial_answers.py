"""Partial answers, kept on purpose: the banner's *Keep as an incomplete turn* and
*Continue*, and *Continue* on a kept turn.

A send that stopped before its answer was complete (Stop, a cut stream, the output
limit, no finish reason) fails like any other: nothing is saved, the question is back in
the composer, the banner shows the answer so far. With it, two buttons. *Keep* commits
the question and that answer as a turn marked incomplete (a named storage operation);
*Continue* asks the model for the rest through the send session, and only a complete
answer is committed, as one turn (a new version of the kept one, when it was kept). A
continuation that fails again offers the longer answer so far the same way. Nothing is
kept without a click.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication, QObject

from ...core.failures import StoreError
from ...core.model import Conversation
from ...core.send import Failed, PartialAnswer
from ...store import TurnlogStore
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg
from ..infra.operations import announce, keep_incomplete_answer
from ..infra.tasks import TaskRunner
from ..request.live_preview import LivePreview
from ..request.send_session import SendResult, SendSession
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .banner import FailureBanner
from .composer import Composer
from .drafts import DraftKeeper
from .first_send import FirstSendUndo
from .versions import VersionControls

translate = QCoreApplication.translate  # translate("PartialAnswers", …): lupdate reads it


@dataclass(frozen=True, slots=True)
class PartialParts:
    """What Keep and Continue work with: storage, the send session and its preview, the
    banner that offers an answer so far, the composer, drafts and history it lands in, the
    first send and the versions it may hand on to, and how it speaks."""

    store: TurnlogStore
    runner: TaskRunner
    session: SendSession
    preview: LivePreview
    changes: ChangeHub
    banner: FailureBanner
    composer: Composer
    drafts: DraftKeeper
    transcript: TranscriptModel
    view: TranscriptView
    first_send: FirstSendUndo
    versions: VersionControls
    conversation: Callable[[], Conversation | None]  # the open one
    status: Callable[[str], None]  # a line in the status bar
    say_about: Callable[[int, str], None]  # a line about one conversation


class PartialAnswers(QObject):
    """Keep and Continue, listening to the send session after the window showed how a
    send ended."""

    def __init__(self, parts: PartialParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self.offer: PartialAnswer | None = None  # the answer so far the banner offers
        self._result: SendResult | None = None
        parts.session.finished.connect(self._sent)
        parts.banner.keep_requested.connect(self.keep)
        parts.banner.continue_requested.connect(self.continue_offer)
        parts.banner.close_button.clicked.connect(self._dismissed)
        parts.view.delegate.control_clicked.connect(self._clicked)

    def _sent(self, result: SendResult) -> None:
        outcome = result.outcome
        self.offer, self._result = None, None
        if isinstance(outcome, Failed) and outcome.answer is not None:
            self.offer, self._result = outcome.answer, result
            self.parts.banner.offer_partial()

    def _dismissed(self) -> None:
        """Dismiss: the answer so far is let go. A first send's conversation, kept while
        it was offered, goes as after any failed first send."""
        result, self.offer, self._result = self._result, None, None
        if result is not None and isinstance(result.outcome, Failed):
            self.parts.first_send.finished(replace(
                result, outcome=replace(result.outcome, answer=None)))

    def _say(self, text: str, conversation_id: int | None = None) -> None:
        if conversation_id is None:
            self.parts.status(text)
        else:
            self.parts.say_about(conversation_id, text)

    # ------------------------------------------------------------------ keep
    def keep(self) -> None:
        """Keep as an incomplete turn: the question and the answer so far, marked why."""
        parts, offer = self.parts, self.offer
        if offer is None or parts.session.running or parts.composer.held:
            return
        self.offer, self._result = None, None
        parts.banner.offer_partial(False)
        keep_incomplete_answer(parts.store, offer).run(
            parts.runner, on_success=lambda changes: self._kept(offer, changes),
            on_failure=lambda error: self._keep_failed(offer, error))

    def _kept(self, offer: PartialAnswer, changes: Changes) -> None:
        """The turn is in the log: this shows it in the history, and announces the change
        (the conversation as it is now: its title, its place in the list) to the window."""
        parts, turn = self.parts, changes.appended
        assert turn is not None
        parts.banner.dismiss()
        composer = parts.composer
        if composer.text().strip() == offer.question.strip():
            composer.take()  # the question is in the log now
            parts.drafts.saved(offer.conversation_id)
        shown = parts.transcript  # a new version keeps the number of the turn it replaces
        replaced = shown.turns[-1] if offer.replaces is not None and shown.turns else turn
        number = shown.numbers.number(replaced.ordinal)
        self._say(arg(translate("PartialAnswers", "Kept as turn %1, marked incomplete."),
                      str(number)), offer.conversation_id)
        conversation = parts.conversation()
        if conversation is not None and conversation.id == offer.conversation_id:
            if offer.replaces is not None:  # a new version of the turn it was regenerating
                parts.versions.reload(conversation.id, current_newest=True)
            else:
                parts.transcript.commit_pending(parts.transcript.with_turn(turn))
                parts.view.scroll_to_newest()
            parts.preview.forget_last()
        announce(parts.changes, changes, self)

    def _keep_failed(self, offer: PartialAnswer, error: BaseException) -> None:
        """Not kept (a delete meanwhile, a full disk): said, and the answer still offered."""
        banner = self.parts.banner
        banner.show_text(translate("PartialAnswers", "The answer so far was not kept"),
                         str(error), offer.text)
        self.offer = offer
        banner.offer_partial()
        if not isinstance(error, StoreError):  # not a named storage fault: a bug
            sys.excepthook(type(error), error, error.__traceback__)

    # -------------------------------------------------------------- continue
    def continue_offer(self) -> None:
        """Continue the answer the banner offers."""
        if self.offer is not None:
            self.continue_answer(self.offer)

    def _clicked(self, name: str, row: int) -> None:
        """*Continue* in the header of the newest turn, kept incomplete."""
        parts = self.parts
        conversation = parts.conversation()
        if name != "continue" or conversation is None:
            return
        turn = parts.transcript.shown_turn(row)
        if turn is not None and turn.incomplete:
            self.continue_answer(PartialAnswer.of_kept(conversation.id, turn))

    def continue_answer(self, answer: PartialAnswer) -> None:
        """Ask for the rest of `answer` in its (open) conversation; the composer keeps
        what it holds unless that is the question (then it is in the log once answered,
        and back in the box if the continuation fails)."""
        parts = self.parts
        conversation = parts.conversation()
        if conversation is None or conversation.id != answer.conversation_id:
            self._say(translate("PartialAnswers", "Open the answer's conversation to "
                                "continue it."))
            return
        if parts.session.running or parts.composer.held:
            return
        request = parts.preview.parts(conversation)
        if request.endpoint is None or request.budget is None:
            parts.banner.show_text(*(request.problem
                                      or (translate("PartialAnswers", "Cannot send"), "")))
            return
        parts.preview.cancel_warm()
        composer = parts.composer
        if composer.text().strip() == answer.question.strip():
            draft = composer.take()
        else:
            draft = (composer.text(), composer.cursor_position())
        self.offer, self._result = None, None
        parts.banner.dismiss()
        parts.transcript.start_pending(answer.question, answer.attachments)
        parts.transcript.append_pending(answer.text)
        parts.view.scroll_to_newest()
        parts.preview.show_running(request.endpoint)
        parts.session.start(conversation, answer.question, draft, request.endpoint,
                             parts.preview.costs, replaces=answer.replaces, partial=answer,
                             attachments=answer.attachments)
