"""The search dock's results: a model over the hits found so far (a page at a time) and
a delegate that paints each as two parts — where it is (the conversation's title,
elided in the middle, then "turn N" and the date, never cut) and a snippet of up to
`HitDelegate.LINES` lines with the matches in bold, the line of the first match always
among those painted."""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Sequence

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ...core.visible import visible
from ...store.search import SearchHit
from ..infra.languages import arg, number, short_date
from ..infra.titles import shown_title

ModelIndex = QModelIndex | QPersistentModelIndex
HitRole = Qt.ItemDataRole.UserRole + 1
COLUMNS = (
    QT_TRANSLATE_NOOP("SearchPanel", "Conversation"),
    QT_TRANSLATE_NOOP("SearchPanel", "Turn"),
    QT_TRANSLATE_NOOP("SearchPanel", "Date"),
    QT_TRANSLATE_NOOP("SearchPanel", "Snippet"),
)


def snippet_html(hit: SearchHit) -> str:
    """The snippet as HTML: escaped (controls shown as escapes), the matches in bold."""
    snippet = hit.snippet
    out, at = [], 0
    for start, end in snippet.spans:
        out.append(html.escape(visible(snippet.text[at:start])))
        out.append(f"<b>{html.escape(visible(snippet.text[start:end]))}</b>")
        at = end
    out.append(html.escape(visible(snippet.text[at:])))
    return ("…" if snippet.cut_before else "") + "".join(out) + (
        "…" if snippet.cut_after else "")


def first_match_at(hit: SearchHit) -> int:
    """Where the snippet's first match starts in its painted text (UTF-16 units)."""
    snippet = hit.snippet
    start = snippet.spans[0][0] if snippet.spans else 0
    before = ("…" if snippet.cut_before else "") + visible(snippet.text[:start])
    return len(before.encode("utf-16-le")) // 2


def hit_key(hit: SearchHit) -> tuple[int, str | None]:
    return hit.conversation_id, hit.turn_id


class SearchHitsModel(QAbstractTableModel):
    """The hits found so far, best first: the first page, then each page asked for."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hits: list[SearchHit] = []
        self._keys: set[tuple[int, str | None]] = set()

    def set_hits(self, hits: Sequence[SearchHit]) -> None:
        """The hits of a new query."""
        self.beginResetModel()
        self._hits, self._keys = [], set()
        self._take(hits)
        self.endResetModel()

    def add_hits(self, hits: Sequence[SearchHit]) -> None:
        """The next page, after the rows listed (a hit listed already is not again: the
        log may have grown between two pages)."""
        new = [hit for hit in hits if hit_key(hit) not in self._keys]
        if not new:
            return
        self.beginInsertRows(QModelIndex(), len(self._hits), len(self._hits) + len(new) - 1)
        self._take(new)
        self.endInsertRows()

    def _take(self, hits: Sequence[SearchHit]) -> None:
        for hit in hits:
            if hit_key(hit) not in self._keys:
                self._keys.add(hit_key(hit))
                self._hits.append(hit)

    @property
    def hits(self) -> tuple[SearchHit, ...]:
        return tuple(self._hits)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._hits)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("SearchPanel", COLUMNS[section])
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._hits):
            return None
        hit = self._hits[index.row()]
        if role == HitRole:
            return hit
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(hit, index.column())
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{self.where(hit)}: {self._text(hit, 3)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return shown_title(hit.title)  # the whole title, elided in the row
        return None

    @staticmethod
    def where(hit: SearchHit) -> str:
        """Conversation · turn · date, as the list's first line says it."""
        return " · ".join([SearchHitsModel._text(hit, 0), SearchHitsModel.place(hit)])

    @staticmethod
    def place(hit: SearchHit) -> str:
        """Where in the conversation, and when: "turn 412 · 2026/3/1" (or "title · …")."""
        if hit.ordinal is None:
            parts = [QCoreApplication.translate("SearchPanel", "title")]
        else:
            parts = [arg(QCoreApplication.translate("SearchPanel", "turn %1"),
                         SearchHitsModel._text(hit, 1))]
        when = SearchHitsModel._text(hit, 2)
        return " · ".join([*parts, when] if when else parts)

    @staticmethod
    def _text(hit: SearchHit, column: int) -> str:
        if column == 0:
            return shown_title(hit.title)
        if column == 1:
            if hit.ordinal is None:
                return QCoreApplication.translate("SearchPanel", "title")
            return (
                arg(QCoreApplication.translate("SearchPanel", "%1 (superseded)"),
                    hit.shown_number)
                if hit.superseded
                else number(hit.shown_number)
            )
        if column == 2:
            when = hit.created_at
            return short_date(when) if when else ""
        return visible(hit.snippet.marked("", ""))


class HitDelegate(QStyledItemDelegate):
    """Paints a hit: its place on the first line (the title elided in the middle so "turn
    N" and the date always show), then its snippet, wrapped, at most `LINES` lines — from
    the line before the first match when the match lies further in. Snippet documents
    are kept by hit and width, so painting never builds them again."""

    LINES = 4
    PAD = 4
    GAP = 8
    CACHE = 400

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._docs: OrderedDict[tuple[int, str | None, int], QTextDocument] = OrderedDict()

    def clear_cache(self) -> None:
        self._docs.clear()

    def _document(self, hit: SearchHit, option: QStyleOptionViewItem) -> QTextDocument:
        width = max(40, option.rect.width() - 2 * self.PAD)
        key = (*hit_key(hit), width)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        doc.setHtml(snippet_html(hit))
        doc.setTextWidth(width)
        self._docs[key] = doc
        while len(self._docs) > self.CACHE:
            self._docs.popitem(last=False)
        return doc

    def shown_lines(self, hit: SearchHit, doc: QTextDocument) -> tuple[float, float]:
        """The top and height of the snippet's part that is painted: `LINES` lines, the
        first match's among them."""
        layout = doc.firstBlock().layout()
        count = layout.lineCount()
        if count == 0:
            return 0.0, doc.size().height()
        match = layout.lineForTextPosition(first_match_at(hit))
        at = match.lineNumber() if match.isValid() else 0
        first = 0 if at < self.LINES else max(0, min(at - 1, count - self.LINES))
        last = min(count, first + self.LINES) - 1
        top, end = layout.lineAt(first).y(), layout.lineAt(last)
        return top, end.y() + end.height() - top

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802
        hit = index.data(HitRole)
        line = option.fontMetrics.lineSpacing()
        if not isinstance(hit, SearchHit):
            return QSize(option.rect.width(), line + 2 * self.PAD)
        doc = self._document(hit, option)
        _top, height = self.shown_lines(hit, doc)
        return QSize(option.rect.width(), line + int(height + 0.5) + 3 * self.PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        hit = index.data(HitRole)
        if not isinstance(hit, SearchHit):
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter,
                              option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        text = palette.color(QPalette.ColorRole.HighlightedText if selected
                             else QPalette.ColorRole.Text)
        dim = text if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        rect = option.rect.adjusted(self.PAD, self.PAD, -self.PAD, -self.PAD)
        line = option.fontMetrics.lineSpacing()
        painter.save()
        self._draw_place(painter, option, hit, QRect(rect.left(), rect.top(), rect.width(),
                                                     line), text, dim)
        doc = self._document(hit, option)
        top, height = self.shown_lines(hit, doc)
        painter.translate(QPointF(rect.left(), rect.top() + line + self.PAD - top))
        context = QAbstractTextDocumentLayout.PaintContext()
        context.clip = QRectF(0, top, rect.width(), height)
        context.palette = QPalette(palette)
        context.palette.setColor(QPalette.ColorRole.Text, text)
        painter.setClipRect(context.clip)
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def first_line(self, option: QStyleOptionViewItem, hit: SearchHit, width: int
                   ) -> tuple[str, int, str]:
        """The first line's title (elided in the middle), the width left to it, and its
        place ("turn N · date", whole unless the row is too narrow for anything else)."""
        metrics = option.fontMetrics
        place = SearchHitsModel.place(hit)
        # Two pixels to spare: elidedText cuts a text given exactly its own (rounded) width.
        place_width = min(metrics.horizontalAdvance(place) + 2, max(0, width - 60))
        place = metrics.elidedText(place, Qt.TextElideMode.ElideRight, place_width)
        title_width = max(0, width - place_width - self.GAP)
        title = metrics.elidedText(shown_title(hit.title), Qt.TextElideMode.ElideMiddle,
                                   title_width)
        return title, title_width, place

    def _draw_place(self, painter: QPainter, option: QStyleOptionViewItem, hit: SearchHit,
                    area: QRect, text: object, dim: object) -> None:
        title, title_width, place = self.first_line(option, hit, area.width())
        middle = Qt.AlignmentFlag.AlignVCenter
        painter.setFont(option.font)
        painter.setPen(dim)  # type: ignore[call-overload]
        painter.drawText(area, Qt.AlignmentFlag.AlignRight | middle, place)
        painter.setPen(text)  # type: ignore[call-overload]
        painter.drawText(QRect(area.left(), area.top(), title_width, area.height()),
                         Qt.AlignmentFlag.AlignLeft | middle, title)
