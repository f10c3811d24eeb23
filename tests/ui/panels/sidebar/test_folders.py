"""The sidebar's folders, stars and several conversations at once, in the real window over
a real store: made with the mouse and the keyboard, kept across a restart."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu

from turnlog.store import TurnlogStore
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.panels.sidebar_folders import ALL
from turnlog.ui.shell.window import MainWindow
from uihelpers import loopback_connector, numbered, seed

pytest_plugins = ["uiwindow"]


def titles(window: MainWindow) -> list[str]:
    model = window.sidebar.model
    return [model.data(model.index(r)) for r in range(model.rowCount())]


def folder_rows(window: MainWindow) -> list[str]:
    model = window.sidebar.folder_list.folders
    return [model.data(model.index(r)) for r in range(model.rowCount())]


def type_name(qtbot, name: str) -> None:
    """Answer the name dialog that is about to open with `name`."""
    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(10, answer)
            return
        dialog.setTextValue(name)
        dialog.accept()

    QTimer.singleShot(0, answer)


def active(qtbot, window: MainWindow) -> None:
    """The window has the keyboard (shortcuts reach only the active window)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)


def click_row(qtbot, window: MainWindow, row: int,
              modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    view = window.sidebar.list
    rect = view.visualRect(window.sidebar.model.index(row))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def choose_folder(qtbot, window: MainWindow, row: int) -> None:
    view = window.sidebar.folder_list
    rect = view.visualRect(view.folders.index(row))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def drop_on_folder(window: MainWindow, folder_row: int) -> bool:
    """Drop the chosen conversations, as the conversation list's drag carries them, onto
    the folder list's row `folder_row` (the drag's own start is Qt's nested loop)."""
    sidebar = window.sidebar
    data = sidebar.model.mimeData(sidebar.list.selectionModel().selectedRows())
    view = sidebar.folder_list
    point = QPointF(view.visualRect(view.folders.index(folder_row)).center())
    actions = Qt.DropAction.CopyAction
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(point.toPoint(), actions, data, buttons, keys)
    QApplication.sendEvent(view.viewport(), enter)
    move = QDragMoveEvent(point.toPoint(), actions, data, buttons, keys)
    QApplication.sendEvent(view.viewport(), move)
    if not move.isAccepted():
        return False
    drop = QDropEvent(point, actions, data, buttons, keys)
    QApplication.sendEvent(view.viewport(), drop)
    return True


def test_a_folder_made_in_the_window_holds_dragged_conversations_after_a_restart(
        qtbot, store, make_window, turnlog_home, loopback):
    for title in ("Alpha", "Beta", "Gamma"):
        seed(store, title, numbered(1))
    window = make_window()
    type_name(qtbot, "旅行 Trips")
    window.sidebar.folder_button.click()
    qtbot.waitUntil(lambda: folder_rows(window)[2:] == ["旅行 Trips (0)"])
    assert folder_rows(window)[:2] == ["All conversations", "Not in a folder"]
    click_row(qtbot, window, 0)  # Gamma
    click_row(qtbot, window, 2, Qt.KeyboardModifier.ControlModifier)  # and Alpha
    assert [c.title for c in window.sidebar.chosen()] == ["Gamma", "Alpha"]
    assert drop_on_folder(window, 2)
    qtbot.waitUntil(lambda: folder_rows(window)[2:] == ["旅行 Trips (2)"])
    choose_folder(qtbot, window, 2)
    qtbot.waitUntil(lambda: titles(window) == ["Gamma", "Alpha"])
    choose_folder(qtbot, window, 1)
    qtbot.waitUntil(lambda: titles(window) == ["Beta"])
    assert not drop_on_folder(window, 0)  # "All conversations" takes no drop
    window.shutdown()
    store.close()

    with TurnlogStore.open(turnlog_home) as again:
        window = MainWindow(again, TaskRunner(), loopback_connector(loopback.base_url))
        qtbot.addWidget(window)
        window.show()
        assert folder_rows(window)[2:] == ["旅行 Trips (2)"]
        choose_folder(qtbot, window, 2)
        qtbot.waitUntil(lambda: titles(window) == ["Gamma", "Alpha"])
        # Dragged out again: onto "Not in a folder".
        click_row(qtbot, window, 1)
        assert drop_on_folder(window, 1)
        qtbot.waitUntil(lambda: titles(window) == ["Gamma"])
        window.shutdown()


def test_star_with_the_keyboard_lists_it_first(qtbot, store, make_window):
    for title in ("Old", "Middle", "New"):
        seed(store, title, numbered(1))
    window = make_window()
    assert titles(window) == ["New", "Middle", "Old"]
    active(qtbot, window)
    click_row(qtbot, window, 2)
    qtbot.keyClick(window.sidebar.list, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: titles(window) == ["★ Old", "New", "Middle"])
    assert store.conversations.get(window.sidebar.current().id).starred
    assert window.sidebar.current().title == "Old"  # still the one chosen
    assert window.sidebar.menu.star.text() == "Unstar"
    qtbot.keyClick(window.sidebar.list, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: titles(window) == ["New", "Middle", "Old"])


def test_several_chosen_with_shift_are_deleted_with_the_delete_key_after_asking(
        qtbot, store, make_window):
    for title in ("One", "Two", "Three", "Four"):
        seed(store, title, numbered(2))
    window = make_window()
    active(qtbot, window)
    asked = []
    window.confirm = lambda confirmation: asked.append(confirmation) or Decision(True)
    click_row(qtbot, window, 0)  # Four
    click_row(qtbot, window, 2, Qt.KeyboardModifier.ShiftModifier)  # through Two
    assert len(window.sidebar.chosen()) == 3
    assert window.sidebar.menu.delete.text() == "Delete 3 conversations…"
    qtbot.keyClick(window.sidebar.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: titles(window) == ["One"])
    (question,) = asked
    assert question.text == ("Delete 3 conversations? This removes 3 conversations, 6 turns, "
                             "0 summaries, 0 request records.")
    assert [c.title for c in store.conversations()] == ["One"]


def test_move_to_folder_from_the_context_menu_and_delete_the_folder_keeping_them(
        qtbot, store, make_window):
    for title in ("Alpha", "Beta"):
        seed(store, title, numbered(1))
    store.folders.add("Work")
    window = make_window()
    window.refresh_conversations()
    click_row(qtbot, window, 0)  # Beta
    menu = window.sidebar.menu
    menu.folders.aboutToShow.emit()
    (work,) = [a for a in menu.folders.actions() if a.text() == "Work"]
    work.trigger()
    qtbot.waitUntil(lambda: folder_rows(window)[2:] == ["Work (1)"])
    assert store.conversations.get(window.sidebar.current().id).folder_id is not None
    assert isinstance(menu.move.menu(), QMenu) and menu.out.isEnabled()

    asked = []
    window.confirm = lambda confirmation: asked.append(confirmation) or Decision(True, False)
    choose_folder(qtbot, window, 2)
    qtbot.waitUntil(lambda: titles(window) == ["Beta"])
    active(qtbot, window)
    qtbot.keyClick(window.sidebar.folder_list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: folder_rows(window) == ["All conversations", "Not in a folder"])
    (question,) = asked
    assert question.text == "Delete the folder “Work”? Its 1 conversation move out of it."
    assert "Also delete its 1 conversation" in question.option
    assert window.sidebar.folder_list.chosen() == ALL
    qtbot.waitUntil(lambda: titles(window) == ["Beta", "Alpha"])
    assert store.folders() == [] and len(store.conversations()) == 2


def test_deleting_a_folder_with_its_conversations_closes_the_open_one(
        qtbot, store, make_window):
    kept = seed(store, "Kept", numbered(1))
    inside = seed(store, "Inside", numbered(3))
    folder = store.folders.add("Secret")
    store.folders.move([inside.id], folder.id)
    window = make_window()
    window.sidebar.select(inside.id)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == inside.id)
    window.confirm = lambda confirmation: Decision(True, True)  # and its conversations
    choose_folder(qtbot, window, 2)
    window.folder_actions.delete_folder(window.sidebar.chosen_folder())
    qtbot.waitUntil(lambda: folder_rows(window) == ["All conversations", "Not in a folder"])
    qtbot.waitUntil(lambda: titles(window) == ["Kept"])
    assert [c.id for c in store.conversations()] == [kept.id]
    assert window.conversation is None or window.conversation.id == kept.id


def test_a_taken_folder_name_is_said_in_the_banner(qtbot, store, make_window):
    store.folders.add("Work")
    window = make_window()
    type_name(qtbot, "work")
    window.sidebar.folder_button.click()
    qtbot.waitUntil(lambda: window.banner.isVisible()
                    and "already" in window.banner.message.text())
    assert [f.name for f in store.folders()] == ["Work"]


def test_a_new_conversation_started_inside_a_folder_is_listed_and_open(
        qtbot, store, make_window):
    inside = seed(store, "Inside", numbered(1))
    store.folders.move([inside.id], store.folders.add("Box").id)
    seed(store, "Outside", numbered(1))
    window = make_window()
    choose_folder(qtbot, window, 2)
    qtbot.waitUntil(lambda: titles(window) == ["Inside"])
    window.sidebar.new_button.click()
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 3)
    assert window.sidebar.folder_list.chosen() == ALL
    assert window.conversation is not None and window.sidebar.current() is not None
    assert window.sidebar.current().id == window.conversation.id


def test_a_search_hit_outside_the_folder_chosen_opens(qtbot, store, make_window):
    inside = seed(store, "Inside", numbered(1))
    store.folders.move([inside.id], store.folders.add("Box").id)
    outside = seed(store, "Outside", [("Where is the HYACINTH bed?", "By the fence.")])
    window = make_window()
    choose_folder(qtbot, window, 2)
    qtbot.waitUntil(lambda: titles(window) == ["Inside"])
    click_row(qtbot, window, 0)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == inside.id)
    (hit,) = [h for h in store.search("hyacinth") if h.turn_id is not None]
    window.finder.jump.go(hit, "hyacinth")
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == outside.id)
    assert window.sidebar.current().id == outside.id


def _syncing(store: TurnlogStore) -> None:
    """This data directory is set up to sync (its state as `turnlog-cli sync setup` leaves
    it): a delete then asks everywhere or on this machine only."""
    from turnlog.sync.state import SyncState
    from turnlog.sync.storage import StorageConfig

    state = SyncState.create(store.home)
    state.set_up("a" * 32, "laptop", StorageConfig("folder", str(store.home / "Sync")),
                 "k" * 32)
    state.close()


def _scoped_marks(store: TurnlogStore) -> tuple[set[str], set[str]]:
    here = {g for (g,) in store.db.execute_sql('SELECT "gid" FROM "sync_here_deleted"')}
    return store.sync_feed.deleted(), here


def test_several_deleted_in_a_window_that_syncs_ask_everywhere_or_here(
        qtbot, store, make_window):
    made = [seed(store, title, numbered(2)) for title in ("One", "Two", "Three")]
    gids = {c.id: store.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                       (c.id,)).fetchone()[0] for c in made}
    _syncing(store)
    window = make_window()
    asked = []
    window.confirm = lambda question: asked.append(question) or Decision(True)  # everywhere
    window.folder_actions.delete_several([made[0], made[1]])
    qtbot.waitUntil(lambda: titles(window) == ["Three"], timeout=10_000)
    (question,) = asked
    assert question.question.action == "Delete everywhere"
    assert question.here == "On this machine only"
    tombstones, here = _scoped_marks(store)
    assert {gids[made[0].id], gids[made[1].id]} <= tombstones and not here
    window.confirm = lambda question: Decision(True, other=True)  # on this machine only
    window.folder_actions.delete_several([made[2]])
    qtbot.waitUntil(lambda: titles(window) == [], timeout=10_000)
    tombstones, here = _scoped_marks(store)
    assert gids[made[2].id] in here and gids[made[2].id] not in tombstones


def test_a_folder_deleted_with_its_conversations_in_a_window_that_syncs_asks_where(
        qtbot, store, make_window):
    kept = seed(store, "Kept", numbered(1))
    inside = seed(store, "Inside", numbered(3))
    gid = store.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                               (inside.id,)).fetchone()[0]
    folder = store.folders.add("Secret")
    store.folders.move([inside.id], folder.id)
    _syncing(store)
    window = make_window()
    asked = []
    window.confirm = lambda question: asked.append(question) or Decision(True, True)
    choose_folder(qtbot, window, 2)
    window.folder_actions.delete_folder(window.sidebar.chosen_folder())
    qtbot.waitUntil(lambda: folder_rows(window) == ["All conversations", "Not in a folder"],
                    timeout=10_000)
    qtbot.waitUntil(lambda: titles(window) == ["Kept"])
    (question,) = asked
    assert question.question.action == "Delete everywhere"
    assert "Also delete its 1 conversation" in question.question.option
    assert gid in store.sync_feed.deleted()
    assert [c.id for c in store.conversations()] == [kept.id] and store.folders() == []
