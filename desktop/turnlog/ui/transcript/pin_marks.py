"""Pinned words in the transcript: underlined in the turn they were taken from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

PINS_PROPERTY = "turnlogPins"  # what a document was underlined for


def underline_pins(documents: Iterable[QTextDocument], pins: Sequence[str]) -> None:
    """Underline every occurrence of each pinned text in `documents` (once per set of
    pins: a document remembers what it was underlined for)."""
    if not pins:
        return
    wanted = "\n\x00".join(pins)
    underline = QTextCharFormat()
    underline.setFontUnderline(True)
    for doc in documents:
        if (doc.property(PINS_PROPERTY) or "") == wanted:
            continue
        doc.setProperty(PINS_PROPERTY, wanted)
        for pin in pins:
            for line in (part.strip() for part in pin.splitlines()):
                cursor = doc.find(line) if line else QTextCursor()
                while not cursor.isNull():
                    cursor.mergeCharFormat(underline)
                    cursor = doc.find(line, cursor)


def pins_tooltip(pins: Sequence[str]) -> str:
    return "\n".join(QCoreApplication.translate("PinMarks", "Pinned: “%1”").replace("%1", pin)
                     for pin in pins)
