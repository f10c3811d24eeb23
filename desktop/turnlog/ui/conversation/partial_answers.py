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
from ...core.outcome import Failed
from ...core.send_request import PartialAnswer
from ..infra.changes import Changes
from ..infra.languages import arg
from ..infra.languages import number as grouped
from ..infra.open_log import OpenLog
from ..infra.operations import announce, keep_incomplete_answer
from ..request.send_session import SendResult
from .drafts import DraftKeeper
from .first_send import FirstSendUndo
from .parts import HistoryParts, SendParts
from .versions import VersionControls

translate = QCoreApplication.translate  # translate("PartialAnswers", …): lupdate reads it


@dataclass(frozen=True, slots=True)
class HandOff:
    """What a kept or continued answer is handed on to: the drafts (its question is in the
    log now), the first send (a failed first send's conversation goes) and the versions (a
    new version of the turn it was regenerating)."""

    drafts: DraftKeeper
    first_send: FirstSendUndo
    versions: VersionControls


@dataclass(frozen=True, slots=True)
class PartialParts:
    """What Keep and Continue work with: the open log, the send (its banner offers an
    answer so far), the history it lands in, what it hands on to, and how it speaks."""

    log: OpenLog
    sending: SendParts
    history: HistoryParts
    hand_off: HandOff
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
        parts.sending.session.finished.connect(self._sent)
        parts.sending.banner.keep_requested.connect(self.keep)
        parts.sending.banner.continue_requested.connect(self.continue_offer)
        parts.sending.banner.close_button.clicked.connect(self._dismissed)
        parts.history.view.delegate.control_clicked.connect(self._clicked)

    def _sent(self, result: SendResult) -> None:
        outcome = result.outcome
        self.offer, self._result = None, None
        if isinstance(outcome, Failed) and outcome.answer is not None:
            self.offer, self._result = outcome.answer, result
            self.parts.sending.banner.offer_partial()

    def _dismissed(self) -> None:
        """Dismiss: the answer so far is let go. A first send's conversation, kept while
        it was offered, goes as after any failed first send."""
        result, self.offer, self._result = self._result, None, None
        if result is not None and isinstance(result.outcome, Failed):
            self.parts.hand_off.first_send.finished(replace(
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
        if offer is None or parts.sending.session.running or parts.sending.composer.held:
            return
        self.offer, self._result = None, None
        parts.sending.banner.offer_partial(False)
        keep_incomplete_answer(parts.log.store, offer).run(
            parts.log.runner, on_success=lambda changes: self._kept(offer, changes),
            on_failure=lambda error: self._keep_failed(offer, error))

    def _kept(self, offer: PartialAnswer, changes: Changes) -> None:
        """The turn is in the log: this shows it in the history, and announces the change
        (the conversation as it is now: its title, its place in the list) to the window."""
        parts, turn = self.parts, changes.appended
        assert turn is not None
        parts.sending.banner.dismiss()
        composer = parts.sending.composer
        if composer.text().strip() == offer.question.strip():
            composer.take()  # the question is in the log now
            parts.hand_off.drafts.saved(offer.conversation_id)
        shown = parts.history.transcript  # a new version keeps the number of the turn it replaces
        replaced = shown.turns[-1] if offer.replaces is not None and shown.turns else turn
        number = shown.numbers.number(replaced.ordinal)
        self._say(arg(translate("PartialAnswers", "Kept as turn %1, marked incomplete."),
                      grouped(number)), offer.conversation_id)
        conversation = parts.log.conversation()
        if conversation is not None and conversation.id == offer.conversation_id:
            if offer.replaces is not None:  # a new version of the turn it was regenerating
                parts.hand_off.versions.reload(conversation.id, current_newest=True)
            else:
                parts.history.transcript.commit_pending(parts.history.transcript.with_turn(turn))
                parts.history.view.scroll_to_newest()
            parts.sending.preview.forget_last()
        announce(parts.log.changes, changes, self)

    def _keep_failed(self, offer: PartialAnswer, error: BaseException) -> None:
        """Not kept (a delete meanwhile, a full disk): said, and the answer still offered."""
        banner = self.parts.sending.banner
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
        conversation = parts.log.conversation()
        if name != "continue" or conversation is None:
            return
        turn = parts.history.transcript.shown_turn(row)
        if turn is not None and turn.incomplete:
            self.continue_answer(PartialAnswer.of_kept(conversation.id, turn))

    def continue_answer(self, answer: PartialAnswer) -> None:
        """Ask for the rest of `answer` in its (open) conversation; the composer keeps
        what it holds unless that is the question (then it is in the log once answered,
        and back in the box if the continuation fails)."""
        parts = self.parts
        conversation = parts.log.conversation()
        if conversation is None or conversation.id != answer.conversation_id:
            self._say(translate("PartialAnswers", "Open the answer's conversation to "
                                "continue it."))
            return
        if parts.sending.session.running or parts.sending.composer.held:
            return
        request = parts.sending.preview.parts(conversation)
        if request.endpoint is None or request.budget is None:
            parts.sending.banner.show_text(*(request.problem
                                             or (translate("PartialAnswers", "Cannot send"), "")))
            return
        parts.sending.preview.cancel_warm()
        composer = parts.sending.composer
        if composer.text().strip() == answer.question.strip():
            draft = composer.take()
        else:
            draft = (composer.text(), composer.cursor_position())
        self.offer, self._result = None, None
        parts.sending.banner.dismiss()
        parts.history.transcript.start_pending(answer.question, answer.attachments)
        parts.history.transcript.append_pending(answer.text)
        parts.history.view.scroll_to_newest()
        parts.sending.preview.show_running(request.endpoint)
        parts.sending.session.start(conversation, answer.question, draft, request.endpoint,
                                    parts.sending.preview.costs, replaces=answer.replaces,
                                    partial=answer, attachments=answer.attachments)
