"""Light, dark or the system's colours (View → Theme), remembered with the window's other
settings, and the few colours Turnlog paints itself — the marks, the banner's tint, the
boxes behind questions and code — taken from the theme in use.

A chosen theme sets the colour scheme hint (so the style and the platform follow where
they can) and a palette whose colours are known here, so a test can compute the contrast
of every mark against the background it is painted on.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

THEME_KEY = "view/theme"


class Theme(enum.Enum):
    LIGHT = "light"
    DARK = "dark"
    SYSTEM = "system"


Role = QPalette.ColorRole
Group = QPalette.ColorGroup

# (light, dark) — the colours a theme paints with. Every text colour here reads at 4.5:1
# or more against the background it sits on (tests/ui/infra/test_theme.py computes it).
_BASE = {
    Role.Window: ("#efefef", "#232427"),
    Role.WindowText: ("#1f2328", "#e6e6e6"),
    Role.Base: ("#ffffff", "#1b1c1f"),
    Role.AlternateBase: ("#f3f4f6", "#2a2c30"),
    Role.Text: ("#1f2328", "#e6e6e6"),
    Role.Button: ("#efefef", "#2e3034"),
    Role.ButtonText: ("#1f2328", "#e6e6e6"),
    Role.BrightText: ("#ffffff", "#ffffff"),
    Role.Highlight: ("#308cc6", "#3d7fd9"),
    Role.HighlightedText: ("#ffffff", "#ffffff"),
    Role.Link: ("#0550ae", "#7cb7ff"),
    Role.LinkVisited: ("#6639ba", "#bc8cff"),
    Role.PlaceholderText: ("#595e63", "#a0a4a8"),
    Role.ToolTipBase: ("#ffffdc", "#2e3034"),
    Role.ToolTipText: ("#1f2328", "#e6e6e6"),
    Role.Light: ("#ffffff", "#45474c"),
    Role.Midlight: ("#e3e3e3", "#36383c"),
    Role.Mid: ("#a0a0a0", "#26282b"),
    Role.Dark: ("#9f9f9f", "#151618"),
    Role.Shadow: ("#767676", "#000000"),
}
_DISABLED = {
    Role.WindowText: ("#5f6770", "#8b9096"),
    Role.Text: ("#5f6770", "#8b9096"),
    Role.ButtonText: ("#5f6770", "#8b9096"),
    Role.Highlight: ("#919191", "#55575c"),
}

# Mark colours by name (the marks' own values): the label is drawn in it beside each turn.
MARKS = {
    "sent": ("#116329", "#3fb950"),
    "summary": ("#0550ae", "#58a6ff"),
    "to_summarize": ("#6639ba", "#bc8cff"),
    "not_sent": ("#57606a", "#9198a1"),
    "pending": ("#7d4e00", "#d29922"),
    "asked": ("#116329", "#3fb950"),
    "replaced": ("#a40e26", "#ff7b72"),
}
# The failure banner's background: mild (a note) and a failure.
BANNER = {"mild": ("#eaeef2", "#2d333b"), "failure": ("#ffebe9", "#4a2125")}
# Words that warn (a summary that dropped facts) or name a problem (a network setting, a
# failed side question), drawn on the window's background.
TONES = {"warning": ("#8a4b00", "#f0a35e"), "error": ("#b42318", "#ff8a80")}
# Fixed boxes with bright (white) words: Settings' problem line, the inspector's warning.
BOXES = {"settings problem": "#b42318", "summary warning": "#b35900"}
# Behind a code block: grey at this alpha over the base, on light and dark alike.
CODE_TINT = QColor(127, 127, 127, 38)
SELECTION_ALPHA = 40  # a selected turn: the highlight over the base


def is_dark(palette: QPalette) -> bool:
    return palette.color(Role.Window).lightness() < 128


def _pick(pair: tuple[str, str], palette: QPalette) -> QColor:
    return QColor(pair[1] if is_dark(palette) else pair[0])


def mark_colour(name: str, palette: QPalette) -> QColor:
    """The colour of mark `name` ("sent", "summary" …) in `palette`'s theme."""
    return _pick(MARKS[name], palette)


def banner_tint(palette: QPalette, *, mild: bool) -> QColor:
    """Behind the failure banner (told light or dark by the base: the banner's own window
    colour is the tint)."""
    dark = palette.color(Role.Base).lightness() < 128
    return QColor(BANNER["mild" if mild else "failure"][1 if dark else 0])


def tone(name: str, palette: QPalette) -> QColor:
    """The colour of words that warn ("warning") or name a problem ("error")."""
    return _pick(TONES[name], palette)


class _Toned(QObject):
    """Keeps a label's words in a tone of the theme in use, across theme changes."""

    def __init__(self, label: QWidget, name: str) -> None:
        super().__init__(label)
        self.label, self.name = label, name
        # Qt hands a palette change on to the children without a style sheet only: watch
        # the label's parent.
        (label.parentWidget() or label).installEventFilter(self)
        self.apply()

    def apply(self) -> None:
        sheet = f"color: {tone(self.name, QGuiApplication.palette()).name()};"
        if self.label.styleSheet() != sheet:  # (setting it changes the palette again)
            self.label.setStyleSheet(sheet)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self.apply()
        return False


def tone_text(label: QWidget, name: str) -> None:
    """Draw `label`'s words in tone `name` ("warning", "error") of the theme in use."""
    _Toned(label, name)


def palette_for(dark: bool) -> QPalette:
    """The palette of the light or the dark theme."""
    palette = QPalette()
    side = 1 if dark else 0
    for role, pair in _BASE.items():
        palette.setColor(role, QColor(pair[side]))
    for role, pair in _DISABLED.items():
        palette.setColor(Group.Disabled, role, QColor(pair[side]))
    return palette


def over(top: QColor, bottom: QColor) -> QColor:
    """`top` (with its alpha) painted over the opaque `bottom`."""
    alpha = top.alphaF()
    return QColor.fromRgbF(*(t * alpha + b * (1 - alpha) for t, b in (
        (top.redF(), bottom.redF()), (top.greenF(), bottom.greenF()),
        (top.blueF(), bottom.blueF()))))


def _luminance(colour: QColor) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF())
            + 0.0722 * linear(colour.blueF()))


def contrast(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio of two opaque colours (1 … 21)."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def saved_theme(settings: QSettings) -> Theme:
    try:
        return Theme(str(settings.value(THEME_KEY, Theme.SYSTEM.value)))
    except ValueError:
        return Theme.SYSTEM


class ThemeSwitch(QObject):
    """Applies a theme to the application and remembers it in `settings`. Following the
    system, a change of the system's colour scheme is followed too."""

    def __init__(self, settings: QSettings, parent: QObject | None = None,
                 on_change: Callable[[Theme], None] | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.theme = saved_theme(settings)
        self._on_change = on_change
        app = QGuiApplication.instance()
        assert isinstance(app, QGuiApplication)
        self._app = app
        app.styleHints().colorSchemeChanged.connect(self._system_changed)

    def choose(self, theme: Theme) -> None:
        """Switch to `theme` now and remember it."""
        self.theme = theme
        self.settings.setValue(THEME_KEY, theme.value)
        self.apply()
        if self._on_change is not None:
            self._on_change(theme)

    def apply(self) -> None:
        hints = self._app.styleHints()
        if self.theme is Theme.SYSTEM:
            hints.unsetColorScheme()
            palette = QPalette()  # resolves to the platform's own
            self._app.setPalette(palette)  # type: ignore[attr-defined]
            if hints.colorScheme() != Qt.ColorScheme.Dark or is_dark(self._app.palette()):
                return
            palette = palette_for(True)  # the platform said dark but gave no palette
        else:
            dark = self.theme is Theme.DARK
            hints.setColorScheme(Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light)
            palette = palette_for(dark)
        self._app.setPalette(palette)  # type: ignore[attr-defined]

    def _system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.theme is Theme.SYSTEM:
            self.apply()
