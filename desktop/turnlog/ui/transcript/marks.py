"""How a turn took part in a request, as the window shows it: a coloured band plus a label."""

from __future__ import annotations

import bisect
import enum
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from ...core.model import Turn, Usage, position_of
from ...core.partial import CUT, LENGTH, NO_FINISH_REASON, STOPPED
from ...core.projection import Mark, Projection
from ...core.summaries import StoredSummary
from ..infra.languages import arg, date_time, number, plural
from ..infra.theme import mark_colour
from .flow import FlowLayout

if TYPE_CHECKING:
    from ...core.numbers import TurnNumbers


class RowMark(enum.Enum):
    """A row's mark. The first three come from a projection; TO_SUMMARIZE is a turn a
    send would first fold into the rolling summary (previews only); PENDING is the
    question of the running request, ASKED the question (now a turn) the last request
    carried. REPLACED is an older version of a turn (regenerated, edited), on show behind
    the version in use: never sent."""

    SENT = "sent"
    SUMMARY = "summary"
    TO_SUMMARIZE = "to_summarize"
    NOT_SENT = "not_sent"
    PENDING = "pending"
    ASKED = "asked"
    REPLACED = "replaced"

    @classmethod
    def of(cls, mark: Mark) -> RowMark:
        return _FROM_MARK[mark]

    @property
    def label(self) -> str:
        return QCoreApplication.translate("RowMark", _LABELS[self])

    @property
    def explanation(self) -> str:
        return QCoreApplication.translate("RowMark", _EXPLANATIONS[self])

    def color(self, palette: QPalette) -> QColor:
        """The mark's colour in `palette`'s theme (light or dark): see `theme.MARKS`."""
        return mark_colour(self.value, palette)


_LABELS = {
    RowMark.SENT: QT_TRANSLATE_NOOP("RowMark", "sent"),
    RowMark.SUMMARY: QT_TRANSLATE_NOOP("RowMark", "in summary"),
    RowMark.TO_SUMMARIZE: QT_TRANSLATE_NOOP("RowMark", "to be summarized"),
    RowMark.NOT_SENT: QT_TRANSLATE_NOOP("RowMark", "not sent"),
    RowMark.PENDING: QT_TRANSLATE_NOOP("RowMark", "pending"),
    RowMark.ASKED: QT_TRANSLATE_NOOP("RowMark", "just asked"),
    RowMark.REPLACED: QT_TRANSLATE_NOOP("RowMark", "replaced"),
}

_EXPLANATIONS = {
    RowMark.SENT: QT_TRANSLATE_NOOP("RowMark", "carried verbatim in the request"),
    RowMark.SUMMARY: QT_TRANSLATE_NOOP("RowMark", "stood in for by the rolling summary"),
    RowMark.TO_SUMMARIZE: QT_TRANSLATE_NOOP(
        "RowMark", "not in the summary yet: sending first folds it into the rolling "
        "summary (a summary call to the model)"),
    RowMark.NOT_SENT: QT_TRANSLATE_NOOP("RowMark", "kept in the log, left out of the request"),
    RowMark.PENDING: QT_TRANSLATE_NOOP("RowMark", "the question being answered now"),
    RowMark.ASKED: QT_TRANSLATE_NOOP(
        "RowMark", "the question of the last request, now answered and saved"),
    RowMark.REPLACED: QT_TRANSLATE_NOOP(
        "RowMark", "an older version, replaced by a newer one (regenerated or edited): "
        "kept in the log, never sent"),
}


_FROM_MARK = {Mark.SENT: RowMark.SENT, Mark.SUMMARY: RowMark.SUMMARY,
              Mark.NOT_SENT: RowMark.NOT_SENT}

# Why a kept answer is incomplete (`core.partial`), in the words a row's header shows.
INCOMPLETE_WORDS = {
    STOPPED: QT_TRANSLATE_NOOP("Incomplete", "stopped"),
    CUT: QT_TRANSLATE_NOOP("Incomplete", "the stream was cut"),
    LENGTH: QT_TRANSLATE_NOOP("Incomplete", "cut off at the output limit"),
    NO_FINISH_REASON: QT_TRANSLATE_NOOP("Incomplete", "no finish reason"),
}


# The newest turn's header buttons, by name (a narrow window paints them as icons alone).
BUTTON_NAMES = {"continue": QT_TRANSLATE_NOOP("TranscriptDelegate", "Continue"),
                "regenerate": QT_TRANSLATE_NOOP("TranscriptDelegate", "Regenerate")}


def button_name(name: str) -> str:
    return QCoreApplication.translate("TranscriptDelegate", BUTTON_NAMES[name])


def header_buttons(turn: Turn, newest: object) -> str | None:
    """What a screen reader hears of the buttons in the newest turn's header."""
    if not newest:
        return None
    names = (["continue"] if turn.incomplete else []) + ["regenerate"]
    return arg(QCoreApplication.translate("Transcript", "Buttons in its header: %1"),
               ", ".join(button_name(name) for name in names))


def incomplete_label(reason: str) -> str:
    """"incomplete (stopped)": the mark of a turn the person kept although its answer
    stopped early (a reason a newer Turnlog wrote is shown as it is)."""
    words = INCOMPLETE_WORDS.get(reason)
    return arg(QCoreApplication.translate("Incomplete", "incomplete (%1)"),
               QCoreApplication.translate("Incomplete", words) if words else reason)


class MarkMap(Mapping[int, RowMark]):
    """Ordinal → mark for what the window shows: every turn `projection` was given (or,
    without one, every turn of `turns`, not sent), with the turns a send would first
    summarize (`to_summarize`: inclusive runs of ordinals) and the question last asked
    marked over them.

    Worked out per lookup, in O(log n) (a paged log answers from its pages in memory or one
    counting query), so a preview over a long log costs nothing for the rows that are not
    loaded; only iterating visits every turn.
    """

    def __init__(self, turns: Sequence[Turn], projection: Projection | None,
                 to_summarize: Sequence[tuple[int, int]] = (), asked: int | None = None
                 ) -> None:
        self._turns = turns
        self._projection = projection
        self._folded = tuple(to_summarize)
        self._fold_starts = [first for first, _ in self._folded]
        self._asked = asked
        self._gone: frozenset[int] = frozenset()

    def without(self, ordinal: int) -> MarkMap:
        """The same marks with turn `ordinal` gone (it was deleted)."""
        smaller = MarkMap(self._turns, self._projection)
        smaller._folded, smaller._fold_starts = self._folded, self._fold_starts
        smaller._asked = None if self._asked == ordinal else self._asked
        smaller._gone = self._gone | {ordinal}
        return smaller

    def __getitem__(self, ordinal: int) -> RowMark:
        if ordinal in self._gone:
            raise KeyError(ordinal)
        if ordinal == self._asked:
            return RowMark.ASKED
        run = bisect.bisect_right(self._fold_starts, ordinal) - 1
        if run >= 0 and ordinal <= self._folded[run][1]:
            return RowMark.TO_SUMMARIZE
        if self._projection is not None:
            mark = self._projection.mark_of_ordinal(ordinal)
            if mark is None:
                raise KeyError(ordinal)
            return _FROM_MARK[mark]
        if position_of(self._turns, ordinal) is None:
            raise KeyError(ordinal)
        return RowMark.NOT_SENT

    def at(self, turns: Sequence[Turn], index: int, ordinal: int) -> RowMark | None:
        """The mark of turn `ordinal`, found at `index` of `turns`: in O(1) when `turns` is
        the log the projection was given (a row being painted knows its index), else as
        `get` finds it (a counting query for a row far from the pages in memory)."""
        projection = self._projection
        if projection is None or turns is not self._turns or ordinal in self._gone \
                or ordinal == self._asked or not projection.same_log(turns):
            return self.get(ordinal)
        run = bisect.bisect_right(self._fold_starts, ordinal) - 1
        if run >= 0 and ordinal <= self._folded[run][1]:
            return RowMark.TO_SUMMARIZE
        return _FROM_MARK[projection.mark(index)]

    def _ordinals(self) -> Iterator[int]:
        if self._projection is not None:
            yield from self._projection.marks_by_ordinal()
        else:
            yield from (turn.ordinal for turn in self._turns)
        yield from (o for first, last in self._folded for o in range(first, last + 1))
        if self._asked is not None:
            yield self._asked

    def __iter__(self) -> Iterator[int]:
        return iter(o for o in dict.fromkeys(self._ordinals()) if o not in self._gone)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def same_as(self, other: object) -> bool:
        """True when `other` certainly holds the same marks (without visiting them all)."""
        if not isinstance(other, MarkMap) or other._turns is not self._turns \
                or other._folded != self._folded or other._asked != self._asked \
                or other._gone != self._gone:
            return False
        mine, theirs = self._projection, other._projection
        if mine is None or theirs is None:
            return mine is theirs
        return mine.same_marks(theirs)


def runs_text(runs: Sequence[tuple[int, int]]) -> str:
    """Turn numbers given as inclusive runs (`TurnNumbers.runs` of stored ordinals), as
    their headers write them: "turn 4", "turns 1–1,027" or, with gaps left by deletes,
    "turns 1–3, 5–9"."""
    if not runs:
        return QCoreApplication.translate("RowMark", "no turns")
    text = ", ".join(number(a) if a == b else f"{number(a)}–{number(b)}" for a, b in runs)
    single = len(runs) == 1 and runs[0][0] == runs[0][1]
    return arg(QCoreApplication.translate(
        "RowMark", "turn %1") if single else QCoreApplication.translate(
            "RowMark", "turns %1"), text)


def usage_text(usage: Usage) -> str:
    """"412 prompt · 21 completion · 433 total tokens", or "usage not reported"."""
    if not usage.known:
        return QCoreApplication.translate("RowMark", "usage not reported")
    bits = []
    if usage.prompt_tokens is not None:
        bits.append(arg(QCoreApplication.translate("RowMark", "%1 prompt"), usage.prompt_tokens))
    if usage.completion_tokens is not None:
        bits.append(arg(QCoreApplication.translate(
            "RowMark", "%1 completion"), usage.completion_tokens))
    if usage.total_tokens is not None:
        bits.append(arg(QCoreApplication.translate("RowMark", "%1 total"), usage.total_tokens))
    return " · ".join(bits) + QCoreApplication.translate("RowMark", " tokens")


def summary_caption(summary: StoredSummary, numbers: TurnNumbers) -> str:
    """Which summary it is, in one line: what it covers (by the turns' numbers, as their
    headers write them), who made it, when, how big."""
    span = runs_text(numbers.runs(((summary.first_ordinal, summary.last_ordinal),)))
    covered = summary.covered_count
    count = plural(QCoreApplication.translate("RowMark", "%n turn(s)", None, covered), covered)
    if summary.edited:
        return arg(QCoreApplication.translate(
            "RowMark", "summary #%1 of %2 (%3), edited by you on %4, %5 bytes, ~%6 tokens"),
                   str(summary.id), span, count, date_time(summary.created_at),
                   summary.content_bytes, summary.content_tokens)
    return arg(QCoreApplication.translate(
        "RowMark", "summary #%1 of %2 (%3), made by %4 on %5, %6 bytes, ~%7 tokens"),
               str(summary.id), span, count, summary.model or QCoreApplication.translate(
                   "RowMark", "the model"),
               date_time(summary.created_at), summary.content_bytes, summary.content_tokens)


def summary_tooltip(shown: int, summary: StoredSummary | None, numbers: TurnNumbers) -> str:
    """The tooltip of turn number `shown`, marked *in summary*: which summary stands in
    for it."""
    if summary is None:
        return arg(QCoreApplication.translate(
            "RowMark", "Turn %1: %2"), number(shown), RowMark.SUMMARY.explanation)
    text = arg(QCoreApplication.translate(
        "RowMark", "Turn %1 is in the rolling %2."), number(shown),
        summary_caption(summary, numbers))
    if summary.warnings:
        text += "\n" + arg(QCoreApplication.translate(
            "RowMark", "Warning: the summary may have dropped %1."), ", ".join(
            f"“{fact}”" for fact in summary.warnings))
    return text


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
    """The legend of the marks, one swatch and label each, wrapping in narrow windows: every
    mark a turn's badge can show, in the badge's own words."""

    SHOWN = (RowMark.SENT, RowMark.SUMMARY, RowMark.TO_SUMMARIZE, RowMark.NOT_SENT,
             RowMark.PENDING, RowMark.ASKED, RowMark.REPLACED)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(QCoreApplication.translate("RowMark", "Legend of the turn marks"))
        layout = FlowLayout(self)  # a narrow window wraps the legend, never cuts a label
        layout.setContentsMargins(8, 2, 8, 2)
        # Which request the marks describe; shown by the window above the legend.
        self.source = QLabel(parent)
        self.source.setObjectName("markSource")
        self.source.setWordWrap(True)
        for mark in self.SHOWN:
            entry = QWidget(self)  # the swatch and its label wrap together
            row = QHBoxLayout(entry)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(6)
            row.addWidget(MarkSwatch(mark, entry))
            label = QLabel(mark.label, entry)
            label.setToolTip(mark.explanation)
            row.addWidget(label)
            layout.addWidget(entry)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_source(self, text: str) -> None:
        """Say which request the marks describe (the last one, a preview, the running one)."""
        self.source.setText(text)
