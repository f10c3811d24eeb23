"""How a turn took part in a request, as the window shows it: a coloured band plus a label."""

from __future__ import annotations

import enum

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from ..core.projection import Mark, Projection


class RowMark(enum.Enum):
    """A row's mark. The first three come from a projection; PENDING is the question of
    the running request, ASKED the question (now a turn) the last request carried."""

    SENT = "sent"
    SUMMARY = "summary"
    NOT_SENT = "not_sent"
    PENDING = "pending"
    ASKED = "asked"

    @classmethod
    def of(cls, mark: Mark) -> RowMark:
        return {Mark.SENT: cls.SENT, Mark.SUMMARY: cls.SUMMARY, Mark.NOT_SENT: cls.NOT_SENT}[mark]

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def explanation(self) -> str:
        return _EXPLANATIONS[self]

    def color(self, palette: QPalette) -> QColor:
        dark = palette.color(QPalette.ColorRole.Window).lightness() < 128
        light_color, dark_color = _COLORS[self]
        return QColor(dark_color if dark else light_color)


_LABELS = {
    RowMark.SENT: "sent this time",
    RowMark.SUMMARY: "in summary",
    RowMark.NOT_SENT: "not sent",
    RowMark.PENDING: "pending",
    RowMark.ASKED: "asked this time",
}

_EXPLANATIONS = {
    RowMark.SENT: "carried verbatim in the request",
    RowMark.SUMMARY: "stood in for by the rolling summary",
    RowMark.NOT_SENT: "kept in the log, left out of the request",
    RowMark.PENDING: "the question being answered now",
    RowMark.ASKED: "the question of the last request, now answered and saved",
}

# (light palette, dark palette): chosen to stay apart for the common colour-vision
# deficiencies; the label carries the meaning in any case.
_COLORS = {
    RowMark.SENT: ("#1a7f37", "#3fb950"),
    RowMark.SUMMARY: ("#0969da", "#58a6ff"),
    RowMark.NOT_SENT: ("#8c959f", "#6e7681"),
    RowMark.PENDING: ("#bf8700", "#d29922"),
    RowMark.ASKED: ("#1a7f37", "#3fb950"),
}


def marks_of(projection: Projection) -> dict[int, RowMark]:
    """Ordinal → mark for every turn the projection was given."""
    return {ordinal: RowMark.of(mark) for ordinal, mark in projection.marks_by_ordinal().items()}


class MarkSwatch(QWidget):
    """A small band in a mark's colour, as painted beside each turn."""

    def __init__(self, mark: RowMark, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mark = mark
        self.setFixedSize(6, 14)

    def paintEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        from PySide6.QtGui import QPainter

        painter = QPainter(self)
        painter.fillRect(self.rect(), self.mark.color(self.palette()))


class MarkLegend(QWidget):
    """The legend of the marks, one swatch and label each, wrapping in narrow windows."""

    SHOWN = (RowMark.SENT, RowMark.SUMMARY, RowMark.NOT_SENT, RowMark.PENDING)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Legend of the turn marks")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.setSpacing(6)
        # Which request the marks describe; shown by the window above the legend.
        self.source = QLabel(parent)
        self.source.setObjectName("markSource")
        self.source.setWordWrap(True)
        for mark in self.SHOWN:
            layout.addWidget(MarkSwatch(mark, self))
            label = QLabel(mark.label, self)
            label.setToolTip(mark.explanation)
            layout.addWidget(label)
            layout.addSpacing(6)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_source(self, text: str) -> None:
        """Say which request the marks describe (the last one, a preview, the running one)."""
        self.source.setText(text)
