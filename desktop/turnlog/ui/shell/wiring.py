"""How the window's parts talk: every signal the main window connects, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QLabel

from ...core.model import Conversation
from ..faults.storage_faults import StorageFaults
from ..infra import operations
from ..infra.changes import Changes
from ..panels.folder_actions import FolderActions
from ..panels.sidebar_filter import ConversationFilter
from ..request.send_session import SendResult
from .features import WindowParts


class Wired(WindowParts, Protocol):
    """What is connected (the main window, which imports this module), beyond the parts
    its features are built from."""

    sidebar_filter: ConversationFilter
    folder_actions: FolderActions
    stage_line: QLabel
    faults: StorageFaults

    @property
    def stage_entered(self) -> SignalInstance: ...

    def send(self) -> None: ...

    def stop(self) -> None: ...

    def set_what_if(self, max_bytes: int | None) -> None: ...

    def _select(self, conversation: Conversation | None) -> None: ...

    def _listed(self, conversations: Sequence[Conversation],
                select_id: int | None = None) -> None: ...

    def _changed(self, changes: Changes, _origin: object = None) -> None: ...

    def _close_conversation(self) -> None: ...

    def _delete_failed(self, error: BaseException) -> None: ...

    def _running_changed(self, running: bool) -> None: ...

    def _sent(self, result: SendResult) -> None: ...

    def _send_crashed(self, draft: tuple[str, int]) -> None: ...

    def _send_discarded(self) -> None: ...


def _wire_folders(window: Wired) -> None:
    """The sidebar's folders, stars and several conversations chosen at once."""
    sidebar, folders = window.sidebar, window.folder_actions
    sidebar.folder_chosen.connect(lambda _folder: window.refresh_conversations())
    sidebar.delete_several_requested.connect(folders.delete_several)
    sidebar.move_requested.connect(folders.move)
    sidebar.star_requested.connect(folders.star)
    sidebar.new_folder_requested.connect(folders.new_folder)
    sidebar.rename_folder_requested.connect(folders.rename_folder)
    sidebar.delete_folder_requested.connect(folders.delete_folder)
    folders.closing.connect(window._close_conversation)
    folders.problem.connect(window.banner.show_text)
    folders.failed.connect(window._storage_failed)


def wire(window: Wired) -> None:
    """Connect the sidebar, history actions, composer, banner and send session of `window`."""
    sidebar, history, session = window.sidebar, window.history, window.session
    sidebar.selected.connect(window._select)
    sidebar.new_requested.connect(history.new_conversation)
    sidebar.rename_requested.connect(history.rename_conversation)
    sidebar.delete_requested.connect(history.delete_conversation)
    sidebar.search_changed.connect(lambda _text: window.refresh_conversations())
    sidebar.search_left.connect(lambda: window.composer.edit.setFocus())
    _wire_folders(window)
    window.sidebar_filter.found.connect(window._listed)  # the text search's answer
    window.sidebar_filter.failed.connect(window.banner.show_text)
    window.view.delete_requested.connect(history.delete_turn)
    window.banner.retry.connect(window.send)
    window.banner.settings_requested.connect(window.open_settings)  # a refused key
    window.composer.send_requested.connect(window.send)
    window.composer.stop_requested.connect(window.stop)
    window.composer.draft_changed.connect(window.preview.draft_edited)
    window.inspector.what_if_changed.connect(window.set_what_if)
    window.inspector.last_chosen.connect(window.preview.choose_last)
    window.changes.changed.connect(window._changed)  # every storage operation's Changes
    history.closing.connect(window._close_conversation)
    history.status.connect(lambda text: window.statusBar().showMessage(text))  # made lazily
    history.problem.connect(window.banner.show_text)
    history.failed.connect(window._storage_failed)
    history.delete_failed.connect(window._delete_failed)
    session.running_changed.connect(window._running_changed)
    session.status.connect(window.stage_line.setText)
    session.stage_entered.connect(lambda _stage, words: window.stage_entered.emit(words))
    session.streamed.connect(window.transcript.append_pending)
    session.streamed_reasoning.connect(window.transcript.append_pending_reasoning)
    session.projected.connect(window.preview.show_sent)
    session.finished.connect(window._sent)
    session.finished.connect(window.drafts.sent)
    session.crashed.connect(window._send_crashed)
    session.discarded.connect(window._send_discarded)
    window.faults.swept.connect(  # conversations a first send left behind
        lambda changes: operations.announce(window.changes, changes, window.faults))
