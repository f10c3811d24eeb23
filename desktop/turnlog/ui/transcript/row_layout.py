"""Where the parts of a transcript row are, in one place: the row's height, where its
header, question box, reasoning fold and answer are painted, and so where a click or a
code block is. Sizing, painting, hit testing, code-block hits and the header's controls
all read the same `RowGeometry`; a change of the list's width invalidates the layout (the
rows are measured again for the new width)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect


@dataclass(frozen=True, slots=True)
class RowParts:
    """What a row's parts measure at the layout's width (pixels)."""

    header: int  # the header line: "Turn 4", its controls and its mark
    question: int  # the question's document
    fold: int  # the reasoning fold (0 without reasoning)
    answer: int  # the answer's documents, or the "waiting" line


@dataclass(frozen=True, slots=True)
class RowGeometry:
    """Where one row's parts are, in the coordinates of `rect` (the row's rectangle)."""

    rect: QRect
    header: QRect
    question_box: QRect  # the tinted box around the question
    question_at: QPoint  # the question document's top left corner
    fold: QRect  # the reasoning fold's line and text (height 0 without reasoning)
    answer_at: QPoint  # the answer's top left corner
    content_width: int
    height: int  # the row's full height: what `sizeHint` asks for


ESTIMATE_EXACT_CHARS = 20_000  # a longer text's height is estimated roughly (and fast)


class RowLayout:
    """The geometry of transcript rows at the list's current width.

    `set_width` is told the viewport's width whenever it changes and answers whether the
    rows must be measured again; `place` says where every part of a row goes."""

    BAND = 6  # the coloured mark at the row's left edge
    PAD = 10
    GAP = 6
    MIN_CONTENT = 120

    def __init__(self) -> None:
        self.viewport_width = 0

    def set_width(self, viewport_width: int) -> bool:
        """The list is `viewport_width` wide now; True when that changed the layout."""
        changed = viewport_width != self.viewport_width
        self.viewport_width = viewport_width
        return changed

    @property
    def content_width(self) -> int:
        """The width of a row's text column (header, answer, the question's box)."""
        return max(self.MIN_CONTENT, self.viewport_width - self.BAND - 3 * self.PAD)

    @property
    def question_width(self) -> int:
        """The width the question's document is laid out at, inside its box."""
        return self.content_width - 2 * self.GAP

    def place(self, rect: QRect, parts: RowParts) -> RowGeometry:
        """Where each part of a row measuring `parts` goes when the row is at `rect`."""
        pad, gap, width = self.PAD, self.GAP, self.content_width
        left = rect.left() + self.BAND + pad
        top = rect.top() + pad
        header = QRect(left, top, width, parts.header)
        top += parts.header + gap
        question_box = QRect(left, top, width, parts.question + 2 * gap)
        question_at = QPoint(left + gap, top + gap)
        top += question_box.height() + gap
        fold = QRect(left, top, width, parts.fold)
        if parts.fold:
            top += parts.fold + gap
        answer_at = QPoint(left, top)
        top += parts.answer + pad
        return RowGeometry(rect, header, question_box, question_at, fold, answer_at, width,
                           top - rect.top())


def estimated_lines(text: str, width: int, average: int) -> int:
    """About how many lines `text` takes at `width` pixels, in characters `average`
    pixels wide (a CJK character counts as two), before it is laid out."""
    per_line = max(1, width // average)
    if len(text) > ESTIMATE_EXACT_CHARS:  # a long text: counted in C, roughly
        return text.count("\n") + 1 + _columns_of_long(text) // per_line
    return sum(1 + _columns(part) // per_line for part in text.split("\n"))


def _columns_of_long(text: str) -> int:
    """About `_columns(text)`, without a Python step per character: a CJK character takes
    three bytes in UTF-8 where a Latin letter takes one."""
    return len(text) + (len(text.encode("utf-8", "surrogatepass")) - len(text)) // 2


def _columns(text: str) -> int:
    """How many average character widths `text` takes (wide CJK characters count two)."""
    return len(text) + sum(1 for char in text if char >= "\u2e80")
