"""The conversation header: the profile and model in use, as pickers, and the
conversation's sampling settings (temperature, top_p, max output tokens), laid out by
`ConversationHeader`; `HeaderPicker` (header_picker.py) fills them.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionFrame,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.model import (
    MAX_OUTPUT_RESERVE,
    ConversationSettings,
)
from ..infra.languages import arg, number
from ..infra.wheel import wheel_only_when_focused

SERVER_DEFAULT = QT_TRANSLATE_NOOP("HeaderPicker", "server default")
APPLY_DELAY_MS = 400  # a sampling change is saved once the person stops turning the dial
NO_TEMPERATURE = -0.1  # the spin boxes' lowest value stands for "server default"
NO_TOP_P = -0.05


def sampling_summary(settings: ConversationSettings) -> str:
    """The sampling button's words: what the body will carry."""
    bits = []
    if settings.temperature is not None:
        bits.append(arg(QCoreApplication.translate(
            "HeaderPicker", "temperature %1"), number(settings.temperature)))
    if settings.top_p is not None:
        bits.append(arg(QCoreApplication.translate(
            "HeaderPicker", "top_p %1"), number(settings.top_p)))
    if settings.send_max_tokens:
        bits.append(arg(QCoreApplication.translate(
            "HeaderPicker", "max %1 tokens"), settings.output_reserve))
    return QCoreApplication.translate("HeaderPicker", "Sampling: ") + (" · ".join(bits) if bits
                                                                   else QCoreApplication.translate(
                                                                       "HeaderPicker", "server "
                                                                       "defaults"))


class SummaryButton(QToolButton):
    """A tool button whose words are a summary: shown whole where there is room, else cut
    at the end with an ellipsis (never in the middle); the whole text is its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self.setToolTip(text)
        super().setText(text)
        self.updateGeometry()
        # Cut to the width the layout gives it once it has (a resize cuts it again).
        QTimer.singleShot(0, self, self._elide)

    def full_text(self) -> str:
        return self._full

    def _width_of(self, text: str) -> int:
        # As QToolButton measures its words: whole pixels rounded up (a Chinese text's
        # horizontalAdvance is a pixel short of what elidedText needs to keep it whole)
        return self.fontMetrics().size(Qt.TextFlag.TextShowMnemonic, text).width()

    def _padding(self) -> int:
        return super().sizeHint().width() - self._width_of(self.text())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        return QSize(self._width_of(self._full) + self._padding(), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # At least its first word whole ("Sampling…"), a pixel's rounding spare.
        first = self._full.split()[0].rstrip(":：") if self._full.split() else ""
        shortest = self._width_of(first + "…") + 2
        return QSize(min(shortest, self._width_of(self._full))
                     + self._padding(), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = self.width() - self._padding()
        shown = self._full if self._width_of(self._full) <= room else (
            self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight,
                                          max(room, 0)))
        if shown != self.text():
            super().setText(shown)


class ElidingCombo(QComboBox):
    """A picker whose chosen entry, when longer than the box, is cut at the end with an
    ellipsis (the whole entry in the list and its tooltip)."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Room for `minimumContentsLength` characters: a longer entry is cut, not a reason
        to widen the window."""
        hint = super().minimumSizeHint()
        least = self.minimumContentsLength()
        if not least or self.sizeAdjustPolicy() != QComboBox.SizeAdjustPolicy.AdjustToContents:
            return hint
        extra = super().sizeHint().width() - self._widest()
        return QSize(min(hint.width(),
                         self.fontMetrics().horizontalAdvance("x" * least) + max(extra, 0)),
                     hint.height())

    def _widest(self) -> int:
        metrics = self.fontMetrics()
        return max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())),
                   default=0)

    def initStyleOption(self, option: QStyleOptionComboBox) -> None:  # noqa: N802 - Qt's
        super().initStyleOption(option)
        room = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(  # type: ignore[attr-defined]
            option.currentText, Qt.TextElideMode.ElideRight,  # type: ignore[attr-defined]
            max(room.width(), 0))


class ElidingLineEdit(QLineEdit):
    """A line edit that, while it is not being typed in, shows a text longer than itself
    cut at the end with an ellipsis; focused, the whole text is there to edit."""

    MARGIN = 2  # what QLineEdit keeps between its contents and its text

    def _room(self) -> int:
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        contents = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents,
                                               option, self)
        margins = self.textMargins()
        return contents.width() - margins.left() - margins.right() - 2 * self.MARGIN

    def shown_text(self) -> str:
        """The words on show when not focused."""
        if self.hasFocus():
            return self.text()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             max(self._room(), 0))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        shown = self.shown_text()
        if shown == self.text():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelLineEdit, option, painter,
                                   self)
        contents = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents,
                                               option, self)
        contents = contents.marginsRemoved(self.textMargins()).adjusted(
            self.MARGIN, 0, -self.MARGIN, 0)
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        painter.drawText(contents, int(Qt.AlignmentFlag.AlignVCenter
                                       | Qt.AlignmentFlag.AlignLeft), shown)

    def focusInEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.update()

    def focusOutEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)  # type: ignore[arg-type]
        self.setCursorPosition(0)  # the name's start, where the ellipsis is not
        self.update()


class ModelCombo(ElidingCombo):
    """The model picker; says when its list is about to open, so the server's models are
    asked for only when someone looks for them."""

    opening = Signal()

    def showPopup(self) -> None:  # noqa: N802 - Qt override
        self.opening.emit()
        super().showPopup()


class ConversationHeader(QWidget):
    """Profile ▾ · Model ▾ ⟳ · Sampling ▸, and the sampling fields below when open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conversationHeader")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(4)
        self.profile = ElidingCombo(self)
        self.profile.setObjectName("profilePicker")
        self.profile.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Provider profile in use"))
        # As wide as its longest name where there is room, cut with an ellipsis where not.
        self.profile.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.profile.setMinimumContentsLength(8)
        self.profile.setToolTip(QCoreApplication.translate(
            "HeaderPicker", "The provider profile requests go to (as in Settings)"))
        row.addWidget(self._label(QCoreApplication.translate(
            "HeaderPicker", "&Profile:"), self.profile))
        row.addWidget(self.profile)
        self.model = ModelCombo(self)
        self.model.setObjectName("modelPicker")
        self.model.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Model of this conversation"))
        self.model.setEditable(True)
        self.model.setLineEdit(ElidingLineEdit(self.model))
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setMinimumContentsLength(10)  # longer names end in an ellipsis
        self.model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setToolTip(QCoreApplication.translate(
            "HeaderPicker", "This conversation's model: pick one the server lists, or type a "
            "name and press Enter"))
        row.addWidget(self._label(QCoreApplication.translate(
            "HeaderPicker", "&Model:"), self.model))
        row.addWidget(self.model, 1)
        self.refresh = QToolButton(self)
        self.refresh.setText("⟳")
        self.refresh.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Fetch the server's models again"))
        self.refresh.setToolTip(QCoreApplication.translate(
            "HeaderPicker", "Ask the server for its models again"))
        row.addWidget(self.refresh)
        self.sampling = SummaryButton(self)
        self.sampling.setObjectName("samplingButton")
        self.sampling.setCheckable(True)
        self.sampling.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Sampling settings of this conversation"))
        row.addWidget(self.sampling)
        self._pickers = row
        # Where the pickers leave it too little room (a 1024 px window, where it said only
        # "Sampling…"), the sampling button has a line of its own under them.
        self._own_line = QHBoxLayout()
        self._own_line.setContentsMargins(0, 0, 0, 0)
        # An imported conversation's origin and its model there (never what is sent), on a
        # line of its own under the pickers: beside them it was cut off at 1024 px.
        self.provenance = QLabel(self)
        self.provenance.setObjectName("importProvenance")
        self.provenance.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.provenance.setWordWrap(True)
        self.provenance.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.provenance.hide()
        # What the conversation's requests used and cost (hidden until it used something).
        self.spent = QLabel(self)
        self.spent.setObjectName("conversationCost")
        self.spent.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.spent.setWordWrap(True)
        self.spent.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.spent.hide()
        self.status = QLabel(self)
        self.status.setObjectName("modelsStatus")
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status.hide()
        column.addLayout(row)
        column.addLayout(self._own_line)
        column.addWidget(self.provenance)
        column.addWidget(self.spent)
        column.addWidget(self._sampling_row())
        column.addWidget(self.status)

    def event(self, event: QEvent) -> bool:
        # A picker's or the button's words changed, or the header's width: place it again
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._place_sampling()
        return super().event(event)

    def _place_sampling(self) -> None:
        """The sampling button beside the pickers where its words fit whole there (the
        pickers give way down to their least width: a name cut short keeps its tooltip),
        else on its own line under them: a line taken from the transcript and the welcome
        only when the words would be cut."""
        spacing = self._pickers.spacing()
        beside = (self._pickers.itemAt(i).widget() for i in range(self._pickers.count()))
        wanted = sum(widget.minimumSizeHint().width() + spacing for widget in beside
                     if widget is not None and widget is not self.sampling
                     and not widget.isHidden()) + self.sampling.sizeHint().width()
        place = self._pickers if wanted <= self.width() else self._own_line
        if place.indexOf(self.sampling) >= 0:
            return
        (self._own_line if place is self._pickers else self._pickers).removeWidget(
            self.sampling)
        place.addWidget(self.sampling, 0, Qt.AlignmentFlag.AlignLeft)

    def set_spent(self, text: str) -> None:
        """What the conversation cost so far ("" hides the line)."""
        self.spent.setText(text)
        self.spent.setVisible(bool(text))

    def _label(self, text: str, buddy: QWidget) -> QLabel:
        label = QLabel(text, self)
        label.setBuddy(buddy)
        return label

    def _sampling_row(self) -> QWidget:
        self.sampling_row = QWidget(self)
        self.sampling_row.setObjectName("samplingRow")
        row = QHBoxLayout(self.sampling_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self.temperature = QDoubleSpinBox(self.sampling_row)
        self.temperature.setRange(NO_TEMPERATURE, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.temperature.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Temperature"))
        self.top_p = QDoubleSpinBox(self.sampling_row)
        self.top_p.setRange(NO_TOP_P, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setDecimals(2)
        self.top_p.setAccessibleName(QCoreApplication.translate("HeaderPicker", "Top p"))
        self.max_tokens = QSpinBox(self.sampling_row)
        self.max_tokens.setRange(0, MAX_OUTPUT_RESERVE)
        self.max_tokens.setSingleStep(256)
        self.max_tokens.setSuffix(QCoreApplication.translate("HeaderPicker", " tokens"))
        self.max_tokens.setGroupSeparatorShown(True)
        self.max_tokens.setAccessibleName(QCoreApplication.translate(
            "HeaderPicker", "Max output tokens"))
        wheel_only_when_focused(self.temperature, self.top_p, self.max_tokens)
        self.max_tokens.setToolTip(QCoreApplication.translate(
            "HeaderPicker", "The longest answer to ask for (max_tokens); the token budget keeps "
            "this much room for it. Server default leaves the field out and keeps the output "
            "reserve."))
        for spin in (self.temperature, self.top_p, self.max_tokens):
            spin.setSpecialValueText(QCoreApplication.translate("HeaderPicker", SERVER_DEFAULT))
        for text, spin in (
                (QCoreApplication.translate("HeaderPicker", "&Temperature:"), self.temperature),
                (QCoreApplication.translate("HeaderPicker", "Top &p:"), self.top_p),
                (QCoreApplication.translate("HeaderPicker", "Max &output:"), self.max_tokens)):
            row.addWidget(self._label(text, spin))
            row.addWidget(spin)
        row.addStretch(1)
        self.sampling_row.hide()
        return self.sampling_row
