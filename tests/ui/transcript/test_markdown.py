"""Answers render as written: GitHub Markdown (tables, strikethrough, task lists), inline
code in a monospace tint, quotes with a bar, LaTeX typeset as images (copied as typed),
diagram languages as code blocks with Copy, and English in a Latin font beside Chinese in
its CJK family. Real windows and widgets, offscreen."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QGuiApplication,
    QImage,
    QTextDocument,
    QTextLayout,
    QTextTable,
)

from answer_rendering import _option, answer_documents
from turnlog.ui.infra.fonts import configure_fonts, drawn_by
from turnlog.ui.infra.theme import palette_for
from turnlog.ui.transcript.markdown import MATH_SOURCE, AnswerBrowser, render_markdown
from turnlog.ui.transcript.maths import find_maths, typeset
from turnlog.ui.transcript.model import Role
from window_sending import open_window

pytest_plugins = ["uiwindow"]

FORMULAS = [
    r"\frac{a}{b}", r"\sqrt{x^2 + y^2}", r"\sqrt[3]{8} = 2", r"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}",
    r"\int_0^1 x^2\,dx = \frac{1}{3}", r"\oint_C \mathbf{F} \cdot d\mathbf{r}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
    r"\begin{aligned} x &= 1 \\ y &= 2 \end{aligned}",
    r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}",
    r"\alpha + \beta = \gamma", r"\Omega \Delta \Sigma", r"\hat{x} + \bar{y} + \vec{v}",
    r"\tilde{n} \dot{x} \ddot{y}", r"x_i^2", r"e^{i\pi} + 1 = 0", r"a_{n+1} = a_n + d",
    r"\lim_{x \to 0} \frac{\sin x}{x} = 1", r"\prod_{k=1}^{n} k = n!", r"\binom{n}{k}",
    r"\text{速度} = \frac{\Delta s}{\Delta t}", r"\text{面积 } A = \pi r^2",
    r"\mathbb{R}^n", r"\left( \frac{1}{2} \right)^2", r"\nabla \cdot \mathbf{E} = 0",
    r"\partial_t u = \Delta u", r"\log_2 8 = 3", r"\infty \ne 0", r"x \in \mathbb{N}",
    r"\overline{AB} \perp \overline{CD}",
]
DISPLAYED = {4, 6, 8, 9, 18}  # typeset on lines of their own; the rest inline


def formula_answer() -> str:
    lines = []
    for number, latex in enumerate(FORMULAS):
        if number in DISPLAYED:
            lines.append(f"Shown apart:\n\n$${latex}$$\n")
        elif number % 2:
            lines.append(f"Inline \\({latex}\\) in words.\n")
        else:
            lines.append(f"Inline ${latex}$ in words, 中文也行。\n")
    return "\n".join(lines)


def images_of(doc: QTextDocument) -> list[tuple[str, QImage, float, float]]:
    """Each image of `doc`: (its LaTeX as typed, the image, its width and height)."""
    found = []
    block = doc.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            form = fragments.fragment().charFormat()
            if form.isImageFormat():
                image = form.toImageFormat()
                found.append((str(form.property(MATH_SOURCE)), doc.resource(
                    QTextDocument.ResourceType.ImageResource, QUrl(image.name())),
                    image.width(), image.height()))
            fragments += 1
        block = block.next()
    return found


def inked(image: QImage) -> int:
    """How many pixels of `image` are drawn (not transparent)."""
    return sum(1 for y in range(image.height()) for x in range(image.width())
               if image.pixelColor(x, y).alpha() > 60)


def typeset_all(qtbot, window, row: int = 0) -> None:
    """Wait while the row's formulas are typeset (on their worker) and put in place."""
    delegate = window.view.delegate
    index = window.transcript.index(row)

    def done() -> bool:
        answer = delegate._answer(str(index.data(Role.KEY)), str(index.data(Role.ANSWER)),
                                  delegate.layout.content_width)
        return not delegate.formulas.waiting and not answer.awaiting

    qtbot.waitUntil(done, timeout=20_000)


def test_thirty_formulas_are_typeset_as_images_of_sensible_size(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, [("Maths? 数学？", formula_answer())])
    typeset_all(qtbot, window)
    docs = answer_documents(window)
    images = [found for doc in docs for found in images_of(doc)]
    assert len(images) == len(FORMULAS) == 30
    pixels = QFontMetricsF(window.view.font()).height()
    for (typed, image, width, height), latex in zip(images, FORMULAS, strict=True):
        assert latex in typed, typed
        assert not image.isNull(), latex
        assert 0.5 * pixels <= height <= 8 * pixels, (latex, height)
        assert 0.5 * pixels <= width <= 40 * pixels, (latex, width)
        assert inked(image) > 20, latex
    by_source = {typed: height for typed, _image, _width, height in images}
    # A fraction shown apart stands taller than one in a line of text.
    assert by_source[f"$${FORMULAS[4]}$$"] > by_source[f"${FORMULAS[0]}$"]
    # Laid out again (a resize), no formula is typeset again.
    made = window.view.delegate.formulas.typeset_count
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: window.view.viewport().width() < 900)
    window.view.viewport().repaint()
    assert window.view.delegate.formulas.typeset_count == made


def test_chinese_in_text_is_drawn_in_chinese_glyphs(qapp):
    colour = QColor("#1f2328")

    def shown(latex: str):
        return typeset(latex, display=False, pixels=16, colour=colour, ratio=1.0,
                       cjk_family="Noto Sans CJK SC")

    both = shown(r"\text{面积}")
    assert both.width >= 2 * 16 * 0.8  # two full-width characters
    singles = [shown(f"\\text{{{char}}}").image for char in "面积直骨速"]
    assert all(inked(image) > 20 for image in singles)
    # Each its own glyph: a missing glyph would be the same empty box every time.
    assert len({bytes(image.constBits()) for image in singles}) == len(singles)


def test_formulas_follow_the_text_colour(qapp):
    light = palette_for(False).color(palette_for(False).ColorRole.Text)
    dark = palette_for(True).color(palette_for(True).ColorRole.Text)
    for colour in (light, dark):
        formula = typeset(r"x^2 + \frac{1}{2}", display=True, pixels=16, colour=colour,
                          ratio=2.0)
        image = formula.image
        assert image.devicePixelRatio() == 2.0
        ink = [image.pixelColor(x, y) for y in range(image.height())
               for x in range(image.width()) if image.pixelColor(x, y).alpha() == 255]
        assert ink and all(abs(c.lightness() - colour.lightness()) < 10 for c in ink)


def test_a_theme_change_typesets_the_formulas_in_its_text_colour(qtbot, make_window, store,
                                                                 qapp):
    window, _cid = open_window(qtbot, make_window, store, [("Maths?", "So $x^2 + 1$ it is.")])
    typeset_all(qtbot, window)

    def ink() -> list[QColor]:
        [(_typed, image, _w, _h)] = [f for doc in answer_documents(window)
                                     for f in images_of(doc)]
        return [image.pixelColor(x, y) for y in range(image.height())
                for x in range(image.width()) if image.pixelColor(x, y).alpha() == 255]

    assert all(c.lightness() < 100 for c in ink())  # dark words on the light theme
    before = qapp.palette()
    qapp.setPalette(palette_for(True))
    try:
        qtbot.waitUntil(lambda: window.view.palette().color(
            window.view.palette().ColorRole.Text).lightness() > 128)
        window.view.viewport().repaint()
        typeset_all(qtbot, window)
        assert all(c.lightness() > 150 for c in ink())  # light words on the dark one
    finally:
        qapp.setPalette(before)


def test_what_does_not_parse_shows_as_typed_and_prices_stay_text(qtbot, make_window, store):
    answer = ("It costs $5 and $10 today, or \\$3.\n\n"
              "Broken: $\\frac{a}{$ stays.\n\n`$x$ in code` and\n\n```\n$y$\n```\n")
    assert [span.latex for span in find_maths(answer)] == ["\\frac{a}{"]
    window, _cid = open_window(qtbot, make_window, store, [("Price?", answer)])
    typeset_all(qtbot, window)
    docs = answer_documents(window)
    assert not [found for doc in docs for found in images_of(doc)]
    shown = window.view.delegate._answer(
        str(window.transcript.index(0).data(Role.KEY)), answer, 600).plain_text()
    assert "It costs $5 and $10 today" in shown
    assert "$\\frac{a}{$" in shown
    cursor = docs[0].find("$\\frac{a}{$")
    assert cursor.charFormat().fontFixedPitch()


def test_copy_gives_the_latex_as_typed(qtbot, make_window, store):
    answer = "Euler: $e^{i\\pi} + 1 = 0$, and\n\n$$\\int_0^1 x\\,dx$$\n\nDone \\(x_1\\)."
    window, _cid = open_window(qtbot, make_window, store, [("Maths?", answer)])
    typeset_all(qtbot, window)
    view = window.view
    index = window.transcript.index(0)
    view.setCurrentIndex(index)
    view.setFocus()
    qtbot.keyClick(view, "a", modifier=Qt.KeyboardModifier.ControlModifier)
    selected = view.selected_text()
    assert "\ufffc" not in selected
    assert "$e^{i\\pi} + 1 = 0$" in selected
    assert "$$\\int_0^1 x\\,dx$$" in selected and "\\(x_1\\)" in selected
    assert view.copy_current("turn") == selected == QGuiApplication.clipboard().text()


TABLE = ("| Plan | Price | 说明 |\n|---|---:|---|\n| Basic | 5 | 基础 |\n"
         "| Pro | 10 | ~~old~~ new |\n| Team | 20 | `team` |\n")
RICH = (f"Compare:\n\n> A wise quote\n> on two lines\n\n{TABLE}\nUse `pip install x` now.\n\n"
        "- [x] done\n- [ ] to do\n\nSee https://example.com.\n\n"
        "```mermaid\ngraph TD; A-->B\n```\n\n```plantuml\n@startuml\nA -> B\n@enduml\n```\n")


def test_tables_code_quotes_and_diagrams_render_as_written(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, [("Compare? 比较", RICH)])
    view = window.view
    index = window.transcript.index(0)
    docs = answer_documents(window)
    tables = [frame for doc in docs for frame in doc.rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    assert len(tables) == 1
    table = tables[0]
    assert (table.rows(), table.columns()) == (4, 3)
    assert table.format().border() >= 1 and table.format().cellPadding() >= 4
    assert table.cellAt(3, 2).firstCursorPosition().block().text() == "team"
    doc = next(d for d in docs if not d.find("pip install x").isNull())
    code = doc.find("pip install x")
    form = code.charFormat()
    assert form.fontFixedPitch() and form.background().color().alpha() > 0
    assert QFontDatabase.isFixedPitch(form.fontFamilies()[0]) or form.fontFixedPitch()
    gone = doc.find("old")
    assert gone.charFormat().fontStrikeOut()
    link = doc.find("https://example.com")
    assert link.charFormat().isAnchor()
    quote = doc.find("A wise quote").block()
    assert quote.blockFormat().intProperty(quote.blockFormat().Property.BlockQuoteLevel) == 1
    # The bar is painted left of the quote's text.
    geometry = view.delegate.geometry(_option(view, index), index)[0]
    rect = doc.documentLayout().blockBoundingRect(quote)
    at = next(top for d, top in view.delegate._answer(
        str(index.data(Role.KEY)), RICH, geometry.content_width).placed() if d is doc)
    grabbed = view.viewport().grab().toImage()
    y = int(geometry.answer_at.y() + at + rect.center().y())
    left = geometry.answer_at.x() + int(rect.left())
    row = [grabbed.pixelColor(x, y) for x in range(left, left + int(quote.blockFormat()
                                                                       .leftMargin()))]
    base = view.palette().color(view.palette().ColorRole.Base)
    assert any(abs(c.lightness() - base.lightness()) > 60 for c in row)
    assert [lang for lang, *_rest in view.delegate._answer(
        str(index.data(Role.KEY)), RICH, geometry.content_width).code_blocks()] == \
        ["mermaid", "plantuml"]
    assert view.delegate.code_blocks(index)[0] == "graph TD; A-->B"
    row_rect = view.visualRect(index)
    copies = [view.delegate.copy_button_at(index, QPoint(x, y))
              for y in range(row_rect.top(), row_rect.bottom(), 2)
              for x in range(row_rect.right() - 60, row_rect.right(), 4)]
    assert "graph TD; A-->B" in copies


def test_no_cell_sits_lower_than_its_neighbours(qapp):
    """Qt's importer gives the first cell of a table after a quote the quote's margins."""
    doc = QTextDocument()
    render_markdown(doc, f"> A quote\n> of two lines\n\n{TABLE}")
    [table] = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    assert [table.cellAt(0, column).firstCursorPosition().block().text()
            for column in range(table.columns())] == ["Plan", "Price", "说明"]
    assert all(table.cellAt(row, column).firstCursorPosition().block().blockFormat()
               .topMargin() == 0 for row in range(table.rows())
               for column in range(table.columns()))


def test_the_side_answer_renders_the_same_way(qtbot):
    browser = AnswerBrowser()
    qtbot.addWidget(browser)
    browser.resize(500, 400)
    browser.show()
    browser.show_markdown(f"{TABLE}\n$\\frac{{1}}{{2}}$ and `code`\n\n> quoted\n")
    assert browser.rendered.awaiting  # the source shows while the formula is typeset
    qtbot.waitUntil(lambda: not browser.rendered.awaiting, timeout=20_000)
    doc = browser.document()
    assert any(isinstance(f, QTextTable) for f in doc.rootFrame().childFrames())
    assert [typed for typed, *_rest in images_of(doc)] == ["$\\frac{1}{2}$"]
    assert browser.rendered.quotes
    browser.selectAll()
    assert "$\\frac{1}{2}$" in browser.createMimeDataFromSelection().text()


def han_outline(font: QFont, char: str) -> list[tuple[float, float]]:
    """The outline `font` draws `char` with, at 100 px."""
    layout = QTextLayout(char, QFont(font))
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    [run] = layout.glyphRuns()
    raw = run.rawFont()
    raw.setPixelSize(100)
    path = raw.pathForGlyph(run.glyphIndexes()[0])
    return [(round(path.elementAt(i).x), round(path.elementAt(i).y))
            for i in range(path.elementCount())]


@pytest.fixture
def app_fonts(qapp):
    before = QFont(qapp.font())
    yield qapp
    qapp.setFont(before)


def test_english_punctuation_is_latin_and_chinese_keeps_its_family(app_fonts):
    available = QFontDatabase.families()
    if "Noto Sans CJK SC" not in available or "Noto Sans CJK TC" not in available:
        pytest.skip("needs Noto Sans CJK SC and TC")
    families = configure_fonts(app_fonts, "zh_CN")
    assert not any("CJK" in family for family in families[:1])
    font = app_fonts.font()
    latin = QFont(font)
    latin.setFamilies(families[:1])
    # An English curly quote is as wide as the Latin font's, not a full-width CJK one.
    quote = QFontMetricsF(font).horizontalAdvance("“")
    assert quote == pytest.approx(QFontMetricsF(latin).horizontalAdvance("“"))
    assert quote < 0.7 * QFontMetricsF(font).horizontalAdvance("中")
    assert drawn_by(font, "Delete “New chat”?") == [families[0]]
    assert drawn_by(font, "直骨") == ["Noto Sans CJK SC"]
    if "Noto Sans CJK JP" in available:  # and so in their Chinese, not Japanese, shapes
        assert han_outline(font, "直") == han_outline(QFont("Noto Sans CJK SC"), "直") != \
            han_outline(QFont("Noto Sans CJK JP"), "直")
    configure_fonts(app_fonts, "zh_TW")
    assert drawn_by(app_fonts.font(), "骨") == ["Noto Sans CJK TC"]
    assert drawn_by(app_fonts.font(), "“Quote”") == [families[0]]


def test_formulas_are_typeset_again_after_the_typesetter_dies(qtbot):
    import os
    import signal

    from turnlog.ui.transcript import maths

    browser = AnswerBrowser()
    qtbot.addWidget(browser)
    browser.show_markdown("First $a^2$.")
    qtbot.waitUntil(lambda: not browser.rendered.awaiting, timeout=20_000)
    typesetter = maths.the_typesetter()
    pid = typesetter.pid
    os.kill(pid, signal.SIGKILL)  # the typesetter's process, killed from outside
    browser.show_markdown("Then $b^3 + \\frac{1}{2}$.")
    qtbot.waitUntil(lambda: not browser.rendered.awaiting, timeout=20_000)
    assert [typed for typed, *_rest in images_of(browser.document())] == \
        ["$b^3 + \\frac{1}{2}$"]
    assert typesetter.pid not in (None, pid)  # another process


def _plain_find(text: str) -> list[tuple[int, int, str, bool]]:
    """The formulas the two patterns find on the text as typed (no openers hidden),
    leaving code and overlaps aside as find_maths does."""
    from turnlog.ui.transcript import maths
    code = maths._code_ranges(text)
    taken = [([low for low, _ in code], [high for _, high in code])]
    found = []
    for pattern, display in ((maths._DISPLAY, True), (maths._INLINE, False)):
        kept = []
        for match in pattern.finditer(text):
            latex = next(g for g in match.groups() if g is not None)
            if latex.strip() and not any(maths._overlaps(lows, highs, match.start(), match.end())
                                         for lows, highs in taken):
                kept.append((match.start(), match.end(), latex.strip(), display))
        taken.append(([k[0] for k in kept], [k[1] for k in kept]))
        found += kept
    return sorted(found)


@settings(max_examples=400, deadline=None, database=None)
@given(text=st.lists(st.sampled_from(["\\(", "\\)", "\\[", "\\]", "$", "$$", "x", " ", "\n",
                                      "`", "\\", "1", "中"]), max_size=40).map("".join))
def test_lone_openers_hidden_from_the_search_change_no_formula(text):
    assert [(s.start, s.end, s.latex, s.display) for s in find_maths(text)] == _plain_find(text)


def test_thousands_of_openers_without_a_closer_are_found_in_linear_time():
    # 40,000 `\(` with no `\)` held the GUI thread 23 s (each opener searched to the end).
    for opener in ("\\( ", "\\[ "):
        started = time.process_time()
        spans = find_maths(opener * 40_000 + "$x$")
        assert time.process_time() - started < 2.0
        assert [(span.start, span.latex) for span in spans] == [(len(opener) * 40_000, "x")]
