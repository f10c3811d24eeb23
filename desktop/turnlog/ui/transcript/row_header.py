"""A transcript row's header: the turn's number, the words after it (version steps, Use
this version, Regenerate …: the row's controls) and the mark's label on the right. In a
narrow list the words make room for the label ("version 2 of 2" reads "2/2"), and a label
that still does not fit is cut with "…" (or left out: the row's band keeps its colour),
so the two are never painted over each other."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyleOptionViewItem

from ..infra.languages import arg
from .marks import RowMark, incomplete_label
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
    for short in (False, True):  # the long words first; "2/2" when they leave no room
        x, controls = start, []
        for name, text in _words(index, version, replaced, last, incomplete, short):
            width = metrics.horizontalAdvance(text) + 8
            controls.append((name, text, QRect(x, header.top(), width, header.height())))
            x += width + 6
        if x - 6 <= room:
            break
    return controls


LABEL_GAP = 6  # pixels between the last header word and the mark's label


def _words(index: ModelIndex, version: tuple[int, int] | None, replaced: bool, last: bool,
           incomplete: str | None, short: bool) -> list[tuple[str, str]]:
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
        words.append(("continue", QCoreApplication.translate("TranscriptDelegate",
                                                             "→ Continue")))
    if last:
        words.append(("regenerate", QCoreApplication.translate("TranscriptDelegate",
                                                               "↻ Regenerate")))
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
