"""What a delete removes, counted in words: the confirmation before it and the note after it
say the same."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from .languages import arg, plural

if TYPE_CHECKING:  # the deletes themselves load with the first of them
    from ...store.deletion import DeletionCounts

translate = QCoreApplication.translate  # translate("Privacy", …): lupdate reads the context


def _n(text: str, count: int) -> str:
    return plural(QCoreApplication.translate("Privacy", text, None, count), count)


def counts_text(counts: DeletionCounts) -> str:
    """What a delete removes, counted, in the interface language."""
    parts = []
    if counts.conversations:
        parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n conversation(s)"), counts.conversations))
    parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n turn(s)"), counts.turns))
    summaries = _n(QT_TRANSLATE_NOOP("Privacy", "%n summary(s)"), counts.summaries)
    if counts.edited_summaries:
        summaries = arg(translate("Privacy", "%1 (%2)"), summaries, _n(QT_TRANSLATE_NOOP(
            "Privacy", "%n edited by you"), counts.edited_summaries))
    parts.append(summaries)
    parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n request record(s)"), counts.requests))
    if counts.pins:
        parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n pinned fact(s)"), counts.pins))
    if counts.side_questions:
        parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n side question(s)"),
                        counts.side_questions))
    if counts.files:
        parts.append(_n(QT_TRANSLATE_NOOP("Privacy", "%n attached file(s)"), counts.files))
    return translate("Privacy", ", ").join(parts)
