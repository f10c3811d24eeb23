"""A dialog that fits the screen it opens on: its content scrolls, while the line saying
what needs fixing and the Save/Cancel buttons stay below it, always in view.

`FittedDialog` lays that out; a subclass puts its pages in `scrolled()` areas and calls
`fit_to_screen()` (done once by itself when the dialog is first shown). The dialog opens
as large as its content wants, but never larger than the screen's available area less
a window manager's frame.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QRect, QSize, Qt
from PySide6.QtGui import QMouseEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

# A frame the window manager has not drawn yet (before the first show) is guessed this
# large: a title bar and thin borders.
GUESSED_FRAME = QSize(16, 48)
WIDEST = 720  # a form wider than this reads badly; the content wraps instead


def alive(owner: QObject) -> list[bool]:
    """A flag that is true until `owner` is deleted: a late answer from a worker checks it
    before touching `owner`'s widgets."""
    flag = [True]
    owner.destroyed.connect(lambda *_args: flag.clear())
    return flag


class _CheckWords(QLabel):
    """The words of a wrapped check box: a click on them toggles it, as on its own text."""

    def __init__(self, check: QCheckBox, parent: QWidget) -> None:
        super().__init__(check.text(), parent)
        self._check = check
        self.setWordWrap(True)
        self.setBuddy(check)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton and self._check.isEnabled():
            self._check.toggle()
        super().mouseReleaseEvent(event)


def wrap_check(check: QCheckBox) -> QWidget:
    """`check` with its words in a label that wraps (a QCheckBox's text never wraps, and a
    long one would make the form wider than a small screen); the row to add to a form."""
    row = QWidget(check.parentWidget())
    line = QHBoxLayout(row)
    line.setContentsMargins(0, 0, 0, 0)
    words = _CheckWords(check, row)
    if not check.accessibleName():
        check.setAccessibleName(check.text())
    check.setText("")
    check.setParent(row)
    line.addWidget(check, 0, Qt.AlignmentFlag.AlignTop)
    line.addWidget(words, 1)
    # The box beside the words' first line: both centred on the same height.
    words.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    offset = check.sizeHint().height() - words.fontMetrics().height()
    if offset > 0:
        words.setContentsMargins(0, offset // 2, 0, 0)
    elif offset < 0:
        check.setContentsMargins(0, -offset // 2, 0, 0)
    return row


class FittedDialog(QDialog):
    """Content in scroll areas; `problem` (what needs fixing) and `buttons` below them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._scrolls: list[QScrollArea] = []
        self._fitted = False
        self.alive = alive(self)
        self.body = QVBoxLayout(self)
        self.problem = QLabel(self)
        self.problem.setObjectName("settingsProblem")
        self.problem.setWordWrap(True)
        self.problem.setAccessibleName(QCoreApplication.translate(
            "SettingsDialog", "What needs fixing"))
        self.problem.setStyleSheet("color: palette(bright-text); background: #b42318; "
                                   "padding: 4px; border-radius: 4px;")
        self.problem.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.rejected.connect(self.reject)

    def finish_layout(self) -> None:
        """Put the problem line and the buttons under what the subclass added."""
        self.body.addWidget(self.problem)
        self.body.addWidget(self.buttons)

    def scrolled(self, content: QWidget) -> QScrollArea:
        """`content` in a frameless scroll area that scrolls only up and down when it can."""
        area = QScrollArea(self)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidgetResizable(True)
        area.setWidget(content)
        self._scrolls.append(area)
        return area

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            self.fit_to_screen()

    def available(self) -> QRect:
        """The screen's area windows may use, where this dialog (or its parent) is."""
        parent = self.parentWidget()
        screen = (parent.screen() if parent is not None else None) or self.screen()
        return screen.availableGeometry()

    def frame_size(self) -> QSize:
        """What the window manager adds around the dialog (a guess until it is shown)."""
        frame = self.frameGeometry().size() - self.geometry().size()
        return frame if frame.height() > 0 else GUESSED_FRAME

    def fit_to_screen(self) -> None:
        """As large as the content wants, at most the available area less the frame;
        moved so that the whole frame is on the screen."""
        area, frame = self.available(), self.frame_size()
        room = QSize(area.width() - frame.width(), area.height() - frame.height())
        width = min(max(self.sizeHint().width(), 560), WIDEST, room.width())
        width = max(width, min(self.minimumSizeHint().width(), room.width()))
        height = min(self.sizeHint().height() + self._more_height(width), room.height())
        self.resize(width, height)
        self._move_within(area, frame)

    def _more_height(self, width: int) -> int:
        """How much taller than their size hint (which Qt caps) the scroll areas' content
        wants to be at `width`: the largest of them, as only one is shown at a time."""
        more = 0
        for area in self._scrolls:
            content = area.widget()
            if content is None:
                continue
            inner = max(1, width - 2 * self.body.contentsMargins().left())
            wanted = (content.heightForWidth(inner) if content.hasHeightForWidth()
                      else content.sizeHint().height())
            more = max(more, wanted - area.sizeHint().height())
        return max(0, more)

    def _move_within(self, area: QRect, frame: QSize) -> None:
        parent = self.parentWidget()
        centre = parent.frameGeometry().center() if parent is not None else area.center()
        outer = QRect(0, 0, self.width() + frame.width(), self.height() + frame.height())
        outer.moveCenter(centre)
        outer.moveLeft(max(area.left(), min(outer.left(), area.right() + 1 - outer.width())))
        outer.moveTop(max(area.top(), min(outer.top(), area.bottom() + 1 - outer.height())))
        self.move(outer.topLeft())
