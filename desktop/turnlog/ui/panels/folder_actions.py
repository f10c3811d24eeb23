"""What a person asks of the sidebar's folders and chosen conversations — a new folder,
a folder renamed or deleted, conversations moved, starred or deleted several at once —
run as named storage operations on the storage worker, then announced as `Changes`
(every view refreshes from those). A delete asks first, with what it removes counted on
the worker."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from ...core.failures import StoreError
from ...core.model import Conversation, Folder
from ...store.errors import FolderNameRefused
from ..dialogs.privacy import DELETE_DETAIL, Confirmation, Decision, with_scope
from ..infra import sync_operations
from ..infra.changes import Changes
from ..infra.deletion_text import counts_text
from ..infra.folder_operations import (
    add_folder,
    count_deletion,
    count_folder,
    delete_conversations,
    delete_folder,
    move_conversations,
    rename_folder,
    star_conversations,
)
from ..infra.languages import arg, plural
from ..infra.open_log import OpenLog
from ..infra.operations import StorageOp
from ..request.send_session import SendSession
from .sidebar import Sidebar

if TYPE_CHECKING:  # the deletes themselves load with the first of them
    from ...store.deletion import DeletionCounts

log = logging.getLogger(__name__)

translate = QCoreApplication.translate  # translate("Sidebar", …): lupdate reads the context


# ------------------------------------------------------------------- questions
def delete_several_question(count: int, counts: DeletionCounts) -> Confirmation:
    return Confirmation(
        translate("Sidebar", "Delete conversations"),
        arg(plural(translate("Sidebar", "Delete %n conversation(s)? This removes %1.", None,
                             count), count), counts_text(counts)),
        QCoreApplication.translate("Privacy", DELETE_DETAIL), translate("Sidebar", "Delete"))


def delete_folder_question(folder: Folder, counts: DeletionCounts) -> Confirmation:
    """Deleting a folder moves its conversations out; the option deletes them too."""
    n = counts.conversations
    option = arg(plural(translate("Sidebar", "Also delete its %n conversation(s), erased "
                                  "from the disk: %1", None, n), n), counts_text(counts)) \
        if n else ""
    detail = QCoreApplication.translate("Privacy", DELETE_DETAIL) if n else ""
    return Confirmation(
        translate("Sidebar", "Delete folder"),
        arg(plural(translate("Sidebar", "Delete the folder “%1”? Its %n conversation(s) "
                             "move out of it.", None, n), n), folder.name),
        detail, translate("Sidebar", "Delete folder"), option)


@dataclass(frozen=True, slots=True)
class FolderParts:
    """What the folder actions work with: storage, its lane, the change bus and the open
    conversation (`log`), the question before a delete, the send session (a delete stops
    a send into what goes), and the sidebar whose folder list they keep current."""

    log: OpenLog
    confirm: Callable[[Confirmation], Decision]
    session: SendSession
    sidebar: Sidebar


class FolderActions(QObject):
    """Runs what the sidebar asks; `window` parents the name dialogs. Keeps the sidebar's
    folder list as stored (read at once: a few short rows) whenever the change bus says
    folders or the conversations in them changed."""

    closing = Signal()  # the open conversation is about to be deleted: show none of it
    problem = Signal(str, str)  # (title, message) for the banner: a name refused
    failed = Signal(object)  # a storage operation failed (the exception)

    def __init__(self, parts: FolderParts, window: QWidget) -> None:
        super().__init__(window)
        self._store, self._runner = parts.log.store, parts.log.runner
        self._changes, self._current = parts.log.changes, parts.log.conversation
        self._confirm, self._session = parts.confirm, parts.session
        self._sidebar, self._window = parts.sidebar, window
        self._changes.changed.connect(self._changed)
        self.show_folders()

    def show_folders(self) -> None:
        try:
            folders = self._store.folders()
        except StoreError as err:  # the conversation list says what is wrong with the store
            log.warning("could not read the folders: %s", err)
            return
        self._sidebar.set_folders(folders)

    def _changed(self, changes: Changes, _origin: object = None) -> None:
        if changes.created:  # heard before the window lists it: in no folder, so listed
            self._sidebar.show_every_conversation()
        if changes.folders or changes.deleted or changes.everything or changes.imported:
            self.show_folders()

    def _run(self, op: StorageOp[Changes]) -> None:
        op.announce(self._runner, self._changes, self, on_failure=self._failed)

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, FolderNameRefused):
            self.problem.emit(translate("Sidebar", "The folder was not saved"), str(error))
        else:
            self.failed.emit(error)

    def _ask_name(self, title: str, name: str = "") -> str | None:
        typed, ok = QInputDialog.getText(self._window, title, translate("Sidebar", "Name:"),
                                         QLineEdit.EchoMode.Normal, name)
        return typed.strip() if ok and typed.strip() else None

    def new_folder(self) -> None:
        name = self._ask_name(translate("Sidebar", "New folder"))
        if name is not None:
            self._run(add_folder(self._store, name))

    def rename_folder(self, folder: Folder) -> None:
        name = self._ask_name(translate("Sidebar", "Rename folder"), folder.name)
        if name is not None and name != folder.name:
            self._run(rename_folder(self._store, folder.id, name))

    def move(self, ids: Sequence[int], folder_id: int | None) -> None:
        if ids:
            self._run(move_conversations(self._store, list(ids), folder_id))

    def star(self, ids: Sequence[int], starred: bool) -> None:
        if ids:
            self._run(star_conversations(self._store, list(ids), starred))

    def delete_several(self, conversations: Sequence[Conversation]) -> None:
        """Count what deleting them removes, then ask (with sync set up: everywhere, or on
        this machine only)."""
        ids = [c.id for c in conversations]

        def counted(counts: DeletionCounts, synced: bool) -> None:
            question = delete_several_question(len(ids), counts)
            decision = self._confirm(with_scope(question) if synced else question)
            if decision.accepted:
                self._stop_using(ids)
                self._run(sync_operations.delete_conversations(
                    self._store, ids, everywhere=not decision.other) if synced
                    else delete_conversations(self._store, ids))

        self._with_sync(lambda synced: count_deletion(self._store, ids).run(
            self._runner, on_success=lambda counts: counted(counts, synced),
            on_failure=self.failed.emit))

    def delete_folder(self, folder: Folder) -> None:
        """An empty folder goes at once; one holding conversations asks whether they move
        out (the default) or are deleted with it (with sync set up: everywhere, or on this
        machine only)."""
        def counted(found: tuple[list[int], DeletionCounts], synced: bool) -> None:
            ids, counts = found
            question = delete_folder_question(folder, counts)
            decision = self._confirm(with_scope(question) if synced else question) if ids \
                else Decision(True)
            if not decision.accepted:
                return
            if decision.option:
                self._stop_using(ids)
            if decision.option and synced:
                self._run(sync_operations.delete_folder(self._store, folder.id, ids,
                                                        everywhere=not decision.other))
            else:
                self._run(delete_folder(self._store, folder.id, decision.option))

        self._with_sync(lambda synced: count_folder(self._store, folder.id).run(
            self._runner, on_success=lambda found: counted(found, synced),
            on_failure=self.failed.emit))

    def _with_sync(self, then: Callable[[bool], None]) -> None:
        """`then(whether this data directory syncs)`, asked off the GUI thread."""
        sync_operations.sync_set_up(self._store).run(self._runner, on_success=then,
                                                     on_failure=self.failed.emit)

    def _stop_using(self, ids: Sequence[int]) -> None:
        """A request in flight for one of them is stopped and discarded; the open one
        among them is let go before it is deleted."""
        gone = set(ids)
        self._session.discard(gone)
        current = self._current()
        if current is not None and current.id in gone:
            self.closing.emit()
