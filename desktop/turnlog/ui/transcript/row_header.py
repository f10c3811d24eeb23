"""A transcript row's header: the turn's number, the words after it (version steps, Use
this version, Regenerate …: the row's controls) and the mark's label on the right. In a
narrow list the words make room for the label ("version 2 of 2" reads "2/2", then
Continue and Regenerate show their icons alone, named in their tooltips, then the reason a
turn is incomplete is cut with "…"), and a label that still does not fit is cut with "…"
(or left out: the row's band keeps its colour), so the two are never painted over each
other and no word is cut short."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QHelpEvent, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QStyleOptionViewItem, QToolTip

from ..infra.languages import arg
from .marks import RowMark, button_name, incomplete_label
from .model import ModelIndex, Role

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

UNCLICKABLE = ("label", "incomplete")  # header words that only say something


def row_title(pending: bool, number: object) -> str:
    """A row's header: the turn's number, or that its question is being answered."""
    return translate("Transcript", "Question being answered") if pending \
        else turn_title(number)


def turn_title(number: object) -> str:
    """The header of a turn ("Turn 4"), as painted and as measured for its controls."""
    return arg(translate("Transcript", "Turn %1"), number)  # 1,317: as every number reads


def header_height(option: QStyleOptionViewItem) -> int:
    return option.fontMetrics.height() + 2


class _HeaderFonts(NamedTuple):
    """A header's font and the mark label's (its bold), each with its metrics."""

    font: QFont
    metrics: QFontMetrics
    label: QFont
    label_metrics: QFontMetrics


# Made once per list font (by `QFont.key`), not on every paint of every header: a font
# change (the theme, the zoom) has another key, and so fonts of its own.
_FONTS: dict[str, _HeaderFonts] = {}


def _fonts(option: QStyleOptionViewItem) -> _HeaderFonts:
    key = option.font.key()
    known = _FONTS.get(key)
    if known is None:
        font = QFont(option.font)
        font.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.9))
        label = QFont(font)
        label.setBold(True)
        if len(_FONTS) >= 8:  # fonts of the past: a few at most
            _FONTS.clear()
        known = _FONTS[key] = _HeaderFonts(font, QFontMetrics(font), label,
                                           QFontMetrics(label))
    return known


def header_font(option: QStyleOptionViewItem) -> QFont:
    return _fonts(option).font


def header_controls(option: QStyleOptionViewItem, index: ModelIndex, header: QRect
                    ) -> list[tuple[str, str, QRect]]:
    """The words after "Turn N" in a row's header at `header`, with where they are:
    ◀ version n of m ▶ for a turn with versions, *Use this version* on an older one of the
    newest turn ("use"), *Fork from here with this version* on an older one of a turn that
    later turns followed ("fork-version"), *Regenerate* on the newest turn (and *Continue*
    when it was kept incomplete); first, for a turn kept incomplete, why ("incomplete
    (stopped)"). "label" and "incomplete" are not clickable."""
    version = index.data(Role.VERSION)
    replaced = index.data(Role.MARK) is RowMark.REPLACED
    last = bool(index.data(Role.LAST)) and not replaced
    incomplete = index.data(Role.INCOMPLETE)
    if not version and not last and not incomplete:
        return []
    metrics = _fonts(option).metrics
    start = header.left() + metrics.horizontalAdvance(turn_title(index.data(Role.NUMBER))) + 14
    room = header.right() - _label_width(option, index) - LABEL_GAP
    controls: list[tuple[str, str, QRect]] = []
    for short in range(3):  # whole words; then "2/2"; then the icons alone (→, ↻)
        words = _words(index, version, replaced, last, incomplete, short)
        controls = _placed(metrics, start, header, words)
        if not controls or controls[-1][2].right() < room:
            return controls
    # Still too wide: the reason the turn is incomplete gives way, cut with "…".
    if incomplete and controls[0][0] == "incomplete":
        rest = controls[-1][2].right() - controls[0][2].right()
        cut = metrics.elidedText(words[0][1], Qt.TextElideMode.ElideRight,
                                 room - start - rest - 8)
        controls = _placed(metrics, start, header, [("incomplete", cut or "…"), *words[1:]])
    return controls


def _placed(metrics: QFontMetrics, x: int, header: QRect, words: list[tuple[str, str]]
            ) -> list[tuple[str, str, QRect]]:
    controls = []
    for name, text in words:
        width = metrics.horizontalAdvance(text) + 8
        controls.append((name, text, QRect(x, header.top(), width, header.height())))
        x += width + 6
    return controls


def control_tooltip(index: ModelIndex, name: str, text: str) -> str | None:
    """What a header word stands for when it is shown as an icon alone or cut with "…"
    (None when it is shown whole)."""
    if name in ICONS:
        return button_name(name) if text == ICONS[name] else None
    if name == "incomplete":
        whole = incomplete_label(index.data(Role.INCOMPLETE))
        return whole if text != whole else None
    return None


class HeaderTips(QObject):
    """Tooltips over the header words of `view`'s rows that show as an icon alone or cut
    with "…": what they stand for (`controls`: a row's header words, where they are)."""

    def __init__(self, view: QAbstractItemView, controls: Callable[
            [QStyleOptionViewItem, ModelIndex], list[tuple[str, str, QRect]]]) -> None:
        super().__init__(view)
        self._view, self._controls = view, controls
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        view = self._view
        index = view.indexAt(event.pos())
        if not index.isValid() or index.data(Role.PENDING):
            return False
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        option.rect = view.visualRect(index)
        for name, text, rect in self._controls(option, index):
            tip = control_tooltip(index, name, text) if rect.contains(event.pos()) else None
            if tip:
                QToolTip.showText(event.globalPos(), tip, view.viewport(), rect)
                return True
        return False


LABEL_GAP = 6  # pixels between the last header word and the mark's label


ICONS = {"continue": "→", "regenerate": "↻"}  # a control's icon, when its words do not fit


def _words(index: ModelIndex, version: tuple[int, int] | None, replaced: bool, last: bool,
           incomplete: str | None, short: int) -> list[tuple[str, str]]:
    """The header's words: whole (`short` 0), "2/2" for the version (1), and Continue and
    Regenerate as their icons alone (2)."""
    words = [("incomplete", incomplete_label(incomplete))] if incomplete else []
    if version:
        label = "{}/{}".format(*version) if short else QCoreApplication.translate(
            "TranscriptDelegate", "version {0} of {1}").format(*version)
        words += [("older", "◀"), ("label", label), ("newer", "▶")]
        if replaced and index.data(Role.FOLLOWED):
            words.append(("fork-version", QCoreApplication.translate(
                "TranscriptDelegate", "Fork from here with this version")))
        elif replaced:
            words.append(("use", QCoreApplication.translate("TranscriptDelegate",
                                                            "Use this version")))
    if last and incomplete:  # ask for the rest: a new version of this turn
        words.append(("continue", ICONS["continue"] if short > 1 else
                      QCoreApplication.translate("TranscriptDelegate", "→ Continue")))
    if last:
        words.append(("regenerate", ICONS["regenerate"] if short > 1 else
                      QCoreApplication.translate("TranscriptDelegate", "↻ Regenerate")))
    return words


def _label_width(option: QStyleOptionViewItem, index: ModelIndex) -> int:
    mark = index.data(Role.MARK)
    return _fonts(option).label_metrics.horizontalAdvance(mark.label) \
        if isinstance(mark, RowMark) else 0


def mark_label(option: QStyleOptionViewItem, index: ModelIndex, header: QRect,
               controls: list[tuple[str, str, QRect]]) -> tuple[str, QRect] | None:
    """The mark's label as painted at the right of `header`, after `controls`: its text
    (cut with "…" when the words leave too little room) and where; None without a mark
    or when not even a cut label fits."""
    mark = index.data(Role.MARK)
    if not isinstance(mark, RowMark):
        return None
    fonts = _fonts(option)
    title = fonts.metrics.horizontalAdvance(
        row_title(bool(index.data(Role.PENDING)), index.data(Role.NUMBER)))
    left = max((rect.right() + 1 + LABEL_GAP for _n, _t, rect in controls),
               default=header.left() + title + LABEL_GAP)
    metrics = fonts.label_metrics
    text = metrics.elidedText(mark.label, Qt.TextElideMode.ElideRight, header.right() + 1 - left)
    if not text or text == "…":
        return None
    width = metrics.horizontalAdvance(text)
    return text, QRect(header.right() + 1 - width, header.top(), width, header.height())


def draw_header(painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex,
                header: QRect, controls: list[tuple[str, str, QRect]]) -> None:
    """Turn number on the left, then `controls` (none on the row being answered), the
    mark's label on the right."""
    palette = option.palette
    font = header_font(option)
    painter.setFont(font)
    painter.setPen(palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText))
    pending = bool(index.data(Role.PENDING))
    painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                     row_title(pending, index.data(Role.NUMBER)))
    if not pending:
        _draw_controls(painter, palette, controls)
    mark = index.data(Role.MARK)
    label = mark_label(option, index, header, [] if pending else controls)
    if label is not None:
        painter.setFont(_fonts(option).label)
        painter.setPen(mark.color(palette))
        painter.drawText(label[1], Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         label[0])


def _draw_controls(painter: QPainter, palette: QPalette,
                   controls: list[tuple[str, str, QRect]]) -> None:
    # The font is the header's, set by `draw_header`.
    for name, text, rect in controls:
        role = QPalette.ColorRole.PlaceholderText if name == "label" \
            else QPalette.ColorRole.Link
        if name == "incomplete":  # a mark, not a link: in the text's colour
            role = QPalette.ColorRole.Text
        painter.setPen(palette.color(QPalette.ColorGroup.Active, role))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
