"""An answer's Markdown as a stack of documents, so a long answer is never laid out in
one go on the GUI thread.

The text is cut into sections where Markdown allows it: after a blank line, outside
fenced code, before a line that cannot continue the block above. Each section is its own
`QTextDocument` (`setMarkdown`, HTML disabled). While an answer streams, finished
sections are rendered once and only the open tail is rendered again as text arrives;
the same cuts fall on the whole text as on every prefix of it, so the stack a streamed
answer ends with is the one the committed turn shows, and what a reload would build.
"""

from __future__ import annotations

import bisect
import math
import re
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFontDatabase,
    QFontMetricsF,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)

from ..infra.theme import CODE_TINT  # a grey box on light and dark themes alike
from .limits import MAX_BLOCK_CHARS, Excess, first_excess, next_plain_end
from .markdown import (
    CODE_HEAD,
    CodeBlock,
    MathStyle,
    Rendered,
    draw_quote_bars,
    excess_note,
    render_markdown,
    style_code,  # noqa: F401 - code blocks' look, where tests read it
    text_of,
)

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

SECTION_CHARS = 2_000  # the smallest section worth a document of its own
PLAIN_CHARS = 4_000  # about the size of a piece of plain text past a limit
# Seconds of the GUI thread a long answer takes at a time (then at least one piece): about
# half a frame, so a streamed piece, its paint and the events waiting fit in one.
RENDER_BUDGET = 0.008

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_LIST_START = re.compile(r"[-+*]|\d{1,9}[.)]?")  # a line's start that may become an item


def section_ends(text: str, start: int = 0, *, min_chars: int = SECTION_CHARS,
                 longest: int | None = None) -> Iterator[int]:
    """Where `text` may be cut, after `start` (0 or a cut made before): the start of a
    complete line that follows a blank line outside fenced code, begins a block of its
    own (not indented, not a list item or a quote) and is at least `min_chars` after the
    previous cut. Each cut depends only on the text up to the start of the line it begins
    (and the few characters that say whether that line is a list item), so a text growing
    by appending is cut exactly where the whole text is — also before a line still
    arriving, which may be too long to wait for. `longest`: stop looking once that many
    characters follow the previous cut without one."""
    fence: str | None = None
    blank_before = False
    last = start
    pos = start
    while True:
        if longest is not None and pos - last > longest:
            return
        newline = text.find("\n", pos)
        if newline < 0:  # the line still arriving: a cut before it once its start says so
            line = text[pos:]
            if (fence is None and blank_before and pos - last >= min_chars and line.strip()
                    and line[0] not in " \t>" and not _LIST_START.fullmatch(line)
                    and not _LIST_ITEM.match(line)):
                yield pos
            return
        line = text[pos:newline]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            blank_before = False
        elif not line.strip():
            blank_before = True
        else:
            if (blank_before and pos - last >= min_chars and line[0] not in " \t>"
                    and not _LIST_ITEM.match(line)):
                yield pos
                last = pos
            opening = _FENCE.match(line)
            if opening is not None:
                fence = opening.group(1)
            blank_before = False
        pos = newline + 1


Selection = QAbstractTextDocumentLayout.Selection

COPY_WIDTH, COPY_HEIGHT = 44.0, CODE_HEAD  # a code block's Copy button: its head's right end


class AnswerDocument:
    """An answer rendered as sections, each a Markdown document of the same width.

    `update` takes the answer as it is now: text appended since the last call renders
    only the new sections and the open tail; any other change renders it all again.
    `append` takes only the text streamed since: a streaming answer is never copied
    whole, and each piece of it costs the same however long the answer is (finished
    sections keep their place, worked out once; only the open tail is measured again).
    Past a limit (`limits.first_excess`: a table too wide, nesting too deep, too many
    formulas, a block too long to cut) the rest of the answer is plain text, in pieces,
    after a note saying why. Given a `budget`, a call renders for about that long and
    leaves the rest to `advance` (`done` says when all is rendered): a long answer never
    holds the GUI thread for long.
    """

    def __init__(self, new_doc: Callable[[int], QTextDocument], width: int,
                 maths: Callable[[], MathStyle | None] | None = None) -> None:
        self._new_doc = new_doc
        self._maths = maths
        self._width = width
        self.done = True  # everything of `text` is rendered
        self.excess: Excess | None = None  # the limit past which the rest is plain text
        self.revision = 0  # counts the changes that may change its height
        self._reset()

    def _reset(self) -> None:
        self._sections: list[QTextDocument] = []  # finished, never rendered again
        self._sources: list[str] = []  # the text of each finished section
        self._open = ""  # the text from `_base` on (it holds the open tail)
        self._base = 0
        self._whole: str | None = ""  # the whole text, while it is at hand
        self._cut = 0  # where the open tail starts
        self._ends: Iterator[int] | None = None  # the section ends after `_cut`
        self._formulas = 0  # formulas in the finished sections
        self._tail: QTextDocument | None = None
        self._tail_text = ""
        self._found: dict[int, Rendered] = {}  # id(document) → its code and quote blocks
        self._texts: dict[int, tuple[str, int]] = {}  # id(document) → Markdown, formulas before
        self._waiting: dict[int, QTextDocument] = {}  # documents showing a formula as typed
        self._stale: list[QTextDocument] = []  # sections whose formulas have arrived
        self._metrics: QFontMetricsF | None = None
        # The finished sections' tops and bottoms and the code blocks above each, worked
        # out once for each section and width (a long answer has thousands); the tail's.
        self._tops: list[float] = []
        self._bottoms: list[float] = []
        self._codes_before: list[int] = []
        self._tail_place: tuple[QTextDocument, float, float] | None = None
        self.excess = None

    @property
    def text(self) -> str:
        """The answer shown (joined from its sections on demand while it streams)."""
        if self._whole is None:
            self._whole = "".join(self._sources) + self._open[self._cut - self._base:]
        return self._whole

    @property
    def length(self) -> int:
        """How many characters of the answer are shown (rendered or still to render)."""
        return self._base + len(self._open)

    def update(self, text: str, budget: float | None = None) -> None:
        """Show `text`, the whole answer; `budget`: render for about that many seconds
        only (None: all)."""
        if text is self._whole:
            return
        shown = self.text
        if text == shown:
            return
        if text.startswith(shown):
            self._grow(text[len(shown):])
        else:
            self._reset()
            self._open = text
        self._whole = text
        self._restart(budget)

    def append(self, more: str, budget: float | None = None) -> None:
        """Show `more` after the text shown (a stream's next piece): only it and the open
        tail are read, never the whole answer."""
        if not more:
            return
        self._grow(more)
        self._whole = None
        self._restart(budget)

    def _grow(self, more: str) -> None:
        self._open = self._open[self._cut - self._base:] + more
        self._base = self._cut

    def _restart(self, budget: float | None) -> None:
        self._ends = None
        self.done = False
        self.advance(budget)

    def advance(self, budget: float | None = None) -> bool:
        """Render what is left for about `budget` seconds (None: all of it), at least one
        piece; True when everything is rendered."""
        deadline = None if budget is None else time.perf_counter() + budget
        while not self.done:
            if self._stale:
                self._render_again(self._stale.pop(0))
            elif not self._step():
                self._render_tail()
                self.done = True
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.done

    def _step(self) -> bool:
        """Render the next finished piece; False when only the open tail is left."""
        text, base = self._open, self._base
        cut = self._cut - base
        if self.excess is not None:  # plain text, in pieces
            end = next_plain_end(text, cut, PLAIN_CHARS)
            if end is None:
                return False
            self._finish(self._plain(text[cut:end]), base + end)
            return True
        if self._ends is None:
            self._ends = section_ends(text, cut, longest=MAX_BLOCK_CHARS)
        end = next(self._ends, None)
        excess, formulas = first_excess(text, cut, len(text) if end is None else end,
                                        formulas_before=self._formulas)
        if excess is not None:
            at = excess.at
            excess = replace(excess, at=base + at)  # an index of the whole text
            if at > cut:
                self._finish(self._render(text[cut:at]), base + at)
            self._finish(self._note(excess), base + at)
            self.excess = excess
            return True
        if end is None:
            return False
        self._finish(self._render(text[cut:end]), base + end)
        self._formulas += formulas
        return True

    def _finish(self, doc: QTextDocument, end: int) -> None:
        """`doc` is the next finished section; the text after `end` is still to render."""
        self._sources.append(self._open[self._cut - self._base:end - self._base])
        self._sections.append(doc)
        self._cut = end
        self._drop_tail()

    def _forget(self, doc: QTextDocument) -> None:
        """`doc` is shown no more: what was found in it goes, and the document with it."""
        self._found.pop(id(doc), None)
        self._texts.pop(id(doc), None)
        self._waiting.pop(id(doc), None)
        doc.setParent(None)  # (a document made with a parent would live as long as it)

    def _drop_tail(self) -> None:
        if self._tail is not None:
            self._forget(self._tail)
        self._tail, self._tail_text = None, ""

    def _render_tail(self) -> None:
        tail = self._open[self._cut - self._base:]
        if tail == self._tail_text:
            return
        self._drop_tail()
        if tail:
            self._tail = self._plain(tail) if self.excess is not None else self._render(tail)
            self._tail_text = tail

    def _laid_out(self, doc: QTextDocument) -> QTextDocument:
        self.revision += 1
        doc.setTextWidth(self._width)
        doc.size()  # laid out now, in the time this piece was given
        if self._metrics is None:
            self._metrics = QFontMetricsF(doc.defaultFont())
        return doc

    def _render(self, text: str, formulas_before: int | None = None) -> QTextDocument:
        doc = self._new_doc(self._width)
        maths = self._maths() if self._maths is not None else None
        before = self._formulas if formulas_before is None else formulas_before
        # (overwrites what a freed document of the same id left); `_step` found the text
        # within the limits before it came here
        found = self._found[id(doc)] = render_markdown(doc, text, maths,
                                                       formulas_before=before,
                                                       within_limits=True)
        self._texts[id(doc)] = (text, before)
        if found.awaiting:
            self._waiting[id(doc)] = doc
        else:
            self._waiting.pop(id(doc), None)
        return self._laid_out(doc)

    def _plain(self, text: str) -> QTextDocument:
        """Text past a limit, as it was written, in the monospace family (a table's or a
        code block's rest keeps its columns)."""
        doc = self._new_doc(self._width)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        size = doc.defaultFont()
        if size.pointSizeF() > 0:
            mono.setPointSizeF(size.pointSizeF())
        elif size.pixelSize() > 0:
            mono.setPixelSize(size.pixelSize())
        doc.setDefaultFont(mono)
        # One paragraph of lines (U+2028 breaks a line, and reads back as a line end):
        # Qt keeps a layout per paragraph, too heavy for 100,000 short lines.
        doc.setPlainText(text.removesuffix("\n").replace("\n", "\u2028"))
        return self._laid_out(doc)

    def _note(self, excess: Excess) -> QTextDocument:
        """Why the rest of the answer is plain text, in italics above it."""
        doc = self._new_doc(self._width)
        form = QTextCharFormat()
        form.setFontItalic(True)
        QTextCursor(doc).insertText(excess_note(excess), form)
        return self._laid_out(doc)

    @property
    def awaiting(self) -> bool:
        """Whether a section shows a formula as typed while it is being typeset."""
        return bool(self._waiting)

    def refresh(self, landed: Collection[object] | None = None) -> bool:
        """Render again the sections that showed a formula as typed while it was being
        typeset: those waiting for one of the formulas `landed` (`FormulaImages.landed`;
        None: for any). With a budget, `advance` goes on with them. True when any was."""
        stale = [doc for key, doc in self._waiting.items()
                 if landed is None or not self._found[key].waiting.isdisjoint(landed)]
        self._stale += [doc for doc in stale if doc not in self._stale]
        if stale:
            self.done = False
        return bool(stale)

    def _render_again(self, doc: QTextDocument) -> None:
        known = self._texts.get(id(doc))
        if known is None:  # gone since (the tail moved on)
            return
        self._forget(doc)
        fresh = self._render(*known)
        if doc is self._tail:
            self._tail = fresh
            return
        number = next(n for n, section in enumerate(self._sections) if section is doc)
        self._sections[number] = fresh
        self._unplace(number)

    def _code(self, doc: QTextDocument) -> list[CodeBlock]:
        found = self._found.get(id(doc))
        return found.code if found is not None else []

    def code_blocks(self) -> list[tuple[str, str, float, float]]:
        """Every fenced code block: (language, its text, top, bottom) in this answer's
        coordinates."""
        found = []
        for doc, top in self.placed():
            for code in self._code(doc):
                lines = []
                number = code.first
                while number <= code.last:
                    lines.append(doc.findBlockByNumber(number).text())
                    number += 1
                layout = doc.documentLayout()
                upper = layout.blockBoundingRect(doc.findBlockByNumber(code.first)).top() \
                    - CODE_HEAD
                lower = layout.blockBoundingRect(doc.findBlockByNumber(code.last)).bottom()
                found.append((code.language, "\n".join(lines), top + upper, top + lower))
        return found

    def code_at(self, y: float) -> str | None:
        """The text of the code block at height `y` of the answer, if one is there."""
        for _language, text, top, bottom in self.code_blocks():
            if top <= y <= bottom:
                return text
        return None

    @property
    def documents(self) -> list[QTextDocument]:
        return self._sections + ([self._tail] if self._tail is not None else [])

    def plain_text(self) -> str:
        """What the sections show, without the Markdown (formulas as typed)."""
        return "\n".join(text_of(doc) for doc in self.documents)

    def set_width(self, width: int) -> None:
        if width == self._width:
            return
        self._width = width
        self.revision += 1
        self._unplace(0)
        for doc in self.documents:
            doc.setTextWidth(width)

    @property
    def width(self) -> int:
        return self._width

    def _unplace(self, number: int) -> None:
        """Section `number` and those after it are to be placed again."""
        del self._tops[number:], self._bottoms[number:], self._codes_before[number:]
        self._tail_place = None

    @staticmethod
    def _between(upper: QTextDocument, lower: QTextDocument) -> float:
        """A document's height leaves out the margins at its edges; between two blocks of
        one document the larger of the two meeting margins separates them, and so it does
        between two sections."""
        return max(upper.lastBlock().blockFormat().bottomMargin(),
                   lower.firstBlock().blockFormat().topMargin())

    def _place(self) -> None:
        """Work out where the finished sections not placed yet go (each once)."""
        sections, tops, bottoms, codes = (self._sections, self._tops, self._bottoms,
                                          self._codes_before)
        while len(tops) < len(sections):
            number = len(tops)
            doc = sections[number]
            top, before = 0.0, 0
            if number:
                above = sections[number - 1]
                top = bottoms[-1] + self._between(above, doc)
                before = codes[-1] + len(self._code(above))
            tops.append(top)
            bottoms.append(top + doc.size().height())
            codes.append(before)

    def _placed_tail(self) -> tuple[QTextDocument, float, float] | None:
        """The open tail, its top and its height (worked out again only when it changed)."""
        tail = self._tail
        if tail is None:
            return None
        if self._tail_place is None or self._tail_place[0] is not tail:
            self._place()
            top = 0.0
            if self._sections:
                top = self._bottoms[-1] + self._between(self._sections[-1], tail)
            self._tail_place = (tail, top, tail.size().height())
        return self._tail_place

    def _shown_from(self, first: int) -> Iterator[tuple[int, QTextDocument, float, float, int]]:
        """From section `first` on (the tail last): its number, document, top, height and
        the code blocks above it."""
        self._place()
        count = len(self._sections)
        for number in range(first, count):
            top = self._tops[number]
            yield (number, self._sections[number], top, self._bottoms[number] - top,
                   self._codes_before[number])
        tail = self._placed_tail()
        if tail is not None:
            before = self._codes_before[-1] + len(self._code(self._sections[-1])) \
                if count else 0
            yield count, tail[0], tail[1], tail[2], before

    def placed(self) -> Iterator[tuple[QTextDocument, float]]:
        """Each document with its top."""
        return iter([(doc, top) for _n, doc, top, _h, _c in self._shown_from(0)])

    def height(self) -> float:
        """The rendered sections' height, and an estimate for the text not rendered yet."""
        self._place()
        tail = self._placed_tail()
        bottom = tail[1] + tail[2] if tail is not None else (
            self._bottoms[-1] if self._bottoms else 0.0)
        if not self.done and self._metrics is not None:
            left = self.length - self._cut - len(self._tail_text)
            per_line = max(1.0, self._width / max(1.0, self._metrics.averageCharWidth()))
            bottom += math.ceil(left / per_line) * self._metrics.lineSpacing()
        return bottom

    def draw(self, painter: QPainter, x: int, y: int, palette: QPalette,
             visible: QRect, *, selected: Mapping[int, Sequence[Selection]] | None = None,
             hovered: int | None = None) -> None:
        """Draw at (x, y), laying out and painting only what lies inside `visible`.
        `selected`: the selected text of each section (by number); `hovered`: the code
        block (by number, first to last) under the pointer, whose *Copy* is shown."""
        self._place()
        first = bisect.bisect_left(self._bottoms, visible.top() - y - 1)
        for number, doc, top, height, seen in self._shown_from(first):
            blocks = len(self._code(doc))
            doc_top = y + int(top)
            if doc_top > visible.bottom():
                break
            if doc_top + height < visible.top():
                continue
            painter.save()
            painter.translate(x, doc_top)
            # A brush left by the row's painting would fill a task list's boxes and hide
            # the tick of a done task.
            painter.setBrush(Qt.BrushStyle.NoBrush)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = QRectF(visible.translated(-x, -doc_top))
            context.palette = palette
            if selected and number in selected:
                context.selections = list(selected[number])
            found = self._found.get(id(doc))
            if found is not None:
                draw_quote_bars(painter, doc, found.quotes, palette)
            doc.documentLayout().draw(painter, context)
            shown = hovered - seen if hovered is not None and 0 <= hovered - seen < blocks \
                else None
            self._draw_languages(painter, doc, palette, shown)
            painter.restore()

    def copy_buttons(self) -> list[tuple[QRectF, str]]:
        """Where each code block's *Copy* is (answer coordinates: its top right corner)
        and the text it copies."""
        found = []
        for _language, text, top, _bottom in self.code_blocks():
            button = QRectF(self._width - COPY_WIDTH, top, COPY_WIDTH, COPY_HEIGHT)
            found.append((button, text))
        return found

    def code_index_at(self, y: float) -> int | None:
        """Which code block (by number, first to last) is at height `y` of the answer."""
        for number, (_language, _text, top, bottom) in enumerate(self.code_blocks()):
            if top <= y <= bottom:
                return number
        return None

    def _draw_languages(self, painter: QPainter, doc: QTextDocument,
                        palette: QPalette, hovered: int | None) -> None:
        """Each code block's language at its top right; *Copy* beside it on the block
        under the pointer (`hovered`: its number in this section) (few blocks: cheap)."""
        for number, code in enumerate(self._code(doc)):
            first = doc.documentLayout().blockBoundingRect(doc.findBlockByNumber(code.first))
            rect = QRectF(first.left(), first.top() - CODE_HEAD, first.width(), CODE_HEAD)
            painter.fillRect(rect, CODE_TINT)
            button = QRectF(self._width - COPY_WIDTH, rect.top(), COPY_WIDTH, COPY_HEIGHT)
            if number == hovered:
                painter.setPen(palette.color(QPalette.ColorGroup.Active,
                                             QPalette.ColorRole.Link))
                painter.drawText(button, Qt.AlignmentFlag.AlignCenter,
                                 QCoreApplication.translate("AnswerDocument", "Copy"))
            if code.language:
                painter.setPen(palette.color(QPalette.ColorGroup.Active,
                                             QPalette.ColorRole.PlaceholderText))
                painter.drawText(QRectF(rect.left(), rect.top(), button.left() - rect.left()
                                        - 4, rect.height()),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                                 code.language)
