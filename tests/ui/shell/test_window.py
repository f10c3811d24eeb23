"""The main window over a real store: conversations, the lazily loaded history."""

from __future__ import annotations

import threading

import httpx
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox

from turnlog.core.projection import CostIndex, project
from turnlog.localmodel import ServerTokenCounter, TemplateCosts
from turnlog.providers import CUSTOM
from turnlog.service.chat import options_for
from turnlog.store import TurnlogStore
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.model import Role, TranscriptModel
from uihelpers import loopback_connector, numbered, seed

pytest_plugins = ["uiwindow"]


def wait_loaded(qtbot, window: MainWindow, count: int) -> None:
    qtbot.waitUntil(lambda: len(window.transcript.turns) == count, timeout=5000)


def test_conversations_are_listed_newest_first_and_searchable(qtbot, store, make_window):
    seed(store, "Alpha trip", numbered(1))
    seed(store, "Beta notes", numbered(1))
    seed(store, "Gamma trip", numbered(1))
    window = make_window()
    titles = [window.sidebar.model.data(window.sidebar.model.index(r))
              for r in range(window.sidebar.model.rowCount())]
    assert titles == ["Gamma trip", "Beta notes", "Alpha trip"]
    qtbot.keyClicks(window.sidebar.search, "trip")
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 2)
    assert window.sidebar.current() is not None
    window.sidebar.search.clear()
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 3)


def test_history_loads_the_newest_page_then_older_pages_on_scrolling_up(
    qtbot, store, make_window
):
    conversation = seed(store, "long", numbered(150))
    window = make_window()
    assert window.conversation is not None and window.conversation.id == conversation.id
    wait_loaded(qtbot, window, 150)
    model = window.transcript
    assert model.rowCount() == TranscriptModel.PAGE
    last = model.index(model.rowCount() - 1)
    assert last.data(Role.ORDINAL) == 150
    assert model.index(0).data(Role.ORDINAL) == 150 - TranscriptModel.PAGE + 1
    # The newest turn is on screen.
    qtbot.waitUntil(lambda: window.view.viewport().rect().intersects(window.view.visualRect(last)))
    bar = window.view.verticalScrollBar()
    bar.setValue(bar.minimum())
    qtbot.waitUntil(lambda: model.rowCount() == 2 * TranscriptModel.PAGE)
    # The turn that was at the top stays where the reader was looking.
    old_top = model.index(TranscriptModel.PAGE)
    qtbot.waitUntil(lambda: bar.value() > bar.minimum())
    assert window.view.visualRect(old_top).top() < window.view.viewport().height()
    assert window.view.visualRect(old_top).bottom() > 0
    while model.rowCount() < 150:
        loaded = model.rowCount()
        bar.setValue(bar.minimum())
        qtbot.waitUntil(lambda n=loaded: model.rowCount() > n)
        qtbot.waitUntil(lambda: bar.value() > bar.minimum() or model.rowCount() == 150)
    assert model.index(0).data(Role.ORDINAL) == 1


def test_new_rename_and_delete_with_confirmation(qtbot, store, make_window, turnlog_home):
    window = make_window()
    assert window.sidebar.model.rowCount() == 0

    def answer_dialog(text: str) -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue(text)
        dialog.accept()

    window.new_conversation()  # opens at once: no title is asked for
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 1)
    qtbot.waitUntil(lambda: window.conversation is not None)
    assert window.title.text() == "New conversation"
    assert QApplication.activeModalWidget() is None

    QTimer.singleShot(0, lambda: answer_dialog("Summer holiday"))
    window.rename_conversation(window.conversation)
    qtbot.waitUntil(lambda: window.title.text() == "Summer holiday")
    assert [c.title for c in store.conversations()] == ["Summer holiday"]

    # The confirmation opens once the counts are in (they are read on the storage worker).
    answered: list[str] = []

    def when_asked(act) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, lambda: when_asked(act))
            return
        answered.append(box.text())
        act(box)

    def refuse(box: QMessageBox) -> None:
        box.button(QMessageBox.StandardButton.Cancel).click()

    QTimer.singleShot(0, lambda: when_asked(refuse))
    window.delete_conversation(window.conversation)
    qtbot.waitUntil(lambda: len(answered) == 1)
    assert answered[0] == ("Delete “Summer holiday”? This removes 1 conversation, 0 turns, "
                           "0 summaries, 0 request records.")
    qtbot.wait(50)
    assert len(store.conversations()) == 1

    def confirm(box: QMessageBox) -> None:
        [delete] = [b for b in box.buttons() if b.text() == "Delete"]
        delete.click()

    QTimer.singleShot(0, lambda: when_asked(confirm))
    window.delete_conversation(window.conversation)
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 0)
    assert store.conversations() == []
    assert window.conversation is None


def test_restart_shows_the_full_history(qtbot, turnlog_home, loopback):
    with TurnlogStore.open(turnlog_home) as first:
        conversation = seed(first, "kept", numbered(75))
    with TurnlogStore.open(turnlog_home) as second:
        window = MainWindow(second, TaskRunner(), loopback_connector(loopback.base_url))
        qtbot.addWidget(window)
        window.show()
        try:
            wait_loaded(qtbot, window, 75)
            window.transcript.load_all()
            ordinals = [window.transcript.index(r).data(Role.ORDINAL)
                        for r in range(window.transcript.rowCount())]
            assert ordinals == list(range(1, 76))
            assert window.conversation.id == conversation.id
        finally:
            window.shutdown()


class ServerCountingConnector(ProviderConnector):
    """The real connector to the loopback server, whose `/extras/tokenize` counts tokens
    exactly, as the built-in model's server does once it is up."""

    def __init__(self, loopback, client: httpx.Client) -> None:
        config = ProviderConfig("loopback", "Loopback", CUSTOM, loopback.base_url,
                                "loopback-model")
        super().__init__(lambda: config, lambda: None)
        counter = ServerTokenCounter(loopback.tokenize_url, costs=TEMPLATE, client=client)
        self.exact = CostIndex(counter)

    def exact_costs(self, conversation):  # noqa: ANN001, ANN201
        return self.exact


TEMPLATE = TemplateCosts({"user": 4, "assistant": 5, "system": 3}, priming=3,
                         leading_system_overcount=0)


def test_previews_count_exactly_without_the_gui_thread_waiting_on_the_tokenizer(
    qtbot, store, loopback
):
    conversation = seed(store, "counted", numbered(40), system_prompt="Be brief.")
    threads: list[str] = []
    client = httpx.Client(trust_env=False, event_hooks={
        "request": [lambda request: threads.append(threading.current_thread().name)]})
    connector = ServerCountingConnector(loopback, client)
    window = MainWindow(store, TaskRunner(), connector)
    qtbot.addWidget(window)
    window.show()
    try:
        wait_loaded(qtbot, window, 40)
        counter = window.composer.counter
        qtbot.waitUntil(lambda: "(exact)" in counter.text(), timeout=10_000)
        assert threads and set(threads) == {"turnlog-network_0"}, set(threads)

        # A new question is counted by the server: until then the preview is estimated,
        # labelled so, and the GUI thread goes on.
        window.composer.set_draft("How many words are in this question?")
        window.refresh_preview()
        assert "(estimated)" in counter.text()
        assert not window.shown.projection.tokens_exact
        qtbot.waitUntil(lambda: "(exact)" in counter.text(), timeout=10_000)
        projection = window.shown.projection
        assert projection.tokens_exact and projection.sent == tuple(range(1, 41))

        # The same projection counted by an independent counter, every text asked anew.
        reference_counter = ServerTokenCounter(loopback.tokenize_url, costs=TEMPLATE)
        reference = CostIndex(reference_counter)
        expected = project(store.turns(conversation.id), window.composer.text(),
                           model="loopback-model", budget=projection.budget,
                           system_prompt="Be brief.", options=options_for(window.conversation,
                           route=window.shown.endpoint.route),
                           costs=reference)
        reference_counter.close()
        assert projection.input_tokens == expected.input_tokens
        assert projection.body == expected.body
        assert f"{expected.input_tokens:,} / " in counter.text()

        # The what-if slider previews with counts already made: exact at once.
        window.set_what_if(2_000)
        assert window.shown.kind == "what-if" and window.shown.projection.tokens_exact
        assert 0 < len(window.shown.projection.sent) < 40

        assert threads, "the tokenizer was never asked"
        assert set(threads) == {"turnlog-network_0"}, set(threads)
    finally:
        window.shutdown()
        client.close()
