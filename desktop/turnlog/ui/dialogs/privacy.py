"""Deleting and exporting history from the window: the confirmation that names exactly
what goes, and the export target a person picks.

Both are plain callables the window holds (`MainWindow.confirm`,
`MainWindow.choose_export`), so a caller can answer them without a modal dialog.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QStandardPaths
from PySide6.QtWidgets import QCheckBox, QFileDialog, QMessageBox, QWidget

from ..infra.deletion_text import counts_text
from ..infra.export_file import ExportTarget
from ..infra.languages import arg, plural

if TYPE_CHECKING:  # the deletes themselves load with the first of them
    from ...store.deletion import DeletionCounts

DELETE_DETAIL = QT_TRANSLATE_NOOP(
    "Privacy", "The text is erased from the disk, not only hidden: it cannot be brought "
    "back. Export first if you want a copy.")


translate = QCoreApplication.translate  # translate("Privacy", …): lupdate reads the context


def _tr(text: str) -> str:
    return QCoreApplication.translate("Privacy", text)


def _n(text: str, count: int) -> str:
    return plural(QCoreApplication.translate("Privacy", text, None, count), count)


# Save-dialog filters per export format, and the file suffix each writes.
EXPORT_FILTERS = {"markdown": QT_TRANSLATE_NOOP("Privacy", "Markdown (*.md)"),
                  "jsonl": QT_TRANSLATE_NOOP("Privacy", "JSON lines (*.jsonl)")}
EXPORT_SUFFIXES = {"markdown": ".md", "jsonl": ".jsonl"}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A question before a destructive step. `option`, when set, is a checkbox offered
    with it (e.g. also removing the API keys)."""

    title: str
    text: str
    detail: str
    action: str
    option: str = ""
    option_checked: bool = False  # the checkbox's state when asked


@dataclass(frozen=True, slots=True)
class Decision:
    accepted: bool
    option: bool = False
    other: bool = False  # accepted through a `Scoped` question's `here`


@dataclass(frozen=True, slots=True)
class Scoped:
    """A delete asked of a data directory that syncs: `question`'s action deletes on every
    machine, `here` (a second button) on this machine only."""

    question: Confirmation
    here: str


def with_scope(confirmation: Confirmation) -> Scoped:
    """The same delete asked of a data directory that syncs: *Everywhere* (on every machine
    the next syncs reach) or *On this machine only* (the text stays elsewhere)."""
    return Scoped(replace(
        confirmation,
        detail=confirmation.detail + " " + translate(
            "Privacy", "This history syncs with your other machines. Everywhere: each of "
            "them deletes it at its next sync. On this machine only: the text still exists "
            "on your other machines and in the sync storage."),
        action=translate("Privacy", "Delete everywhere")),
        translate("Privacy", "On this machine only"))


def delete_conversation_question(title: str, counts: DeletionCounts,
                                 forks: Sequence[str] = ()) -> Confirmation:
    """With `forks` (their titles): offers to delete the forks holding copies of its turns."""
    option = ""
    if forks:
        n = len(forks)
        option = arg(_n(QT_TRANSLATE_NOOP(
            "Privacy", "Also delete the %n fork(s) holding copies of its turns (%1)"), n),
            translate("Privacy", ", ").join(f"“{t}”" for t in forks))
    return Confirmation(
        translate("Privacy", "Delete conversation"),
        arg(translate("Privacy", "Delete “%1”? This removes %2."), title, counts_text(counts)),
        _tr(DELETE_DETAIL),
        translate("Privacy", "Delete"),
        option,
    )


def delete_turn_question(number: int, counts: DeletionCounts,
                         versions: int = 1) -> Confirmation:
    """A turn with `versions` (regenerated, edited) offers to delete the others too, checked;
    a turn alone that facts were pinned from offers to keep them as typed (unchecked: they
    go with it)."""
    option = ""
    if versions > 1:
        others = versions - 1
        option = arg(_n(QT_TRANSLATE_NOOP(
            "Privacy", "Also delete its %n other version(s) (with them: %1)"), others),
            counts_text(counts))
    elif counts.pins:
        option = _n(QT_TRANSLATE_NOOP(
            "Privacy", "Keep the %n pinned fact(s) taken from it, as typed"), counts.pins)
    return Confirmation(
        translate("Privacy", "Delete turn"),
        arg(
            translate("Privacy", "Delete turn %1? This removes %2."),
            number,
            translate("Privacy", "this version") if versions > 1 else counts_text(counts),
        ),
        translate(
            "Privacy",
            "Summaries that include it go too (the next send makes a new one), and Turnlog's "
            "notes of the requests that carried it no longer name it. The other turns keep "
            "their numbers.",
        )
        + _edited_summary_goes(counts)
        + " "
        + _tr(DELETE_DETAIL),
        translate("Privacy", "Delete"),
        option,
        option_checked=versions > 1,
    )


def _edited_summary_goes(counts: DeletionCounts) -> str:
    """The words that say a summary the user rewrote goes with the turn (or "")."""
    if not counts.edited_summaries:
        return ""
    return " " + translate(
        "Privacy", "The summary you edited includes it: your text goes with it, and its "
        "earlier versions too.")


def forget_summaries_question(earlier: int) -> Confirmation:
    """Before *Forget earlier versions* of a conversation's summary (`earlier` of them)."""
    return Confirmation(
        translate("Privacy", "Forget earlier versions"),
        _n(QT_TRANSLATE_NOOP("Privacy", "Forget the %n earlier version(s) of this summary?"),
           earlier),
        translate("Privacy", "Only the summary in use stays. Texts you edited away go too, "
                  "and the requests that carried them can no longer be rebuilt or "
                  "verified.") + " " + _tr(DELETE_DETAIL),
        translate("Privacy", "Forget"),
    )


def delete_pins_question(count: int) -> Confirmation:
    """Asked after deleting a turn with other versions that facts were pinned from (its
    one checkbox is about the versions): yes deletes the pins with it, no keeps them as
    typed."""
    return Confirmation(
        translate("Privacy", "Delete pinned facts too?"),
        _n(
            QT_TRANSLATE_NOOP("Privacy", "Also delete the %n pinned fact(s) taken from this turn?"),
            count,
        ),
        translate(
            "Privacy",
            "Pinned facts are sent word for word with every request of this conversation. "
            "Keep them to go on sending them, as typed (with no source turn).",
        ),
        translate("Privacy", "Delete pinned facts"),
    )


def delete_preferences_question(count: int) -> Confirmation:
    """Asked after Delete all history: preferences are not history, so they stay unless
    the person says so."""
    return Confirmation(
        translate("Privacy", "Delete preferences too?"),
        _n(
            QT_TRANSLATE_NOOP(
                "Privacy", "Also delete the %n preference(s) used in every conversation?"
            ),
            count,
        ),
        translate(
            "Privacy",
            "Preferences are statements you confirmed (“answer in Chinese”); they are not "
            "part of any conversation. Keep them to use them in new conversations.",
        ),
        translate("Privacy", "Delete preferences"),
    )


def delete_usage_question() -> Confirmation:
    """Asked after Delete all history: the daily usage totals are numbers only (no text,
    no ids), kept so deleted conversations' spend still counts, unless the person says so."""
    return Confirmation(
        translate("Privacy", "Clear the usage totals too?"),
        translate("Privacy", "Also clear the daily usage totals (tokens and cost per day, "
                  "profile and model)?"),
        translate("Privacy", "They hold numbers only, no text of any conversation; keep them "
                  "to see what was spent (View → Usage)."),
        translate("Privacy", "Clear totals"))


NAMED_PROFILES = 3  # named in the offer to remove keys; the rest counted


def delete_all_question(counts: DeletionCounts, profile_names: Sequence[str],
                        key_backend: str | None) -> Confirmation:
    """Offers to remove the API keys of the profiles named too, when there are any, from
    `key_backend` (None: the keys are only in memory, for this session)."""
    option = ""
    if profile_names:
        n = len(profile_names)
        names = translate("Privacy", ", ").join(profile_names[:NAMED_PROFILES])
        if n > NAMED_PROFILES:  # a line, not a list: the check box does not wrap
            names = arg(_n(QT_TRANSLATE_NOOP("Privacy", "%1 and %n more"),
                           n - NAMED_PROFILES), names)
        option = arg(_n(QT_TRANSLATE_NOOP(
            "Privacy", "Also remove the API keys of %n provider profile(s) (%1) from %2"), n),
            names, key_backend) if key_backend is not None else arg(_n(QT_TRANSLATE_NOOP(
                "Privacy", "Also forget the API keys of %n provider profile(s) (%1), which "
                "Turnlog keeps in memory until it quits"), n), names)
    return Confirmation(
        translate("Privacy", "Delete all history"),
        arg(translate("Privacy", "Delete all history? This removes %1."), counts_text(counts)),
        translate(
            "Privacy",
            "Every conversation goes, with its summaries and Turnlog's notes of its requests; "
            "then the file they were kept in is rewritten, so nothing of them is left in it.",
        )
        + " "
        + _tr(DELETE_DETAIL),
        translate("Privacy", "Delete everything"),
        option,
    )


def ask(parent: QWidget, asked: Confirmation | Scoped) -> Decision:
    """Ask with a message box; Cancel is the default button."""
    confirmation = asked.question if isinstance(asked, Scoped) else asked
    box = QMessageBox(QMessageBox.Icon.Warning, confirmation.title, confirmation.text,
                      QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText(confirmation.detail)
    go = box.addButton(confirmation.action, QMessageBox.ButtonRole.DestructiveRole)
    other = box.addButton(asked.here, QMessageBox.ButtonRole.DestructiveRole) \
        if isinstance(asked, Scoped) else None
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    check: QCheckBox | None = None
    if confirmation.option:
        check = QCheckBox(confirmation.option, box)
        check.setChecked(confirmation.option_checked)
        # A check box does not wrap: the box widens to show its words whole (within the
        # screen) instead of cutting them.
        screen = (parent.screen() if parent is not None else box.screen()).availableSize()
        check.setMinimumWidth(min(check.sizeHint().width(), screen.width() * 9 // 10))
        box.setCheckBox(check)
    box.exec()
    clicked = box.clickedButton()
    return Decision(clicked is go or (other is not None and clicked is other),
                    bool(check is not None and check.isChecked()),
                    other is not None and clicked is other)


def safe_file_name(title: str) -> str:
    """A file name from a conversation title: path separators and control characters go."""
    name = "".join("-" if ch in '/\\:*?"<>|' or ord(ch) < 32 else ch for ch in title).strip()
    return name.strip(".") or "conversation"


def choose_export(parent: QWidget, title: str) -> ExportTarget | None:
    """Ask where to export and in which format (the filter chosen, or the file's suffix)."""
    folder = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation) or str(Path.home())
    suggested = str(Path(folder) / (safe_file_name(title) + EXPORT_SUFFIXES["markdown"]))
    path, chosen = QFileDialog.getSaveFileName(
        parent, translate("Privacy", "Export conversation"), suggested,
        ";;".join(_tr(f) for f in EXPORT_FILTERS.values()), _tr(EXPORT_FILTERS["markdown"]))
    if not path:
        return None
    return export_target(Path(path), chosen)


def export_target(path: Path, chosen_filter: str) -> ExportTarget:
    """The format the suffix names, else the chosen filter's; the suffix is added if missing."""
    by_suffix = {suffix: fmt for fmt, suffix in EXPORT_SUFFIXES.items()}
    fmt = by_suffix.get(path.suffix.lower())
    if fmt is None:
        fmt = next((f for f, flt in EXPORT_FILTERS.items()
                    if chosen_filter in (flt, _tr(flt))), "markdown")
        path = path.with_name(path.name + EXPORT_SUFFIXES[fmt])
    return ExportTarget(path, fmt)
