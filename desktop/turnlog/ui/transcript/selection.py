"""Selecting text inside a turn of the transcript, which is painted, not made of widgets.

A row's text is a short list of laid-out documents — the question, then the answer's
sections — each placed at a point of the viewport (`TranscriptDelegate.text_layout`). A
selection is two spots (document number, cursor position) in one row, kept by the row's
turn id, so it stays where it is while another row streams, rows are added above or
below, or the row is painted again; the delegate paints it with the document layout's own
selection drawing, so selected text looks as it does in any Qt text field.

`TextSelector` turns the view's mouse and key events into selections: press and drag,
double-click a word, triple-click a paragraph, Shift+arrows (and Shift+Home/End) to extend
inside the focused turn, Ctrl+A for the whole turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QElapsedTimer, QObject, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication

from .markdown import text_of

Placed = Sequence[tuple[QTextDocument, QPoint]]  # a row's documents, where each is drawn

Move = QTextCursor.MoveOperation


@dataclass(frozen=True, slots=True, order=True)
class Spot:
    """A place between two characters of a row: document `doc` (0 the question, then
    the answer's sections in order), cursor position `pos` in it."""

    doc: int
    pos: int


@dataclass(frozen=True, slots=True)
class TextSelection:
    """Selected text of one row (`key`: its turn id): from `anchor` to `cursor`, either
    way round; empty when they meet (a caret, where Shift+arrows start)."""

    key: str
    anchor: Spot
    cursor: Spot

    @property
    def start(self) -> Spot:
        return min(self.anchor, self.cursor)

    @property
    def end(self) -> Spot:
        return max(self.anchor, self.cursor)

    def __bool__(self) -> bool:
        return self.anchor != self.cursor

    def range_in(self, doc_no: int, doc: QTextDocument) -> tuple[int, int] | None:
        """The selected positions of document `doc_no` (None: none of it)."""
        start, end = self.start, self.end
        if not self or doc_no < start.doc or doc_no > end.doc:
            return None
        last = doc.characterCount() - 1
        low = min(start.pos, last) if doc_no == start.doc else 0
        high = min(end.pos, last) if doc_no == end.doc else last
        return (low, high) if high > low else None


def _cursor(doc: QTextDocument, low: int, high: int) -> QTextCursor:
    cursor = QTextCursor(doc)
    cursor.setPosition(low)
    cursor.setPosition(high, QTextCursor.MoveMode.KeepAnchor)
    return cursor


def selection_format(doc: QTextDocument, span: tuple[int, int] | None, palette: QPalette
              ) -> list[QAbstractTextDocumentLayout.Selection]:
    """What a paint context needs to draw `span` of `doc` selected ([] for none)."""
    if span is None:
        return []
    chosen = QAbstractTextDocumentLayout.Selection()
    chosen.cursor = _cursor(doc, *span)
    style = QTextCharFormat()
    group = QPalette.ColorGroup.Active
    style.setBackground(palette.color(group, QPalette.ColorRole.Highlight))
    style.setForeground(palette.color(group, QPalette.ColorRole.HighlightedText))
    chosen.format = style
    return [chosen]


def selected_text(placed: Placed, selection: TextSelection) -> str:
    """The selected text as plain text: paragraphs on lines of their own, the question
    apart from the answer by a blank line."""
    parts: list[str] = []
    for number, (doc, _origin) in enumerate(placed):
        span = selection.range_in(number, doc)
        if span is None:
            continue
        text = text_of(doc, *span)  # a formula as its LaTeX
        if parts:
            parts.append("\n\n" if number == 1 else "\n")
        parts.append(text)
    return "".join(parts)


def whole_text(placed: Placed, selection: TextSelection | None
               ) -> tuple[str, tuple[int, int] | None]:
    """The row's whole text as `selected_text` reads a selection of it, and where
    `selection` lies in it (string offsets; None: nothing of it selected)."""
    if not placed:
        return "", None
    key = selection.key if selection is not None else ""
    end = Spot(len(placed) - 1, placed[-1][0].characterCount() - 1)
    whole = selected_text(placed, TextSelection(key, Spot(0, 0), end))
    if not selection:
        return whole, None
    words = selected_text(placed, selection)
    # The text before it, less the blank line between question and answer if it starts
    # right after that line: where it starts in the whole (the same words may come twice).
    before = selected_text(placed, TextSelection(key, Spot(0, 0), selection.start))
    start = whole.find(words, max(0, len(before) - 2))
    return whole, (start, start + len(words)) if words and start >= 0 else None


def spot_at(placed: Placed, point: QPoint) -> Spot:
    """The place between characters nearest `point` (viewport coordinates): above the
    row's text its start, below it its end, between two documents the next one's start."""
    for number, (doc, origin) in enumerate(placed):
        if point.y() < origin.y():
            return Spot(number, 0)
        if point.y() < origin.y() + doc.size().height():
            local = QPointF(point - origin)
            at = doc.documentLayout().hitTest(local, Qt.HitTestAccuracy.FuzzyHit)
            return Spot(number, max(0, at))
    if not placed:
        return Spot(0, 0)
    return Spot(len(placed) - 1, placed[-1][0].characterCount() - 1)


def inside_text(placed: Placed, point: QPoint) -> bool:
    """Whether `point` is over the row's text (from its question's top to its answer's
    bottom): where a press selects rather than clicks."""
    if not placed:
        return False
    first, last = placed[0], placed[-1]
    return first[1].y() <= point.y() <= last[1].y() + last[0].size().height()


def unit_at(placed: Placed, spot: Spot, unit: QTextCursor.SelectionType) -> tuple[Spot, Spot]:
    """The word or paragraph (`unit`) around `spot`, as (start, end)."""
    doc = placed[spot.doc][0]
    cursor = QTextCursor(doc)
    cursor.setPosition(min(spot.pos, doc.characterCount() - 1))
    if unit == QTextCursor.SelectionType.BlockUnderCursor:
        cursor.movePosition(Move.StartOfBlock)
        cursor.movePosition(Move.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
    else:
        cursor.select(unit)
    return Spot(spot.doc, cursor.selectionStart()), Spot(spot.doc, cursor.selectionEnd())


def moved(placed: Placed, spot: Spot, operation: Move) -> Spot:
    """`spot` moved by one key (a character, a line, to a line's start or end); past a
    document's edge it goes on in the next or previous one."""
    doc = placed[spot.doc][0]
    cursor = QTextCursor(doc)
    cursor.setPosition(min(spot.pos, doc.characterCount() - 1))
    if cursor.movePosition(operation) and cursor.position() != spot.pos:
        return Spot(spot.doc, cursor.position())
    if operation in (Move.NextCharacter, Move.Down) and spot.doc + 1 < len(placed):
        return Spot(spot.doc + 1, 0)
    if operation in (Move.PreviousCharacter, Move.Up) and spot.doc > 0:
        return Spot(spot.doc - 1, placed[spot.doc - 1][0].characterCount() - 1)
    return spot


KEY_MOVES = {
    Qt.Key.Key_Left: Move.PreviousCharacter,
    Qt.Key.Key_Right: Move.NextCharacter,
    Qt.Key.Key_Up: Move.Up,
    Qt.Key.Key_Down: Move.Down,
    Qt.Key.Key_Home: Move.StartOfLine,
    Qt.Key.Key_End: Move.EndOfLine,
}


class TextSelector(QObject):
    """The transcript's text selection and the gestures that make it. `layout(key)` gives
    the placed documents of the row showing turn `key` (None: no such row on show)."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.selection: TextSelection | None = None
        self._dragging = False
        self._double = QElapsedTimer()  # since the last double-click (a third makes three)
        self._double_at = QPoint()

    def _set(self, selection: TextSelection | None) -> None:
        if selection != self.selection:
            self.selection = selection
            self.changed.emit()

    def clear(self) -> None:
        self._dragging = False
        self._set(None)

    def rename(self, old: str, new: str) -> None:
        """The row's turn got its id (the pending question was saved)."""
        if self.selection is not None and self.selection.key == old:
            self._set(replace(self.selection, key=new))

    def forget(self, key: str) -> None:
        if self.selection is not None and self.selection.key == key:
            self.clear()

    def text(self, placed: Placed | None) -> str:
        """The selected text ("" when nothing is selected)."""
        selection = self.selection
        if not selection or placed is None:
            return ""
        return selected_text(placed, selection)

    # ----------------------------------------------------------------- mouse
    def press(self, key: str, placed: Placed, event: QMouseEvent) -> bool:
        """A left press in a row: a caret (or a paragraph, third click in a row) where it
        is over the text; False (and nothing selected) elsewhere in the row."""
        point = event.position().toPoint()
        if not inside_text(placed, point):
            self.clear()
            return False
        spot = spot_at(placed, point)
        third = (self._double.isValid()
                 and self._double.elapsed() < QApplication.doubleClickInterval()
                 and (point - self._double_at).manhattanLength()
                 < QApplication.startDragDistance())
        self._double.invalidate()
        if third:
            start, end = unit_at(placed, spot, QTextCursor.SelectionType.BlockUnderCursor)
            self._set(TextSelection(key, start, end))
            return True
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and self.selection \
                is not None and self.selection.key == key:
            self._set(replace(self.selection, cursor=spot))
        else:
            self._set(TextSelection(key, spot, spot))
        self._dragging = True
        return True

    def drag(self, placed: Placed, point: QPoint) -> bool:
        """The pointer moved with the button held: the selection follows it (within the
        row it started in). False when no drag is under way."""
        selection = self.selection
        if not self._dragging or selection is None:
            return False
        self._set(replace(selection, cursor=spot_at(placed, point)))
        return True

    def release(self) -> bool:
        was, self._dragging = self._dragging, False
        return was

    def double_click(self, key: str, placed: Placed, point: QPoint) -> bool:
        """Select the word under the pointer."""
        if not inside_text(placed, point):
            return False
        start, end = unit_at(placed, spot_at(placed, point),
                             QTextCursor.SelectionType.WordUnderCursor)
        self._set(TextSelection(key, start, end))
        self._dragging = False
        self._double.start()
        self._double_at = QPoint(point)
        return True

    # ------------------------------------------------------------------- keys
    def key(self, key: str, placed: Placed, event: QKeyEvent) -> bool:
        """Shift+arrow, Shift+Home/End extend the selection in the focused row (from its
        caret, else from the question's start — or the answer's end, going back); Ctrl+A
        selects the whole turn; Esc drops the selection. False: not a selection key."""
        if not placed:
            return False
        end = Spot(len(placed) - 1, placed[-1][0].characterCount() - 1)
        if event.matches(QKeySequence.StandardKey.SelectAll):
            self._set(TextSelection(key, Spot(0, 0), end))
            return True
        if event.key() == Qt.Key.Key_Escape and self.selection:
            self.clear()
            return True
        operation = KEY_MOVES.get(Qt.Key(event.key()))
        if operation is None or not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False
        selection = self.selection
        if selection is None or selection.key != key:
            backwards = operation in (Move.PreviousCharacter, Move.Up, Move.StartOfLine)
            start = end if backwards else Spot(0, 0)
            selection = TextSelection(key, start, start)
        self._set(replace(selection, cursor=moved(placed, selection.cursor, operation)))
        return True
