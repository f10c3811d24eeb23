"""Painting a row's parts: a document at its place, and the sketch of a row whose
documents are not built yet (plain text in the row's estimated height) — what a frame
shows of rows it had no time left to build, until a next frame builds them."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QStyleOptionViewItem

from .files import question_shown
from .model import ModelIndex, Role
from .row_header import draw_header, header_controls, header_height
from .row_layout import RowLayout, RowParts, estimated_lines

SKETCH_CHARS = 3_000  # of a question or an answer: more than a screen shows


def tinted(color: QColor, alpha: int, under: QColor) -> QColor:
    """`color` at `alpha` (of 255) over the opaque `under`, as one opaque colour: a
    translucent fill costs a raster backing store many times what an opaque one does."""
    return QColor(*(round((top * alpha + below * (255 - alpha)) / 255)
                    for top, below in zip(color.getRgb()[:3], under.getRgb()[:3], strict=True)))


def draw_document(
    painter: QPainter, doc: QTextDocument, x: int, y: int, palette: QPalette,
    visible: QRect, selections: list[QAbstractTextDocumentLayout.Selection] | None = None,
) -> None:
    """Draw `doc` at (x, y), laying out and painting only the blocks inside `visible`
    (viewport coordinates): a long answer's row is mostly off screen."""
    painter.save()
    painter.translate(x, y)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.clip = QRectF(visible.translated(-x, -y))
    context.palette = palette
    context.palette.setColor(QPalette.ColorRole.Text, palette.color(QPalette.ColorRole.Text))
    if selections:
        context.selections = selections
    doc.documentLayout().draw(painter, context)
    painter.restore()


def draw_sketch(painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex,
                layout: RowLayout) -> None:
    """The row at `option.rect` as plain text: its header, its question in its tinted box
    and the start of its answer, all within the row's (estimated) height."""
    metrics = option.fontMetrics
    line = metrics.lineSpacing()
    question = question_shown(index)[:SKETCH_CHARS]
    lines = estimated_lines(question, layout.question_width, max(1, metrics.averageCharWidth()))
    geometry = layout.place(option.rect, RowParts(header_height(option), lines * line, 0, 0))
    painter.save()
    painter.setClipRect(option.rect)
    draw_header(painter, option, index, geometry.header,
                header_controls(option, index, geometry.header))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(option.palette.color(QPalette.ColorRole.AlternateBase)))
    painter.drawRoundedRect(geometry.question_box, 6, 6)
    painter.setPen(option.palette.color(QPalette.ColorRole.Text))
    painter.setFont(option.font)
    wrap = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
    at = geometry.question_at
    painter.drawText(QRect(at.x(), at.y(), layout.question_width, lines * line), wrap, question)
    at = geometry.answer_at
    answer = str(index.data(Role.ANSWER) or "")[:SKETCH_CHARS]
    painter.drawText(QRect(at.x(), at.y(), geometry.content_width,
                           max(0, option.rect.bottom() - at.y() - layout.PAD)), wrap, answer)
    painter.restore()
