"""Side questions in the window: a dock to ask about the open conversation without adding
to it, answered on its own budget and kept apart from the transcript.

`SideSession` is a `SendSession` whose worker asks a side question (core's `SideAsker`)
instead of sending a turn: the same stages, streaming, prompt cancel and network worker.
`SidePanel` lists the conversation's side questions, shows the answer streaming in, keeps
the side draft on any failure with the reason inline, offers "Keep as a turn", and has a
side inspector showing the side request like any request, labelled "side question".
`attach` builds the dock and wires it to the window in one call.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..chat import ChatStore, side_asker_for, side_request_for
from ..core.budget import InvalidBudget
from ..core.failures import Failure, FailureKind, ProviderFailure, StoreError
from ..core.model import Conversation, Turn, Usage
from ..core.projection import CostIndex
from ..core.send import PendingTurn
from ..core.side import (
    SideAnswered,
    SideAttempt,
    SideFailed,
    SideProjection,
    SideQuestion,
    attempts_usage,
)
from . import failure_text
from .composer import DraftEdit
from .connection import Connector, Endpoint, NotConnected
from .docks import add_dock
from .inspector import Inspector, InspectorState
from .languages import arg, plural
from .marks import span_text, usage_text
from .send_session import STAGE_WORDS, SendResult, SendSession, Sent, StreamBuffer
from .tasks import TaskContext, TaskRunner
from .theme import tone_text

if TYPE_CHECKING:
    from ..store import TurnlogStore

# The main window, which imports this module: what is used of it is its store, runner,
# connector, open conversation, composer, transcript, history actions, live preview and
# docks.
MainWindow = Any


def side_on_worker(context: TaskContext, store: ChatStore, connector: Connector,
                   conversation: Conversation, question: str, costs: CostIndex,
                   stream: StreamBuffer) -> Sent:
    """The network worker's part: connect, then ask aside through core's `SideAsker`."""
    on_stage = lambda stage, detail: context.report((stage, detail))  # noqa: E731
    try:
        link = connector.connect(conversation, cancel=context.cancel, on_stage=on_stage)
        request = side_request_for(conversation, question, link.route,
                                   memory=store.memory(conversation.id))
    except StoreError as err:
        return Sent(SideFailed(err.failure(), question), None, summary_read=False)
    except (NotConnected, ProviderFailure) as err:
        return Sent(SideFailed(err.failure, question), None, summary_read=False)
    except InvalidBudget as err:
        failure = Failure(FailureKind.REFUSED, detail=str(err),
                          hint="Set the side questions' output reserve in Settings")
        return Sent(SideFailed(failure, question), None, summary_read=False)
    outcome = side_asker_for(store, link.provider, link.costs or costs).ask(
        request, cancel=context.cancel, on_stage=on_stage, on_delta=stream.append,
        on_projection=context.report)
    return Sent(outcome, None, summary_read=False)


class SideSession(SendSession):
    """One side question at a time, through the network worker like any send."""

    def _work(self, conversation: Conversation, question: str, endpoint: Endpoint,
              costs: CostIndex, stream: StreamBuffer,
              replaces: str | None) -> Callable[[TaskContext], Sent]:
        store, connector = self._store, self._connector

        def work(context: TaskContext) -> Sent:
            return side_on_worker(context, store, connector, conversation, question, costs,
                                  stream)

        return work

    def _progress(self, item: object) -> None:
        if isinstance(item, SideProjection):
            if not self._discard:
                self.projected.emit(item)
            return
        super()._progress(item)


@dataclass(frozen=True, slots=True)
class Kept:
    conversation_id: int
    turn: Turn


def keep_as_turn(store: TurnlogStore, conversation_id: int, side: SideQuestion) -> Kept:
    """Append a side question and its answer to the conversation as a normal turn (the
    user asked for it); the side question stays listed."""
    pending = PendingTurn(uuid.uuid4().hex, side.question, side.answer, side.model, "stop",
                          side.usage, datetime.now(UTC), store.generation(conversation_id))
    return Kept(conversation_id, store.commit_turn(conversation_id, pending))


def side_item_text(side: SideQuestion) -> str:
    answer = " ".join(side.answer.split())
    return f"{side.question.strip()}\n→ {answer[:160]}{'…' if len(answer) > 160 else ''}"


def side_usage_text(sides: Sequence[SideQuestion],
                    attempts: Sequence[SideAttempt] = ()) -> str:
    """The side questions' usage, failed side requests' included (named apart)."""
    known = [s.usage for s in sides if s.usage.known]
    if not sides and not attempts:
        return QCoreApplication.translate(
            "SidePanel", "No side questions in this conversation yet."
        )
    failed = attempts_usage(attempts)
    total = Usage(*(sum(getattr(u, name) or 0 for u in [*known, failed]) or None
                    for name in ("prompt_tokens", "completion_tokens", "total_tokens")))
    asked, failures = len(sides), len(attempts)
    text = arg(
        plural(
            QCoreApplication.translate(
                "SidePanel",
                "%n side question(s), apart from the conversation's usage: %1",
                None,
                asked,
            ),
            asked,
        ),
        usage_text(total),
    )
    if attempts:
        text += arg(
            plural(
                QCoreApplication.translate(
                    "SidePanel", " — %n failed side request(s) included: %1", None, failures
                ),
                failures,
            ),
            usage_text(failed),
        )
    return text


class SidePanel(QWidget):
    """The dock's contents: side questions of the open conversation, the side draft,
    its stages and failures, and the side inspector."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidePanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        top = QWidget(splitter)
        layout = QVBoxLayout(top)
        layout.setContentsMargins(0, 0, 0, 0)
        about = QLabel(
            QCoreApplication.translate(
                "SidePanel",
                "Ask about this conversation without adding to it. Answers stay here, not in the "
                "transcript.",
            ),
            top,
        )
        about.setWordWrap(True)
        layout.addWidget(about)
        self.list = QListWidget(top)
        self.list.setObjectName("sideList")
        self.list.setAccessibleName(QCoreApplication.translate("SidePanel", "Side questions"))
        self.list.setWordWrap(True)
        layout.addWidget(self.list, 1)
        self.answer = QTextBrowser(top)
        self.answer.setObjectName("sideAnswer")
        self.answer.setAccessibleName(QCoreApplication.translate("SidePanel", "Side answer"))
        self.answer.setOpenLinks(False)
        layout.addWidget(self.answer, 2)
        self.keep_button = QPushButton(
            QCoreApplication.translate("SidePanel", "Keep as a turn"), top
        )
        self.keep_button.setToolTip(
            QCoreApplication.translate(
                "SidePanel",
                "Append this side question and its answer to the conversation as a normal turn",
            )
        )
        self.keep_button.setEnabled(False)
        layout.addWidget(self.keep_button)
        self._build_input(top, layout)
        self.usage = QLabel(top)
        self.usage.setObjectName("sideUsage")
        self.usage.setWordWrap(True)
        layout.addWidget(self.usage)
        self.inspector = Inspector(splitter)
        self.inspector.setAccessibleName(
            QCoreApplication.translate("SidePanel", "Side request inspector")
        )
        self.inspector.slider.hide()
        self.inspector.reset_button.hide()
        splitter.addWidget(top)
        splitter.addWidget(self.inspector)
        outer.addWidget(splitter)

    def _build_input(self, top: QWidget, layout: QVBoxLayout) -> None:
        self.stage = QLabel(top)
        self.stage.setObjectName("sideStage")
        self.stage.hide()
        layout.addWidget(self.stage)
        self.problem = QLabel(top)
        self.problem.setObjectName("sideProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        tone_text(self.problem, "error")
        self.problem.hide()
        layout.addWidget(self.problem)
        self.edit = DraftEdit(top)
        self.edit.setObjectName("sideDraft")
        self.edit.setAccessibleName(QCoreApplication.translate("SidePanel", "Side question"))
        self.edit.setPlaceholderText(
            QCoreApplication.translate(
                "SidePanel", "Ask aside… (Ctrl+Enter here, or Ctrl+Shift+Enter in the composer)"
            )
        )
        line = self.edit.fontMetrics().lineSpacing()
        self.edit.setMaximumHeight(line * 4 + 14)
        layout.addWidget(self.edit)
        row = QHBoxLayout()
        row.addStretch(1)
        self.stop_button = QPushButton(QCoreApplication.translate("SidePanel", "Stop"), top)
        self.stop_button.setEnabled(False)
        row.addWidget(self.stop_button)
        self.ask_button = QPushButton(QCoreApplication.translate("SidePanel", "Ask aside"), top)
        self.ask_button.setObjectName("askAside")
        self.ask_button.setToolTip(
            QCoreApplication.translate(
                "SidePanel",
                "Ask a side question about this conversation (Ctrl+Shift+Enter in the composer)",
            )
        )
        row.addWidget(self.ask_button)
        layout.addLayout(row)

    def show_markdown(self, text: str) -> None:
        self.answer.document().setMarkdown(text,
                                           QTextDocument.MarkdownFeature.MarkdownNoHTML)


class SideQuestions(QObject):
    """Wires the panel to the window: what is open, the session, storage."""

    def __init__(self, window: MainWindow, panel: SidePanel) -> None:
        super().__init__(window)
        self.window, self.panel = window, panel
        self.store: TurnlogStore = window.store
        self.runner: TaskRunner = window.runner
        self.session = SideSession(window.store, window.connector, window.runner, self)
        self.sides: list[SideQuestion] = []
        self.attempts: list[SideAttempt] = []
        self.shown_for: int | None = None
        self._streamed = ""
        self._question = ""
        self._opened_id: int | None = None
        self._wire()
        self._opened(window.conversation)

    def _wire(self) -> None:
        panel, session, window = self.panel, self.session, self.window
        panel.ask_button.clicked.connect(self.ask)
        panel.edit.submit.connect(self.ask)
        panel.edit.stop.connect(session.stop)
        panel.stop_button.clicked.connect(session.stop)
        panel.keep_button.clicked.connect(self.keep)
        panel.list.currentRowChanged.connect(self._current_changed)
        window.composer.aside_requested.connect(self.ask_from_composer)
        # Every conversation shown (and closed) resets the transcript first.
        window.transcript.modelReset.connect(lambda: self._opened(window.conversation))
        window.history.closing.connect(self._closing)
        window.history.changed.connect(lambda changes: self.reload())
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

    # ---------------------------------------------------------------- listing
    def _opened(self, conversation: Conversation | None) -> None:
        if (conversation.id if conversation else None) == self._opened_id:
            return
        self._opened_id = conversation.id if conversation else None
        self.session.stop()  # a side question of the last conversation ends, draft back
        self.reload(conversation.id if conversation else None)

    def _closing(self) -> None:
        """The open conversation is being deleted: nothing of it stays on show."""
        self.session.discard(None)
        self.panel.edit.clear()
        self._show([], None)

    def reload(self, conversation_id: int | None = -1) -> None:
        cid = (self.window.conversation.id if self.window.conversation else None) \
            if conversation_id == -1 else conversation_id
        if cid is None:
            self._show([], None)
            return

        def loaded(read: tuple[list[SideQuestion], list[SideAttempt]]) -> None:
            current = self.window.conversation
            if current is not None and current.id == cid:
                self._show(read[0], cid, read[1])

        self.runner.run(
            TaskRunner.STORAGE,
            "load side questions",
            lambda context: (self.store.side_questions(cid), self.store.side_attempts(cid)),
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
        panel.usage.setText(side_usage_text(sides, attempts)
                            if conversation_id is not None else "")
        if changed:
            panel.problem.hide()
            panel.show_markdown("")
            panel.inspector.show_state(
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
                                          and not self.window.running)

    # ---------------------------------------------------------------- asking
    def ask_from_composer(self) -> None:
        """Ctrl+Shift+Enter in the composer: its text becomes the side question."""
        if self.session.running or not self.window.composer.text().strip():
            return
        text, _cursor = self.window.composer.take()
        self.panel.edit.setPlainText(text)
        self.ask()

    def ask(self) -> None:
        conversation = self.window.conversation
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
        parts = self.window.preview.parts(conversation)
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
                           self.window.preview.costs)

    def _running_changed(self, running: bool) -> None:
        panel = self.panel
        panel.stage.setVisible(running)
        panel.edit.setReadOnly(running)
        panel.ask_button.setEnabled(not running)
        panel.stop_button.setEnabled(running)
        if running:
            panel.stop_button.setFocus()
        self._update_keep()

    def _stream(self, text: str) -> None:
        self._streamed += text
        self.panel.show_markdown(f"**{self._question.strip()}**\n\n{self._streamed}")

    def _projected(self, planned: SideProjection) -> None:
        self.panel.inspector.show_state(
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
            self.panel.inspector.show_state(
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
                )
            )
            self.panel.edit.setFocus()
            return
        assert isinstance(outcome, SideFailed)
        if outcome.attempt is not None and result.conversation_id == self.shown_for:
            self.attempts.append(outcome.attempt)
            self.panel.usage.setText(side_usage_text(self.sides, self.attempts))
        if outcome.projection is not None or outcome.refusal is not None:
            self.panel.inspector.show_state(
                self._state(
                    QCoreApplication.translate("SidePanel", "Last side question: not answered"),
                    outcome.projection,
                    failure=outcome.failure,
                    refusal=outcome.refusal,
                    duration=result.duration_s,
                )
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
               outcome: str = "") -> InspectorState:
        carried = ""
        if planned is not None:
            p = planned.projection
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
                        span_text(p.summarized),
                    )
                    if p.summarized
                    else ""
                )
                + arg(
                    QCoreApplication.translate("SidePanel", " · recent window: %1"),
                    span_text(p.sent),
                )
                + arg(
                    QCoreApplication.translate("SidePanel", " · left out: %1"),
                    span_text(p.left_out)
                    if p.left_out
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
        if not 0 <= row < len(self.sides) or cid is None or self.window.running:
            return
        side = self.sides[row]
        self.runner.run(
            TaskRunner.STORAGE,
            "keep a side answer as a turn",
            lambda context: keep_as_turn(self.store, cid, side),
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
        window = self.window
        if window.conversation is None or window.conversation.id != kept.conversation_id:
            return
        window.transcript.commit_pending(window.transcript.with_turn(kept.turn))
        window.refresh_preview()
        window.statusBar().showMessage(
            arg(
                QCoreApplication.translate("SidePanel", "Kept the side answer as turn %1"),
                str(kept.turn.ordinal),
            )
        )


def attach(window: MainWindow) -> SideQuestions:
    """The "Side questions" dock on the right of `window`, wired to it."""
    panel = SidePanel(window)
    dock = add_dock(
        window,
        QCoreApplication.translate("SidePanel", "Side questions"),
        "sideDock",
        panel,
        Qt.DockWidgetArea.RightDockWidgetArea,
    )
    window.tabifyDockWidget(window.inspector_dock, dock)
    window.folding.also_fold(dock)  # a narrow window folds it away with the inspector
    window.inspector_dock.raise_()  # the request inspector stays in front until asked aside
    window.side_dock = dock
    side = SideQuestions(window, panel)
    window.composer.aside_requested.connect(dock.raise_)
    return side


__all__ = ["STAGE_WORDS", "SidePanel", "SideQuestions", "SideSession", "attach"]
