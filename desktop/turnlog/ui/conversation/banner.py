"""The inline failure banner above the composer: plain words, the next step, and any
partial answer so it can be copied (it is not saved), kept as an incomplete turn or
continued (`offer_partial`: the person decides, nothing is kept without a click).

Compact, so a small screen keeps the history and the composer in view: the title beside
Send again and Dismiss, the next step in one line, Keep and Continue when offered; the
whole message, the answer so far and Copy open under Details."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QDesktopServices,
    QFontDatabase,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextCursor,
    QTextLayout,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.failures import Failure, FailureKind
from ..infra import failure_text
from ..infra.failure_text import explanation
from ..infra.languages import arg
from ..infra.theme import banner_tint

# Failures a setting fixes (a refused or missing key): the banner offers Settings.
SETTINGS_FIX = frozenset({FailureKind.AUTH, FailureKind.NO_KEY})
OPEN_SETTINGS = QT_TRANSLATE_NOOP("FailureBanner", "Open Settings…")


class MessageLine(QLabel):
    """The banner's message in at most `LINES` lines (what happened, then the next step,
    which comes last: wrapped onto the second line, not cut), what runs past them cut with
    "…" (the whole text stays `text()` and the tooltip); or `whole`: wrapped and
    selectable, as long as it is."""

    LINES = 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.set_whole(False)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True  # its height follows its width, whole or not (QLabel says so only
        # when it wraps, and says it again on every change of text)

    def set_whole(self, whole: bool) -> None:
        self.whole = whole
        self.setWordWrap(whole)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard if whole
            else Qt.TextInteractionFlag.NoTextInteraction)
        self.updateGeometry()
        self.update()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self.setToolTip(text)
        self.updateGeometry()

    def shown_lines(self, width: int | None = None) -> list[str]:
        """The lines drawn at `width` (the current one): the text on one line, wrapped,
        the last of `LINES` cut with "…" where more follows."""
        width = max(1, self.contentsRect().width() if width is None else width)
        text = " ".join(self.text().split())
        layout = QTextLayout(text, self.font())
        starts = []
        layout.beginLayout()
        while len(starts) <= self.LINES:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            starts.append((line.textStart(), line.textLength()))
        layout.endLayout()
        lines = [text[start:start + length].rstrip() for start, length in starts[:self.LINES]]
        if len(starts) > self.LINES:
            lines[-1] = self.fontMetrics().elidedText(
                text[starts[self.LINES - 1][0]:], Qt.TextElideMode.ElideRight, width)
        return lines

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        if self.whole:
            return super().heightForWidth(width)
        margins = self.contentsMargins()
        lines = len(self.shown_lines(width - margins.left() - margins.right())) or 1
        return lines * self.fontMetrics().lineSpacing() + margins.top() + margins.bottom()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        if self.whole:
            return super().sizeHint()
        return QSize(self.fontMetrics().horizontalAdvance(" ".join(self.text().split())) + 2,
                     self.fontMetrics().lineSpacing())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        if self.whole:
            return super().minimumSizeHint()
        return QSize(0, self.fontMetrics().lineSpacing())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        if self.whole:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        rect, spacing = self.contentsRect(), self.fontMetrics().lineSpacing()
        for number, line in enumerate(self.shown_lines()):
            self.style().drawItemText(
                painter, rect.adjusted(0, number * spacing, 0, 0),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), self.palette(),
                self.isEnabled(), line, self.foregroundRole())
        painter.end()


class FailureBanner(QFrame):
    """Shown after a failed send; never modal. `retry` asks to send the restored draft."""

    settings_requested = Signal()  # Open Settings: a key the server refused, or none
    retry = Signal()
    keep_requested = Signal()  # Keep as an incomplete turn
    continue_requested = Signal()  # Continue: ask the model for the rest

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("failureBanner")
        self.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Problem with the last request"))
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        # Never squeezed below what it says (its words, the partial answer, the log): the
        # views above it give way instead.
        policy = self.sizePolicy()
        policy.setVerticalPolicy(QSizePolicy.Policy.Minimum)
        self.setSizePolicy(policy)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)

        top = QHBoxLayout()
        self.title = QLabel(self)
        self.title.setObjectName("bannerTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        top.addWidget(self.title, 1)
        self.retry_button = QPushButton(QCoreApplication.translate(
            "FailureBanner", "Send again"), self)
        self.retry_button.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Send the question again"))
        self.retry_button.clicked.connect(self.retry)
        top.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        self.close_button = QPushButton(QCoreApplication.translate(
            "FailureBanner", "Dismiss"), self)
        self.close_button.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Dismiss the problem"))
        self.close_button.clicked.connect(self.dismiss)
        top.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)

        line = QHBoxLayout()
        self.message = MessageLine(self)
        self.message.setObjectName("bannerMessage")
        line.addWidget(self.message, 1)
        self.details_button = QToolButton(self)
        self.details_button.setText(QCoreApplication.translate("FailureBanner", "Details"))
        self.details_button.setToolTip(QCoreApplication.translate(
            "FailureBanner", "The whole message, the answer so far and Copy"))
        self.details_button.setCheckable(True)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.toggled.connect(self.show_details)
        line.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(line)
        self._partial_actions(layout)
        self._details(layout)

        self._log_rows(layout)

        self.actions = QHBoxLayout()  # buttons of a storage fault (Export, Open the folder)
        layout.addLayout(self.actions)
        self._action_buttons: list[QPushButton] = []

        self.failure: Failure | None = None
        self._full_message = ""
        self._wait_left = 0
        self._countdown = QTimer(self)
        self._countdown.setInterval(1000)
        self._countdown.timeout.connect(self._tick)
        self.hide()

    def _details(self, layout: QVBoxLayout) -> None:
        """What Details opens: the answer so far (the message shows whole above it) and
        Copy."""
        self.details = QWidget(self)
        column = QVBoxLayout(self.details)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        self.partial_label = QLabel(QCoreApplication.translate(
            "FailureBanner", "The answer so far (not saved):"), self.details)
        column.addWidget(self.partial_label)
        self.partial = QPlainTextEdit(self.details)
        self.partial.setObjectName("partialAnswer")
        self.partial.setReadOnly(True)
        self.partial.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Partial answer, not saved"))
        self.partial.setMaximumHeight(self.partial.fontMetrics().lineSpacing() * 3 + 14)
        column.addWidget(self.partial)
        row = QHBoxLayout()
        self.copy_button = QPushButton(QCoreApplication.translate("FailureBanner", "Copy"),
                                       self.details)
        self.copy_button.setToolTip(QCoreApplication.translate(
            "FailureBanner", "Copy the message and any partial answer"))
        self.copy_button.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Copy the problem report"))
        self.copy_button.clicked.connect(self.copy)
        row.addWidget(self.copy_button)
        row.addStretch(1)
        column.addLayout(row)
        layout.addWidget(self.details)
        self.details.hide()

    def show_details(self, shown: bool) -> None:
        """Details: the message whole, the answer so far and Copy (or back to one line)."""
        if self.details_button.isChecked() != shown:
            self.details_button.setChecked(shown)  # comes back here through `toggled`
            return
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if shown
                                         else Qt.ArrowType.RightArrow)
        self.message.set_whole(shown)
        has_partial = bool(self.partial.toPlainText())
        self.partial_label.setVisible(has_partial)
        self.partial.setVisible(has_partial)
        self.details.setVisible(shown)

    def _partial_actions(self, layout: QVBoxLayout) -> None:
        """The row under a partial answer: keep it as an incomplete turn, or continue."""
        self.partial_row = QWidget(self)
        row = QHBoxLayout(self.partial_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.keep_button = QPushButton(QCoreApplication.translate(
            "FailureBanner", "Keep as an incomplete turn"), self.partial_row)
        self.keep_button.setToolTip(QCoreApplication.translate(
            "FailureBanner", "Save the question and this answer so far, marked incomplete"))
        self.keep_button.clicked.connect(self.keep_requested)
        row.addWidget(self.keep_button)
        self.continue_button = QPushButton(QCoreApplication.translate(
            "FailureBanner", "Continue"), self.partial_row)
        self.continue_button.setToolTip(QCoreApplication.translate(
            "FailureBanner", "Ask the model for the rest of this answer"))
        self.continue_button.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "Continue the answer"))
        self.continue_button.clicked.connect(self.continue_requested)
        row.addWidget(self.continue_button)
        row.addStretch(1)
        layout.addWidget(self.partial_row)
        self.partial_row.hide()

    def offer_partial(self, offered: bool = True) -> None:
        """Show (or take away) Keep and Continue under the partial answer on show."""
        self.partial_row.setVisible(offered and bool(self.partial.toPlainText()))

    def _log_rows(self, layout: QVBoxLayout) -> None:
        """The last lines of the built-in model's log, when its server died or never
        started: one row, the box beside the button that opens the log's folder."""
        self.log_label = QLabel(QCoreApplication.translate("Failure", "The log ends:"), self)
        layout.addWidget(self.log_label)
        log_row = QHBoxLayout()
        self.log_box = QPlainTextEdit(self)
        self.log_box.setObjectName("failureLog")
        self.log_box.setReadOnly(True)
        self.log_box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.log_box.setAccessibleName(QCoreApplication.translate(
            "FailureBanner", "The last lines of the local model's log"))
        self.log_box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        line, bar = (self.log_box.fontMetrics().lineSpacing(),
                     self.log_box.horizontalScrollBar().sizeHint().height())
        self.log_box.setMinimumHeight(line * 2 + 14 + bar)
        self.log_box.setMaximumHeight(line * 4 + 14 + bar)
        log_row.addWidget(self.log_box, 1)
        self.open_log_button = QPushButton(QCoreApplication.translate(
            "FailureBanner", "Open the log folder"), self)
        self.open_log_button.clicked.connect(self._open_log_folder)
        log_row.addWidget(self.open_log_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(log_row)
        self.log_folder: Path | None = None  # where "Open the log folder" goes

    def show_failure(self, failure: Failure, partial: str = "") -> None:
        """Say what happened to a send, with the next step; offer to send again where
        that can help (after the server's retry delay, counted down)."""
        wait = max(1, round(failure.retry_after)) if failure.retry_after is not None else 0
        self._present(failure_text.title(failure), failure_text.message(failure), partial,
                      retryable=failure.kind.offers_retry,
                      wait=wait, mild=failure.kind is FailureKind.CANCELLED,
                      line=explanation(failure))
        self._show_log(failure.log_tail)
        if failure.kind in SETTINGS_FIX:
            self._add_actions([(QCoreApplication.translate("FailureBanner", OPEN_SETTINGS),
                                self.settings_requested.emit)])
        self.failure = failure

    def _show_log(self, lines: Sequence[str]) -> None:
        self.log_box.setPlainText("\n".join(lines))
        for part in (self.log_label, self.log_box):
            part.setVisible(bool(lines))
        self.open_log_button.setVisible(bool(lines) and self.log_folder is not None)
        if lines:
            # The last line says how the server ended: in view however small the box is
            # (once the layout has given the box its height).
            QTimer.singleShot(0, self._scroll_log_to_end)

    def _scroll_log_to_end(self) -> None:
        self.log_box.moveCursor(QTextCursor.MoveOperation.End)
        self.log_box.moveCursor(QTextCursor.MoveOperation.StartOfLine)
        self.log_box.ensureCursorVisible()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.log_box.isVisible():
            self._scroll_log_to_end()

    def _open_log_folder(self) -> None:
        if self.log_folder is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_folder)))

    def show_text(self, title: str, message: str, partial: str = "") -> None:
        """A problem that is not a send failure (nothing set up, a bug)."""
        self._present(title, message, partial, retryable=False, wait=0, mild=False)

    def show_fault(self, title: str, message: str,
                   actions: Sequence[tuple[str, Callable[[], object]]] = ()) -> None:
        """A storage fault: what happened and the hint, with a button for each of
        `actions` (label, what it does)."""
        self._present(title, message, "", retryable=False, wait=0, mild=False)
        self._add_actions(actions)

    def _add_actions(self, actions: Sequence[tuple[str, Callable[[], object]]]) -> None:
        for label, act in actions:
            button = QPushButton(label, self)
            button.setAccessibleName(label)
            button.clicked.connect(lambda _checked=False, act=act: act())
            self.actions.addWidget(button)
            self._action_buttons.append(button)
        if actions:
            self.actions.addStretch(1)

    def action(self, label: str) -> QPushButton | None:
        """The shown action button labelled `label`, if any."""
        return next((b for b in self._action_buttons if b.text() == label), None)

    def _clear_actions(self) -> None:
        for button in self._action_buttons:
            button.deleteLater()
        self._action_buttons = []
        while self.actions.count():
            self.actions.takeAt(0)

    def _present(self, title: str, message: str, partial: str, *, retryable: bool,
                 wait: int, mild: bool, line: str | None = None) -> None:
        self._countdown.stop()
        self._clear_actions()
        self.failure = None
        self.title.setText(title)
        self._full_message = message
        self.message.setText(message if line is None else line)
        self.partial.setPlainText(partial)
        self._show_log(())
        self.show_details(False)
        self.offer_partial(False)  # offered again by whoever knows the answer can be kept
        self.retry_button.setVisible(retryable)
        self._wait_left = wait
        self._update_retry()
        if self._wait_left:
            self._countdown.start()
        self._tint(mild)
        self.show()

    def _tint(self, mild: bool) -> None:
        self._mild = mild  # tinted anew when the theme changes (`retint`)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, banner_tint(palette, mild=mild))
        self.setPalette(palette)

    def retint(self) -> None:
        """The theme changed: the tint of the one now in use."""
        self._tint(getattr(self, "_mild", True))

    def _tick(self) -> None:
        self._wait_left = max(0, self._wait_left - 1)
        self._update_retry()
        if not self._wait_left:
            self._countdown.stop()

    def _update_retry(self) -> None:
        if self._wait_left:
            self.retry_button.setEnabled(False)
            self.retry_button.setText(arg(QCoreApplication.translate(
                "FailureBanner", "Send again (%1 s)"), self._wait_left))
        else:
            self.retry_button.setEnabled(True)
            self.retry_button.setText(QCoreApplication.translate("FailureBanner", "Send again"))

    def report(self) -> str:
        """The full text for the clipboard: title, message, any partial answer."""
        text = self._full_message
        if self.partial.toPlainText():
            text += ("\n\n" + QCoreApplication.translate(
                "FailureBanner", "The answer so far (not saved):")
                     + "\n" + self.partial.toPlainText())
        return text

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.report())

    def dismiss(self) -> None:
        self._countdown.stop()
        self.show_details(False)
        self._clear_actions()
        self.offer_partial(False)
        self.failure = None
        self.hide()
