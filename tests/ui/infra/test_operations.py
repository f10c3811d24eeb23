"""The window's work off the GUI thread: the API key saved on the storage worker, a commit
shown from its outcome without reading the store, and the named storage operations
saying what they changed."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QDialogButtonBox

from loopback import Behaviour
from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import KeyringUnavailable, SessionKeys
from turnlog.ui.infra import operations
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

KEY = "sk-test-1234567890"
GUI = threading.main_thread().name


class RecordingKeys(SessionKeys):
    """A key store in memory that notes the thread of every write (a fake keyring)."""

    def __init__(self, *, locked: bool = False) -> None:
        super().__init__()
        self.locked = locked
        self.threads: list[str] = []

    def backend_name(self) -> str:
        return "the recording keyring"

    def set(self, profile_id: str, key: str) -> None:
        self.threads.append(threading.current_thread().name)
        if self.locked:
            raise KeyringUnavailable("The keyring is locked; unlock it and save again.")
        super().set(profile_id, key)


def settings_window(qtbot, store, turnlog_home, keys) -> tuple[MainWindow, ProviderSetup]:
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=keys)
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    return window, setup


def fill_custom_provider(dialog, base_url: str) -> None:
    dialog.base_url.setText(base_url)
    dialog.model.setEditText("loopback-model")
    dialog.key.setText(KEY)


def test_the_api_key_is_saved_on_the_storage_worker(qtbot, store, loopback, turnlog_home):
    keys = RecordingKeys()
    window, setup = settings_window(qtbot, store, turnlog_home, keys)
    try:
        dialog = window.open_settings().providers.add_profile("custom")  # the profile editor
        fill_custom_provider(dialog, loopback.base_url)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
        [profile] = ProfileStore().load()
        assert keys.get(profile.id) == KEY
        assert keys.threads == ["turnlog-storage_0"]
        assert setup.active() == profile
    finally:
        window.shutdown()


def test_a_locked_keyring_keeps_the_dialog_open_and_offers_this_session(
        qtbot, store, loopback, turnlog_home):
    keys = RecordingKeys(locked=True)
    window, setup = settings_window(qtbot, store, turnlog_home, keys)
    try:
        dialog = window.open_settings().providers.add_profile("custom")  # the profile editor
        fill_custom_provider(dialog, loopback.base_url)
        save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.click()
        qtbot.waitUntil(dialog.problem.isVisible, timeout=5000)
        assert "The keyring is locked" in dialog.problem.text()
        assert dialog.isVisible() and dialog.session_only.isChecked()
        assert save.isEnabled()
        assert ProfileStore().load() == []  # nothing saved without its key
        assert keys.threads == ["turnlog-storage_0"]

        save.click()  # this session only now: the key stays in memory
        qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
        [profile] = ProfileStore().load()
        assert setup.session.get(profile.id) == KEY
        assert keys.get(profile.id) is None
    finally:
        window.shutdown()


def test_a_commit_is_shown_without_reading_the_store_on_the_gui_thread(
        qtbot, make_window, store, loopback, monkeypatch):
    older = seed(store, "older", numbered(3))
    seed(store, "newer", numbered(2))
    window = make_window()
    window.refresh_conversations(select_id=older.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3)
    assert [c.title for c in window.sidebar.model.items] == ["newer", "older"]

    reads: list[tuple[str, str]] = []
    for part, name in (("turns", "active"), ("turns", "log"), ("turns", "get"),
                       ("conversations", "list"), ("conversations", "get"),
                       ("records", "latest_summary")):
        real = getattr(getattr(store, part), name)

        def spy(*args, _real=real, _name=name, **kwargs):
            reads.append((_name, threading.current_thread().name))
            return _real(*args, **kwargs)

        monkeypatch.setattr(getattr(store, part), name, spy)
    execute_sql = store.db.execute_sql

    def any_query(sql, *args, **kwargs):
        reads.append(("sql", threading.current_thread().name))
        return execute_sql(sql, *args, **kwargs)

    monkeypatch.setattr(store.db, "execute_sql", any_query)
    loopback.script(Behaviour.answer("Answered."))
    window.composer.set_draft("One more?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    qtbot.wait(50)
    assert not window.banner.isVisible(), window.banner.report()
    assert [name for name, thread in reads if thread == GUI] == []
    assert ("latest_summary", "turnlog-network_0") in reads  # read once, on the worker
    monkeypatch.undo()

    assert [t.id for t in window.transcript.turns] == [t.id for t in store.turns(older.id)]
    assert window.transcript.turns[-1].answer == "Answered."
    # The conversation just answered goes first, as the store now orders them.
    assert [c.title for c in window.sidebar.model.items] == \
        [c.title for c in store.conversations()] == ["older", "newer"]
    assert window.sidebar.current().id == older.id


def run(qtbot, runner: TaskRunner, op: operations.StorageOp):
    done: list[object] = []
    op.run(runner, on_success=done.append, on_failure=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    [result] = done
    assert not isinstance(result, BaseException), result
    return result


def test_operations_say_what_they_changed(qtbot, store):
    conversation = seed(store, "kept", numbered(3))
    other = seed(store, "other", numbered(1))
    turns = store.turns(conversation.id)
    runner = TaskRunner()
    try:
        changes = run(qtbot, runner, operations.delete_turn(store, turns[1].id))
        assert changes.turns_deleted == (turns[1].id,)
        assert changes.turns_of == conversation.id and changes.summary is None
        assert changes.message() == "Deleted 1 turn, 0 summaries, 0 request records."
        assert not changes.listing and not changes.closes(conversation.id)
        assert [t.ordinal for t in store.turns(conversation.id)] == [1, 3]

        changes = run(qtbot, runner, operations.rename_conversation(store, other.id, "新"))
        assert changes.renamed and changes.listing and changes.conversation.title == "新"

        changes = run(qtbot, runner, operations.delete_conversation(store, other.id))
        assert changes.closes(other.id) and not changes.closes(conversation.id)
        assert changes.listing

        keys = SessionKeys()
        keys.set("p1", KEY)
        changes = run(qtbot, runner, operations.delete_all_history(store, keys, ["p1", "p2"]))
        assert changes.closes(conversation.id) and changes.closes(None)
        assert changes.message() == ("Deleted 1 conversation, 2 turns, 0 summaries, "
                                     "0 request records. Removed 1 API key.")
        assert store.conversations() == [] and keys.get("p1") is None
    finally:
        runner.shutdown()


def test_the_status_bar_appears_with_its_first_message(qtbot, make_window):
    from PySide6.QtWidgets import QStatusBar

    window = make_window()
    assert window.findChild(QStatusBar) is None  # no empty strip under the composer
    window.export_conversation()  # nothing is open
    assert window.statusBar().currentMessage() == "Open a conversation to export first."
