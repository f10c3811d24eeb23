"""LaTeX in answers: where it is in the Markdown, and the typeset image of a formula.

Models write maths as `$…$` and `\\(…\\)` (inline) or `$$…$$` and `\\[…\\]` (display).
`find_maths` finds those spans outside code; `FormulaImages` has a formula typeset by
ziamath (pure Python: LaTeX → MathML → SVG in the STIX Two Math font) in a process of
its own (`typesetting`, run by `typesetter` with a deadline per formula and a memory
limit: a formula past them is shown as typed) and paints the SVG through QtSvg into an
image at the screen's pixel ratio, in the palette's text colour. Formulas are cached by
source, size, colour and ratio, so laying a row out again or streaming more of an answer
never typesets a formula twice.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import math
import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QRawFont
from PySide6.QtSvg import QSvgRenderer

from .typesetting import CJK_START, UNITS, FormulaError, Glyph, Outlines, typeset_svg

if TYPE_CHECKING:
    from .typesetter import Typeset, Typesetter

__all__ = ["Formula", "FormulaError", "FormulaImages", "MathSpan", "find_maths", "typeset"]

log = logging.getLogger(__name__)

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?(?<!`)\1(?!`)")
# Display first: `$$` must not be read as two empty inline formulas.
_DISPLAY = re.compile(r"\$\$(?P<a>.+?)\$\$|\\\[(?P<b>.+?)\\\]", re.DOTALL)
_INLINE = re.compile(r"\\\((?P<c>.+?)\\\)"
                     # `$x$`: no space after the opening `$`, none before the closing one,
                     # and no digit after it — so "$5 and $10" stays a price.
                     r"|(?<![\\$])\$(?P<d>[^\s$](?:[^$\n]*?[^\s\\$])?)\$(?!\d)")


@dataclass(frozen=True, slots=True)
class MathSpan:
    """A formula in the Markdown text: where it is, as typed, and its LaTeX."""

    start: int
    end: int
    latex: str
    display: bool

    def typed(self, text: str) -> str:
        return text[self.start:self.end]


def _code_ranges(text: str) -> list[tuple[int, int]]:
    """Where fenced code blocks and code spans are: nothing in them is maths."""
    ranges: list[tuple[int, int]] = []
    fence: str | None = None
    fence_start = pos = 0
    prose: list[tuple[int, int]] = []
    prose_start = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if fence is None:
            opening = _FENCE.match(line)
            if opening is not None:
                fence, fence_start = opening.group(1), pos
                prose.append((prose_start, pos))
        elif stripped.startswith(fence) and not stripped.strip(fence[0]):
            ranges.append((fence_start, pos + len(line)))
            fence, prose_start = None, pos + len(line)
        pos += len(line)
    if fence is not None:
        ranges.append((fence_start, len(text)))  # an open fence runs to the end
    else:
        prose.append((prose_start, len(text)))
    for low, high in prose:
        ranges += [(low + m.start(), low + m.end()) for m in _CODE_SPAN.finditer(text[low:high])]
    return sorted(ranges)


def find_maths(text: str) -> list[MathSpan]:
    """Every formula of `text` outside code, in order."""
    if "$" not in text and "\\" not in text:
        return []
    code = _code_ranges(text)
    taken = [([low for low, _high in code], [high for _low, high in code])]
    found: list[MathSpan] = []
    searched = _without_lone_openers(text)
    for pattern, display in ((_DISPLAY, True), (_INLINE, False)):
        kept: list[MathSpan] = []
        for match in pattern.finditer(searched):
            group = next(g for g in match.groupdict() if match.group(g) is not None)
            latex = text[match.start(group):match.end(group)]
            if latex.strip() and not any(_overlaps(lows, highs, match.start(), match.end())
                                         for lows, highs in taken):
                kept.append(MathSpan(match.start(), match.end(), latex.strip(), display))
        taken.append(([span.start for span in kept], [span.end for span in kept]))
        found += kept
    return sorted(found, key=lambda span: span.start)


def _without_lone_openers(text: str) -> str:
    """`text` with the backslash of each `\\(` and `\\[` that no closer follows made
    inert (same length, so every position stays where it was). The regular expressions
    look for a closer from each opener to the end of the text (`\\(`: of its line): with
    thousands of openers and no closer that is quadratic — an answer of 40,000 `\\(`
    held the GUI thread 23 s. An opener with no closer after it can never start a
    formula, so hiding it changes no match."""
    lone: list[int] = []
    last_square = text.rfind("\\]")
    at = text.find("\\[")
    while at != -1 and at + 3 <= last_square:
        at = text.find("\\[", at + 1)
    while at != -1:  # every `\\[` from here has no `\\]` after it
        lone.append(at)
        at = text.find("\\[", at + 1)
    if "\\(" in text:
        line_start = 0
        for line in text.split("\n"):
            last_round = line.rfind("\\)")
            at = line.find("\\(")
            while at != -1:
                if at + 3 > last_round:
                    lone.append(line_start + at)
                at = line.find("\\(", at + 1)
            line_start += len(line) + 1
    if not lone:
        return text
    parts: list[str] = []
    previous = 0
    for at in sorted(lone):
        parts += [text[previous:at], "\x00"]
        previous = at + 1
    parts.append(text[previous:])
    return "".join(parts)


def _overlaps(lows: list[int], highs: list[int], start: int, end: int) -> bool:
    """Whether [start, end) meets one of the sorted, disjoint ranges (`lows`, `highs`):
    a binary search, so finding a hundred thousand formulas stays linear."""
    number = bisect.bisect_left(lows, end) - 1
    return number >= 0 and highs[number] > start


@dataclass(frozen=True, slots=True)
class Formula:
    """A typeset formula: its image (at the ratio it was made for) and, in logical pixels,
    how far it reaches above and below the baseline."""

    image: QImage
    width: float
    ascent: float
    descent: float


class QtGlyphs:
    """The outlines of CJK characters in a Qt font, for the typesetter (which cannot
    read CID-keyed CJK fonts and has no Qt of its own: `typesetting`)."""

    def __init__(self, family: str) -> None:
        self.family = family
        self.raw = QRawFont.fromFont(QFont(family))
        self.raw.setPixelSize(UNITS)
        self._known: Outlines = {}

    def outlines(self, latex: str) -> Outlines:
        """The outlines of `latex`'s CJK characters (font units, y up)."""
        found: Outlines = {}
        for char in {c for c in latex if ord(c) >= CJK_START}:
            glyph = self._known.get(char)
            # (Not supportsCharacter: it says no to 积 and 直, which the font has.)
            indexes = self.raw.glyphIndexesForString(char) if self.raw.isValid() else []
            if glyph is None and len(indexes) == 1 and indexes[0] != 0:
                glyph = self._known[char] = self._outline(indexes[0])
            if glyph is not None:
                found[char] = glyph
        return found

    def _outline(self, index: int) -> Glyph:
        path = self.raw.pathForGlyph(index)
        advances = self.raw.advancesForGlyphIndexes([index])
        box = path.boundingRect()
        operators: list[tuple[float | str, ...]] = []
        kind = QPainterPath.ElementType
        number = 0
        while number < path.elementCount():
            element = path.elementAt(number)
            if element.type == kind.MoveToElement:
                operators.append(("M", element.x, -element.y))
            elif element.type == kind.LineToElement:
                operators.append(("L", element.x, -element.y))
            elif element.type == kind.CurveToElement:
                second, third = path.elementAt(number + 1), path.elementAt(number + 2)
                operators.append(("C", element.x, -element.y, second.x, -second.y,
                                  third.x, -third.y))
                number += 2
            number += 1
        return (advances[0].x() if advances else float(UNITS), operators,
                (box.left(), box.right(), -box.bottom(), -box.top()))


def paint_svg(svg: str, width: float, ascent: float, descent: float, ratio: float) -> Formula:
    """A typeset formula's SVG as an image for a screen of `ratio` (QtSvg: C++, fast)."""
    renderer = QSvgRenderer(QByteArray(svg.encode()))
    if not renderer.isValid() or width <= 0 or ascent + descent <= 0:
        raise FormulaError("the typeset formula is empty")
    image = QImage(max(1, math.ceil(width * ratio)), max(1, math.ceil((ascent + descent) * ratio)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, width, ascent + descent))
    painter.end()
    return Formula(image, width, ascent, descent)


def typeset(latex: str, *, display: bool, pixels: float, colour: QColor, ratio: float,
            cjk_family: str | None = None) -> Formula:
    """`latex` typeset at `pixels` per em in `colour`, as an image for a screen of `ratio`
    device pixels per logical one, Chinese in `cjk_family`, here and now (the window has
    it done in a process of its own: `FormulaImages`). Raises FormulaError when it does
    not parse."""
    outlines = QtGlyphs(cjk_family).outlines(latex) if cjk_family else None
    return paint_svg(*typeset_svg(latex, display, pixels, colour.name(), outlines), ratio)


_Key = tuple[str, bool, float, str, float]
_typesetter: Typesetter | None = None  # one child process for every window
_typesetter_lock = threading.Lock()


def the_typesetter() -> Typesetter:
    """The typesetter every window shares (its process starts with it: the window asks
    for it once its first screen is up, else the first formula does)."""
    global _typesetter
    with _typesetter_lock:
        if _typesetter is None:
            from .typesetter import Typesetter  # its child process: once the screen is up

            _typesetter = Typesetter()
        return _typesetter


def _hand_over(images: weakref.ref[FormulaImages], key: _Key, result: Typeset | str) -> None:
    """On the typesetter's thread: it answered; on to the GUI thread. The job holds the
    images only weakly: were the last reference dropped here, Qt would destroy a GUI
    thread's object on this thread."""
    owner = images()
    if owner is None:
        return  # the view that asked went away meanwhile
    with contextlib.suppress(RuntimeError):  # its Qt side is gone already
        owner._arrived.emit(key, result)


class FormulaImages(QObject):
    """Typeset formulas, kept by what they look like: (LaTeX, display, size, colour,
    ratio) → the formula, or the reason it did not parse.

    A formula not typeset yet is typeset in the typesetter's process (never on the GUI
    thread, nor in a thread of this process): `get` answers None meanwhile — its source
    is shown as typed — and `ready` says when formulas asked for have arrived (a few at
    once, not one signal each; `landed` says which: the keys of `key`)."""

    SIZE = 1_000
    ready = Signal()
    landed = Signal(frozenset)  # the keys of the formulas that arrived since the last one
    _arrived = Signal(object, object)  # (key, the SVG and its metrics, or an error)

    def __init__(self, cjk_family: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._glyphs = QtGlyphs(cjk_family) if cjk_family else None
        self._cache: OrderedDict[_Key, Formula | FormulaError] = OrderedDict()
        self._waiting: set[_Key] = set()
        self.typeset_count = 0  # how many formulas were typeset (not taken from the cache)
        self._batch = QTimer(self)
        self._batch.setSingleShot(True)
        self._batch.setInterval(30)  # the stream's pace: formulas arriving together
        self._batch.timeout.connect(self._announce)
        self._landed: set[_Key] = set()
        self._arrived.connect(self._keep, Qt.ConnectionType.QueuedConnection)
        self._typesetter: Typesetter | None = None  # started by the first formula at the latest

    @property
    def waiting(self) -> bool:
        """Whether formulas asked for are still being typeset."""
        return bool(self._waiting)

    @staticmethod
    def key(latex: str, *, display: bool, pixels: float, colour: QColor,
            ratio: float) -> _Key:
        """What a formula is kept by (and named by in `landed`)."""
        return (latex, display, round(pixels, 2), colour.name(), round(ratio, 3))

    def get(self, latex: str, *, display: bool, pixels: float, colour: QColor,
            ratio: float) -> Formula | FormulaError | None:
        key = self.key(latex, display=display, pixels=pixels, colour=colour, ratio=ratio)
        known = self._cache.get(key)
        if known is not None:
            self._cache.move_to_end(key)
            return known
        if key not in self._waiting:
            self._waiting.add(key)
            outlines = self._glyphs.outlines(latex) if self._glyphs is not None else None
            if self._typesetter is None:
                self._typesetter = the_typesetter()
            self._typesetter.submit(latex, display, key[2], key[3], outlines,
                                    partial(_hand_over, weakref.ref(self), key))
        return None

    def _keep(self, key: _Key, result: object) -> None:
        self._waiting.discard(key)
        self.typeset_count += 1
        kept: Formula | FormulaError
        if isinstance(result, tuple):
            try:
                kept = paint_svg(*result, ratio=key[4])
            except FormulaError as err:
                kept = err
        else:
            kept = FormulaError(str(result))
            log.debug("a formula did not parse: %s", kept)
        self._cache[key] = kept
        while len(self._cache) > self.SIZE:
            self._cache.popitem(last=False)
        self._landed.add(key)
        if not self._batch.isActive():
            self._batch.start()

    def _announce(self) -> None:
        landed, self._landed = frozenset(self._landed), set()
        self.landed.emit(landed)
        self.ready.emit()
