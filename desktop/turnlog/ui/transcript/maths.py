"""LaTeX in answers: where it is in the Markdown, and the typeset image of a formula.

Models write maths as `$…$` and `\\(…\\)` (inline) or `$$…$$` and `\\[…\\]` (display).
`find_maths` finds those spans outside code; `FormulaImages` typesets one with ziamath
(pure Python: LaTeX → MathML → SVG, in the STIX Two Math font) and paints the SVG through
QtSvg into an image at the screen's pixel ratio, in the palette's text colour. Formulas
are cached by source, size, colour and ratio, so laying a row out again or streaming more
of an answer never typesets a formula twice.

ziafont reads TrueType outlines and plain CFF but not the CID-keyed CFF of the usual CJK
fonts (Noto Sans CJK, Source Han Sans): a `\\text{}` in Chinese takes its glyphs from
Qt's own copy of the application's CJK family instead (`QtGlyphs`), so it is drawn in the
same SC or TC shapes as the text around it.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
import warnings
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import QByteArray, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QRawFont
from PySide6.QtSvg import QSvgRenderer

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
    taken = _code_ranges(text)

    def free(start: int, end: int) -> bool:
        return not any(low < end and start < high for low, high in taken)

    found: list[MathSpan] = []
    for pattern, display in ((_DISPLAY, True), (_INLINE, False)):
        for match in pattern.finditer(text):
            latex = next(g for g in match.groups() if g is not None)
            if latex.strip() and free(match.start(), match.end()):
                found.append(MathSpan(match.start(), match.end(), latex.strip(), display))
                taken.append((match.start(), match.end()))
    return sorted(found, key=lambda span: span.start)


@dataclass(frozen=True, slots=True)
class Formula:
    """A typeset formula: its image (at the ratio it was made for) and, in logical pixels,
    how far it reaches above and below the baseline."""

    image: QImage
    width: float
    ascent: float
    descent: float


class FormulaError(ValueError):
    """The LaTeX of a formula does not parse: it is shown as typed."""


class QtGlyphs:
    """Glyphs of a Qt font as ziafont glyphs, for the characters the math font lacks
    (Chinese in `\\text{}`). Just what ziamath reads of a font: a glyph per character,
    advances, units per em and the font's vertical extent."""

    UNITS = 1000  # font units per em, as the math font's
    INDEX_BASE = 1_000_000  # apart from the math font's own glyph numbers

    def __init__(self, family: str) -> None:
        self.raw = QRawFont.fromFont(QFont(family))
        self.raw.setPixelSize(self.UNITS)
        units = self.UNITS
        self.info = SimpleNamespace(
            filename=f"{family.replace(' ', '')}.qt",
            layout=SimpleNamespace(unitsperem=units, ymax=self.raw.ascent(),
                                   ymin=-self.raw.descent()))
        self.cmap = None
        self._glyphs: dict[int, Any] = {}

    def has(self, char: str) -> bool:
        indexes = self.raw.glyphIndexesForString(char) if self.raw.isValid() else []
        return len(indexes) == 1 and indexes[0] != 0 and self.raw.supportsCharacter(char)

    def advance(self, index: int, _next: int | None = None) -> float:
        advances = self.raw.advancesForGlyphIndexes([index - self.INDEX_BASE])
        return advances[0].x() if advances else 0.0

    def glyph(self, char: str) -> Any:
        from ziafont.fonttypes import BBox
        from ziafont.glyph import SimpleGlyph

        index = self.raw.glyphIndexesForString(char)[0]
        known = self._glyphs.get(index)
        if known is None:
            path = self.raw.pathForGlyph(index)
            box = path.boundingRect()
            known = SimpleGlyph(self.INDEX_BASE + index, _operators(path),
                                BBox(box.left(), box.right(), -box.bottom(), -box.top()),
                                self)  # type: ignore[arg-type]
            self._glyphs[index] = known
        return known


def _operators(path: QPainterPath) -> list[Any]:
    """A Qt glyph outline (y down) as ziafont path operators (font units, y up)."""
    from ziafont.svgpath import Cubic, Lineto, Moveto, Point

    found: list[Any] = []
    kind = QPainterPath.ElementType
    number = 0
    while number < path.elementCount():
        element = path.elementAt(number)
        point = Point(element.x, -element.y)
        if element.type == kind.MoveToElement:
            found.append(Moveto(point))
        elif element.type == kind.LineToElement:
            found.append(Lineto(point))
        elif element.type == kind.CurveToElement:
            second, third = path.elementAt(number + 1), path.elementAt(number + 2)
            found.append(Cubic(point, Point(second.x, -second.y), Point(third.x, -third.y)))
            number += 2
        number += 1
    return found


def _ziamath() -> Any:
    """ziamath, imported on the first formula (it loads its math font as it is imported;
    this version still uses an importlib call Python has deprecated)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath
        from ziamath import zmath  # noqa: F401 - the table of fonts, loaded with it
    return ziamath


def _math_font(fallback: QtGlyphs | None) -> str:
    """The STIX Two Math font, falling back to `fallback` for the characters it lacks;
    loaded into ziamath once for each fallback family. Returns its key in ziamath's table
    of fonts."""
    zmath = _ziamath().zmath
    from ziamath.mathfont import MathFont

    key = f"turnlog-math:{fallback.info.filename if fallback is not None else ''}"
    if key in zmath.loadedfonts:
        return key

    class WithFallback(MathFont):  # type: ignore[misc]
        def findglyph(self, char: str, variant: Any) -> Any:
            if fallback is not None and self.glyphindex(char) == 0 and fallback.has(char):
                return fallback.glyph(char)
            return super().findglyph(char, variant)

    default = zmath.loadedfonts["default"]
    zmath.loadedfonts[key] = WithFallback(default.fname)
    return key


def typeset(latex: str, *, display: bool, pixels: float, colour: QColor, ratio: float,
            cjk_family: str | QtGlyphs | None = None) -> Formula:
    """`latex` typeset at `pixels` per em in `colour`, as an image for a screen of
    `ratio` device pixels per logical one, with Chinese in `cjk_family`. Raises
    FormulaError when it does not parse. Pure Python, tens of milliseconds: off the GUI
    thread (`FormulaImages`) but where a test wants one now."""
    ziamath = _ziamath()
    ziamath.config.svg2 = False  # plain paths: QtSvg draws no <symbol> through <use>
    glyphs = QtGlyphs(cjk_family) if isinstance(cjk_family, str) else cjk_family
    font = _math_font(glyphs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a symbol it does not know is drawn as text
            formula = ziamath.Latex(latex, size=pixels, inline=not display, font=font,
                                    color=colour.name(), margin=1.0)
            svg = formula.svg()
    except Exception as err:  # noqa: BLE001 - latex2mathml raises its own kinds freely
        raise FormulaError(f"{type(err).__name__}: {err}") from err
    box = formula.node.bbox
    width = box.xmax - box.xmin + 2.0
    ascent, descent = box.ymax + 1.0, max(0.0, -box.ymin + 1.0)
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


_Key = tuple[str, bool, float, str, float]
_worker: ThreadPoolExecutor | None = None  # one for all: ziamath keeps global state


def _formula_worker() -> ThreadPoolExecutor:
    global _worker
    if _worker is None:
        _worker = ThreadPoolExecutor(1, thread_name_prefix="turnlog-formulas")
    return _worker


class FormulaImages(QObject):
    """Typeset formulas, kept by what they look like: (LaTeX, display, size, colour,
    ratio) → the formula, or the reason it did not parse.

    A formula not typeset yet is typeset on a worker thread of its own (never the GUI
    thread): `get` answers None meanwhile — its source is shown as typed — and `ready`
    says when formulas asked for have arrived (a few at once, not one signal each)."""

    SIZE = 1_000
    ready = Signal()
    _arrived = Signal(object, object)  # (key, formula or error), from the worker

    def __init__(self, cjk_family: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Made here, on the GUI thread; read only by the worker afterwards.
        self._glyphs = QtGlyphs(cjk_family) if cjk_family else None
        self._cache: OrderedDict[_Key, Formula | FormulaError] = OrderedDict()
        self._waiting: set[_Key] = set()
        self.typeset_count = 0  # how many formulas were typeset (not taken from the cache)
        self._batch = QTimer(self)
        self._batch.setSingleShot(True)
        self._batch.setInterval(30)  # the stream's pace: formulas arriving together
        self._batch.timeout.connect(self.ready)
        self._arrived.connect(self._keep, Qt.ConnectionType.QueuedConnection)
        glyphs = self._glyphs
        _formula_worker().submit(lambda: _math_font(glyphs))  # ziamath loads meanwhile

    @property
    def waiting(self) -> bool:
        """Whether formulas asked for are still being typeset."""
        return bool(self._waiting)

    def get(self, latex: str, *, display: bool, pixels: float, colour: QColor,
            ratio: float) -> Formula | FormulaError | None:
        key = (latex, display, round(pixels, 2), colour.name(), round(ratio, 3))
        known = self._cache.get(key)
        if known is not None:
            self._cache.move_to_end(key)
            return known
        if key not in self._waiting:
            self._waiting.add(key)
            _formula_worker().submit(self._typeset, key)
        return None

    def _typeset(self, key: _Key) -> None:
        """On the worker: typeset one formula and hand it to the GUI thread."""
        latex, display, pixels, colour, ratio = key
        result: Formula | FormulaError
        try:
            result = typeset(latex, display=display, pixels=pixels, colour=QColor(colour),
                             ratio=ratio, cjk_family=self._glyphs)
        except FormulaError as err:
            log.debug("a formula did not parse: %s", err)
            result = err
        except Exception as err:  # noqa: BLE001 - a fault of the typesetter: shown as typed
            log.exception("typesetting a formula failed")
            result = FormulaError(f"{type(err).__name__}: {err}")
        with contextlib.suppress(RuntimeError):  # the view that asked went away meanwhile
            self._arrived.emit(key, result)

    def _keep(self, key: _Key, result: Formula | FormulaError) -> None:
        self._waiting.discard(key)
        self.typeset_count += 1
        self._cache[key] = result
        while len(self._cache) > self.SIZE:
            self._cache.popitem(last=False)
        if not self._batch.isActive():
            self._batch.start()
