"""What a person asks to change in the history — start, rename, set up, delete or
export a conversation — from the menus, the conversation list and the context menu.

`HistoryActions` asks first where a question is due (a new title, the settings; what a
delete removes, counted on the storage worker), then runs the named operation from
`operations` and reports what changed with `changed`; the window refreshes the views
from that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QInputDialog, QWidget

from ...config.secrets import SessionKeys
from ...core.model import ConversationSettings
from ...core.titles import QUESTION, USER
from ..dialogs.privacy import (
    Scoped,
    delete_all_question,
    delete_conversation_question,
    delete_pins_question,
    delete_preferences_question,
    delete_turn_question,
    delete_usage_question,
    with_scope,
)
from ..infra import operations, sync_operations
from ..infra.changes import Changes
from ..infra.languages import arg, plural
from ..infra.titles import conversation_title

if TYPE_CHECKING:  # the dialog is loaded when first opened; the rest is handed in
    from ...core.model import Conversation
    from ...store import TurnlogStore
    from ...store.deletion import DeletionCounts
    from ..dialogs.privacy import Confirmation, Decision
    from ..dialogs.settings import SettingsDialog
    from ..dialogs.sync_page import SyncRuns
    from ..infra.changes import ChangeHub
    from ..infra.export_file import ExportTarget
    from ..infra.operations import Exported
    from ..infra.tasks import TaskRunner
    from ..request.provider_setup import ProviderSetup
    from ..request.send_session import SendSession

BUSY = QT_TRANSLATE_NOOP("HistoryActions",
                         "Stop the running request before deleting a turn.")


class HistoryActions(QObject):
    """Runs the changes a person starts; `window` parents the dialogs."""

    closing = Signal()  # the open conversation is about to be deleted: show none of it
    status = Signal(str)  # a line for the status bar
    problem = Signal(str, str)  # (title, message) for the banner
    failed = Signal(object)  # a storage operation failed (the exception)
    delete_failed = Signal(object)  # a delete did not happen (the exception)

    def __init__(self, store: TurnlogStore, runner: TaskRunner, session: SendSession,
                 setup: ProviderSetup | None, current: Callable[[], Conversation | None],
                 confirm: Callable[[Confirmation | Scoped], Decision],
                 choose_export: Callable[[str], ExportTarget | None], changes: ChangeHub,
                 window: QWidget) -> None:
        super().__init__(window)
        self._changes = changes  # where what each operation changed is announced
        self._store, self._runner, self._session, self._setup = store, runner, session, setup
        self._current, self._confirm, self._choose_export = current, confirm, choose_export
        self._window = window

    def _run(self, op: operations.StorageOp[Changes], *, deleting: bool = False) -> None:
        op.announce(self._runner, self._changes, self,
                    on_failure=self.delete_failed.emit if deleting else self.failed.emit)

    def default_model(self) -> str:
        """The model new conversations name: none of their own, so they send with the
        model of the profile in use at the time (a name pinned at creation would go to the
        server of a profile chosen later, which may not list it)."""
        return ""

    # --------------------------------------------------------------- titles
    def new_conversation(self) -> None:
        """Open a new conversation at once, titled after its first question. The open one
        is still new (nothing asked in it yet): it stays, nothing more is made."""
        current = self._current()
        if current is not None and not current.title and current.title_source == QUESTION:
            operations.announce(self._changes, Changes(current, created=True), self)
            return
        self._run(operations.create_conversation(self._store, self.default_model()))

    def drop_if_unused(self, nothing_typed: bool, *, wait_s: float = 5.0) -> None:
        """As the window closes: the open conversation, made by New and left with nothing
        in it (no turn, title, system prompt, sampling, memory or typed question), is
        deleted, so it does not wait in the list after a restart."""
        current = self._current()
        if (current is None or not nothing_typed or current.title or current.source
                or current.title_source != QUESTION or current.system_prompt
                or current.settings != ConversationSettings() or self._runner.closed):
            return
        handle = operations.drop_unused_conversation(self._store, current.id).run(
            self._runner, on_success=lambda _done: None, on_failure=self.failed.emit)
        handle.finished.wait(wait_s)

    def rename_conversation(self, conversation: Conversation) -> None:
        """Ask for a title; the one typed is the user's own from now on."""
        title, ok = QInputDialog.getText(
            self._window, QCoreApplication.translate("HistoryActions", "Rename conversation"),
            QCoreApplication.translate("HistoryActions", "Title:"), text=conversation.title)
        if ok and title.strip() and (title.strip() != conversation.title
                                     or conversation.title_source != USER):
            self._run(operations.rename_conversation(self._store, conversation.id,
                                                     title.strip()))

    # ------------------------------------------------------------- settings
    def open_settings(self, sync: SyncRuns | None = None) -> SettingsDialog | None:
        """The providers, sync (`sync`: the window's syncs) and the open conversation's
        settings; they apply at once."""
        if self._setup is None or self._session.running:
            return None
        from ..dialogs.settings import SettingsDialog  # loaded when first opened

        dialog = SettingsDialog(self._setup, self._runner, self._current(), self._window,
                                changes=self._changes, confirm=self._confirm,
                                connector=self._session.connector, tools=self._session.tools,
                                store=self._store, sync=sync)
        dialog.accepted.connect(lambda: self._settings_saved(dialog))
        dialog.open()
        return dialog

    def _settings_saved(self, dialog: SettingsDialog) -> None:
        conversation = self._current()
        if conversation is not None and dialog.saved_settings is not None:
            self._run(operations.save_conversation_settings(
                self._store, conversation.id, dialog.saved_settings,
                dialog.saved_system_prompt, None))

    # -------------------------------------------------------------- deletes
    def delete_conversation(self, conversation: Conversation) -> None:
        """Count what deleting the conversation removes, then ask (sidebar Delete…)."""
        def counted(found: tuple[DeletionCounts, list[Conversation]], synced: bool) -> None:
            counts, forks = found
            question = delete_conversation_question(
                conversation_title(conversation), counts, [conversation_title(f) for f in forks])
            decision = self._confirm(with_scope(question) if synced else question)
            if decision.accepted:
                self.delete_now(conversation, {f.id for f in forks} if decision.option
                                else set(), everywhere=not decision.other if synced else None)

        self._with_sync(lambda synced: operations.count_conversation_deletion(
            self._store, conversation.id).run(
            self._runner, on_success=lambda found: counted(found, synced),
            on_failure=self.failed.emit))

    def _with_sync(self, then: Callable[[bool], None]) -> None:
        """`then(whether this data directory syncs)`, asked off the GUI thread."""
        sync_operations.sync_set_up(self._store).run(self._runner, on_success=then,
                                                on_failure=self.failed.emit)

    def delete_now(self, conversation: Conversation, forks: set[int] | None = None, *,
                   everywhere: bool | None = None) -> None:
        """Delete without asking (with `forks`, the forks of it too; with sync set up,
        `everywhere` or on this machine only); a request in flight for one of them is
        stopped and discarded."""
        gone = {conversation.id, *(forks or ())}
        self._session.discard(gone)
        current = self._current()
        if current is not None and current.id in gone:
            self.closing.emit()  # from now on nothing of it is shown again
        self._run(operations.delete_conversation(self._store, conversation.id,
                                                 with_forks=bool(forks))
                  if everywhere is None else sync_operations.delete_conversations(
                      self._store, [conversation.id, *sorted(forks or ())],
                      everywhere=everywhere), deleting=True)

    def delete_turn(self, turn_id: str) -> None:
        """Count what deleting one turn removes, then ask (history context menu)."""
        if self._refuse_while_running():
            return

        def counted(counted: tuple[int, DeletionCounts, int], synced: bool) -> None:
            question = delete_turn_question(*counted)
            decision = self._confirm(with_scope(question) if synced else question)
            if not decision.accepted or self._refuse_while_running():
                return
            alone = counted[2] == 1  # no other versions: the option keeps its pins
            keep_pins = alone and decision.option
            if not alone and counted[1].pins:  # the option was the versions': ask apart
                keep_pins = not self._confirm(delete_pins_question(counted[1].pins)).accepted
            versions = alone or decision.option
            self._run(sync_operations.delete_turn(
                self._store, turn_id, everywhere=not decision.other, with_versions=versions,
                keep_pins=keep_pins) if synced else operations.delete_turn(
                self._store, turn_id, with_versions=versions, keep_pins=keep_pins))

        self._with_sync(lambda synced: operations.count_turn_deletion(self._store, turn_id).run(
            self._runner, on_success=lambda found: counted(found, synced),
            on_failure=self.failed.emit))

    def _refuse_while_running(self) -> bool:
        if self._session.running:
            self.status.emit(QCoreApplication.translate("HistoryActions", BUSY))
        return self._session.running

    def delete_all_history(self) -> None:
        """Count everything, then ask (File → Delete all history…), offering to remove the
        provider keys from the keyring too."""
        setup = self._setup
        profiles = setup.load() if setup is not None else []
        operations.count_all_history(
            self._store, setup.keys() if setup is not None else None,
            [(p.id, p.name) for p in profiles if not p.builtin]).run(
            self._runner, on_success=lambda found: self._confirm_delete_all(*found),
            on_failure=self.failed.emit)

    def _key_place(self) -> str | None:
        """Where the API keys are kept, as the delete question names it (None: in memory
        only, for this session: not a place they are saved in)."""
        if self._setup is None:
            return QCoreApplication.translate("HistoryActions", "the keyring")
        keyring = self._setup.keyring
        in_memory = keyring is None or isinstance(keyring, SessionKeys)
        return None if in_memory else keyring.backend_name()

    def _confirm_delete_all(self, counts: DeletionCounts, with_keys: list[str]) -> None:
        setup = self._setup
        profiles = setup.load() if setup is not None else []
        decision = self._confirm(delete_all_question(counts, with_keys, self._key_place()))
        if not decision.accepted:
            return
        preferences = len(self._store.memory.preferences())  # a few short rows: read here
        also = preferences > 0 and self._confirm(delete_preferences_question(
            preferences)).accepted
        usage = self._store.usage.any() and self._confirm(delete_usage_question()).accepted
        self._session.discard(None)
        # Let go of the open conversation now: a stopped request finishing before the delete
        # does must not preview it (its turns, its body in the inspector) once more.
        self.closing.emit()
        keys = setup.keys() if setup is not None and decision.option else None
        self._run(operations.delete_all_history(self._store, keys, [p.id for p in profiles],
                                                preferences=also, usage_totals=usage),
                  deleting=True)

    # --------------------------------------------------------------- export
    def export_conversation(self) -> ExportTarget | None:
        """Save the open conversation where the person picks (File → Export…); the file is
        written on the storage worker."""
        conversation = self._current()
        if conversation is None:
            self.status.emit(QCoreApplication.translate(
                "HistoryActions", "Open a conversation to export first."))
            return None
        target = self._choose_export(conversation.title)
        if target is not None:
            operations.export_conversation(self._store, conversation.id, target).run(
                self._runner, on_success=self._exported, on_failure=self._export_failed)
        return target

    def _exported(self, done: Exported) -> None:
        turns = done.turns
        self.status.emit(arg(plural(QCoreApplication.translate(
            "HistoryActions", "Exported %n turn(s) (%1 bytes) to %2.", None, turns), turns),
            done.bytes, done.target.path))

    def _export_failed(self, error: BaseException) -> None:
        if not isinstance(error, OSError):
            self.failed.emit(error)
            return
        self.problem.emit(QCoreApplication.translate(
            "HistoryActions", "Could not export the conversation"),
                          arg(QCoreApplication.translate(
                              "HistoryActions", "The file could not be written: %1. Choose "
                              "another place and export again (Ctrl+E)."), error))
