"""The request that made an answer: rebuilt from its record on the storage worker and shown
in a small inspector of its own — verified (its SHA-256 matches the one kept when it was
sent) or why not, the turns' marks, its parts in wire order (a deleted one says so, with
no text) and its exact body."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Conversation
from ...core.proof import PartState, Rebuilt
from ...service.request_body import RoundNotFound
from ...store import TurnlogStore
from ..infra.failure_text import translate
from ..infra.operations import rebuild_request
from ..infra.tasks import TaskRunner
from ..transcript.model import Role
from ..transcript.view import TranscriptView
from .inspector_text import MAX_SHOWN_BODY_CHARS


def _runs(runs: list[tuple[int, int]]) -> str:
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs) or "—"


def verdict(rebuilt: Rebuilt) -> str:
    """The inspector's first line: verified, or why the body cannot be shown as sent."""
    if rebuilt.verified:
        return translate("PastRequest", "Verified: this body hashes to the SHA-256 kept when "
                         "it was sent") + f" ({rebuilt.stored_sha256})"
    return translate("PastRequest", "Not verified: ") + rebuilt.why


def parts_text(rebuilt: Rebuilt) -> str:
    """The parts in wire order, a deleted one named as such (never its text)."""
    lines = []
    for part in rebuilt.parts:
        shown = part.number if part.number is not None else part.ordinal
        name = part.kind + (f" {shown}" if shown is not None else "")
        if part.state is PartState.DELETED:
            lines.append(f"{name}: " + translate("PastRequest", "*deleted*"))
        else:
            first = (part.text or "").strip().splitlines()
            lines.append(f"{name}: {first[0][:120] if first else ''}")
    marks = [f"{name}: {_runs(list(runs))}" for name, runs in rebuilt.marks.items()]
    return "\n".join([*marks, "", *lines])


class PastRequestDialog(QDialog):
    """One past request: its verdict, a round picker for a tool exchange, parts and body."""

    round_chosen = Signal(int)

    def __init__(self, rebuilt: Rebuilt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pastRequest")
        self.setWindowTitle(translate("PastRequest", "Request that made this answer"))
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.rounds = QSpinBox(self)
        self.rounds_label = QLabel(translate("PastRequest", "Request of the tool exchange:"),
                                   self)
        self.rounds.valueChanged.connect(self.round_chosen.emit)
        row = QHBoxLayout()
        row.addWidget(self.rounds_label)
        row.addWidget(self.rounds)
        row.addStretch(1)
        self.parts = QPlainTextEdit(self)
        self.parts.setReadOnly(True)
        self.body = QPlainTextEdit(self)
        self.body.setReadOnly(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addLayout(row)
        layout.addWidget(self.parts, 1)
        layout.addWidget(self.body, 2)
        layout.addWidget(buttons)
        self.resize(720, 560)
        self.show_rebuilt(rebuilt)

    def show_rebuilt(self, rebuilt: Rebuilt) -> None:
        self.rebuilt = rebuilt
        self.verdict.setText(verdict(rebuilt))
        self.rounds.blockSignals(True)
        self.rounds.setRange(1, rebuilt.rounds)
        self.rounds.setValue(rebuilt.round)
        self.rounds.blockSignals(False)
        self.rounds.setVisible(rebuilt.rounds > 1)
        self.rounds_label.setVisible(rebuilt.rounds > 1)
        self.parts.setPlainText(parts_text(rebuilt))
        body = rebuilt.body.decode("utf-8") if rebuilt.body is not None else translate(
            "PastRequest", "No body: ") + rebuilt.why
        self.body.setPlainText(body[:MAX_SHOWN_BODY_CHARS])


class PastRequests(QObject):
    """The transcript's "Request that made this answer…" (shown for a committed turn), and
    the inspector it opens on that request, rebuilt on the storage worker."""

    def __init__(self, store: TurnlogStore, runner: TaskRunner, view: TranscriptView,
                 conversation: Callable[[], Conversation | None],
                 show_text: Callable[[str, str], None],
                 failed: Callable[[BaseException], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.store, self.runner, self.conversation_now = store, runner, conversation
        self.show_text, self.failed, self.window, self.view = show_text, failed, parent, view
        self.dialog: PastRequestDialog | None = None
        self.action = QAction(translate("Transcript", "Request that made this answer…"), view)
        self.action.setToolTip(translate(
            "Transcript", "Show the request this answer came from, rebuilt byte for byte "
            "and checked against the hash kept when it was sent"))
        self.action.triggered.connect(self.open_current)
        view.addAction(self.action)
        view.menu_opening.connect(self._menu_opening)

    def _menu_opening(self, index: QModelIndex) -> None:
        self.action.setVisible(index.isValid() and not index.data(Role.PENDING))

    def open_current(self) -> str | None:
        """Open the request of the current turn (a committed one); its id, or None."""
        index = self.view.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        turn_id = str(index.data(Role.KEY))
        self.open(turn_id)
        return turn_id

    def open(self, turn_id: str, round_: int | None = None) -> None:
        conversation = self.conversation_now()
        if conversation is None:
            return
        rebuild_request(self.store, conversation.id, turn_id, round_).run(
            self.runner, on_success=lambda rebuilt: self._show(turn_id, rebuilt),
            on_failure=self._failed)

    def _show(self, turn_id: str, rebuilt: Rebuilt) -> None:
        if self.dialog is not None and self.dialog.isVisible() \
                and self.dialog.rebuilt.turn_id == turn_id:
            self.dialog.show_rebuilt(rebuilt)
            return
        self.dialog = PastRequestDialog(rebuilt, self.window)
        self.dialog.round_chosen.connect(lambda k: self.open(turn_id, k))
        self.dialog.show()

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, (LookupError, RoundNotFound)):
            self.show_text(translate("PastRequest", "No request to show"), str(error))
            return
        self.failed(error)  # a storage fault is named inline; anything else is a bug
