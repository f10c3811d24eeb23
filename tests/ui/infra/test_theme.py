"""Light, dark and the system's theme (View → Theme), remembered per data directory; the
colours Turnlog paints read at WCAG 4.5:1 or better against what they are painted on."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QMenu

from turnlog.ui.infra import theme
from turnlog.ui.infra.theme import (
    BANNER,
    CODE_TINT,
    SELECTION_ALPHA,
    banner_tint,
    contrast,
    is_dark,
    over,
    palette_for,
)
from turnlog.ui.infra.window_settings import window_settings
from turnlog.ui.transcript.marks import RowMark
from uihelpers import seed

pytest_plugins = ["uiwindow"]

Role = QPalette.ColorRole
MARK_NAMES = {RowMark.SENT: "sent", RowMark.SUMMARY: "in summary",
              RowMark.TO_SUMMARIZE: "to be summarized", RowMark.NOT_SENT: "not sent",
              RowMark.PENDING: "pending", RowMark.ASKED: "just asked",
              RowMark.REPLACED: "replaced"}


@pytest.fixture
def system_theme_after(qapp):
    yield
    QGuiApplication.styleHints().unsetColorScheme()
    qapp.setPalette(QPalette())


def theme_menu(window) -> QMenu:
    """View → Theme (View → Language follows it)."""
    return window.view_menu.findChild(QMenu, "themeMenu")


def pairs(dark: bool) -> list[tuple[str, QColor, str, QColor]]:
    """(what, its colour, on what, that colour) for every text colour Turnlog picks."""
    palette = palette_for(dark)
    base, window = palette.color(Role.Base), palette.color(Role.Window)
    highlight = QColor(palette.color(Role.Highlight))
    highlight.setAlpha(SELECTION_ALPHA)
    selected = over(highlight, base)
    found = []
    for mark, name in MARK_NAMES.items():
        colour = mark.color(palette)
        found += [(f"mark {name}", colour, "history", base),
                  (f"mark {name}", colour, "selected turn", selected),
                  (f"mark {name}", colour, "legend", window)]
    text = palette.color(Role.Text)
    found += [
        ("question text", text, "question box", palette.color(Role.AlternateBase)),
        ("code text", text, "code block", over(CODE_TINT, base)),
        ("turn header", palette.color(Role.PlaceholderText), "history", base),
        ("link", palette.color(Role.Link), "history", base),
        ("banner text", palette.color(Role.WindowText), "banner (note)",
         banner_tint(palette, mild=True)),
        ("banner text", palette.color(Role.WindowText), "banner (failure)",
         banner_tint(palette, mild=False)),
        ("window text", palette.color(Role.WindowText), "window", window),
        ("disabled text", palette.color(QPalette.ColorGroup.Disabled, Role.WindowText),
         "window", window),
    ]
    return found


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_painted_text_colour_reads_at_4_5_to_1(dark):
    rows = pairs(dark)
    print(f"\n{'dark' if dark else 'light'} theme — WCAG contrast")
    for what, colour, where, background in rows:
        print(f"  {what:28} {colour.name()} on {where:17} {background.name()}: "
              f"{contrast(colour, background):5.2f}:1")
    low = [(what, where, round(contrast(c, b), 2)) for what, c, where, b in rows
           if contrast(c, b) < 4.5]
    assert low == []


def test_the_contrast_formula_matches_wcag():
    assert contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    # The old light "not sent" grey failed on white; the theme's passes.
    assert contrast(QColor("#8c959f"), QColor("#ffffff")) < 4.5


def test_marks_and_banner_follow_the_theme_not_light_colours():
    light, dark = palette_for(False), palette_for(True)
    assert not is_dark(light) and is_dark(dark)
    for mark in RowMark:
        assert mark.color(light) != mark.color(dark)
        assert mark.color(dark).lightness() > mark.color(light).lightness()
    assert banner_tint(dark, mild=False) == QColor(BANNER["failure"][1])
    assert banner_tint(light, mild=True) == QColor(BANNER["mild"][0])


def test_view_theme_switches_and_is_remembered(qtbot, make_window, store, turnlog_home, qapp,
                                                system_theme_after):
    seed(store, "colours", [("Q", "A")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    _light, dark, system = theme_menu(window).actions()
    assert system.isChecked()  # a new user follows the system
    assert not is_dark(qapp.palette())

    dark.trigger()
    assert dark.isChecked() and not system.isChecked()
    assert is_dark(qapp.palette())
    qtbot.waitUntil(lambda: is_dark(window.view.palette()), timeout=3000)
    assert RowMark.SENT.color(window.view.palette()) == QColor(theme.MARKS["sent"][1])
    assert window_settings(turnlog_home).value("view/theme") == "dark"
    # The history is painted with the dark base, the marks in their dark colours.
    image = window.view.viewport().grab().toImage()
    corner = image.pixelColor(image.width() - 3, image.height() - 3)
    assert corner.lightness() < 60

    window.close()
    again = make_window()  # the next start, same data directory
    checked = [a.text().replace("&", "") for a in
               theme_menu(again).actions() if a.isChecked()]
    assert checked == ["Dark"] and is_dark(qapp.palette())

    light_action = theme_menu(again).actions()[0]
    light_action.trigger()
    assert not is_dark(qapp.palette())
    assert qapp.palette().color(Role.Base) == QColor("#ffffff")
    theme_menu(again).actions()[2].trigger()
    assert window_settings(turnlog_home).value("view/theme") == "system"


@pytest.mark.parametrize("size", [(480, 844), (1024, 600), (1280, 720)])
def test_the_legend_wraps_and_cuts_no_label(qtbot, make_window, size):
    from PySide6.QtWidgets import QLabel

    window = make_window(size=size)
    legend = window.legend
    qtbot.waitUntil(lambda: legend.width() > 0 and legend.isVisible(), timeout=3000)
    qtbot.wait(50)
    labels = legend.findChildren(QLabel)
    assert [label.text() for label in labels] == [m.label for m in legend.SHOWN]
    for label in labels:
        assert label.width() >= label.sizeHint().width(), label.text()
        right = label.mapTo(legend, label.rect().topRight()).x()
        assert right < legend.width(), label.text()
    rows = {label.mapTo(legend, label.rect().topLeft()).y() for label in labels}
    if size[0] == 480:
        assert len(rows) > 1  # wrapped
    if size[0] == 1280:
        assert len(rows) == 1  # one line where it fits


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_warning_and_problem_words_read_on_the_window_and_white_on_their_boxes(dark):
    palette = palette_for(dark)
    print(f"\n{'dark' if dark else 'light'} theme — words that warn, boxes with white words")
    rows = [(f"{name} words", theme.tone(name, palette), "window", palette.color(Role.Window))
            for name in theme.TONES]
    rows += [("white words", palette.color(Role.BrightText), box, QColor(colour))
             for box, colour in theme.BOXES.items()]
    for what, colour, where, background in rows:
        print(f"  {what:16} {colour.name()} on {where:17} {background.name()}: "
              f"{contrast(colour, background):5.2f}:1")
    assert [row[0] for row in rows if contrast(row[1], row[3]) < 4.5] == []


def test_warning_words_follow_a_theme_change(qtbot, make_window, qapp, system_theme_after):
    window = make_window()
    problem, warning = window.side.panel.problem, window.memory.panel.warning
    assert theme.TONES["error"][0] in problem.styleSheet()
    assert theme.TONES["warning"][0] in warning.styleSheet()
    theme_menu(window).actions()[1].trigger()  # View → Theme → Dark
    qtbot.waitUntil(lambda: theme.TONES["error"][1] in problem.styleSheet(), timeout=3000)
    assert theme.TONES["warning"][1] in warning.styleSheet()
