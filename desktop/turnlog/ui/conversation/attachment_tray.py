"""The composer's attachments: a chip per file (name, kind, size, what it adds to the
request, the encoding it was read in, × to remove) and the line that says why a file
could not be attached."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from ...core.attachments import Attachment, AttachmentKind, Question
from ...core.projection import AttachmentCost, attachment_costs
from ..infra.languages import arg, byte_size

translate = QCoreApplication.translate  # translate("AttachmentTray", …): lupdate reads it


def kind_name(attachment: Attachment) -> str:
    if attachment.kind is AttachmentKind.IMAGE:
        return translate("AttachmentTray", "image")
    if attachment.kind is AttachmentKind.PDF:
        return translate("AttachmentTray", "PDF")
    return translate("AttachmentTray", "text")


def chip_text(cost: AttachmentCost) -> str:
    """"notes.txt · text, GBK · 1.2 KB · 1,260 bytes, ≈310 tokens"."""
    attachment = cost.attachment
    kind = kind_name(attachment)
    if attachment.kind is AttachmentKind.IMAGE:
        kind = arg(translate("AttachmentTray", "%1, %2×%3"), kind, attachment.width,
                   attachment.height)
    if attachment.encoding:
        kind = arg(translate("AttachmentTray", "%1, %2"), kind, attachment.encoding)
    sent = arg(translate("AttachmentTray", "%1 bytes, ≈%2 tokens") if cost.estimated
               else translate("AttachmentTray", "%1 bytes, %2 tokens"), cost.bytes, cost.tokens)
    return " · ".join([attachment.name, kind, byte_size(attachment.size), sent])


def chip_tip(cost: AttachmentCost) -> str:
    """The chip's tooltip: what it adds to the request, and the file's notes."""
    how = translate("AttachmentTray", "estimated; images by OpenAI's tile rule") \
        if cost.estimated else translate("AttachmentTray", "exact")
    lines = [arg(translate("AttachmentTray", "In the request: %1 bytes of the body, %2 "
                           "tokens (%3)."), cost.bytes, cost.tokens, how)]
    lines += list(cost.attachment.notes)
    return "\n".join(lines)


class AttachmentChip(QFrame):
    """One attached file, removable before sending."""

    removed = Signal()

    def __init__(self, cost: AttachmentCost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 2, 2)
        row.setSpacing(4)
        self.label = QLabel(chip_text(cost), self)
        self.label.setToolTip(chip_tip(cost))
        row.addWidget(self.label)
        self.remove = QToolButton(self)
        self.remove.setText("×")
        self.remove.setAutoRaise(True)
        name = cost.attachment.name
        self.remove.setToolTip(arg(translate("AttachmentTray", "Remove %1"), name))
        self.remove.setAccessibleName(arg(translate("AttachmentTray", "Remove %1"), name))
        self.remove.clicked.connect(self.removed)
        row.addWidget(self.remove)


class AttachmentTray(QWidget):
    """The chips of the draft's files, one a line, and the last problem attaching one."""

    remove_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentTray")
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(2)
        self.problem = QLabel(self)
        self.problem.setObjectName("attachmentProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.hide()
        self._column.addWidget(self.problem)
        self.chips: list[AttachmentChip] = []
        self.hide()

    def show_files(self, question: Question, *, images: bool = True) -> None:
        for chip in self.chips:
            chip.deleteLater()
        self.chips = []
        for index, cost in enumerate(attachment_costs(question, images=images)):
            chip = AttachmentChip(cost, self)
            chip.removed.connect(lambda i=index: self.remove_requested.emit(i))
            self._column.insertWidget(index, chip)
            self.chips.append(chip)
        self._update()

    def show_problem(self, text: str) -> None:
        """Say why a file was not attached ("" hides it)."""
        self.problem.setText(text)
        self.problem.setVisible(bool(text))
        self._update()

    def _update(self) -> None:
        self.setVisible(bool(self.chips) or self.problem.isVisibleTo(self))
