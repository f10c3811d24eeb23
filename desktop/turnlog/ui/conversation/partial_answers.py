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
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject

from ...core.failures import StoreError
from ...core.send import Failed, PartialAnswer
from ..infra.changes import Changes
from ..infra.languages import arg
from ..infra.operations import announce, keep_incomplete_answer
from ..request.send_session import SendResult

translate = QCoreApplication.translate  # translate("PartialAnswers", …): lupdate reads it


class PartialAnswers(QObject):
    """Keep and Continue for `window` (the main window, not imported here: an import
    cycle), listening to its send session after the window showed how a send ended."""

    def __init__(self, window: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.offer: PartialAnswer | None = None  # the answer so far the banner offers
        self._result: SendResult | None = None
        window.session.finished.connect(self._sent)
        window.banner.keep_requested.connect(self.keep)
        window.banner.continue_requested.connect(self.continue_offer)
        window.banner.close_button.clicked.connect(self._dismissed)
        window.view.delegate.control_clicked.connect(self._clicked)

    def _sent(self, result: SendResult) -> None:
        outcome = result.outcome
        self.offer, self._result = None, None
        if isinstance(outcome, Failed) and outcome.answer is not None:
            self.offer, self._result = outcome.answer, result
            self.window.banner.offer_partial()

    def _dismissed(self) -> None:
        """Dismiss: the answer so far is let go. A first send's conversation, kept while
        it was offered, goes as after any failed first send."""
        result, self.offer, self._result = self._result, None, None
        if result is not None and isinstance(result.outcome, Failed):
            self.window.first_send.finished(replace(
                result, outcome=replace(result.outcome, answer=None)))

    def _say(self, text: str, conversation_id: int | None = None) -> None:
        if conversation_id is None:
            self.window.statusBar().showMessage(text)
        else:
            self.window.say_about(conversation_id, text)

    # ------------------------------------------------------------------ keep
    def keep(self) -> None:
        """Keep as an incomplete turn: the question and the answer so far, marked why."""
        window, offer = self.window, self.offer
        if offer is None or window.session.running or window.composer.held:
            return
        self.offer, self._result = None, None
        window.banner.offer_partial(False)
        keep_incomplete_answer(window.store, offer).run(
            window.runner, on_success=lambda changes: self._kept(offer, changes),
            on_failure=lambda error: self._keep_failed(offer, error))

    def _kept(self, offer: PartialAnswer, changes: Changes) -> None:
        """The turn is in the log: this shows it in the history, and announces the change
        (the conversation as it is now: its title, its place in the list) to the window."""
        window, turn = self.window, changes.appended
        assert turn is not None
        window.banner.dismiss()
        composer = window.composer
        if composer.text().strip() == offer.question.strip():
            composer.take()  # the question is in the log now
            window.drafts.saved(offer.conversation_id)
        shown = window.transcript  # a new version keeps the number of the turn it replaces
        replaced = shown.turns[-1] if offer.replaces is not None and shown.turns else turn
        number = shown.numbers.number(replaced.ordinal)
        self._say(arg(translate("PartialAnswers", "Kept as turn %1, marked incomplete."),
                      str(number)), offer.conversation_id)
        conversation = window.conversation
        if conversation is not None and conversation.id == offer.conversation_id:
            if offer.replaces is not None:  # a new version of the turn it was regenerating
                window.versions.reload(conversation.id, current_newest=True)
            else:
                window.transcript.commit_pending(window.transcript.with_turn(turn))
                window.view.scroll_to_newest()
            window.preview.forget_last()
        announce(window.changes, changes, self)

    def _keep_failed(self, offer: PartialAnswer, error: BaseException) -> None:
        """Not kept (a delete meanwhile, a full disk): said, and the answer still offered."""
        banner = self.window.banner
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
        window = self.window
        if name != "continue" or window.conversation is None:
            return
        turn = window.transcript.shown_turn(row)
        if turn is not None and turn.incomplete:
            self.continue_answer(PartialAnswer.of_kept(window.conversation.id, turn))

    def continue_answer(self, answer: PartialAnswer) -> None:
        """Ask for the rest of `answer` in its (open) conversation; the composer keeps
        what it holds unless that is the question (then it is in the log once answered,
        and back in the box if the continuation fails)."""
        window = self.window
        conversation = window.conversation
        if conversation is None or conversation.id != answer.conversation_id:
            self._say(translate("PartialAnswers", "Open the answer's conversation to "
                                "continue it."))
            return
        if window.session.running or window.composer.held:
            return
        parts = window.preview.parts(conversation)
        if parts.endpoint is None or parts.budget is None:
            window.banner.show_text(*(parts.problem
                                      or (translate("PartialAnswers", "Cannot send"), "")))
            return
        window.preview.cancel_warm()
        composer = window.composer
        if composer.text().strip() == answer.question.strip():
            draft = composer.take()
        else:
            draft = (composer.text(), composer.cursor_position())
        self.offer, self._result = None, None
        window.banner.dismiss()
        window.transcript.start_pending(answer.question, answer.attachments)
        window.transcript.append_pending(answer.text)
        window.view.scroll_to_newest()
        window.preview.show_running(parts.endpoint)
        window.session.start(conversation, answer.question, draft, parts.endpoint,
                             window.preview.costs, replaces=answer.replaces, partial=answer,
                             attachments=answer.attachments)
