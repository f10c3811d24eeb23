"""File → Import… and File → Export all…: choose a file, watch a progress bar that can be
cancelled (the work runs on the storage worker; a cancelled import leaves nothing behind),
and read the report at the end."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, QStandardPaths, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPlainTextEdit,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.failures import StoreError
from ...store import TurnlogStore
from ..infra import operations
from ..infra.changes import ChangeHub, Changes
from ..infra.languages import arg, byte_size, number, plural
from ..infra.tasks import TaskHandle, TaskRunner

if TYPE_CHECKING:  # the importers, what they report, and the exporters are loaded by the
    # first import or export
    from ...core.imports import ImportOutcome
    from ...service.transfer import ExportedAll, Progress

log = logging.getLogger(__name__)
STEPS = 1000  # the progress bar counts in thousandths: a file may exceed a Qt int


def _documents() -> str:
    return QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation) or str(Path.home())


def progress_text(progress: Progress) -> str:
    """`Progress.describe` in the interface language."""
    done, total = progress.done, progress.total
    if progress.stage == "reading":
        return arg(QCoreApplication.translate("ImportExport", "Checking the file… %1 of %2"),
                   byte_size(done), byte_size(total))
    if progress.stage == "writing":
        return arg(QCoreApplication.translate("ImportExport", "Importing… %1 of %2 turns"),
                   done, total)
    return arg(QCoreApplication.translate("ImportExport", "Exporting… %1 of %2 conversations"),
               done, total)


def outcome_text(outcome: ImportOutcome) -> str:
    """`ImportOutcome.describe` in the interface language (a reason stays as the file's
    reader wrote it)."""
    where = (arg(QCoreApplication.translate("ImportExport", "conversation %1"), str(outcome.id))
             if outcome.id is not None
             else QCoreApplication.translate("ImportExport", "not imported"))
    line = arg(QCoreApplication.translate("ImportExport", "%1: %2 — %3 turns imported"),
               where, outcome.title, outcome.turns)
    if outcome.skipped:
        line += arg(QCoreApplication.translate("ImportExport", "; skipped: %1"),
                    "; ".join(f"{reason}: {number(count)}" for reason, count in outcome.skipped))
    return line


def choose_import_file(parent: QWidget) -> Path | None:
    name, _ = QFileDialog.getOpenFileName(
        parent, QCoreApplication.translate("ImportExport", "Import conversations"), _documents(),
        QCoreApplication.translate(
            "ImportExport", "Conversations (*.jsonl *.json *.zip);;All files (*)"))
    return Path(name) if name else None


def choose_export_target(parent: QWidget) -> Path | None:
    """A new folder, or a zip when that filter is chosen (or the name ends in .zip)."""
    default = str(Path(_documents()) / f"turnlog-export-{date.today().isoformat()}")
    name, chosen = QFileDialog.getSaveFileName(
        parent, QCoreApplication.translate("ImportExport", "Export all conversations"), default,
        QCoreApplication.translate("ImportExport", "Folder (*);;Zip archive (*.zip)"))
    if not name:
        return None
    path = Path(name)
    if "(*.zip)" in chosen and path.suffix.lower() != ".zip":
        path = path.with_name(path.name + ".zip")
    return path


def source_lines(outcomes: list[ImportOutcome]) -> list[str]:
    """What the source held besides its conversations that was not imported, the files
    it added to turns imported before, and the images a conversation imported before
    cannot get now, said plainly."""
    from ...core.imports import NOT_ATTACHED, ImportReport

    if not isinstance(outcomes, ImportReport):
        return []
    lines = [arg(QCoreApplication.translate("ImportExport", "not imported: %1: %2"),
                 reason, number(count)) for reason, count in outcomes.skipped]
    added = sum(o.added for o in outcomes)
    if added:  # a richer form of an export imported before
        turns = sum(o.added_turns for o in outcomes)
        lines.append(arg(
            QCoreApplication.translate("ImportExport",
                                       "attached %1 to %2 (marked as added by import)"),
            plural(QCoreApplication.translate("ImportExport", "%n file(s)", None, added),
                   added),
            plural(QCoreApplication.translate("ImportExport", "%n earlier imported turn(s)",
                                              None, turns), turns)))
    missing = outcomes.totals().get(NOT_ATTACHED, 0)
    if missing:
        lines.append(arg(QCoreApplication.translate(
            "ImportExport", "%1 images not attached: these conversations changed since they "
            "were imported (delete them and import the .zip again to have their "
            "images)."), number(missing)))
    # Each assistant a project became, with its system prompt as written: seen before use.
    lines.extend(line for project in outcomes.projects
                 for line in project.describe().splitlines())
    return lines


def already_imported(outcomes: list[ImportOutcome]) -> bool:
    """Whether a Turnlog file's conversations were found stored already (then the report
    offers to import them as copies)."""
    from ...core.imports import ImportReport

    return isinstance(outcomes, ImportReport) and outcomes.source.startswith("Turnlog") \
        and any(reason.startswith("already imported") for o in outcomes for reason, _n in
                o.skipped)


class ReportDialog(QDialog):
    """What an import or export did, conversation by conversation."""

    def __init__(self, title: str, summary: str, lines: list[str], parent: QWidget,
                 again: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("transferReport")
        layout = QVBoxLayout(self)
        self.summary = QLabel(summary, self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        self.details = QPlainTextEdit("\n".join(lines), self)
        self.details.setReadOnly(True)
        self.details.setVisible(bool(lines))
        layout.addWidget(self.details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        self.as_copies: QPushButton | None = None
        if again is not None:  # what was stored already, added again as new conversations
            self.as_copies = buttons.addButton(QCoreApplication.translate(
                "ImportExport", "Import as copies"), QDialogButtonBox.ButtonRole.ActionRole)
            self.as_copies.clicked.connect(self.close)
            self.as_copies.clicked.connect(again)
        layout.addWidget(buttons)
        self.resize(560, 320 if lines else 140)


class ImportExport(QObject):
    """Runs imports and exports for the window. The conversations an import added are
    announced on `changes` (the change bus); `fault` gets errors that are not about the
    file (a full disk, or a bug for the crash report)."""

    finished = Signal(object)  # the ReportDialog shown at the end

    def __init__(self, store: TurnlogStore, runner: TaskRunner, parent: QWidget,
                 changes: ChangeHub, fault: Callable[[BaseException], None]) -> None:
        super().__init__(parent)
        self._store, self._runner, self._parent = store, runner, parent
        self._changes, self._fault = changes, fault
        self.choose_import: Callable[[], Path | None] = lambda: choose_import_file(parent)
        self.choose_export: Callable[[], Path | None] = lambda: choose_export_target(parent)
        self.progress: QProgressDialog | None = None
        self.report: ReportDialog | None = None
        self.handle: TaskHandle[object] | None = None

    @property
    def busy(self) -> bool:
        return self.handle is not None and not self.handle.done

    def import_file(self) -> None:
        if self.busy:
            return
        path = self.choose_import()
        if path is not None:
            self._import(path)

    def _import(self, path: Path, as_copies: bool = False) -> None:
        if self.busy:
            return
        self._start(
            QCoreApplication.translate("ImportExport", "Importing"),
            arg(QCoreApplication.translate("ImportExport", "Checking %1…"), path.name),
            operations.import_from_file(self._store, path, as_copies=as_copies),
            lambda outcomes: self._imported(path, outcomes),
            lambda error: self._failed("Import", path, error),
        )

    def export_all(self) -> None:
        if self.busy:
            return
        target = self.choose_export()
        if target is None:
            return

        self._start(
            QCoreApplication.translate("ImportExport", "Exporting"),
            QCoreApplication.translate("ImportExport", "Exporting…"),
            operations.export_all(self._store, target),
            self._exported,
            lambda error: self._failed("Export", target, error),
        )

    def _start(self, title: str, label: str, op: operations.LongStorageOp[Any],
               done: Callable[..., None], failed: Callable[[BaseException], None]) -> None:
        progress = QProgressDialog(label, QCoreApplication.translate(
            "ImportExport", "Cancel"), 0, STEPS, self._parent)
        progress.setObjectName("transferProgress")
        progress.setWindowTitle(title)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        progress.setMinimumDuration(0)
        progress.setValue(0)
        self.progress = progress
        self.handle = op.run(self._runner, on_success=done, on_failure=failed,
                             on_progress=self._progressed)
        progress.canceled.connect(self.handle.cancel)
        progress.show()

    def _progressed(self, value: object) -> None:
        from ...service.transfer import Progress  # loaded by the transfer under way

        if self.progress is None or not isinstance(value, Progress):
            return
        self.progress.setLabelText(progress_text(value))
        self.progress.setValue(min(STEPS, value.done * STEPS // value.total)
                               if value.total else 0)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.canceled.disconnect()
            self.progress.close()
            self.progress.deleteLater()
            self.progress = None

    def _show(self, title: str, summary: str, lines: list[str],
              again: Callable[[], None] | None = None) -> None:
        self.report = ReportDialog(title, summary, lines, self._parent, again)
        self.report.show()
        self.finished.emit(self.report)

    def _imported(self, path: Path, outcomes: list[ImportOutcome]) -> None:
        self._close_progress()
        turns = sum(o.turns for o in outcomes)
        stored = sum(1 for o in outcomes if o.id is not None and o.turns)
        read = len(outcomes)
        added = frozenset(o.id for o in outcomes if o.id is not None and o.turns)
        if added:
            operations.announce(self._changes, Changes(imported=added), self)
        self._show(
            QCoreApplication.translate("ImportExport", "Import finished"),
            arg(
                plural(
                    QCoreApplication.translate(
                        "ImportExport",
                        "%1: %n conversation(s) read; %2 turns imported into %3 conversations.",
                        None,
                        read,
                    ),
                    read,
                ),
                path.name,
                turns,
                stored,
            ),
            [outcome_text(o) for o in outcomes] + source_lines(outcomes),
            (lambda: self._import(path, as_copies=True)) if already_imported(outcomes)
            else None,
        )

    def _exported(self, done: ExportedAll) -> None:
        self._close_progress()
        conversations = done.conversations
        self._show(
            QCoreApplication.translate("ImportExport", "Export finished"),
            arg(
                plural(
                    QCoreApplication.translate(
                        "ImportExport",
                        "Exported %n conversation(s) (%1 turns) to %2: a "
                        "JSON-lines file (File → Import… reads it back) and a Markdown file for "
                        "each.",
                        None,
                        conversations,
                    ),
                    conversations,
                ),
                done.turns,
                done.path,
            ),
            [],
        )

    def _failed(self, what: str, path: Path, error: BaseException) -> None:
        self._close_progress()
        from ...core.imports import ImportCancelled, ImportProblem

        importing = what == "Import"
        if isinstance(error, ImportCancelled):
            self._show(
                QCoreApplication.translate("ImportExport", "Import cancelled")
                if importing
                else QCoreApplication.translate("ImportExport", "Export cancelled"),
                QCoreApplication.translate(
                    "ImportExport", "Import cancelled: nothing was imported."
                )
                if importing
                else QCoreApplication.translate(
                    "ImportExport", "Export cancelled: nothing was written."
                ),
                [],
            )
        elif isinstance(error, ImportProblem | OSError) and not isinstance(error, StoreError):
            self._show(
                QCoreApplication.translate("ImportExport", "Import failed")
                if importing
                else QCoreApplication.translate("ImportExport", "Export failed"),
                arg(
                    QCoreApplication.translate(
                        "ImportExport", "Could not import %1: %2. Nothing was imported."
                    )
                    if importing
                    else QCoreApplication.translate(
                        "ImportExport", "Could not export %1: %2. Nothing was written."
                    ),
                    path.name,
                    error,
                ),
                [],
            )
        else:
            self._fault(error)  # the log's own fault, inline; anything else is a bug
