"""An answer's Markdown as a document, as it was written: the one rendering the transcript's
sections and the side question's answer share.

GitHub's dialect (tables, strikethrough, task lists, autolinks) with HTML still off: a
model's output cannot inject markup. Qt's importer gives the structure; `render_markdown`
then gives it a look Qt leaves out — tables with cell borders, inline code in a monospace
tint, fenced code tinted and wrapping, quotes marked for a bar at their left (painted by
`draw_quote_bars`) — and puts typeset formulas where the LaTeX was (`maths.py`). The
formulas are taken out of the text before Markdown reads it (so `_` and `*` in LaTeX stay
LaTeX) and put back as images that carry their source: copying gives the LaTeX as typed.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QMimeData, QRectF, QRegularExpression, Qt, QUrl
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontDatabase,
    QFontInfo,
    QFontMetricsF,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextImageFormat,
    QTextLength,
    QTextTable,
    QTextTableFormat,
)
from PySide6.QtWidgets import QTextBrowser, QWidget

from ..infra.fonts import cjk_family
from ..infra.languages import arg
from ..infra.theme import CODE_TINT
from .limits import MAX_BLOCK_LINES, Excess, Limit, first_excess
from .maths import Formula, FormulaError, FormulaImages, MathSpan, find_maths

CODE_HEAD = 18.0  # the strip above a code block's first line: its language, *Copy*

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

_FEATURES = QTextDocument.MarkdownFeature
_UNDERLINE = 0x4000  # md4c's `_x_` as underline: GitHub reads it as emphasis
MARKDOWN = _FEATURES((_FEATURES.MarkdownDialectGitHub.value & ~_UNDERLINE)
                     | _FEATURES.MarkdownNoHTML.value)

MATH_SOURCE = QTextFormat.Property.UserProperty + 1  # a formula image's LaTeX, as typed
QUOTE_BAR = 3  # the bar left of a quote, in pixels
# STIX Two Math sits smaller on the line than a UI sans of the same size: formulas are
# typeset a little larger (display maths larger still) to match the words around them.
MATH_SCALE = {False: 1.2, True: 1.35}
_MARGIN = 1.0  # the typesetter's margin round a formula, in pixels
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_TOKEN = re.compile("\ue000(\\d+)\ue001")  # where a formula was, while Markdown reads
_FIND_TOKEN = QRegularExpression(_TOKEN.pattern)
_REPLACEMENT = "\ufffc"  # what a document's plain text holds for an image
_PADDED: dict[tuple[int, float, float], QImage] = {}  # formulas set on the baseline
_IMAGE_NUMBERS = itertools.count()  # each image its own name among the resources


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """A fenced code block of a rendered section: its blocks and language."""

    first: int  # block numbers in its document
    last: int
    language: str


@dataclass(slots=True)
class Rendered:
    """What `render_markdown` found in a document: its code blocks and quote blocks."""

    code: list[CodeBlock] = field(default_factory=list)
    quotes: list[int] = field(default_factory=list)  # block numbers of quoted blocks
    # The formulas shown as typed until they are typeset (`FormulaImages.key`).
    waiting: frozenset[object] = frozenset()

    @property
    def awaiting(self) -> bool:
        """Whether a formula shows as typed while it is being typeset."""
        return bool(self.waiting)


@dataclass(frozen=True, slots=True)
class MathStyle:
    """How formulas are drawn: the typeset images to take them from, the text colour and
    the screen's pixel ratio (no images: formulas stay as typed)."""

    images: FormulaImages | None
    colour: QColor
    ratio: float = 1.0


def render_markdown(doc: QTextDocument, text: str, maths: MathStyle | None = None, *,
                    formulas_before: int = 0, within_limits: bool = False) -> Rendered:
    """Set `doc` to the Markdown `text` and give it its look (see the module). Past a limit
    (`limits.first_excess`; `formulas_before`: the formulas of the answer before `text`)
    the rest is plain text, after a note saying why. `within_limits`: the caller found
    `text` within them already (a streamed answer's sections are checked as they are cut),
    so it is not read for them again."""
    excess = None if within_limits else first_excess(text, formulas_before=formulas_before)[0]
    markdown = text if excess is None else text[:excess.at]
    spans = find_maths(markdown)
    pieces = []
    done = 0
    for number, span in enumerate(spans):
        token = f"\ue000{number}\ue001"
        if span.display:  # a paragraph of its own, centred
            token = f"\n\n{token}\n\n"
        pieces += [markdown[done:span.start], token]
        done = span.end
    marked = "".join([*pieces, markdown[done:]])
    doc.setMarkdown(marked, MARKDOWN)
    _style_tables(doc)  # first: it may remove a block, and the rest count blocks
    found = Rendered(code=style_code(doc, fence_lengths(marked)))
    code_blocks = {n for code in found.code for n in range(code.first, code.last + 1)}
    _style_blocks(doc, found, code_blocks)
    if spans:
        found.waiting = _place_formulas(doc, markdown, spans, maths)
    if excess is not None:
        _append_plain(doc, excess, text[excess.at:])
    return found


def excess_note(excess: Excess) -> str:
    """Why the rest of an answer shows as plain text, in a line."""
    # Only the limit is named, not what was found: while an answer streams, its line
    # or formula may not have arrived whole, and the note must read as it will later.
    allowed = f"{excess.allowed:,}"
    reasons = {
        Limit.COLUMNS: translate("AnswerView", "a table of more than %1 columns"),
        Limit.CELLS: translate("AnswerView", "a table of more than %1 cells"),
        Limit.DEPTH: translate("AnswerView", "lists or quotes nested more than %1 deep"),
        Limit.FORMULAS: translate("AnswerView", "more than %1 formulas"),
        Limit.BLOCK_FORMULAS: translate("AnswerView", "more than %1 formulas without a break"),
        Limit.FORMULA_SIZE: translate("AnswerView", "a formula of more than %1 characters"),
        Limit.LENGTH: arg(translate("AnswerView", "a block of more than %1 lines or %2 "
                                    "characters without a break"), f"{MAX_BLOCK_LINES:,}",
                          allowed),
    }
    reason = reasons[excess.limit]
    if excess.limit is not Limit.LENGTH:
        reason = arg(reason, allowed)
    return arg(translate("AnswerView", "The rest of this answer is shown as plain text: %1."),
               reason)


def _append_plain(doc: QTextDocument, excess: Excess, rest: str) -> None:
    """The note on why, in italics, then `rest` as it was written."""
    cursor = QTextCursor(doc)
    cursor.movePosition(QTextCursor.MoveOperation.End)
    note = QTextCharFormat()
    note.setFontItalic(True)
    if not doc.isEmpty():
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
    cursor.insertText(excess_note(excess), note)
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
    cursor.insertText(rest, QTextCharFormat())


def fence_lengths(text: str) -> list[int]:
    """How many lines each fenced code block of the Markdown `text` holds, in order."""
    lengths: list[int] = []
    fence: str | None = None
    for line in text.splitlines():
        if fence is None:
            opening = _FENCE.match(line)
            if opening is not None:
                fence = opening.group(1)
                lengths.append(0)
        elif line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
        else:
            lengths[-1] += 1
    return lengths


def style_code(doc: QTextDocument, lengths: list[int] | None = None) -> list[CodeBlock]:
    """Tint fenced code blocks, give each a head strip above its first line (where its
    language and *Copy* are drawn, never over the code) and let their long lines wrap
    (rather than run past the row); returns where they are. Qt marks every line of fenced
    code alike, so two blocks in a row are told apart by language and by `lengths`
    (`fence_lengths` of the source). Done once per rendered section, never per paint."""
    found: list[CodeBlock] = []
    sizes = list(lengths or [])
    fence = QTextFormat.Property.BlockCodeFence
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().hasProperty(fence):
            language = block.blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage)
            first = block.blockNumber()
            size = max(1, sizes.pop(0)) if sizes else None
            while block.next().isValid() and block.next().blockFormat().hasProperty(fence) \
                    and block.next().blockFormat().stringProperty(
                        QTextFormat.Property.BlockCodeLanguage) == language \
                    and (size is None or block.blockNumber() - first + 1 < size):
                block = block.next()
            found.append(CodeBlock(first, block.blockNumber(), language))
        block = block.next()
    if found:
        tint = QTextBlockFormat()
        tint.setBackground(QBrush(CODE_TINT))
        tint.setNonBreakableLines(False)
        head = QTextBlockFormat()
        head.setTopMargin(CODE_HEAD)
        cursor = QTextCursor(doc)
        for code in found:
            cursor.setPosition(doc.findBlockByNumber(code.first).position())
            cursor.setPosition(doc.findBlockByNumber(code.last).position(),
                               QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeBlockFormat(tint)
            cursor.setPosition(doc.findBlockByNumber(code.first).position())
            cursor.mergeBlockFormat(head)
    return found


def _style_blocks(doc: QTextDocument, found: Rendered, code_blocks: set[int]) -> None:
    """Inline code in the monospace family on a tint; quotes noted for their bar; a task
    list's check box only on list items (Qt's importer leaves it on what follows)."""
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    inline_code = QTextCharFormat()
    inline_code.setFontFamilies(mono.families() or [mono.family()])
    inline_code.setFontFixedPitch(True)
    inline_code.setBackground(QBrush(CODE_TINT))
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        number = block.blockNumber()
        form = block.blockFormat()
        if form.intProperty(QTextFormat.Property.BlockQuoteLevel) > 0:
            found.quotes.append(number)
        if form.marker() != QTextBlockFormat.MarkerType.NoMarker and block.textList() is None:
            form.setMarker(QTextBlockFormat.MarkerType.NoMarker)
            cursor.setPosition(block.position())
            cursor.setBlockFormat(form)
        if number not in code_blocks:
            fragments = block.begin()
            while not fragments.atEnd():
                fragment = fragments.fragment()
                if fragment.charFormat().fontFixedPitch():
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(inline_code)
                fragments += 1
        block = block.next()


def _style_tables(doc: QTextDocument) -> None:
    """Tables with a thin border around every cell, room inside it and a tinted head."""
    frames = list(doc.rootFrame().childFrames())
    while frames:
        frame = frames.pop()
        frames += frame.childFrames()
        if not isinstance(frame, QTextTable):
            continue
        form: QTextTableFormat = frame.format()
        form.setBorder(1)
        form.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        form.setBorderBrush(QBrush(QColor(127, 127, 127, 140)))
        form.setBorderCollapse(True)
        form.setCellSpacing(0)
        form.setCellPadding(6)
        form.setHeaderRowCount(1)
        form.setWidth(QTextLength(QTextLength.Type.VariableLength, 0))
        frame.setFormat(form)
        for column in range(frame.columns()):
            cell = frame.cellAt(0, column)
            head = cell.format()
            head.setBackground(QBrush(CODE_TINT))
            cell.setFormat(head)
        _flush_cells(frame)


def _flush_cells(table: QTextTable) -> None:
    """No empty line atop a cell and no paragraph margins inside one: Qt's importer puts
    the first cell of a table after a quote below an empty line with the quote's
    margins, and that cell's words then sit lower than their neighbours'."""
    flush = QTextBlockFormat()
    flush.setTopMargin(0)
    flush.setBottomMargin(0)
    for row in range(table.rows()):
        for column in range(table.columns()):
            cell = table.cellAt(row, column)
            cursor = cell.firstCursorPosition()
            if not cursor.block().text() and cursor.position() < \
                    cell.lastCursorPosition().position():
                cursor.deleteChar()  # the empty line goes; its words move up
            cursor.setPosition(cell.lastCursorPosition().position(),
                               QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeBlockFormat(flush)


def _place_formulas(doc: QTextDocument, text: str, spans: list[MathSpan],
                    maths: MathStyle | None) -> frozenset[object]:
    """Each formula's token becomes its image (or, when it does not parse or is not
    typeset yet, its source as typed, in the monospace family). Returns the keys of the
    formulas still being typeset."""
    waiting: set[object] = set()
    font = doc.defaultFont()
    pixels = float(QFontInfo(font).pixelSize())
    half_x = QFontMetricsF(font).xHeight() / 2
    as_typed = QTextCharFormat()
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    as_typed.setFontFamilies(mono.families() or [mono.family()])
    as_typed.setFontFixedPitch(True)
    cursor = doc.find(_FIND_TOKEN)
    while not cursor.isNull():
        match = _TOKEN.fullmatch(cursor.selectedText())
        span = spans[int(match.group(1))] if match else None
        if span is None:
            cursor = doc.find(_FIND_TOKEN, cursor)
            continue
        typed = span.typed(text)
        result: Formula | FormulaError | None = None
        if maths is not None and maths.images is not None:
            looks = {"display": span.display, "pixels": pixels * MATH_SCALE[span.display],
                     "colour": maths.colour, "ratio": maths.ratio}
            result = maths.images.get(span.latex, **looks)
            if result is None:
                waiting.add(maths.images.key(span.latex, **looks))
        if isinstance(result, Formula):
            _insert_formula(doc, cursor, result, typed, half_x)
            if span.display:
                centred = QTextBlockFormat()
                centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
                cursor.mergeBlockFormat(centred)
        else:
            cursor.insertText(typed, as_typed)
        cursor = doc.find(_FIND_TOKEN, cursor)
    return frozenset(waiting)


def _insert_formula(doc: QTextDocument, cursor: QTextCursor, formula: Formula, typed: str,
                    half_x: float) -> None:
    """Put `formula` at `cursor` with its baseline on the line's. Qt sets an image on the
    baseline, or (AlignMiddle) its middle half an x-height above it: a formula reaching
    below the baseline is padded so that its own baseline falls where the line's is."""
    image = formula.image
    form = QTextImageFormat()
    if formula.descent > _MARGIN + 0.5:
        height = max(2 * formula.descent + half_x, 2 * formula.ascent - half_x)
        image = _padded(formula, height, (height + half_x) / 2 - formula.ascent)
        form.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
    else:  # nothing below the baseline but the image's margin: the image on the line's
        height = formula.ascent + formula.descent
    url = QUrl(f"turnlog-math:{next(_IMAGE_NUMBERS)}")
    doc.addResource(QTextDocument.ResourceType.ImageResource, url, image)
    form.setName(url.toString())
    form.setWidth(formula.width)
    form.setHeight(height)
    form.setFont(doc.defaultFont())
    form.setProperty(MATH_SOURCE, typed)
    form.setToolTip(typed)
    cursor.insertImage(form)


def _padded(formula: Formula, height: float, top: float) -> QImage:
    """`formula`'s image `height` tall, the formula `top` from its top (made once)."""
    key = (formula.image.cacheKey(), round(height, 2), round(top, 2))
    known = _PADDED.get(key)
    if known is not None:
        return known
    ratio = formula.image.devicePixelRatio()
    padded = QImage(formula.image.width(), math.ceil(height * ratio),
                    QImage.Format.Format_ARGB32_Premultiplied)
    padded.setDevicePixelRatio(ratio)
    padded.fill(0)
    painter = QPainter(padded)
    painter.drawImage(QRectF(0, top, formula.width, formula.ascent + formula.descent),
                      formula.image)
    painter.end()
    _PADDED[key] = padded
    while len(_PADDED) > 1_000:
        _PADDED.pop(next(iter(_PADDED)))
    return padded


def text_of(doc: QTextDocument, start: int = 0, end: int | None = None) -> str:
    """The plain text of `doc` from `start` to `end` with each formula as its LaTeX, as
    typed (a document's own plain text has U+FFFC for an image)."""
    last = doc.characterCount() - 1
    end = last if end is None else min(end, last)
    cursor = QTextCursor(doc)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    plain = cursor.selection().toPlainText()
    if _REPLACEMENT not in plain:
        return plain
    sources = []
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= end:
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if start <= fragment.position() < end and fragment.charFormat().isImageFormat():
                sources += [str(fragment.charFormat().property(MATH_SOURCE) or _REPLACEMENT)
                            ] * fragment.length()
            fragments += 1
        block = block.next()
    parts = plain.split(_REPLACEMENT)
    return parts[0] + "".join(
        (sources[n] if n < len(sources) else _REPLACEMENT) + part
        for n, part in enumerate(parts[1:]))


def draw_quote_bars(painter: QPainter, doc: QTextDocument, quotes: list[int],
                    palette: QPalette) -> None:
    """A bar left of each quoted block (in `doc`'s coordinates), as GitHub draws one."""
    if not quotes:
        return
    colour = QColor(palette.color(QPalette.ColorGroup.Active,
                                  QPalette.ColorRole.PlaceholderText))
    colour.setAlpha(160)
    layout = doc.documentLayout()
    for number in quotes:
        block = doc.findBlockByNumber(number)
        rect = layout.blockBoundingRect(block)
        form = block.blockFormat()
        level = max(1, form.intProperty(QTextFormat.Property.BlockQuoteLevel))
        step = form.leftMargin() / level if form.leftMargin() > 0 else 16.0
        for depth in range(level):
            x = rect.left() + depth * step + step / 2 - QUOTE_BAR
            painter.fillRect(QRectF(x, rect.top(), QUOTE_BAR, rect.height()), colour)


class AnswerBrowser(QTextBrowser):
    """A read-only view of one answer rendered as the transcript renders answers (the
    side question's): formulas typeset, quotes with their bar, copy gives the LaTeX."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.formulas = FormulaImages(cjk_family(self.font()), self)
        self.rendered = Rendered()
        self._text = ""
        self.formulas.ready.connect(self._formulas_ready)

    def _formulas_ready(self) -> None:
        if self.rendered.awaiting:
            scrolled = self.verticalScrollBar().value()
            self.show_markdown(self._text)
            self.verticalScrollBar().setValue(scrolled)

    def show_markdown(self, text: str) -> None:
        self._text = text
        doc = self.document()
        doc.setDefaultFont(self.font())
        style = MathStyle(self.formulas, self.palette().color(QPalette.ColorRole.Text),
                          self.devicePixelRatioF())
        self.rendered = render_markdown(doc, text, style)

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt override
        mime = QMimeData()
        cursor = self.textCursor()
        mime.setText(text_of(self.document(), cursor.selectionStart(), cursor.selectionEnd()))
        return mime

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self.rendered.quotes:
            painter = QPainter(self.viewport())
            painter.translate(-self.horizontalScrollBar().value(),
                              -self.verticalScrollBar().value())
            draw_quote_bars(painter, self.document(), self.rendered.quotes, self.palette())
            painter.end()
        super().paintEvent(event)
