"""The window by keyboard alone: the main flow with key events only (new conversation,
type, send to the loopback server, open the inspector, delete a turn and confirm), the
context menus on Shift+F10 and the Menu key, a visible focus, and an accessible name on
every interactive widget of the window, its docks and its dialogs."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QMenuBar,
    QMessageBox,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

from loopback import Behaviour
from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.infra.window_settings import window_settings
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow
from uihelpers import loopback_connector, seed

pytest_plugins = ["uiwindow"]

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def when_shown(find: Callable[[], QWidget | None], act: Callable[[QWidget], None],
               parent: QWidget) -> list[QWidget]:
    """Run `act` on the dialog or popup `find` returns, once it is up (it runs inside
    that dialog's own event loop); returns the list it is appended to when done."""
    done: list[QWidget] = []
    timer = QTimer(parent)

    def poll() -> None:
        found = find()
        if found is not None and found.isVisible() and not done:
            done.append(found)
            timer.stop()
            act(found)

    timer.timeout.connect(poll)
    timer.start(20)
    return done


def focus_to(qtbot, dialog: QWidget, target: QWidget) -> None:
    """Tab through `dialog` (once it is the active window, as a window manager makes a
    new dialog) until `target` has the focus."""
    qtbot.waitUntil(dialog.isActiveWindow, timeout=3000)
    for _ in range(12):
        if dialog.focusWidget() is target:
            return
        qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_Tab)
    raise AssertionError("Tab never reached " + target.text())  # type: ignore[attr-defined]


def active(qtbot, window) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)


def test_the_main_flow_by_keyboard_alone(qtbot, make_window, store, loopback):
    window = make_window()
    active(qtbot, window)

    qtbot.keyClick(window.view, Qt.Key.Key_N, CTRL)  # File → New: opens at once
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    assert window.title.text() == "New conversation"
    assert QApplication.activeModalWidget() is None  # no title is asked for

    active(qtbot, window)
    qtbot.keyClick(window.view, Qt.Key.Key_L, CTRL)  # View → Go to question
    assert QApplication.focusWidget() is window.composer.edit
    qtbot.keyClicks(window.composer.edit, "Two and two?")
    loopback.script(Behaviour.answer("Four. 四。"))
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1 and not window.running,
                    timeout=10_000)
    assert loopback.requests[-1].json()["messages"][-1]["content"] == "Two and two?"
    qtbot.waitUntil(lambda: window.title.text() == "Two and two?", timeout=5000)

    if window.inspector_dock.isVisible():
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)  # close it, to open it
        assert not window.inspector_dock.isVisible()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)  # View → Inspector
    assert window.inspector_dock.isVisible()
    assert "answered and saved" in window.inspector.heading.text()

    qtbot.keyClick(window.composer.edit, Qt.Key.Key_H, CTRL)  # View → Go to history
    assert QApplication.focusWidget() is window.view
    qtbot.keyClick(window.view, Qt.Key.Key_End)
    assert window.view.currentIndex().row() == 0

    def confirm(box: QWidget) -> None:
        assert isinstance(box, QMessageBox)
        (go,) = [b for b in box.buttons()
                 if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole]
        focus_to(qtbot, box, go)
        qtbot.keyClick(go, Qt.Key.Key_Space)

    confirmed = when_shown(lambda: QApplication.activeModalWidget()
                           if isinstance(QApplication.activeModalWidget(), QMessageBox)
                           else None, confirm, window)
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)  # Delete turn…
    qtbot.waitUntil(lambda: bool(confirmed), timeout=5000)
    conversation = window.conversation
    qtbot.waitUntil(lambda: len(store.turns(conversation.id)) == 0, timeout=5000)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 0, timeout=5000)


def popup_choice(qtbot, parent: QWidget, wanted: str | None, seen: list[list[str]]) -> None:
    """When the context menu is up, note its entries and choose `wanted` with the arrow
    keys and Return (None: leave it with Esc)."""
    def choose(menu: QWidget) -> None:
        seen.append([a.text() for a in menu.actions() if not a.isSeparator() and a.isVisible()])
        if wanted is None:
            qtbot.keyClick(menu, Qt.Key.Key_Escape)
            return
        for _ in range(len(menu.actions()) + 1):
            qtbot.keyClick(menu, Qt.Key.Key_Down)
            current = menu.activeAction()  # type: ignore[attr-defined]
            if current is not None and current.text() == wanted:
                qtbot.keyClick(menu, Qt.Key.Key_Return)
                return
        qtbot.keyClick(menu, Qt.Key.Key_Escape)

    when_shown(QApplication.activePopupWidget, choose, parent)


def test_shift_f10_and_the_menu_key_open_the_focused_turns_menu(qtbot, make_window, store):
    seed(store, "menus", [("First question", "First answer"),
                          ("Second question", "Second answer")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    active(qtbot, window)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Home)
    assert window.view.currentIndex().row() == 0
    seen: list[list[str]] = []
    popup_choice(qtbot, window, "Copy question", seen)
    qtbot.keyClick(window.view, Qt.Key.Key_F10, SHIFT)
    assert seen and "Delete turn…" in seen[0] and "Copy question" in seen[0]
    # Only what applies to the turn: it has no reasoning, no code, one version.
    for absent in ("Copy reasoning", "Show or hide reasoning", "Copy code block",
                   "Use this version"):
        assert absent not in seen[0]
    assert QGuiApplication.clipboard().text() == "First question"

    qtbot.keyClick(window.view, Qt.Key.Key_End)
    popup_choice(qtbot, window, "Copy answer", seen)
    qtbot.keyClick(window.view, Qt.Key.Key_Menu)
    assert len(seen) == 2
    assert QGuiApplication.clipboard().text() == "Second answer"

    window.sidebar.list.setFocus()
    popup_choice(qtbot, window, None, seen)
    qtbot.keyClick(window.sidebar.list, Qt.Key.Key_Menu)  # the conversation's menu
    assert len(seen) == 3 and "Delete…" in seen[2]
    assert store.conversations()  # Esc: nothing happened


def test_the_focused_turn_is_framed(qtbot, make_window, store):
    seed(store, "focus", [("Q", "A")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    active(qtbot, window)
    view = window.view
    view.setCurrentIndex(window.transcript.index(0))
    rect = view.visualRect(window.transcript.index(0))
    highlight = view.palette().color(QPalette.ColorRole.Highlight)

    def top_edge() -> QColor:
        image = view.viewport().grab().toImage()
        return image.pixelColor(rect.center().x(), rect.top())

    window.composer.edit.setFocus()
    assert top_edge() != highlight
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    assert top_edge() == highlight


INTERACTIVE = (QAbstractButton, QLineEdit, QTextEdit, QPlainTextEdit, QComboBox,
               QAbstractSpinBox, QAbstractSlider, QAbstractItemView, QTabBar)
# Parts of another control: a screen reader meets the control they belong to.
COMPOUND = (QAbstractSpinBox, QComboBox, QLineEdit, QAbstractItemView, QMenuBar)


def unnamed(root: QWidget) -> list[str]:
    """Interactive widgets under `root` with no accessible name (what a screen reader
    says: its own name, its text, its label's)."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not isinstance(widget, INTERACTIVE) or isinstance(widget, QScrollBar):
            continue
        parent, inside = widget.parentWidget(), False
        while parent is not None and parent is not root.parentWidget():
            inside = inside or isinstance(parent, COMPOUND)
            parent = parent.parentWidget()
        if inside:
            continue
        interface = QAccessible.queryAccessibleInterface(widget)
        name = interface.text(QAccessible.Text.Name) if interface is not None else ""
        if not name.strip():
            found.append(f"{type(widget).__name__} {widget.objectName()!r} in "
                         f"{type(widget.parentWidget()).__name__}")
    return found


def test_every_interactive_widget_has_an_accessible_name(qtbot, store, loopback,
                                                         turnlog_home):
    seed(store, "named", [("Q", "A")])
    setup = ProviderSetup(ProfileStore(turnlog_home), window_settings(turnlog_home),
                          keyring=SessionKeys())
    window = MainWindow(store, TaskRunner(), loopback_connector(loopback.base_url),
                        setup=setup)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        for dock in (window.sidebar_dock, window.inspector_dock, window.memory_dock,
                     window.side_dock, window.finder.dock):
            dock.show()
        widgets = window.findChildren(QWidget)
        assert len([w for w in widgets if isinstance(w, INTERACTIVE)]) > 40
        assert unnamed(window) == []
        settings = window.open_settings()
        assert unnamed(settings) == []
        settings.reject()
        about = window.show_about()
        assert unnamed(about) == []
        about.reject()

        checked: list[list[str]] = []

        def check_and_cancel(box: QWidget) -> None:
            checked.append(unnamed(box))
            box.reject()  # type: ignore[attr-defined]

        when_shown(lambda: QApplication.activeModalWidget()
                   if isinstance(QApplication.activeModalWidget(), QMessageBox) else None,
                   check_and_cancel, window)
        window.view.setCurrentIndex(window.transcript.index(0))
        window.view.delete_current()
        qtbot.waitUntil(lambda: bool(checked), timeout=5000)
        assert checked == [[]]
    finally:
        window.shutdown()


def test_a_button_without_words_is_found(qtbot):
    """The check above can fail: an icon-only button with no name is reported."""
    from PySide6.QtWidgets import QToolButton

    holder = QWidget()
    qtbot.addWidget(holder)
    QToolButton(holder).setObjectName("bare")
    assert unnamed(holder) == ["QToolButton 'bare' in QWidget"]


def test_the_composer_has_the_focus_at_start_and_after_new(qtbot, make_window, store):
    """A newcomer's first typing is a question, not a sidebar filter; so after Ctrl+N."""
    seed(store, "older chat", [("Hi", "Hello")])
    window = make_window()
    active(qtbot, window)
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    assert QApplication.focusWidget() is window.composer.edit

    older = window.conversation
    window.sidebar.search.setFocus()  # wherever the focus was before
    qtbot.keyClick(window.sidebar.search, Qt.Key.Key_N, CTRL)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id != older.id, timeout=5000)
    assert QApplication.activeModalWidget() is None  # opened at once, no title asked
    active(qtbot, window)
    qtbot.keyClicks(QApplication.focusWidget(), "Where was I?")
    assert window.composer.text() == "Where was I?"
    assert window.sidebar.search.text() == ""
    assert window.title.text() == "New conversation"


def test_the_search_field_by_keyboard(qtbot, make_window, store):
    """Ctrl+F, type, Enter opens the first conversation listed and goes back to typing;
    Esc clears the field, a second Esc goes back to typing; Down goes to the list."""
    seed(store, "Recipes 食谱", [("Soup?", "Yes.")])
    wanted = seed(store, "Garden plans", [("Tomatoes?", "In May.")])
    seed(store, "Travel", [("Tokyo?", "Spring.")])
    window = make_window()
    active(qtbot, window)
    window.sidebar.search.setFocus()
    qtbot.keyClicks(window.sidebar.search, "Garden")
    qtbot.keyClick(window.sidebar.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == wanted.id, timeout=5000)
    assert QApplication.focusWidget() is window.composer.edit
    qtbot.keyClicks(QApplication.focusWidget(), "Peppers too?")
    assert window.composer.text() == "Peppers too?"
    assert window.sidebar.search.text() == "Garden"

    window.sidebar.search.setFocus()
    qtbot.keyClick(window.sidebar.search, Qt.Key.Key_Escape)
    assert window.sidebar.search.text() == ""
    assert QApplication.focusWidget() is window.sidebar.search  # still searching
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 3, timeout=5000)
    qtbot.keyClick(window.sidebar.search, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is window.sidebar.list
    window.sidebar.search.setFocus()
    qtbot.keyClick(window.sidebar.search, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.composer.edit
    assert window.composer.text() == "Peppers too?"  # the draft was never touched
    assert window.conversation.id == wanted.id


def test_escape_cancels_a_running_send_wherever_the_focus_is(qtbot, make_window, store,
                                                              loopback):
    conversation = seed(store, "chat", [("Hi", "Hello")])
    window = make_window()
    active(qtbot, window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    for focus in (None, window.view, window.sidebar.search):
        window.composer.set_draft("A long one?")
        window.refresh_preview()
        loopback.script(Behaviour.hang())
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, CTRL)
        qtbot.waitUntil(lambda: window.running, timeout=5000)
        if focus is not None:
            focus.setFocus()
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not window.running, timeout=5000)
        assert window.composer.text() == "A long one?"  # the draft is back
        assert len(store.turns(conversation.id)) == 1


def test_ctrl_i_toggles_the_inspector_and_keeps_its_tab(qtbot, make_window, store):
    window = make_window()
    active(qtbot, window)
    dock = window.inspector_dock

    def tab_in_front() -> str:
        for bar in window.findChildren(QTabBar):
            names = [bar.tabText(i) for i in range(bar.count())]
            if "Side questions" in names:
                return bar.tabText(bar.currentIndex())
        return ""

    if not dock.isVisible():
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)
    dock.raise_()
    qtbot.waitUntil(lambda: tab_in_front() == "Inspector", timeout=3000)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)
    assert not dock.isVisible()
    qtbot.waitUntil(lambda: tab_in_front() == "Side questions", timeout=3000)  # tab gone
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)
    assert dock.isVisible()
    qtbot.wait(100)
    assert tab_in_front() == "Inspector"  # not the side questions
    assert not window.inspector.visibleRegion().isEmpty()
