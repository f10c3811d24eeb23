"""The transcript: a list model over the log, a delegate painting cached documents,
and the view that loads older turns as the user scrolls up.

One row is one turn (question and answer, never split), oldest at the top. The
running question is an extra last row ("pending") whose answer grows as it
streams; only that row is announced as changed.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QAction,
    QColor,
    QContextMenuEvent,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ..core.compaction import StoredSummary
from ..core.model import Turn
from ..core.versions import Versions
from ..store.pages import LogPages
from .answer import AnswerDocument, ReasoningFold
from .languages import arg
from .marks import MarkMap, RowMark, summary_tooltip
from .operations import TRANSCRIPT_PAGE
from .pin_marks import pins_tooltip, underline_pins
from .selection import TextSelection, TextSelector, inside_text, selection_format

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

ModelIndex = QModelIndex | QPersistentModelIndex

PENDING_KEY = "pending"


def row_title(pending: bool, ordinal: object) -> str:
    """A row's header: the turn's number, or that its question is being answered."""
    return translate("Transcript", "Question being answered") if pending \
        else turn_title(ordinal)


def turn_title(ordinal: object) -> str:
    """The header of a turn ("Turn 4"), as painted and as measured for its controls."""
    return arg(translate("Transcript", "Turn %1"), str(ordinal))


class Role(enum.IntEnum):
    KEY = Qt.ItemDataRole.UserRole + 1  # turn id, or PENDING_KEY
    ORDINAL = Qt.ItemDataRole.UserRole + 2
    QUESTION = Qt.ItemDataRole.UserRole + 3
    ANSWER = Qt.ItemDataRole.UserRole + 4
    MARK = Qt.ItemDataRole.UserRole + 5
    PENDING = Qt.ItemDataRole.UserRole + 6
    VERSION = Qt.ItemDataRole.UserRole + 7  # (n, of) when the turn has versions, else None
    ACTIVE = Qt.ItemDataRole.UserRole + 8  # id of the version in use at this row
    LAST = Qt.ItemDataRole.UserRole + 9  # the newest turn (it can be regenerated)
    REASONING = Qt.ItemDataRole.UserRole + 10  # a reasoning model's thought ("" if none)
    PINS = Qt.ItemDataRole.UserRole + 11  # changed: the texts pinned from turns (`pins_of`)
    FOLLOWED = Qt.ItemDataRole.UserRole + 12  # later turns were asked after this one


@dataclass
class PendingRow:
    question: str
    answer: str = ""
    reasoning: str = ""


class TranscriptModel(QAbstractListModel):
    """The committed turns of one conversation (plus the pending question), oldest first.

    Only the newest `page` turns are rows at first; `fetchMore` prepends older pages.
    Qt's views ask for more whenever the last row is visible, which in a transcript
    kept at its newest turn is always, so fetching is armed only by the view reporting
    that its top edge is showing (`request_older`).
    """

    PAGE = TRANSCRIPT_PAGE

    # The pending question was saved as this turn (id, answer), just before its row goes.
    pending_saved = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._turns: Sequence[Turn] = ()
        self._first = 0  # index in _turns of row 0
        self._pending: PendingRow | None = None
        self._marks: Mapping[int, RowMark] = {}
        self._summary: StoredSummary | None = None
        self._pins: Mapping[str, tuple[str, ...]] = {}  # turn id → texts pinned from it
        self._older_requested = False
        self._versions = Versions((), {})
        self._members: Mapping[str, Turn] = {}  # every version of a row that has several
        self._showing: dict[str, str] = {}  # id in use → id of the older version on show

    # ------------------------------------------------------------------ contents
    def set_turns(self, turns: Sequence[Turn]) -> None:
        self.beginResetModel()
        self._turns = turns
        self._first = max(0, len(turns) - self.PAGE)
        self._pending = None
        self._marks = {}
        self._older_requested = False
        self._versions, self._members, self._showing = Versions((), {}), {}, {}
        self.endResetModel()

    @property
    def turns(self) -> Sequence[Turn]:
        return self._turns

    @property
    def loaded_count(self) -> int:
        return len(self._turns) - self._first

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid():
            return 0
        return self.loaded_count + (1 if self._pending is not None else 0)

    def turn_at(self, row: int) -> Turn | None:
        if 0 <= row < self.loaded_count:
            try:
                return self._turns[self._first + row]
            except IndexError:  # a paged log read while a delete was landing
                return None
        return None

    def row_of_ordinal(self, ordinal: int) -> int | None:
        turns = self._turns
        if isinstance(turns, LogPages):
            index = turns.position_of(ordinal)
            return index - self._first if index is not None and index >= self._first else None
        for row in range(self.loaded_count):
            if turns[self._first + row].ordinal == ordinal:
                return row
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        row = index.row()
        active = self.turn_at(row)
        if active is None:
            pending = self._pending
            if pending is None or row != self.loaded_count:
                return None
            return self._pending_data(pending, role)
        turn = self._members.get(self._showing[active.id], active) \
            if active.id in self._showing else active
        if role in (Role.VERSION, Role.ACTIVE, Role.LAST, Role.FOLLOWED):
            return self._version_data(row, active, turn, role)
        if turn is not active and role in (Role.MARK, Qt.ItemDataRole.ToolTipRole):
            return RowMark.REPLACED if role == Role.MARK else \
                arg(translate("Transcript", "Turn %1: %2"), str(turn.ordinal),
                    RowMark.REPLACED.explanation)
        if role == Role.KEY:
            return turn.id
        if role == Role.ORDINAL:
            return turn.ordinal
        if role == Role.QUESTION:
            return turn.question
        if role == Role.ANSWER:
            return turn.answer
        if role == Role.REASONING:
            return turn.reasoning
        if role == Role.MARK:
            return self._marks.get(turn.ordinal)
        if role == Role.PENDING:
            return False
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            mark = self._marks.get(turn.ordinal)
            said = arg(translate("Transcript", ", %1"), mark.label) if mark else ""
            return arg(translate("Transcript", "Turn %1%2. Question: %3\nAnswer: %4"),
                       str(turn.ordinal), said,
                       turn.question, turn.answer)
        if role == Qt.ItemDataRole.ToolTipRole:
            mark = self._marks.get(turn.ordinal)
            if mark is RowMark.SUMMARY:
                tip = summary_tooltip(turn.ordinal, self._summary)
            else:
                tip = arg(translate("Transcript", "Turn %1: %2"), str(turn.ordinal),
                          mark.explanation) if mark else None
            pins = self._pins.get(turn.id)
            return "\n".join(t for t in (tip, pins_tooltip(pins) if pins else "") if t) or None
        return None

    def _version_data(self, row: int, active: Turn, turn: Turn, role: int) -> object:
        if role == Role.ACTIVE:
            return active.id
        if role == Role.LAST:
            return row == self.loaded_count - 1 and self._pending is None
        if role == Role.FOLLOWED:
            return row < self.loaded_count - 1
        if role == Role.VERSION and self._versions:
            group = self._versions.group(active.id)
            if len(group) > 1 and turn.id in group:
                return (group.index(turn.id) + 1, len(group))
        return None

    # ----------------------------------------------------------------- versions
    def set_versions(self, versions: Versions, members: Mapping[str, Turn]) -> None:
        """The versions of the turns (`members`: every version of a row with several);
        an older version on show stays on show while it is still one."""
        self._versions, self._members = versions, members
        self._showing = {k: v for k, v in self._showing.items() if v in members}
        if self.loaded_count:
            self.dataChanged.emit(self.index(0), self.index(self.loaded_count - 1),
                                  [Role.VERSION, Role.MARK])

    @property
    def versions(self) -> Versions:
        return self._versions

    def shown_turn(self, row: int) -> Turn | None:
        """The turn a row shows: its version in use, or the older version looked at."""
        active = self.turn_at(row)
        if active is None or active.id not in self._showing:
            return active
        return self._members.get(self._showing[active.id], active)

    def step_version(self, row: int, delta: int) -> bool:
        """Show the previous (-1) or next (+1) version in a row; False at either end."""
        active = self.turn_at(row)
        shown = self.shown_turn(row)
        if active is None or shown is None:
            return False
        group = self._versions.group(active.id)
        at = group.index(shown.id) + delta if shown.id in group else -1
        if len(group) < 2 or not 0 <= at < len(group) or group[at] not in self._members:
            return False
        if group[at] == active.id:
            self._showing.pop(active.id, None)
        else:
            self._showing[active.id] = group[at]
        index = self.index(row)
        # ANSWER: the row's height changes with the text it shows.
        self.dataChanged.emit(index, index, [Role.KEY, Role.QUESTION, Role.ANSWER, Role.MARK,
                                             Role.VERSION])
        return True

    def _pending_data(self, pending: PendingRow, role: int) -> object:
        if role == Role.KEY:
            return PENDING_KEY
        if role == Role.ORDINAL:
            return (self._turns[-1].ordinal + 1) if self._turns else 1
        if role == Role.QUESTION:
            return pending.question
        if role == Role.ANSWER:
            return pending.answer
        if role == Role.REASONING:
            return pending.reasoning
        if role == Role.MARK:
            return RowMark.PENDING
        if role == Role.PENDING:
            return True
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return arg(translate("Transcript", "Pending question: %1\nAnswer so far: %2"),
                       pending.question, pending.answer)
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # -------------------------------------------------------------- lazy loading
    def request_older(self) -> None:
        """The view's top edge is showing: load the previous page if there is one."""
        self._older_requested = True
        if self.canFetchMore(QModelIndex()):
            self.fetchMore(QModelIndex())

    def canFetchMore(self, parent: ModelIndex) -> bool:  # noqa: N802
        return not parent.isValid() and self._first > 0 and self._older_requested

    def fetchMore(self, parent: ModelIndex) -> None:  # noqa: N802
        if not self.canFetchMore(parent):
            return
        count = min(self.PAGE, self._first)
        self._older_requested = False
        self.beginInsertRows(QModelIndex(), 0, count - 1)
        self._first -= count
        self.endInsertRows()

    def reveal(self, ordinal: int, *, before: int = 3) -> QModelIndex | None:
        """Make turn `ordinal` a row (older turns join as far back as it, and `before`
        more, so it is not the top row that asks for older pages), and return its index;
        None if the log shown has no such turn."""
        turns = self._turns
        if isinstance(turns, LogPages):
            position = turns.position_of(ordinal)
        else:
            position = next((i for i, t in enumerate(turns) if t.ordinal == ordinal), None)
        if position is None:
            return None
        start = max(0, position - before)
        if start < self._first:
            self.beginInsertRows(QModelIndex(), 0, self._first - start - 1)
            self._first = start
            self.endInsertRows()
        return self.index(position - self._first)

    def load_all(self) -> None:
        """Make every turn a row (used to jump to the oldest turn)."""
        if self._first == 0:
            return
        self.beginInsertRows(QModelIndex(), 0, self._first - 1)
        self._first = 0
        self.endInsertRows()

    # -------------------------------------------------------------------- marks
    def set_marks(self, marks: Mapping[int, RowMark]) -> None:
        """Replace every turn's mark; repaints the loaded rows, nothing else. `marks` is
        read per row as rows are shown (a `MarkMap` works each out on demand)."""
        if isinstance(marks, MarkMap) and marks.same_as(self._marks):
            return
        if not isinstance(marks, MarkMap):
            if marks == self._marks:
                return
            marks = dict(marks)
        self._marks = marks
        if self.loaded_count:
            self.dataChanged.emit(
                self.index(0), self.index(self.loaded_count - 1), [Role.MARK]
            )

    def pins_of(self, turn_id: str) -> tuple[str, ...]:
        return self._pins.get(turn_id, ())

    def set_pins(self, pins: Mapping[str, tuple[str, ...]]) -> None:
        """The texts pinned from each turn (underlined, named in the tooltip)."""
        if pins == self._pins:
            return
        self._pins = dict(pins)
        if self.loaded_count:
            self.dataChanged.emit(self.index(0), self.index(self.loaded_count - 1),
                                  [Role.PINS])

    def set_summary(self, summary: StoredSummary | None) -> None:
        """The rolling summary the *in summary* marks refer to (named in their tooltips)."""
        self._summary = summary

    @property
    def summary(self) -> StoredSummary | None:
        return self._summary

    def mark_of(self, ordinal: int) -> RowMark | None:
        return self._marks.get(ordinal)

    @property
    def marks(self) -> dict[int, RowMark]:
        return dict(self._marks)

    # ------------------------------------------------------------------ pending
    @property
    def pending(self) -> PendingRow | None:
        return self._pending

    def start_pending(self, question: str) -> None:
        if self._pending is not None:
            raise RuntimeError("a question is already pending")
        row = self.loaded_count
        self.beginInsertRows(QModelIndex(), row, row)
        self._pending = PendingRow(question)
        self.endInsertRows()

    def append_pending(self, text: str) -> None:
        """Add streamed answer text; announces a change to the pending row only."""
        if self._pending is None or not text:
            return
        self._pending.answer += text
        index = self.index(self.loaded_count)
        self.dataChanged.emit(index, index, [Role.ANSWER])

    def append_pending_reasoning(self, text: str) -> None:
        """Add streamed reasoning; announces a change to the pending row only."""
        if self._pending is None or not text:
            return
        self._pending.reasoning += text
        index = self.index(self.loaded_count)
        self.dataChanged.emit(index, index, [Role.REASONING])

    def drop_pending(self) -> str:
        """Remove the pending row; returns the partial answer it held."""
        pending = self._pending
        if pending is None:
            return ""
        row = self.loaded_count
        self.beginRemoveRows(QModelIndex(), row, row)
        self._pending = None
        self.endRemoveRows()
        return pending.answer

    def _index_of(self, turn_id: str) -> int | None:
        """Where turn `turn_id` is in the log: looked for among the rows shown, newest
        first (where a user deletes from), then among the older turns. In a paged log, only
        among the pages in memory: the store no longer has the turn."""
        turns = self._turns
        if isinstance(turns, LogPages):
            return turns.index_in_memory(turn_id)
        for index in range(len(turns) - 1, self._first - 1, -1):
            if turns[index].id == turn_id:
                return index
        return next((i for i, t in enumerate(turns[: self._first]) if t.id == turn_id), None)

    def remove_turn(self, turn_id: str) -> bool:
        """A turn was deleted: drop its row (the others keep their place and ordinals)."""
        index = self._index_of(turn_id)
        if index is None:
            if isinstance(self._turns, LogPages):
                # Its page has left memory (the user scrolled far away from it): where it
                # was is not known any more, so show the log as it is now from its newest.
                self.set_turns(self._turns.reread())
                return True
            return False
        turn = self._turns[index]
        if isinstance(self._turns, LogPages):
            remaining: Sequence[Turn] = self._turns.without(index)
        else:
            remaining = tuple(self._turns[:index]) + tuple(self._turns[index + 1 :])
        if isinstance(self._marks, MarkMap):
            self._marks = self._marks.without(turn.ordinal)
        else:
            self._marks = {o: m for o, m in self._marks.items() if o != turn.ordinal}
        if index < self._first:
            self._turns = remaining
            self._first -= 1
            return True
        row = index - self._first
        self.beginRemoveRows(QModelIndex(), row, row)
        self._turns = remaining
        self.endRemoveRows()
        return True

    def with_turn(self, turn: Turn) -> Sequence[Turn]:
        """The log shown with `turn` (just saved, newer than all of it) after its newest,
        read from nothing: a paged log keeps its newest page, moved up by one."""
        turns = self._turns
        if isinstance(turns, LogPages):
            return turns.appended(turn)
        return (*turns, turn)

    def commit_pending(self, turns: Sequence[Turn]) -> None:
        """The pending question became the last turn of `turns` (the log after commit)."""
        if self._pending is not None and turns:
            self.pending_saved.emit(turns[-1].id, turns[-1].answer)
        self.drop_pending()
        added = len(turns) - len(self._turns)
        if added <= 0:
            self.set_turns(turns)
            return
        start = self.loaded_count
        self.beginInsertRows(QModelIndex(), start, start + added - 1)
        self._turns = turns
        self.endInsertRows()


class TranscriptDelegate(QStyledItemDelegate):
    """Paints a turn from cached documents: question as plain text, answer as Markdown
    (HTML disabled, in sections: `AnswerDocument`). Documents are keyed by the row's turn
    id and part, kept in a bounded cache, never rebuilt during a paint, and only laid out
    again when the width changes. The streaming answer renders only its open tail again
    as it grows, and the committed turn takes over its documents (`adopt_pending`)."""

    CACHE_SIZE = 800
    BAND = 6
    PAD = 10
    GAP = 6

    # A word in a row's header was clicked: (control name, row). Names: "older", "newer"
    # (step between versions), "use" (use this version), "fork-version" (fork from here
    # with this version), "regenerate".
    control_clicked = Signal(str, int)
    code_copied = Signal(str)  # a code block's Copy put this text on the clipboard

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view
        self._docs: OrderedDict[tuple[str, str], QTextDocument] = OrderedDict()
        self._answers: OrderedDict[str, AnswerDocument] = OrderedDict()
        self._pending: AnswerDocument | None = None
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.reasoning = ReasoningFold(self._new_doc)
        self.selector = TextSelector(self)  # the text selected in a row, painted here
        self.hovered_code: tuple[str, int] | None = None  # (row key, code block number)

    # ---------------------------------------------------------------- documents
    def clear_cache(self) -> None:
        self._docs.clear()
        self._answers.clear()
        self.reset_pending()

    def forget(self, key: str) -> None:
        """Drop the documents of one row (a deleted turn, or the finished pending row)."""
        for cache_key in [k for k in self._docs if k[0] == key]:
            del self._docs[cache_key]
        self._answers.pop(key, None)
        if key == PENDING_KEY:
            self.reset_pending()
        else:
            self.reasoning.forget(key)

    def reset_pending(self) -> None:
        self._pending = None

    def adopt_pending(self, turn_id: str, answer: str) -> bool:
        """The pending question was saved as turn `turn_id`: its row keeps the documents
        already laid out while it streamed, when they show exactly the saved answer."""
        pending = self._pending
        question = self._docs.pop((PENDING_KEY, "question"), None)
        if question is not None:
            self._docs[(turn_id, "question")] = question
        self.reasoning.rename(PENDING_KEY, turn_id)
        self.selector.rename(PENDING_KEY, turn_id)
        if pending is None:
            return False
        pending.update(answer)  # the last few streamed characters, if not shown yet
        self._answers[turn_id] = pending
        self._pending = None
        return True

    def _new_doc(self, width: int) -> QTextDocument:
        doc = QTextDocument(self)
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self._view.font())
        option = QTextOption()
        # Long code lines and URLs wrap rather than run past the row.
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        doc.setDefaultTextOption(option)
        doc.setTextWidth(width)
        return doc

    def _doc(self, key: str, part: str, text: str, width: int) -> QTextDocument:
        """A question's document (plain text)."""
        cache_key = (key, part)
        doc = self._docs.get(cache_key)
        if doc is not None:
            self._docs.move_to_end(cache_key)
            if doc.textWidth() != width:  # made once; a new width only lays it out again
                doc.setTextWidth(width)
            return doc
        doc = self._new_doc(width)
        doc.setPlainText(text)
        self._docs[cache_key] = doc
        while len(self._docs) > self.CACHE_SIZE:
            self._docs.popitem(last=False)
        return doc

    def _answer(self, key: str, text: str, width: int) -> AnswerDocument:
        """A saved answer's Markdown; the pending one's grows with the stream."""
        if key == PENDING_KEY:
            answer = self._pending
            if answer is None:
                answer = self._pending = AnswerDocument(self._new_doc, width)
        else:
            answer = self._answers.get(key)
            if answer is None:
                answer = AnswerDocument(self._new_doc, width)
                self._answers[key] = answer
                while len(self._answers) > self.CACHE_SIZE:
                    self._answers.popitem(last=False)
            else:
                self._answers.move_to_end(key)
        answer.set_width(width)
        answer.update(text)
        return answer

    def _content_width(self) -> int:
        return max(120, self._view.viewport().width() - self.BAND - 3 * self.PAD)

    def _documents(self, index: ModelIndex) -> tuple[QTextDocument, AnswerDocument | None]:
        width = self._content_width()
        key = str(index.data(Role.KEY))
        question = self._doc(key, "question", str(index.data(Role.QUESTION)), width - 2 * self.GAP)
        answer_text = str(index.data(Role.ANSWER) or "")
        if index.data(Role.PENDING) and not answer_text:
            return question, None
        answer = self._answer(key, answer_text, width)
        model = self._view.model()
        if isinstance(model, TranscriptModel):  # pins are Python data, not a Qt role value
            underline_pins([question, *answer.documents], model.pins_of(key))
        return question, answer

    def _answer_origin(self, index: ModelIndex) -> tuple[AnswerDocument | None, QPoint]:
        """A row's answer and where its top left corner is painted (viewport coordinates)."""
        option = QStyleOptionViewItem()
        self._view.initViewItemOption(option)
        option.rect = self._view.visualRect(index)
        question, answer = self._documents(index)
        top = option.rect.top() + self.PAD + self._header_height(option) + self.GAP
        top += int(question.size().height()) + 3 * self.GAP
        fold = self._fold_height(option, index)
        top += fold + (self.GAP if fold else 0)
        return answer, QPoint(option.rect.left() + self.BAND + self.PAD, top)

    def text_layout(self, index: ModelIndex) -> list[tuple[QTextDocument, QPoint]]:
        """The row's selectable documents — question, then the answer's sections — each
        with the viewport point its top left corner is painted at."""
        answer, origin = self._answer_origin(index)
        question, _answer = self._documents(index)
        rect = self._view.visualRect(index)
        top = rect.top() + self.PAD + self._view.fontMetrics().height() + 2 + 2 * self.GAP
        placed = [(question, QPoint(rect.left() + self.BAND + self.PAD + self.GAP, top))]
        if answer is not None:
            placed += [(doc, QPoint(origin.x(), origin.y() + int(doc_top)))
                       for doc, doc_top in answer.placed()]
        return placed

    def code_index_at(self, index: ModelIndex, point: QPoint) -> int | None:
        """Which code block (by number) of a row's answer is under `point`."""
        answer, origin = self._answer_origin(index)
        if answer is None or not 0 <= point.x() - origin.x() <= answer.width:
            return None
        return answer.code_index_at(point.y() - origin.y())

    def code_at(self, index: ModelIndex, point: QPoint) -> str | None:
        """The text of the code block under `point` (viewport coordinates) in a row's
        answer, if there is one."""
        answer, origin = self._answer_origin(index)
        return answer.code_at(point.y() - origin.y()) if answer is not None else None

    def copy_button_at(self, index: ModelIndex, point: QPoint) -> str | None:
        """The code a code block's *Copy* under `point` copies, if one is there."""
        answer, origin = self._answer_origin(index)
        if answer is None:
            return None
        for rect, text in answer.copy_buttons():
            if rect.translated(origin.x(), origin.y()).contains(point.toPointF()):
                return text
        return None

    def code_blocks(self, index: ModelIndex) -> list[str]:
        """The text of every code block in a row's answer, first to last."""
        _question, answer = self._documents(index)
        return [text for _lang, text, _top, _bottom in answer.code_blocks()] if answer else []

    def _header_height(self, option: QStyleOptionViewItem) -> int:
        return option.fontMetrics.height() + 2

    @staticmethod
    def _header_font(option: QStyleOptionViewItem) -> QFont:
        font = QFont(option.font)
        font.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.9))
        return font

    def header_controls(self, option: QStyleOptionViewItem, index: ModelIndex
                        ) -> list[tuple[str, str, QRect]]:
        """The words after "Turn N" in a row's header, with where they are: ◀ version n of
        m ▶ for a turn with versions, *Use this version* on an older one of the newest
        turn ("use"), *Fork from here with this version* on an older one of a turn that later
        turns followed ("fork-version"), *Regenerate* on the newest turn. "label" is not
        clickable."""
        version = index.data(Role.VERSION)
        replaced = index.data(Role.MARK) is RowMark.REPLACED
        last = bool(index.data(Role.LAST)) and not replaced
        if not version and not last:
            return []
        metrics = QFontMetrics(self._header_font(option))
        top = option.rect.top() + self.PAD
        height = self._header_height(option)
        x = option.rect.left() + self.BAND + self.PAD + metrics.horizontalAdvance(
            turn_title(index.data(Role.ORDINAL))) + 14
        controls: list[tuple[str, str, QRect]] = []
        words = []
        if version:
            words += [("older", "◀"), ("label", QCoreApplication.translate(
                "TranscriptDelegate", "version {0} of {1}").format(*version)), ("newer", "▶")]
            if replaced and index.data(Role.FOLLOWED):
                words.append(("fork-version", QCoreApplication.translate(
                    "TranscriptDelegate", "Fork from here with this version")))
            elif replaced:
                words.append(("use", QCoreApplication.translate("TranscriptDelegate",
                                                                "Use this version")))
        if last:
            words.append(("regenerate", QCoreApplication.translate("TranscriptDelegate",
                                                                   "↻ Regenerate")))
        for name, text in words:
            width = metrics.horizontalAdvance(text) + 8
            controls.append((name, text, QRect(x, top, width, height)))
            x += width + 6
        return controls

    def editorEvent(self, event: QEvent, model: object, option: QStyleOptionViewItem,  # noqa: N802
                    index: ModelIndex) -> bool:
        """A click on a header word is that control's, not the row's; a click on the
        reasoning line opens or folds it."""
        if event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton:
            point = event.position().toPoint()
            line = self._fold_line(option, index)
            if line is not None and line.contains(point):
                self.toggle_reasoning(index)
                return True
            for name, _text, rect in self.header_controls(option, index):
                if name != "label" and rect.contains(point):
                    self.control_clicked.emit(name, index.row())
                    return True
            code = self.copy_button_at(index, point) if not index.data(Role.PENDING) else None
            if code is not None:
                QGuiApplication.clipboard().setText(code)
                self.code_copied.emit(code)
                return True
        return super().editorEvent(event, model, option, index)  # type: ignore[arg-type]

    def _draw_controls(self, painter: QPainter, option: QStyleOptionViewItem,
                       index: ModelIndex) -> None:
        controls = self.header_controls(option, index)
        if not controls:
            return
        palette = option.palette
        painter.setFont(self._header_font(option))
        for name, text, rect in controls:
            role = QPalette.ColorRole.PlaceholderText if name == "label" \
                else QPalette.ColorRole.Link
            painter.setPen(palette.color(QPalette.ColorGroup.Active, role))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    # ------------------------------------------------------------------ layout
    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802
        question, answer = self._documents(index)
        height = self.PAD + self._header_height(option) + self.GAP
        height += int(question.size().height()) + 2 * self.GAP
        fold = self._fold_height(option, index)
        height += fold + (self.GAP if fold else 0)
        if answer is not None:
            height += self.GAP + int(answer.height())
        else:
            height += self.GAP + option.fontMetrics.height()
        height += self.PAD
        return QSize(self._view.viewport().width(), height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        palette = option.palette
        rect = QRect(option.rect)
        painter.save()
        try:
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            if selected:
                highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
                highlight.setAlpha(40)
                painter.fillRect(rect, highlight)
            mark = index.data(Role.MARK)
            band = QRect(rect.left(), rect.top() + 2, self.BAND, rect.height() - 4)
            if isinstance(mark, RowMark):
                color = mark.color(palette)
                if mark is RowMark.NOT_SENT:
                    painter.fillRect(band, QColor(color.red(), color.green(), color.blue(), 110))
                else:
                    painter.fillRect(band, color)

            left = rect.left() + self.BAND + self.PAD
            width = self._content_width()
            top = rect.top() + self.PAD

            # Header: turn number on the left, the mark's label on the right.
            header_font = self._header_font(option)
            painter.setFont(header_font)
            header_h = self._header_height(option)
            header = QRect(left, top, width, header_h)
            dim = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
            painter.setPen(dim)
            painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             row_title(bool(index.data(Role.PENDING)), index.data(Role.ORDINAL)))
            if not index.data(Role.PENDING):
                self._draw_controls(painter, option, index)
            if isinstance(mark, RowMark):
                label_font = QFont(header_font)
                label_font.setBold(True)
                painter.setFont(label_font)
                painter.setPen(mark.color(palette))
                painter.drawText(
                    header, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    mark.label,
                )
            top += header_h + self.GAP

            question, answer = self._documents(index)
            # The question sits in a tinted box so question and answer read apart.
            q_height = int(question.size().height()) + 2 * self.GAP
            box = QRect(left, top, width, q_height)
            tint = QColor(palette.color(QPalette.ColorRole.AlternateBase))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tint)
            painter.drawRoundedRect(box, 6, 6)
            visible = rect.intersected(self._view.viewport().rect())
            key = str(index.data(Role.KEY))
            selection = self.selector.selection
            if selection is not None and selection.key != key:
                selection = None
            self._draw_doc(painter, question, left + self.GAP, top + self.GAP, palette,
                           visible, self._selected([question], selection, palette).get(0))
            top += q_height + self.GAP
            top = self._draw_fold(painter, option, index, QRect(left, top, width, 0), visible)

            if answer is not None:
                answer.draw(painter, left, top, palette, visible, hovered=self._hovered(key),
                            selected=self._selected(answer.documents, selection, palette, 1))
            else:
                painter.setFont(option.font)
                painter.setPen(dim)
                painter.drawText(QRect(left, top, width, option.fontMetrics.height()),
                                 Qt.AlignmentFlag.AlignLeft,
                                 translate("Transcript", "Waiting for the answer…"))
            if option.state & QStyle.StateFlag.State_HasFocus:
                pen_color = QColor(palette.color(QPalette.ColorRole.Highlight))
                painter.setPen(pen_color)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(0, 0, -1, -1))
        finally:
            painter.restore()

    # -------------------------------------------------------------- reasoning
    def _fold_height(self, option: QStyleOptionViewItem, index: ModelIndex) -> int:
        return self.reasoning.height(str(index.data(Role.KEY)),
                                     str(index.data(Role.REASONING) or ""),
                                     self._content_width(), option.fontMetrics.height(),
                                     self.GAP)

    def _draw_fold(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex,
                   area: QRect, visible: QRect) -> int:
        """Draw the reasoning fold (if the row has one) at `area`; the top below it."""
        text = str(index.data(Role.REASONING) or "")
        if not text:
            return area.top()
        painter.setFont(option.font)
        streaming = bool(index.data(Role.PENDING)) and not index.data(Role.ANSWER)
        self.reasoning.draw(painter, str(index.data(Role.KEY)), text, area,
                            option.fontMetrics.height(), self.GAP, option.palette, streaming,
                            visible)
        return area.top() + self._fold_height(option, index) + self.GAP

    def _fold_line(self, option: QStyleOptionViewItem, index: ModelIndex) -> QRect | None:
        """Where the fold's line is in the row (None without reasoning)."""
        if not index.data(Role.REASONING):
            return None
        question, _ = self._documents(index)
        top = (option.rect.top() + self.PAD + self._header_height(option) + self.GAP
               + int(question.size().height()) + 3 * self.GAP)
        return QRect(option.rect.left() + self.BAND + self.PAD, top, self._content_width(),
                     option.fontMetrics.height())

    def toggle_reasoning(self, index: ModelIndex) -> bool:
        """Open or fold the row's reasoning; returns whether it is open now."""
        opened = self.reasoning.toggle(str(index.data(Role.KEY)))
        self.sizeHintChanged.emit(QModelIndex(index))
        return opened

    @staticmethod
    def _selected(docs: Sequence[QTextDocument], selection: TextSelection | None,
                  palette: QPalette, first: int = 0
                  ) -> dict[int, list[QAbstractTextDocumentLayout.Selection]]:
        """How the selected part of each of `docs` (the row's documents from number
        `first` on: 0 the question, 1… the answer's sections) is drawn, by place in
        `docs`."""
        if not selection:
            return {}
        found = {}
        for number, doc in enumerate(docs):
            span = selection.range_in(number + first, doc)
            if span is not None:
                found[number] = selection_format(doc, span, palette)
        return found

    def _hovered(self, key: str) -> int | None:
        """The code block under the pointer in row `key` (by number), if any."""
        hovered = self.hovered_code
        return hovered[1] if hovered is not None and hovered[0] == key else None

    @staticmethod
    def _draw_doc(
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


class TranscriptView(QListView):
    """The history list: keeps to the newest turn while it is showing, loads older
    turns when the top is reached, and copies a turn's text."""

    copied = Signal(str)
    delete_requested = Signal(str)  # turn id
    menu_opening = Signal(QModelIndex)  # the context menu is about to show for this row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(translate("Transcript", "Conversation history"))
        self.setAccessibleDescription(translate("Transcript",
            "Every saved turn of the conversation, oldest first, with how each took part in "
            "the request"))
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSpacing(2)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = TranscriptDelegate(self)
        self.setItemDelegate(self.delegate)
        self._follow = True
        self._prepend_from: tuple[int, int] | None = None
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._scrolled)
        bar.rangeChanged.connect(self._range_changed)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._copy_turn = self._action(
            QCoreApplication.translate("TranscriptView", "Copy turn"),
            QKeySequence.StandardKey.Copy, "turn")
        self._copy_question = self._action(
            QCoreApplication.translate("TranscriptView", "Copy question"), None, "question")
        self._copy_answer = self._action(
            QCoreApplication.translate("TranscriptView", "Copy answer"), None, "answer")
        self.copy_code_action = QAction(
            QCoreApplication.translate("TranscriptView", "Copy code block"), self)
        self.copy_code_action.setToolTip(QCoreApplication.translate(
            "TranscriptView",
            "Copy the code block under the pointer (else the answer's first one), exactly "
            "as it is"))
        self.copy_code_action.triggered.connect(self.copy_code)
        self.addAction(self.copy_code_action)
        self._menu_at: QPoint | None = None
        self._selecting: QPersistentModelIndex | None = None  # the row a drag selects in
        separator = QAction(self)
        separator.setSeparator(True)
        self.addAction(separator)
        self.delete_action = QAction(translate("Transcript", "Delete turn…"), self)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.setToolTip(translate("Transcript",
            "Delete this turn and everything derived from it (summaries covering it, its place "
            "in request records)"))
        self.delete_action.triggered.connect(self.delete_current)
        self.addAction(self.delete_action)
        self.reasoning_action = QAction(translate("Transcript", "Show or hide reasoning"), self)
        self.reasoning_action.setToolTip(translate("Transcript",
            "Open or fold what a reasoning model thought before this answer"))
        self.reasoning_action.triggered.connect(self.toggle_reasoning)
        self.addAction(self.reasoning_action)
        self.copy_reasoning_action = self._action(
            translate("Transcript", "Copy reasoning"), None, "reasoning")
        self.setMouseTracking(True)  # the pointer shows a code block's Copy, and a text cursor
        self.delegate.selector.changed.connect(self._selection_changed)

    def _action(self, text: str, shortcut: QKeySequence.StandardKey | None, part: str) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(lambda: self.copy_current(part))
        self.addAction(action)
        return action

    def setModel(self, model: object) -> None:  # noqa: N802 - Qt override
        assert isinstance(model, TranscriptModel)
        super().setModel(model)
        model.modelReset.connect(self._after_reset)
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsInserted.connect(self._after_insert)
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.dataChanged.connect(self._after_change)
        model.pending_saved.connect(self.delegate.adopt_pending)

    def transcript(self) -> TranscriptModel:
        model = self.model()
        assert isinstance(model, TranscriptModel)
        return model

    # -------------------------------------------------------------- scrolling
    def _at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def _scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 4
        if value == bar.minimum() and self._prepend_from is None:
            self.transcript().request_older()

    def _range_changed(self, minimum: int, maximum: int) -> None:
        bar = self.verticalScrollBar()
        if self._prepend_from is not None:
            old_value, old_max = self._prepend_from
            self._prepend_from = None
            bar.setValue(old_value + (maximum - old_max))
        elif self._follow:
            bar.setValue(maximum)
        if maximum == minimum and self.model() is not None:
            # Everything loaded fits on screen: show older turns too if there are any.
            self.transcript().request_older()

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0 and self.transcript().loaded_count > 0:
            bar = self.verticalScrollBar()
            self._prepend_from = (bar.value(), bar.maximum())

    def _after_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first > 0 and self._follow:
            self.scrollToBottom()

    def _before_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        model = self.transcript()
        for row in range(first, last + 1):
            key = str(model.index(row).data(Role.KEY))
            self.delegate.forget(key)
            self.delegate.selector.forget(key)

    def _after_reset(self) -> None:
        self.delegate.selector.clear()
        self.delegate.clear_cache()
        self._follow = True
        self._prepend_from = None
        self.scrollToBottom()

    def _after_change(self, top_left: QModelIndex, bottom_right: QModelIndex,
                      roles: Sequence[int] = ()) -> None:
        if Role.PINS in roles:  # underlined anew from the text
            for row in range(top_left.row(), bottom_right.row() + 1):
                self.delegate.forget(str(self.transcript().index(row).data(Role.KEY)))
            self.viewport().update()
        if Role.ANSWER in roles or Role.REASONING in roles:
            # The streaming row grew: its height changes, so lay the rows out again.
            self.delegate.sizeHintChanged.emit(top_left)

    def scroll_to_newest(self) -> None:
        self._follow = True
        self.scrollToBottom()

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        follow = self._follow
        super().resizeEvent(event)  # type: ignore[arg-type]
        if follow:
            self.scrollToBottom()

    # ----------------------------------------------------------------- deleting
    def delete_current(self) -> str | None:
        """Ask to delete the current turn (the pending question is not a turn yet)."""
        index = self.currentIndex()
        if not index.isValid() or index.data(Role.PENDING):
            return None
        turn_id = str(index.data(Role.KEY))
        self.delete_requested.emit(turn_id)
        return turn_id

    def toggle_reasoning(self) -> bool | None:
        """Open or fold the current turn's reasoning (None: it has none)."""
        index = self.currentIndex()
        if not index.isValid() or not index.data(Role.REASONING):
            return None
        return self.delegate.toggle_reasoning(index)

    # ------------------------------------------------------------------ copying
    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # The menu of actions opens from here (a right click or the keyboard), without
        # passing through `contextMenuEvent`.
        if event.type() == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            self._prepare_menu(event.pos())
        return super().viewportEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt override
        self._prepare_menu(event.pos())
        super().contextMenuEvent(event)

    def _prepare_menu(self, point: QPoint) -> None:
        """Fit the menu to the row under `point` before it shows."""
        self._menu_at = point  # which code block "Copy code block" means
        index = self.indexAt(point)
        reasoning = bool(index.data(Role.REASONING))
        self.copy_reasoning_action.setVisible(reasoning)
        self.reasoning_action.setVisible(reasoning)
        self.copy_code_action.setVisible(index.isValid()
                                         and bool(self.delegate.code_blocks(index)))
        self.menu_opening.emit(index)

    def copy_code(self) -> str:
        """Copy the code block the context menu was opened on, else the current answer's
        first one; "" when the answer has none."""
        index = self.currentIndex()
        if not index.isValid():
            return ""
        text = None
        at, self._menu_at = self._menu_at, None
        if at is not None and self.indexAt(at) == index:
            text = self.delegate.code_at(index, at)
        if text is None:
            blocks = self.delegate.code_blocks(index)
            text = blocks[0] if blocks else None
        if text is None:
            return ""
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    def copy_current(self, part: str) -> str:
        """Copy the current turn's `part` ("turn": the text selected in it, if any, else
        the whole turn; "reasoning": what a reasoning model thought before its answer)."""
        index = self.currentIndex()
        if not index.isValid():
            return ""
        question = str(index.data(Role.QUESTION) or "")
        answer = str(index.data(Role.ANSWER) or "")
        selected = self.selected_text() if part == "turn" else ""
        if selected:
            text = selected
        elif part == "question":
            text = question
        elif part == "answer":
            text = answer
        elif part == "reasoning":
            text = str(index.data(Role.REASONING) or "")
        else:
            text = f"{question}\n\n{answer}" if answer else question
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    # ---------------------------------------------------------------- selecting
    def selected_text(self) -> str:
        """The text selected in the current turn ("" if none)."""
        index = self.currentIndex()
        selection = self.delegate.selector.selection
        if not index.isValid() or not selection or index.data(Role.KEY) != selection.key:
            return ""
        return self.delegate.selector.text(self.delegate.text_layout(index))

    def _selection_changed(self) -> None:
        selected = bool(self.delegate.selector.selection)
        self._copy_turn.setText(
            QCoreApplication.translate("TranscriptView", "Copy selection") if selected
            else QCoreApplication.translate("TranscriptView", "Copy turn"))
        self.viewport().update()

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:  # noqa: N802
        """Another turn became the current one: the text selected in the old one goes, as
        it does when a text field loses focus to another."""
        super().currentChanged(current, previous)
        selection = self.delegate.selector.selection
        if selection is not None and (not current.isValid()
                                      or current.data(Role.KEY) != selection.key):
            self.delegate.selector.clear()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mousePressEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self.indexAt(event.position().toPoint())
        if not index.isValid():
            self.delegate.selector.clear()
            return
        self._selecting = QPersistentModelIndex(index)
        self.delegate.selector.press(str(index.data(Role.KEY)),
                                     self.delegate.text_layout(index), event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        point = event.position().toPoint()
        index = QModelIndex(self._selecting) if self._selecting is not None else QModelIndex()
        if event.buttons() & Qt.MouseButton.LeftButton and index.isValid() \
                and self.delegate.selector.drag(self.delegate.text_layout(index), point):
            bar = self.verticalScrollBar()  # dragging past an edge scrolls the list
            if point.y() < 0:
                bar.setValue(bar.value() + point.y())
            elif point.y() > self.viewport().height():
                bar.setValue(bar.value() + point.y() - self.viewport().height())
            return
        self._hover(point)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        self.delegate.selector.release()
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mouseDoubleClickEvent(event)
        index = self.indexAt(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and index.isValid():
            self.delegate.selector.double_click(str(index.data(Role.KEY)),
                                                self.delegate.text_layout(index),
                                                event.position().toPoint())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        index = self.currentIndex()
        if index.isValid() and self.delegate.selector.key(
                str(index.data(Role.KEY)), self.delegate.text_layout(index), event):
            event.accept()
            return
        super().keyPressEvent(event)

    def _hover(self, point: QPoint) -> None:
        """The pointer moved (no button held): show the Copy of the code block under it,
        and a text cursor over text."""
        index = self.indexAt(point)
        hovered = None
        beam = False
        if index.isValid():
            code = self.delegate.code_index_at(index, point)
            if code is not None and not index.data(Role.PENDING):
                hovered = (str(index.data(Role.KEY)), code)
            beam = inside_text(self.delegate.text_layout(index), point)
        if hovered != self.delegate.hovered_code:
            self.delegate.hovered_code = hovered
            self.viewport().update()
        shape = Qt.CursorShape.IBeamCursor if beam else Qt.CursorShape.ArrowCursor
        if self.viewport().cursor().shape() != shape:
            self.viewport().setCursor(shape)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if self.delegate.hovered_code is not None:
            self.delegate.hovered_code = None
            self.viewport().update()
        super().leaveEvent(event)
