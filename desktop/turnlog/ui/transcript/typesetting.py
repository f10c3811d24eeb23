"""LaTeX to SVG with ziamath, in a process of its own: no Qt here.

ziamath is pure Python and takes tens of milliseconds a formula. In a thread of the
window's process it would hold the interpreter lock against the GUI thread (a streaming
answer's repaints stalled by 60–100 ms in the window bench); in a child process it holds
nothing of the window's. `maths.FormulaImages` sends each formula here and paints the SVG
that comes back through QtSvg.

ziafont reads TrueType outlines and plain CFF but not the CID-keyed CFF of the usual CJK
fonts (Noto Sans CJK, Source Han Sans), and this process has no Qt to draw them: the
window sends the outlines of a formula's CJK characters along with it (`Outlines`, taken
from the application's own CJK family, so `\\text{}` in Chinese is drawn in the same SC or
TC shapes as the text around it).
"""

from __future__ import annotations

import contextlib
import os
import warnings
from types import SimpleNamespace
from typing import Any

# One glyph: (advance, path operators, bounding box), in font units (1,000 an em), y up.
# An operator is ("M", x, y), ("L", x, y) or ("C", x1, y1, x2, y2, x3, y3).
Glyph = tuple[float, list[tuple[Any, ...]], tuple[float, float, float, float]]
Outlines = dict[str, Glyph]
UNITS = 1000  # font units per em, as the math font's
CJK_START = 0x2E80  # from here on (CJK, kana, hangul, full-width forms) STIX has no glyph


class FormulaError(ValueError):
    """The LaTeX of a formula does not parse: it is shown as typed."""


def _ziamath() -> Any:
    """ziamath, imported on the first formula (it loads its math font as it is imported;
    this version still uses an importlib call Python has deprecated)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import ziamath
        from ziamath import zmath  # noqa: F401 - the table of fonts, loaded with it
    ziamath.config.svg2 = False  # plain paths: QtSvg draws no <symbol> through <use>
    return ziamath


class SentGlyphs:
    """Glyphs whose outlines were sent with the formulas, as ziafont glyphs: just what
    ziamath reads of a font (a glyph per character, advances, units per em, extent)."""

    INDEX_BASE = 1_000_000  # apart from the math font's own glyph numbers

    def __init__(self) -> None:
        self.info = SimpleNamespace(filename="sentcjk.qt", layout=SimpleNamespace(
            unitsperem=UNITS, ymax=880, ymin=-120))
        self.cmap = None
        self._index: dict[str, int] = {}
        self._advances: list[float] = []
        self._glyphs: list[Any] = []

    def add(self, outlines: Outlines) -> None:
        from ziafont.fonttypes import BBox
        from ziafont.glyph import SimpleGlyph
        from ziafont.svgpath import Cubic, Lineto, Moveto, Point

        makers = {"M": Moveto, "L": Lineto}
        for char, (advance, operators, box) in outlines.items():
            if char in self._index:
                continue
            ops: list[Any] = []
            for kind, *values in operators:
                points = [Point(values[i], values[i + 1]) for i in range(0, len(values), 2)]
                ops.append(Cubic(*points) if kind == "C" else makers[kind](points[0]))
            number = len(self._glyphs)
            self._index[char] = number
            self._advances.append(advance)
            self._glyphs.append(SimpleGlyph(self.INDEX_BASE + number, ops, BBox(*box), self))

    def has(self, char: str) -> bool:
        return char in self._index

    def glyph(self, char: str) -> Any:
        return self._glyphs[self._index[char]]

    def advance(self, index: int, _next: int | None = None) -> float:
        return self._advances[index - self.INDEX_BASE]


_SENT = SentGlyphs()
_MATH_FONT = "turnlog-math"  # our math font's key in ziamath's table of fonts


def _math_font() -> str:
    """STIX Two Math, falling back to the sent glyphs for what it lacks (loaded once)."""
    zmath = _ziamath().zmath
    from ziamath.mathfont import MathFont

    if _MATH_FONT in zmath.loadedfonts:
        return _MATH_FONT

    class WithFallback(MathFont):  # type: ignore[misc]
        def findglyph(self, char: str, variant: Any) -> Any:
            if _SENT.has(char) and self.glyphindex(char) == 0:
                return _SENT.glyph(char)
            return super().findglyph(char, variant)

    zmath.loadedfonts[_MATH_FONT] = WithFallback(zmath.loadedfonts["default"].fname)
    return _MATH_FONT


def warm_up() -> None:
    """In the typesetter's process, first: give way to the window (a formula may wait a
    little; the window's repaints should not) and load ziamath and its font before the
    first formula asks for them."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)
    _math_font()


def typeset_svg(latex: str, display: bool, pixels: float, colour: str,
                outlines: Outlines | None = None) -> tuple[str, float, float, float]:
    """`latex` typeset at `pixels` per em in `colour` (#rrggbb): (SVG, width, ascent,
    descent), in pixels, the baseline `ascent` from the top. Raises FormulaError when it
    does not parse."""
    ziamath = _ziamath()
    if outlines:
        _SENT.add(outlines)
    font = _math_font()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a symbol it does not know is drawn as text
            formula = ziamath.Latex(latex, size=pixels, inline=not display, font=font,
                                    color=colour, margin=1.0)
            svg = formula.svg()
    except Exception as err:  # noqa: BLE001 - latex2mathml raises its own kinds freely
        raise FormulaError(f"{type(err).__name__}: {err}") from err
    box = formula.node.bbox
    width = box.xmax - box.xmin + 2.0
    return svg, width, box.ymax + 1.0, max(0.0, -box.ymin + 1.0)


def serve(requests: Any = None, replies: Any = None) -> None:
    """The typesetter process's loop (`python -m turnlog.ui.transcript.typesetting`): one
    JSON request a line on standard input — [latex, display, pixels, colour, outlines] —
    one JSON reply a line — {"ok": [svg, width, ascent, descent]} or {"error": reason}.
    It says {"ready": true} once ziamath is loaded. Anything a library prints goes to
    standard error, never into the replies."""
    import json
    import sys

    if replies is None:
        replies = os.fdopen(os.dup(1), "wb", buffering=0)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    requests = requests if requests is not None else sys.stdin.buffer
    warm_up()
    replies.write(b'{"ready": true}\n')
    for line in requests:
        try:
            latex, display, pixels, colour, outlines = json.loads(line)
            reply: dict[str, Any] = {"ok": typeset_svg(latex, display, pixels, colour,
                                                       outlines)}
        except FormulaError as err:
            reply = {"error": _why(err)}
        except MemoryError:
            reply = {"error": "it needs more memory than the typesetter may use"}
        except RecursionError:
            reply = {"error": "it is nested too deeply"}
        except Exception as err:  # noqa: BLE001 - any fault: the formula shows as typed
            reply = {"error": f"{type(err).__name__}: {err}"}
        replies.write(json.dumps(reply).encode("utf-8") + b"\n")


def _why(err: FormulaError) -> str:
    """The reason a formula was not typeset, in words where the cause is a bound."""
    if isinstance(err.__cause__, MemoryError):
        return "it needs more memory than the typesetter may use"
    if isinstance(err.__cause__, RecursionError):
        return "it is nested too deeply"
    return str(err)


if __name__ == "__main__":
    serve()
