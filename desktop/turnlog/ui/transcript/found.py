"""The words a search found, highlighted in the turn it opened: every match in the row's
question and answer documents, the current one (F3 / Shift+F3 move it) stronger. The
documents are the delegate's cached ones and are never changed: the marks are painted
as extra selections of the paint context, as the text selection is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)

if TYPE_CHECKING:
    from ...core.search import Highlighter

Selection = QAbstractTextDocumentLayout.Selection
MATCH = QColor("#ffe27a")  # light and dark themes alike: dark text on a marker's yellow
CURRENT = QColor("#ff9d3b")
INK = QColor("#1a1a1a")


@dataclass(frozen=True, slots=True)
class Match:
    """One match: document `doc` of the row (0 the question, then the answer's sections),
    cursor positions `start`..`end` in it."""

    doc: int
    start: int
    end: int


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def matches_in(docs: Sequence[QTextDocument], pattern: Highlighter | None) -> list[Match]:
    """Every match of `pattern` in `docs`, in reading order, in each document's own
    positions (which count UTF-16 units: an emoji or a rare Han character is two)."""
    from ...core.search import find_matches  # the search language: a search's, not a start's

    found: list[Match] = []
    for number, doc in enumerate(docs):
        block = doc.begin()
        while block.isValid():
            text = block.text()
            at, units = 0, 0
            for start, end in find_matches(text, pattern):
                units += _utf16(text[at:start])
                length = _utf16(text[start:end])
                found.append(Match(number, block.position() + units,
                                   block.position() + units + length))
                units += length
                at = end
            block = block.next()
    return found


class FoundMatches(QObject):
    """The highlighted turn (`key`: its row's key) and which of its matches is current.
    `changed` asks for a repaint."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.key: str | None = None
        self.pattern: Highlighter | None = None
        self.current = 0
        self._seen: tuple[tuple[int, int], ...] = ()
        self._matches: list[Match] = []

    def show(self, key: str, pattern: Highlighter | None) -> None:
        self.key, self.pattern, self.current = key, pattern, 0
        self._seen, self._matches = (), []
        self.changed.emit()

    def clear(self) -> None:
        if self.key is not None:
            self.key, self.pattern, self._seen, self._matches = None, None, (), []
            self.changed.emit()

    def matches(self, docs: Sequence[QTextDocument]) -> list[Match]:
        """The matches in the row's `docs`, found again only when a document changed."""
        seen = tuple((id(doc), doc.revision()) for doc in docs)
        if seen != self._seen:
            self._seen, self._matches = seen, matches_in(docs, self.pattern)
            self.current = min(self.current, max(0, len(self._matches) - 1))
        return self._matches

    def step(self, docs: Sequence[QTextDocument], by: int) -> Match | None:
        """Make the next (`by` 1) or previous (−1) match current, round from the last to
        the first and back; None when the turn holds none."""
        found = self.matches(docs)
        if not found:
            return None
        self.current = (self.current + by) % len(found)
        self.changed.emit()
        return found[self.current]

    def selections(self, key: str, docs: Sequence[QTextDocument]
                   ) -> dict[int, list[Selection]]:
        """How the marks of row `key` are painted, by document number ({} for another)."""
        if key != self.key:
            return {}
        out: dict[int, list[Selection]] = {}
        for number, match in enumerate(self.matches(docs)):
            mark = Selection()
            cursor = QTextCursor(docs[match.doc])
            cursor.setPosition(match.start)
            cursor.setPosition(match.end, QTextCursor.MoveMode.KeepAnchor)
            mark.cursor = cursor
            style = QTextCharFormat()
            style.setBackground(CURRENT if number == self.current else MATCH)
            style.setForeground(INK)
            mark.format = style
            out.setdefault(match.doc, []).append(mark)
        return out
