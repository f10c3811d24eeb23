"""The memory of a request as the inspector lists it: the share, then each optional item
kept or left out (and why), with its exact size."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from ...core.memory import ItemKind, MemorySelection, Reason
from ..infra.languages import arg

SHOWN_TEXT = 48  # characters of an item's text in the inspector's table
SHOWN_IN_LIST = 120  # … and in the panel's lists (the whole text in the tooltip)


def shortened(text: str, limit: int = SHOWN_TEXT) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


KINDS = {ItemKind.PREFERENCE: QT_TRANSLATE_NOOP("MemoryPanel", "preference"),
         ItemKind.NOTE: QT_TRANSLATE_NOOP("MemoryPanel", "note")}
REASONS = {
    Reason.KEPT: QT_TRANSLATE_NOOP("MemoryPanel", "kept"),
    Reason.TOO_LARGE: QT_TRANSLATE_NOOP("MemoryPanel", "larger than the memory share"),
    Reason.NO_ROOM: QT_TRANSLATE_NOOP("MemoryPanel",
                                      "no room: items of higher total priority fill the share"),
}


def reason_text(reason: Reason) -> str:
    return QCoreApplication.translate("MemoryPanel", REASONS[reason])


def memory_rows(selection: MemorySelection) -> list[tuple[str, int, int]]:
    """The inspector's rows for the memory of a request: the share, then each optional
    item kept or left out (and why), with its exact size."""
    if not selection.choices:
        return []
    how = (
        QCoreApplication.translate(
            "MemoryPanel", "approximate choice: greedy, beyond the bounds of the exact one"
        )
        if selection.approximate
        else QCoreApplication.translate("MemoryPanel", "exact choice")
    )
    rows = [
        (
            arg(QCoreApplication.translate("MemoryPanel", "memory share (%1)"), how),
            selection.limit.bytes,
            selection.limit.tokens,
        )
    ]
    for choice in selection.choices:
        state = (
            QCoreApplication.translate("MemoryPanel", "kept")
            if choice.kept
            else arg(
                QCoreApplication.translate("MemoryPanel", "left out, %1"),
                reason_text(choice.reason),
            )
        )
        rows.append(
            (
                arg(
                    QCoreApplication.translate("MemoryPanel", "%1 p%2 “%3”: %4"),
                    QCoreApplication.translate("MemoryPanel", KINDS[choice.item.kind]),
                    choice.item.priority,
                    shortened(choice.item.text),
                    state,
                ),
                choice.cost.bytes,
                choice.cost.tokens,
            )
        )
    return rows
