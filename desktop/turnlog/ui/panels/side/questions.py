"""Side questions in the window: `SideQuestions` runs them for the open conversation, in
the dock the window builds for its panel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtWidgets import QListWidgetItem

from ....core.budget import Budget
from ....core.failures import Failure
from ....core.model import Conversation, Usage
from ....core.side import (
    SideAnswered,
    SideAttempt,
    SideFailed,
    SideProjection,
    SideQuestion,
)
from ...conversation.composer import Composer
from ...infra import failure_text, operations
from ...infra.languages import arg
from ...infra.open_log import OpenLog
from ...infra.operation_results import Kept
from ...infra.tasks import TaskRunner
from ...request.connection import Reach
from ...request.inspector import InspectorState
from ...request.inspector_text import turns_text, window_text
from ...request.live_preview import LivePreview
from ...request.send_session import SendResult
from ...transcript.model import TranscriptModel
from .panel import SidePanel, side_item_text, side_usage_text
from .preview import preview_side
from .session import SideSession

if TYPE_CHECKING:
    from ....store import TurnlogStore

PREVIEW_DELAY_MS = 150  # typing pauses this long before the side request is planned again


@dataclass(frozen=True, slots=True)
class SideParts:
    """What side questions work with: storage and the connection, the open conversation and
    whether a send of it runs, the composer they can take a question from, the transcript a
    kept answer joins, and the live preview whose parts they reuse."""

    log: OpenLog
    connector: Reach
    running: Callable[[], bool]  # a send of the conversation runs
    composer: Composer
    transcript: TranscriptModel
    preview: LivePreview


class SideQuestions(QObject):
    """Wires the panel to its parts: what is open, the session, storage."""

    def __init__(self, panel: SidePanel, parts: SideParts, status: Callable[[str], None],
                 parent: QObject) -> None:
        super().__init__(parent)
        self.panel, self.parts, self._status = panel, parts, status  # status: the status bar
        self.store: TurnlogStore = parts.log.store
        self.runner: TaskRunner = parts.log.runner
        self.session = SideSession(parts.log.store, parts.connector, parts.log.runner, self)
        self.sides: list[SideQuestion] = []
        self.attempts: list[SideAttempt] = []
        self.shown_for: int | None = None
        self._streamed = ""
        self._question = ""
        self._opened_id: int | None = None
        self._last: InspectorState | None = None  # the last side request, kept for its button
        self._wire()
        self._opened(parts.log.conversation())

    def _wire(self) -> None:
        panel, session, parts = self.panel, self.session, self.parts
        panel.ask_button.clicked.connect(self.ask)
        panel.edit.submit.connect(self.ask)
        panel.edit.stop.connect(session.stop)
        panel.stop_button.clicked.connect(session.stop)
        panel.keep_button.clicked.connect(self.keep)
        panel.list.currentRowChanged.connect(self._current_changed)
        panel.inspector.last_chosen.connect(self._choose)
        # Every conversation shown (and closed) resets the transcript first.
        parts.transcript.modelReset.connect(lambda: self._opened(parts.log.conversation()))
        parts.log.changes.changed.connect(lambda _changes, _origin: self.reload())
        session.running_changed.connect(self._running_changed)
        session.status.connect(panel.stage.setText)
        session.streamed.connect(self._stream)
        session.projected.connect(self._projected)
        session.finished.connect(self._finished)
        session.crashed.connect(
            lambda draft: self._failed_with(
                QCoreApplication.translate(
                    "SidePanel",
                    "Turnlog hit a bug while asking aside; the bug report has the details.",
                ),
                draft,
            )
        )
        session.discarded.connect(lambda: self.panel.stage.hide())
        # While a side question is typed, the inspector shows the side request it would make.
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.show_preview)
        panel.edit.textChanged.connect(self._preview_timer.start)

    def show_preview(self) -> None:
        """Show the side request the typed side question would make now, in its budget
        (nothing is sent; the inspector of an answer in flight is left as it is)."""
        conversation = self.parts.log.conversation()
        text = self.panel.edit.toPlainText()
        if self.session.running or conversation is None:
            return
        if not text.strip():
            self._inspect(self._state(QCoreApplication.translate(
                "SidePanel", "No side question yet."), None))  # says what appears here
            return
        parts = self.parts.preview.parts(conversation)
        if parts.endpoint is None:
            return
        live = self.parts.preview
        shown = preview_side(conversation, text, parts.endpoint.route,
                             self.parts.transcript.turns, self.sides, memory=live.memory,
                             summary=live.summary, costs=live.estimated_costs)
        if shown.problem:
            self._problem(shown.problem)
            return
        self._inspect(self._state(
            QCoreApplication.translate(
                "SidePanel", "Side question preview: what Ask aside would send now"),
            shown.planned, refusal=shown.refusal, budget=shown.budget,
            outcome=QCoreApplication.translate(
                "SidePanel", "not sent yet; the conversation does not change")))

    def _inspect(self, state: InspectorState, *, last: bool = False) -> None:
        """Show `state` in the side inspector: a preview (*Preview* pressed, *Last
        request* there once a side request went), or the last side request (`last`: kept,
        so *Last request* shows it again after a preview)."""
        if last:
            self._last = state = replace(state, showing_last=True, last_available=True)
        else:
            state = replace(state, last_available=self._last is not None
                            and not self.session.running)
        self.panel.inspector.show_state(state)

    def _choose(self, last: bool) -> None:
        """*Preview* or *Last request* clicked in the side inspector."""
        if last and self._last is not None and not self.session.running:
            self.panel.inspector.show_state(self._last)
        elif not last:
            self.show_preview()
        inspector = self.panel.inspector
        if inspector.state is not None:  # a click never leaves both unpressed
            inspector.preview_button.setChecked(not inspector.state.showing_last)
            inspector.last_button.setChecked(inspector.state.showing_last)

    # ---------------------------------------------------------------- listing
    def _opened(self, conversation: Conversation | None) -> None:
        if (conversation.id if conversation else None) == self._opened_id:
            return
        self._opened_id = conversation.id if conversation else None
        self.session.stop()  # a side question of the last conversation ends, draft back
        self.reload(conversation.id if conversation else None)

    def closing(self) -> None:
        """The open conversation is being deleted: nothing of it stays on show."""
        self.session.discard(None)
        self.panel.edit.clear()
        self._show([], None)

    def reload(self, conversation_id: int | None = -1) -> None:
        opened = self.parts.log.conversation()
        cid = (opened.id if opened else None) if conversation_id == -1 else conversation_id
        if cid is None:
            self._show([], None)
            return
        if self.runner.closed:  # the window is closing: a late change reads nothing
            return

        def loaded(read: tuple[list[SideQuestion], list[SideAttempt]]) -> None:
            current = self.parts.log.conversation()
            if current is not None and current.id == cid:
                self._show(read[0], cid, read[1])

        operations.read_side_questions(self.store, cid).run(
            self.runner,
            on_success=loaded,
            on_failure=lambda error: self._problem(
                arg(
                    QCoreApplication.translate("SidePanel", "Side questions could not be read: %1"),
                    error,
                )
            ),
        )

    def _show(self, sides: list[SideQuestion], conversation_id: int | None,
              attempts: Sequence[SideAttempt] = ()) -> None:
        changed = conversation_id != self.shown_for
        self.sides, self.shown_for, self.attempts = sides, conversation_id, list(attempts)
        panel = self.panel
        panel.list.blockSignals(True)
        panel.list.clear()
        for side in sides:
            item = QListWidgetItem(side_item_text(side))
            item.setToolTip(side.question)
            panel.list.addItem(item)
        panel.list.blockSignals(False)
        panel.keep_two_entries()
        panel.usage.setText(side_usage_text(sides, attempts)
                            if conversation_id is not None else "")
        if changed:
            panel.problem.hide()
            panel.show_markdown("")
            self._last = None
            self._inspect(
                self._state(QCoreApplication.translate("SidePanel", "No side question yet."), None)
            )
        if sides and (changed or not self.session.running):
            panel.list.setCurrentRow(len(sides) - 1)
        self._update_keep()

    def _current_changed(self, row: int) -> None:
        if 0 <= row < len(self.sides) and not self.session.running:
            self.panel.show_markdown(self.sides[row].answer)
        self._update_keep()

    def _update_keep(self) -> None:
        row = self.panel.list.currentRow()
        self.panel.keep_button.setEnabled(0 <= row < len(self.sides)
                                          and not self.parts.running())

    # ---------------------------------------------------------------- asking
    def ask_from_composer(self) -> None:
        """Ctrl+Shift+Enter in the composer: its text becomes the side question."""
        if self.session.running or not self.parts.composer.text().strip():
            return
        text, _cursor = self.parts.composer.take()
        self.panel.edit.setPlainText(text)
        self.ask()

    def ask(self) -> None:
        conversation = self.parts.log.conversation()
        text = self.panel.edit.toPlainText()
        if self.session.running or not text.strip():
            return
        if conversation is None:
            self._problem(
                QCoreApplication.translate(
                    "SidePanel", "Open a conversation first: a side question is about one."
                )
            )
            return
        parts = self.parts.preview.parts(conversation)
        if parts.endpoint is None:
            self._problem(
                " ".join(
                    parts.problem or (QCoreApplication.translate("SidePanel", "Cannot ask"), "")
                )
            )
            return
        draft = (text, self.panel.edit.textCursor().position())
        self.panel.edit.clear()
        self.panel.problem.hide()
        self._question, self._streamed = text, ""
        self.panel.show_markdown(f"**{text.strip()}**")
        self.session.start(conversation, text, draft, parts.endpoint,
                           self.parts.preview.costs)

    def _running_changed(self, running: bool) -> None:
        panel = self.panel
        panel.stage.setVisible(running)
        panel.edit.setReadOnly(running)
        panel.ask_button.setEnabled(not running)
        panel.stop_button.setEnabled(running)  # (the focus stays: a space must not press it)
        self._update_keep()

    def _stream(self, text: str) -> None:
        self._streamed += text
        self.panel.show_markdown(f"**{self._question.strip()}**\n\n{self._streamed}")

    def _projected(self, planned: SideProjection) -> None:
        self._inspect(
            self._state(
                QCoreApplication.translate(
                    "SidePanel", "Request in flight: a side question about this conversation"
                ),
                planned,
                outcome=QCoreApplication.translate(
                    "SidePanel",
                    "waiting for the answer (a side question: the conversation does not change)",
                ),
            )
        )

    def _finished(self, result: SendResult) -> None:
        outcome = result.outcome
        if isinstance(outcome, SideAnswered):
            if result.conversation_id == self.shown_for:
                self._show([*self.sides, outcome.side], result.conversation_id, self.attempts)
                self.panel.show_markdown(outcome.side.answer)
            self._inspect(
                self._state(
                    QCoreApplication.translate(
                        "SidePanel",
                        "Last side question: answered, kept apart from the conversation",
                    ),
                    outcome.projection,
                    usage=outcome.side.usage,
                    duration=result.duration_s,
                    outcome=QCoreApplication.translate(
                        "SidePanel", "answered; kept in the side panel, not in the conversation"
                    ),
                ),
                last=True,
            )
            self.panel.edit.setFocus()
            return
        assert isinstance(outcome, SideFailed)
        if outcome.attempt is not None and result.conversation_id == self.shown_for:
            self.attempts.append(outcome.attempt)
            self.panel.usage.setText(side_usage_text(self.sides, self.attempts))
        if outcome.projection is not None or outcome.refusal is not None:
            self._inspect(
                self._state(
                    QCoreApplication.translate("SidePanel", "Last side question: not answered"),
                    outcome.projection,
                    failure=outcome.failure,
                    refusal=outcome.refusal,
                    duration=result.duration_s,
                ),
                last=True,
            )
        self._failed_with(failure_text.message(outcome.failure), result.draft, outcome.partial)

    def _failed_with(self, message: str, draft: tuple[str, int], partial: str = "") -> None:
        """Any failure: the side draft comes back as it was and the reason shows inline."""
        text, cursor = draft
        self.panel.edit.setPlainText(text)
        edit_cursor = self.panel.edit.textCursor()
        edit_cursor.setPosition(min(cursor, len(text)))
        self.panel.edit.setTextCursor(edit_cursor)
        self.panel.edit.setFocus()
        kept = (
            (
                "\n\n"
                + QCoreApplication.translate(
                    "SidePanel", "What arrived before it ended (not kept):"
                )
                + "\n"
                + partial
            )
            if partial
            else ""
        )
        self._problem(
            message
            + " "
            + QCoreApplication.translate("SidePanel", "Your side question is back in the box.")
            + kept
        )
        row = self.panel.list.currentRow()
        self.panel.show_markdown(self.sides[row].answer if 0 <= row < len(self.sides) else "")

    def _problem(self, text: str) -> None:
        self.panel.problem.setText(text)
        self.panel.problem.show()

    def _state(self, heading: str, planned: SideProjection | None, *,
               failure: Failure | None = None, refusal: object = None,
               usage: Usage | None = None, duration: float | None = None,
               outcome: str = "", budget: Budget | None = None) -> InspectorState:
        carried = ""
        if planned is None and budget is not None:
            carried = arg(QCoreApplication.translate(
                "SidePanel", "side question · window %1 · own output reserve %2 tokens · "
                "input budget %3 tokens"), window_text(budget), f"{budget.output_reserve:,}",
                f"{budget.input_tokens:,}")
        numbers = self.parts.transcript.numbers  # turns named as their headers show them
        if planned is not None:
            p = planned.projection
            summarized, left_out = p.runs("summarized"), p.runs("left out")
            carried = (
                arg(
                    QCoreApplication.translate(
                        "SidePanel", "side question · own output reserve %1 tokens"
                    ),
                    p.budget.output_reserve,
                )
                + (
                    arg(
                        QCoreApplication.translate("SidePanel", " · summary: %1"),
                        turns_text(summarized, numbers),
                    )
                    if summarized
                    else ""
                )
                + arg(
                    QCoreApplication.translate("SidePanel", " · recent window: %1"),
                    turns_text(p.runs("sent"), numbers),
                )
                + arg(
                    QCoreApplication.translate("SidePanel", " · left out: %1"),
                    turns_text(left_out, numbers)
                    if left_out
                    else QCoreApplication.translate("SidePanel", "none"),
                )
                + arg(
                    QCoreApplication.translate(
                        "SidePanel", " · earlier side questions carried: %1"
                    ),
                    len(planned.side_ids),
                )
            )
        return InspectorState(
            heading=heading,
            projection=planned.projection if planned else None,
            refusal=refusal,
            record=None,
            failure=failure,
            usage=usage,
            duration_s=duration,
            endpoint=carried,
            max_bytes=None,
            what_if=None,
            asked=None,
            compaction=False,
            numbers=numbers,
            outcome=outcome
            or (
                ""
                if failure or refusal
                else QCoreApplication.translate("SidePanel", "nothing asked yet")
            ),
        )

    # ---------------------------------------------------------------- keeping
    def keep(self) -> None:
        row = self.panel.list.currentRow()
        cid = self.shown_for
        if not 0 <= row < len(self.sides) or cid is None or self.parts.running():
            return
        side = self.sides[row]
        operations.keep_side_answer(self.store, cid, side).run(
            self.runner,
            on_success=self._kept,
            on_failure=lambda error: self._problem(
                arg(
                    QCoreApplication.translate(
                        "SidePanel", "The side answer was not kept as a turn: %1"
                    ),
                    error,
                )
            ),
        )

    def _kept(self, kept: Kept) -> None:
        parts, conversation = self.parts, self.parts.log.conversation()
        if conversation is None or conversation.id != kept.conversation_id:
            return
        parts.transcript.commit_pending(parts.transcript.with_turn(kept.turn))
        parts.preview.refresh()
        self._status(
            arg(
                QCoreApplication.translate("SidePanel", "Kept the side answer as turn %1"),
                parts.transcript.number_of(kept.turn),
            )
        )
