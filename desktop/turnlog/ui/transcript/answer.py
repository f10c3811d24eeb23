"""An answer's Markdown as a stack of documents, so a long answer is never laid out in
one go on the GUI thread.

The text is cut into sections where Markdown allows it: after a blank line, outside
fenced code, before a line that cannot continue the block above. Each section is its own
`QTextDocument` (`setMarkdown`, HTML disabled). While an answer streams, finished
sections are rendered once and only the open tail is rendered again as text arrives;
the same cuts fall on the whole text as on every prefix of it, so the stack a streamed
answer ends with is the one the committed turn shows, and what a reload would build.

A reasoning model's thought is a `ReasoningFold` above the answer: folded to one line
unless the person opens it.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

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

from ..infra.languages import arg
from ..infra.theme import CODE_TINT  # noqa: F401 - a grey box on light and dark themes alike
from .limits import MAX_BLOCK_CHARS, Excess, first_excess, next_plain_end
from .markdown import (
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
RENDER_BUDGET = 0.02  # seconds of the GUI thread a long answer takes at a time

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

COPY_WIDTH, COPY_HEIGHT = 44.0, 18.0  # a code block's Copy button, at its top right


class AnswerDocument:
    """An answer rendered as sections, each a Markdown document of the same width.

    `update` takes the answer as it is now: text appended since the last call renders
    only the new sections and the open tail; any other change renders it all again. Past
    a limit (`limits.first_excess`: a table too wide, nesting too deep, too many formulas,
    a block too long to cut) the rest of the answer is plain text, in pieces, after a note
    saying why. Given a `budget`, a call renders for about that long and leaves the rest
    to `advance` (`done` says when all is rendered): a long answer never holds the GUI
    thread for long.
    """

    def __init__(self, new_doc: Callable[[int], QTextDocument], width: int,
                 maths: Callable[[], MathStyle | None] | None = None) -> None:
        self._new_doc = new_doc
        self._maths = maths
        self._width = width
        self.text = ""
        self.done = True  # everything of `text` is rendered
        self.excess: Excess | None = None  # the limit past which the rest is plain text
        self._reset()

    def _reset(self) -> None:
        self._sections: list[QTextDocument] = []  # finished, never rendered again
        self._cut = 0  # where the open tail starts
        self._ends: Iterator[int] | None = None  # the section ends after `_cut`
        self._formulas = 0  # formulas in the finished sections
        self._tail: QTextDocument | None = None
        self._tail_text = ""
        self._found: dict[int, Rendered] = {}  # id(document) → its code and quote blocks
        self._texts: dict[int, tuple[str, int]] = {}  # id(document) → Markdown, formulas before
        self._stale: list[QTextDocument] = []  # sections whose formulas have arrived
        self._metrics: QFontMetricsF | None = None
        self._tops: list[tuple[QTextDocument, float, float]] = []  # `placed`, worked out
        self.excess = None

    def update(self, text: str, budget: float | None = None) -> None:
        """Show `text`; `budget`: render for about that many seconds only (None: all)."""
        if text == self.text:
            return
        if not text.startswith(self.text):
            self._reset()
        self.text = text
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
        text = self.text
        if self.excess is not None:  # plain text, in pieces
            end = next_plain_end(text, self._cut, PLAIN_CHARS)
            if end is None:
                return False
            self._finish(self._plain(text[self._cut:end]), end)
            return True
        if self._ends is None:
            self._ends = section_ends(text, self._cut, longest=MAX_BLOCK_CHARS)
        end = next(self._ends, None)
        excess, formulas = first_excess(text, self._cut, len(text) if end is None else end,
                                        formulas_before=self._formulas)
        if excess is not None:
            if excess.at > self._cut:
                self._finish(self._render(text[self._cut:excess.at]), excess.at)
            self._finish(self._note(excess), excess.at)
            self.excess = excess
            return True
        if end is None:
            return False
        self._finish(self._render(text[self._cut:end]), end)
        self._formulas += formulas
        return True

    def _finish(self, doc: QTextDocument, end: int) -> None:
        """`doc` is the next finished section; the text after `end` is still to render."""
        self._sections.append(doc)
        self._cut = end
        self._drop_tail()

    def _drop_tail(self) -> None:
        if self._tail is not None:
            self._found.pop(id(self._tail), None)
            self._texts.pop(id(self._tail), None)
        self._tail, self._tail_text = None, ""

    def _render_tail(self) -> None:
        tail = self.text[self._cut:]
        if tail == self._tail_text:
            return
        self._drop_tail()
        if tail:
            self._tail = self._plain(tail) if self.excess is not None else self._render(tail)
            self._tail_text = tail

    def _laid_out(self, doc: QTextDocument) -> QTextDocument:
        doc.setTextWidth(self._width)
        doc.size()  # laid out now, in the time this piece was given
        if self._metrics is None:
            self._metrics = QFontMetricsF(doc.defaultFont())
        return doc

    def _render(self, text: str, formulas_before: int | None = None) -> QTextDocument:
        doc = self._new_doc(self._width)
        maths = self._maths() if self._maths is not None else None
        before = self._formulas if formulas_before is None else formulas_before
        # (overwrites what a freed document of the same id left)
        self._found[id(doc)] = render_markdown(doc, text, maths, formulas_before=before)
        self._texts[id(doc)] = (text, before)
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
        return any(found.awaiting for found in self._found.values())

    def refresh(self) -> bool:
        """Render again the sections that showed a formula as typed while it was being
        typeset (the formulas have arrived); with a budget, `advance` goes on with them.
        True when any was."""
        stale = [doc for doc in self.documents
                 if (found := self._found.get(id(doc))) is not None and found.awaiting]
        self._stale += [doc for doc in stale if doc not in self._stale]
        if stale:
            self.done = False
        return bool(stale)

    def _render_again(self, doc: QTextDocument) -> None:
        known = self._texts.pop(id(doc), None)
        self._found.pop(id(doc), None)
        if known is None:  # gone since (the tail moved on)
            return
        fresh = self._render(*known)
        if doc is self._tail:
            self._tail = fresh
        else:
            self._sections = [fresh if section is doc else section
                              for section in self._sections]

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
                upper = layout.blockBoundingRect(doc.findBlockByNumber(code.first)).top()
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
        self._tops.clear()
        for doc in self.documents:
            doc.setTextWidth(width)

    @property
    def width(self) -> int:
        return self._width

    def placed(self) -> Iterator[tuple[QTextDocument, float]]:
        """Each document with its top. A document's height leaves out the margins at its
        edges; between two blocks of one document the larger of the two meeting margins
        separates them, and so it does between two sections. (Worked out once for each
        new section or width: a long answer has thousands.)"""
        documents = self.documents
        known = self._tops
        same = 0
        for doc, (placed, _top, _height) in zip(documents, known, strict=False):
            if doc is not placed:
                break
            same += 1
        del known[same:]
        while len(known) < len(documents):
            doc = documents[len(known)]
            top = 0.0
            if known:
                previous, previous_top, previous_height = known[-1]
                top = previous_top + previous_height + max(
                    previous.lastBlock().blockFormat().bottomMargin(),
                    doc.firstBlock().blockFormat().topMargin())
            known.append((doc, top, doc.size().height()))
        return iter([(doc, top) for doc, top, _height in known])

    def height(self) -> float:
        """The rendered sections' height, and an estimate for the text not rendered yet."""
        self.placed()  # (brings `_tops` up to date)
        bottom = self._tops[-1][1] + self._tops[-1][2] if self._tops else 0.0
        if not self.done and self._metrics is not None:
            left = len(self.text) - self._cut - len(self._tail_text)
            per_line = max(1.0, self._width / max(1.0, self._metrics.averageCharWidth()))
            bottom += math.ceil(left / per_line) * self._metrics.lineSpacing()
        return bottom

    def draw(self, painter: QPainter, x: int, y: int, palette: QPalette,
             visible: QRect, *, selected: Mapping[int, Sequence[Selection]] | None = None,
             hovered: int | None = None) -> None:
        """Draw at (x, y), laying out and painting only what lies inside `visible`.
        `selected`: the selected text of each section (by number); `hovered`: the code
        block (by number, first to last) under the pointer, whose *Copy* is shown."""
        seen = 0  # code blocks in the sections above
        for number, (doc, top) in enumerate(self.placed()):
            blocks = len(self._code(doc))
            doc_top = y + int(top)
            if doc_top > visible.bottom():
                break
            if doc_top + doc.size().height() < visible.top():
                seen += blocks
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
            seen += blocks

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
            rect = doc.documentLayout().blockBoundingRect(doc.findBlockByNumber(code.first))
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
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                                 code.language)


class ReasoningFold:
    """A reasoning model's thought, above its answer: one line ("▸ Reasoning · 1,234
    characters") while folded, the line and the text (plain, dimmed) when open. Folded
    by default, while it streams and after; a click on the line opens or folds it, per
    turn. The text's document is made only while it is open."""

    def __init__(self, new_doc: Callable[[int], QTextDocument]) -> None:
        self._new_doc = new_doc
        self._open: set[str] = set()
        self._docs: dict[str, tuple[str, QTextDocument]] = {}

    # ------------------------------------------------------------------ state
    def is_open(self, key: str) -> bool:
        return key in self._open

    def toggle(self, key: str) -> bool:
        """Open a folded one, fold an open one; returns whether it is open now."""
        if key in self._open:
            self._open.discard(key)
            self._docs.pop(key, None)
            return False
        self._open.add(key)
        return True

    def rename(self, old: str, new: str) -> None:
        """The pending row became turn `new`: it stays as open as it was."""
        if old in self._open:
            self._open.discard(old)
            self._open.add(new)
        if (doc := self._docs.pop(old, None)) is not None:
            self._docs[new] = doc

    def forget(self, key: str) -> None:
        self._open.discard(key)
        self._docs.pop(key, None)

    @staticmethod
    def title(text: str, *, streaming: bool, opened: bool, tools: str = "") -> str:
        """The fold's line; with `tools` (the tool calls' words), about them."""
        arrow = "▾" if opened else "▸"
        if tools:
            return (arg(translate("AnswerView", "%1 %2"), arrow, tools)
                    + ("" if opened else translate("AnswerView", " (click to show)")))
        words = translate("AnswerView", "Reasoning…") if streaming \
            else translate("AnswerView", "Reasoning")
        return (arg(translate("AnswerView", "%1 %2 · %3 characters"), arrow, words, len(text))
                + ("" if opened else translate("AnswerView", " (click to show)")))

    # ----------------------------------------------------------------- layout
    def _doc(self, key: str, text: str, width: int) -> QTextDocument:
        known = self._docs.get(key)
        if known is not None and known[0] == text:
            doc = known[1]
            if doc.textWidth() != width:
                doc.setTextWidth(width)
            return doc
        doc = self._new_doc(width)
        doc.setPlainText(text)
        self._docs[key] = (text, doc)
        return doc

    def height(self, key: str, text: str, width: int, line: int, gap: int) -> int:
        """The fold's height: none without reasoning, one line folded, the text open."""
        if not text:
            return 0
        if key not in self._open:
            return line
        return line + gap + int(self._doc(key, text, width - 2 * gap).size().height())

    def draw(self, painter: QPainter, key: str, text: str, area: QRect, line: int, gap: int,
             palette: QPalette, streaming: bool, visible: QRect, tools: str = "") -> None:
        """Draw the fold with its top-left at `area`'s (its width is `area`'s), laying out
        and painting only what lies inside `visible`."""
        opened = key in self._open
        dim = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
        painter.save()
        painter.setPen(dim)
        header = QRect(area.left(), area.top(), area.width(), line)
        painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.title(text, streaming=streaming, opened=opened, tools=tools))
        if opened:
            doc = self._doc(key, text, area.width() - 2 * gap)
            top = area.top() + line + gap
            painter.fillRect(QRect(area.left(), top, 3, int(doc.size().height())), dim)
            x = area.left() + 2 * gap
            painter.translate(x, top)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = QRectF(visible.translated(-x, -top))
            context.palette = QPalette(palette)
            context.palette.setColor(QPalette.ColorRole.Text, dim)
            doc.documentLayout().draw(painter, context)
        painter.restore()
