"""The search's words in the turn a hit opened: every match highlighted (the transcript
paints them), F3 / Shift+F3 moving between them, round from the last to the first, with a
note ("Match 3 of 7 in turn 412"); Esc in the transcript or a new search clears them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QTextDocument
from PySide6.QtWidgets import QWidget

from ..infra.languages import arg
from ..transcript.model import Role

if TYPE_CHECKING:
    from ..transcript.found import Match
    from ..transcript.view import TranscriptView

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class TurnMatches(QObject):
    """Highlights a query's matches in one turn of `view` and steps through them; `note`
    shows what the person should know ("" to clear it)."""

    def __init__(self, view: TranscriptView, note: Callable[[str], None],
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.view, self._note = view, note
        self.found = view.delegate.found
        self._ordinal: int | None = None  # the turn's row (its stored ordinal)
        self._number = 0  # the turn's number, as its row shows it
        self.next_action = self._action(translate("SearchPanel", "Next match"), "F3", 1)
        self.previous_action = self._action(translate("SearchPanel", "Previous match"),
                                            "Shift+F3", -1)
        self.found.changed.connect(self._enable)
        view.installEventFilter(self)
        self._enable()

    def _action(self, text: str, key: str, by: int) -> QAction:
        action = QAction(text, self.parent())
        action.setShortcut(QKeySequence(key))
        action.setStatusTip(translate("SearchPanel",
                                      "Go to the next or previous match of the search in this "
                                      "turn"))
        action.triggered.connect(lambda _checked=False: self.step(by))
        return action

    def _enable(self) -> None:
        on = self.found.key is not None
        self.next_action.setEnabled(on)
        self.previous_action.setEnabled(on)

    def show(self, index: QModelIndex, query: str) -> int:
        """Highlight `query`'s matches in the row at `index` and go to the first; returns
        how many there are."""
        from ...core.search import highlighter, parse_query  # a search's: not a start's

        self._ordinal = int(index.data(Role.ORDINAL))
        self._number = int(index.data(Role.NUMBER))
        self.found.show(str(index.data(Role.KEY)), highlighter(parse_query(query)))
        found = self.found.matches(self._docs(index))
        if found:
            self._scroll_to(index, found[0])
        self._say(len(found))
        return len(found)

    def clear(self) -> None:
        if self.found.key is not None:
            self.found.clear()
            self._note("")

    def step(self, by: int) -> Match | None:
        """F3 (`by` 1) or Shift+F3 (−1): the next or previous match, shown."""
        index = self._row()
        if index is None:
            self.clear()  # the turn is no longer on show (another conversation)
            return None
        match = self.found.step(self._docs(index), by)
        if match is not None:
            self.view.setCurrentIndex(index)
            self._scroll_to(index, match)
        self._say(len(self.found.matches(self._docs(index))))
        return match

    def _row(self) -> QModelIndex | None:
        model = self.view.transcript()
        row = model.row_of_ordinal(self._ordinal) if self._ordinal is not None else None
        if row is None:
            return None
        index = model.index(row)
        return index if str(index.data(Role.KEY)) == self.found.key else None

    def _docs(self, index: QModelIndex) -> list[QTextDocument]:
        return [doc for doc, _at in self.view.delegate.text_layout(index)]

    def _say(self, count: int) -> None:
        if not count:
            self._note(arg(translate("SearchPanel", "No match to highlight in turn %1"),
                           self._number))
            return
        self._note(arg(translate("SearchPanel", "Match %1 of %2 in turn %3"),
                       self.found.current + 1, count, self._number))

    def _scroll_to(self, index: QModelIndex, match: Match) -> None:
        """Scroll so the match is in sight (a third down the view when it was not): a
        long answer's row is taller than the view."""
        placed = self.view.delegate.text_layout(index)
        if not 0 <= match.doc < len(placed):
            return
        doc, origin = placed[match.doc]
        block = doc.findBlock(match.start)
        line = block.layout().lineForTextPosition(match.start - block.position())
        top = origin.y() + doc.documentLayout().blockBoundingRect(block).top()
        height = 20.0
        if line.isValid():
            top, height = top + line.y(), line.height()
        shown = self.view.viewport().height()
        if top < 0 or top + height > shown:
            bar = self.view.verticalScrollBar()
            bar.setValue(bar.value() + int(top - shown / 3))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.view and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
            self.clear()  # and the view goes on (a text selection goes too)
        return False
