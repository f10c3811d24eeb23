"""The transcript's list model over the log: one row per turn (question and answer, never
split), oldest at the top, loading older pages on demand. The running question is an
extra last row ("pending") whose answer grows as it streams; only that row is announced as
changed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QWidget

from ...core.attachments import Attachment
from ...core.model import Turn
from ...core.numbers import TurnNumbers
from ...core.summaries import StoredSummary
from ...core.versions import Versions
from ...store.pages import LogPages
from ..infra.languages import arg
from ..infra.operations import TRANSCRIPT_PAGE
from .marks import MarkMap, RowMark, header_buttons, incomplete_label, summary_tooltip
from .pending_row import PendingRow
from .pin_marks import pins_tooltip
from .tool_fold import tool_fold

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

ModelIndex = QModelIndex | QPersistentModelIndex

PENDING_KEY = "pending"


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
    INCOMPLETE = Qt.ItemDataRole.UserRole + 13  # why a kept answer is incomplete, else None
    ATTACHMENTS = Qt.ItemDataRole.UserRole + 14  # the question's files (a tuple, maybe empty)
    TOOL_CALLS = Qt.ItemDataRole.UserRole + 15  # the turn's tool calls (`ToolFold`), or None
    NUMBER = Qt.ItemDataRole.UserRole + 16  # the turn's number as shown (`core.numbers`)


class TranscriptModel(QAbstractListModel):
    """The committed turns of one conversation (plus the pending question), oldest first.

    The rows are a window onto the log: the newest `PAGE` turns at first; `fetchMore`
    prepends older pages, `request_newer` appends newer ones, and at most `MAX_ROWS` are
    rows at once (the far end gives way), so laying the rows out costs the same at turn 1
    of 100,000 as at the newest. `show_oldest`, `show_newest` and `reveal` move the window
    at once. Qt's views ask for more whenever the last row is visible, which in a
    transcript kept at its newest turn is always, so fetching is armed only by the view
    reporting that its top edge is showing (`request_older`).
    """

    PAGE = TRANSCRIPT_PAGE
    MAX_ROWS = 15 * TRANSCRIPT_PAGE

    # The pending question was saved as this turn (id, answer), just before its row goes.
    pending_saved = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._turns: Sequence[Turn] = ()
        self._first = 0  # index in _turns of row 0
        self._stop = 0  # index in _turns after the last turn row
        self.trimming = False  # rows are leaving the window, not the log
        self.moving = False  # a reset that moves the window (the same log)
        self._pending: PendingRow | None = None
        self._marks: Mapping[int, RowMark] = {}
        self._summary: StoredSummary | None = None
        self._pins: Mapping[str, tuple[str, ...]] = {}  # turn id → texts pinned from it
        self._costs: Mapping[str, str] = {}  # turn id → what its answer cost, in words
        self._older_requested = False
        self._versions = Versions((), {})
        self._numbers = TurnNumbers()
        self._members: Mapping[str, Turn] = {}  # every version of a row that has several
        self._showing: dict[str, str] = {}  # id in use → id of the older version on show

    # ------------------------------------------------------------------ contents
    def set_turns(self, turns: Sequence[Turn]) -> None:
        self.beginResetModel()
        self._turns = turns
        self._stop = len(turns)
        self._first = max(0, self._stop - self.PAGE)
        self._pending = None
        self._marks = {}
        self._older_requested = False
        self._versions, self._members, self._showing = Versions((), {}), {}, {}
        self._numbers = TurnNumbers()
        self.endResetModel()

    @property
    def turns(self) -> Sequence[Turn]:
        return self._turns

    @property
    def loaded_count(self) -> int:
        return self._stop - self._first

    @property
    def at_newest(self) -> bool:
        """Whether the newest turn is a row (the window reaches the end of the log)."""
        return self._stop >= len(self._turns)

    @property
    def at_oldest(self) -> bool:
        return self._first == 0

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid():
            return 0
        return self.loaded_count + (1 if self._pending_shown else 0)

    @property
    def _pending_shown(self) -> bool:
        """The pending question is a row while the newest turn is one (it follows it)."""
        return self._pending is not None and self.at_newest

    def turns_before(self, row: int) -> int:
        """How many turns of the active line come before `row` (loaded or not)."""
        return self._first + row

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
            return index - self._first \
                if index is not None and self._first <= index < self._stop else None
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
            if pending is None or row != self.loaded_count or not self.at_newest:
                return None
            return self._pending_data(pending, role)
        turn = self._members.get(self._showing[active.id], active) \
            if active.id in self._showing else active
        if role in (Role.VERSION, Role.ACTIVE, Role.LAST, Role.FOLLOWED):
            return self._version_data(row, active, turn, role)
        if turn is not active and role in (Role.MARK, Qt.ItemDataRole.ToolTipRole):
            return RowMark.REPLACED if role == Role.MARK else \
                arg(translate("Transcript", "Turn %1: %2"), self.number_of(turn),
                    RowMark.REPLACED.explanation)
        if role == Role.KEY:
            return turn.id
        if role == Role.ORDINAL:
            return turn.ordinal
        if role == Role.NUMBER:
            return self.number_of(turn)
        if role == Role.QUESTION:
            return turn.question
        if role == Role.ANSWER:
            return turn.answer
        if role == Role.REASONING:
            return turn.reasoning
        if role == Role.INCOMPLETE:
            return turn.incomplete
        if role == Role.ATTACHMENTS:
            return turn.attachments
        if role == Role.TOOL_CALLS:
            return tool_fold(turn) if turn.tools else None
        if role == Role.MARK:
            marks = self._marks
            if isinstance(marks, MarkMap) and turn is active:
                return marks.at(self._turns, self._first + row, turn.ordinal)
            return marks.get(turn.ordinal)
        if role == Role.PENDING:
            return False
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            mark = self._marks.get(turn.ordinal)
            said = arg(translate("Transcript", ", %1"), mark.label) if mark else ""
            if turn.incomplete:
                said += arg(translate("Transcript", ", %1"), incomplete_label(turn.incomplete))
            return arg(translate("Transcript", "Turn %1%2. Question: %3\nAnswer: %4"),
                       self.number_of(turn), said,
                       turn.question, turn.answer)
        if role == Qt.ItemDataRole.ToolTipRole:
            mark = self._marks.get(turn.ordinal)
            if mark is RowMark.SUMMARY:
                tip = summary_tooltip(self.number_of(turn), self._summary, self._numbers)
            else:
                tip = arg(translate("Transcript", "Turn %1: %2"), self.number_of(turn),
                          mark.explanation) if mark else None
            pins = self._pins.get(turn.id)
            return "\n".join(t for t in (tip, pins_tooltip(pins) if pins else "",
                                         self._costs.get(turn.id, "")) if t) or None
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and turn is active:
            return header_buttons(turn, self._version_data(row, active, turn, Role.LAST))
        return None

    def _version_data(self, row: int, active: Turn, turn: Turn, role: int) -> object:
        if role == Role.ACTIVE:
            return active.id
        if role == Role.LAST:
            return self._first + row == len(self._turns) - 1 and self._pending is None
        if role == Role.FOLLOWED:
            return self._first + row < len(self._turns) - 1
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
        self._numbers = TurnNumbers.of(versions)
        self._showing = {k: v for k, v in self._showing.items() if v in members}
        if self.rowCount():
            self.dataChanged.emit(self.index(0), self.index(self.rowCount() - 1),
                                  [Role.VERSION, Role.MARK, Role.NUMBER])

    @property
    def numbers(self) -> TurnNumbers:
        """The numbers the turns show (one rule: `core.numbers`)."""
        return self._numbers

    def number_of(self, turn: Turn) -> int:
        return self._numbers.number(turn.ordinal)

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
        if role == Role.NUMBER:
            return self._numbers.next_number(self._turns[-1].ordinal + 1) if self._turns else 1
        if role == Role.QUESTION:
            return pending.question
        if role == Role.ANSWER:
            return pending.answer
        if role == Role.REASONING:
            return pending.reasoning
        if role == Role.ATTACHMENTS:
            return pending.attachments
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
        self._trim(from_top=False)

    def request_newer(self) -> bool:
        """The view's bottom edge is showing: append the next page if the newest turn is
        not a row yet; False if it is."""
        if self.at_newest:
            return False
        count = min(self.PAGE, len(self._turns) - self._stop)
        joins = count + (1 if self._pending is not None and
                         self._stop + count >= len(self._turns) else 0)
        self.beginInsertRows(QModelIndex(), self.loaded_count, self.loaded_count + joins - 1)
        self._stop += count
        self.endInsertRows()
        self._trim(from_top=True)
        return True

    def _trim(self, *, from_top: bool) -> None:
        """Keep at most MAX_ROWS rows: the end away from where the rows grew gives way."""
        extra = self.loaded_count - self.MAX_ROWS
        if extra <= 0:
            return
        self.trimming = True
        try:
            if from_top:
                self.beginRemoveRows(QModelIndex(), 0, extra - 1)
                self._first += extra
            else:  # the pending row, if shown, goes with the newest turn
                self.beginRemoveRows(QModelIndex(), self.loaded_count - extra,
                                     self.rowCount() - 1)
                self._stop -= extra
            self.endRemoveRows()
        finally:
            self.trimming = False

    def _show_window(self, first: int, stop: int) -> None:
        """Make turns first..stop-1 the rows (one reset: the view lays out only them)."""
        self.moving = True
        try:
            self.beginResetModel()
            self._first, self._stop = first, stop
            self._older_requested = False
            self.endResetModel()
        finally:
            self.moving = False

    def show_oldest(self) -> None:
        """Make the oldest page the rows (Ctrl+Home), without reading what lies between."""
        if self._first == 0:
            return
        self._show_window(0, min(len(self._turns), self.PAGE))

    def show_newest(self) -> None:
        """Make the newest page the rows again (Ctrl+End, a send)."""
        if self.at_newest:
            return
        self._show_window(max(0, len(self._turns) - self.PAGE), len(self._turns))

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
        return self.reveal_position(position, before=before)

    def reveal_position(self, position: int, *, before: int = 3) -> QModelIndex:
        """Make the turn at `position` of the log (0: the oldest) a row, as `reveal`."""
        position = max(0, min(position, len(self._turns) - 1))
        start = max(0, position - before)
        if self._first <= position < self._stop and start >= self._first:
            return self.index(position - self._first)
        if not self._first - self.PAGE <= start < self._first:
            # Far from the rows shown: the window moves to it (nothing between is read).
            stop = min(len(self._turns), max(position + 1, start + self.PAGE))
            self._show_window(start, stop)
            return self.index(position - self._first)
        if start < self._first:
            self.beginInsertRows(QModelIndex(), 0, self._first - start - 1)
            self._first = start
            self.endInsertRows()
        if position >= self._stop:
            self.beginInsertRows(QModelIndex(), self.loaded_count, position - self._first)
            self._stop = position + 1
            self.endInsertRows()
        return self.index(position - self._first)

    def load_all(self) -> None:
        """Make every turn a row (tests and screenshots of a short conversation)."""
        if self._first > 0:
            self.beginInsertRows(QModelIndex(), 0, self._first - 1)
            self._first = 0
            self.endInsertRows()
        if not self.at_newest:
            self.beginInsertRows(QModelIndex(), self.loaded_count, len(self._turns) - 1)
            self._stop = len(self._turns)
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

    def set_costs(self, costs: Mapping[str, str]) -> None:
        """What each turn's answer used and cost, in words (the last line of its tooltip)."""
        self._costs = dict(costs)

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

    def start_pending(self, question: str, attachments: tuple[Attachment, ...] = ()) -> None:
        if self._pending is not None:
            raise RuntimeError("a question is already pending")
        self.show_newest()  # the question joins the log after its newest turn
        row = self.loaded_count
        self.beginInsertRows(QModelIndex(), row, row)
        self._pending = PendingRow(question, attachments=attachments)
        self.endInsertRows()

    def append_pending(self, text: str) -> None:
        """Add streamed answer text; announces a change to the pending row only."""
        if self._pending is None or not text:
            return
        self._pending.add_answer(text)
        if self.at_newest:
            index = self.index(self.loaded_count)
            self.dataChanged.emit(index, index, [Role.ANSWER])

    def append_pending_reasoning(self, text: str) -> None:
        """Add streamed reasoning; announces a change to the pending row only."""
        if self._pending is None or not text:
            return
        self._pending.add_reasoning(text)
        if self.at_newest:
            index = self.index(self.loaded_count)
            self.dataChanged.emit(index, index, [Role.REASONING])

    def drop_pending(self) -> str:
        """Remove the pending row; returns the partial answer it held."""
        pending = self._pending
        if pending is None:
            return ""
        if not self.at_newest:  # not a row: the window is elsewhere in the log
            self._pending = None
            return pending.answer
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
        for index in range(self._stop - 1, self._first - 1, -1):
            if turns[index].id == turn_id:
                return index
        return next((i for i, t in enumerate(turns) if t.id == turn_id), None)

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
            self._stop -= 1
            return True
        if index >= self._stop:
            self._turns = remaining
            return True
        row = index - self._first
        self.beginRemoveRows(QModelIndex(), row, row)
        self._turns = remaining
        self._stop -= 1
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
        if not self.at_newest:  # the window stays where the person is reading
            self._turns = turns
            return
        start = self.loaded_count
        self.beginInsertRows(QModelIndex(), start, start + added - 1)
        self._turns = turns
        self._stop = len(turns)
        self.endInsertRows()
