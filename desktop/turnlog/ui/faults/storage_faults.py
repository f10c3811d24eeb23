"""Storage faults in the running window: named in the inline banner with their hint
(never a pop-up over the composer). Before the first write the database is checked: the
whole file on a lane and connection of its own (`database.check_file`: seconds for a large
log read from disk, while the storage worker goes on reading), then a rolled-back write on
the storage worker; a damaged one turns Send off, and the banner offers Export what can be
read and Open the folder."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal

from ...core.failures import FailureKind, StoreError
from ...store import TurnlogStore
from ..conversation.banner import FailureBanner
from ..conversation.composer import Composer
from ..infra import failure_text, operations
from ..infra.changes import Changes
from ..infra.export_file import ExportTarget
from ..infra.folders import open_folder
from ..infra.tasks import TaskContext, TaskRunner

CHANGE_NOT_SAVED = QT_TRANSLATE_NOOP("StorageFaults", "The change could not be saved")
DAMAGED_SEND = QT_TRANSLATE_NOOP(
    "StorageFaults", "The database is damaged, so Send is off: nothing is written into it.")
EXPORT = QT_TRANSLATE_NOOP("StorageFaults", "Export what can be read…")
FOLDER = QT_TRANSLATE_NOOP("StorageFaults", "Open the folder")


class StorageFaults(QObject):
    """Shows storage faults in `banner`; a damaged database blocks `composer`'s Send.
    `swept` carries the `Changes` when the check removed conversations a first send left
    unanswered."""

    swept = Signal(object)

    def __init__(self, store: TurnlogStore, runner: TaskRunner, banner: FailureBanner,
                 composer: Composer, choose_export: Callable[[str], ExportTarget | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.runner, self.banner, self.composer = store, runner, banner, composer
        self.choose_export = choose_export
        self.exported = ""  # what the last Export what can be read said
        self.damage: StoreError | None = None

    def check(self) -> None:
        """Check the database before the first write: the whole file off the storage lane
        (writes wait for its verdict, reads do not), then the rest on the storage worker."""
        database = self.store.database
        if not database.writable:
            return

        def read_through(context: TaskContext) -> bool:
            return database.check_file(stop=lambda: context.cancel.cancelled)

        self.runner.run(TaskRunner.CHECK, "check the database file", read_through,
                        on_success=self._file_checked, on_failure=self.show)

    def _file_checked(self, finished: bool) -> None:
        if finished and not self.runner.closed:  # not stopped by the window's end
            operations.check_database(self.store).run(self.runner, on_success=self._swept,
                                                      on_failure=self.show)

    def _swept(self, swept: list[int]) -> None:
        if swept:
            self.swept.emit(Changes(deleted=frozenset(swept)))

    def show(self, error: BaseException) -> None:
        """Name a storage fault in the banner; anything else is a bug, for the crash report."""
        if not isinstance(error, StoreError):
            raise error
        from .startup import fault_words  # the start-up's words, loaded by the first fault

        title, message, hint = fault_words(
            error,
            default=QCoreApplication.translate("StorageFaults", CHANGE_NOT_SAVED)
            if error.kind is FailureKind.STORAGE
            else failure_text.title(error.failure()),
        )
        damaged = error.code == "storage_damaged"
        actions: list[tuple[str, Callable[[], object]]] = []
        if damaged:
            self.damage = error
            if "nothing will be written" not in message.lower():
                message += " " + QCoreApplication.translate("StorageFaults", "Nothing will be "
                    "written into it.")
            actions.append(
                (QCoreApplication.translate("StorageFaults", EXPORT), self.export_readable)
            )
            self.composer.hold(QCoreApplication.translate("StorageFaults", DAMAGED_SEND))
        if error.code.startswith("storage_"):
            actions.append(
                (
                    QCoreApplication.translate("StorageFaults", FOLDER),
                    lambda: open_folder(self.store.home),
                )
            )
        self.banner.show_fault(title, f"{message} {hint}".strip(), actions)

    def dismiss(self) -> None:
        """Clear the banner (another conversation opened); a damage stays on show."""
        if self.damage is None:
            self.banner.dismiss()
        elif self.banner.action(QCoreApplication.translate("StorageFaults", EXPORT)) is None:
            self.show(self.damage)

    def export_readable(self) -> None:
        """Everything that can be read, row by row, to a file the person picks (read and
        written on the storage worker); the banner says how many rows were skipped."""
        target = self.choose_export("turnlog readable")
        if target is None:
            return
        def done(words: str) -> None:
            self.exported = words
            self.banner.message.setText(f"{self.banner.message.text()}\n\n{words}")

        from .startup import export_salvage

        operations.export_readable(self.store.path, target, export_salvage).run(
            self.runner, on_success=done, on_failure=self.show)
