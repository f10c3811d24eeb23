"""The conversation header's pickers (profile, model, sampling), reasoning shown folded
above the answer, and two fixes: the composer's prompt after an answer, and an inspector
with nothing to show before any request. Real widgets, a real store, loopback servers."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from loopback import Behaviour, LoopbackServer
from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.core.model import ConversationSettings
from turnlog.providers import CUSTOM
from turnlog.ui.conversation.composer import ANSWERING, PROMPT
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.inspector_text import NOTHING_YET
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from turnlog.ui.transcript.model import Role
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

THOUGHT = ("The user asks for the capital. 首都是巴黎，这是常识。 Let me answer briefly. " * 3)


def models_asked(server: LoopbackServer) -> int:
    return sum(1 for r in server.requests if r.path == "/v1/models")


def pick(combo, text: str) -> None:
    """Choose the entry `text` as a person does (the combo's `activated`)."""
    index = combo.findData(text)
    assert index >= 0, [combo.itemText(i) for i in range(combo.count())]
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


@pytest.fixture
def second_server():
    with LoopbackServer() as server:
        yield server


def test_the_header_picks_another_model_and_another_profile(qtbot, store, loopback,
                                                             second_server, turnlog_home):
    loopback.models = ["loopback-model", {"id": "deepseek-reasoner", "max_model_len": 65536}]
    second_server.models = ["other-model"]
    profiles = ProfileStore()
    first = new_profile(CUSTOM, model="loopback-model", name="First",
                        base_url=loopback.base_url)
    second = new_profile(CUSTOM, model="other-model", name="Second 第二",
                         base_url=second_server.base_url, context_window=16_384)
    profiles.save([first, second])
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(first.id)
    conversation = seed(store, "chat", numbered(3), model="")
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    header = window.centre.header
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
        assert [header.profile.itemText(i) for i in range(header.profile.count())] == [
            "First", "Second 第二"]
        assert header.profile.currentText() == "First"
        # The profile's models, fetched on the network worker when the list first opens.
        assert models_asked(loopback) == 0
        header.model.showPopup()
        qtbot.waitUntil(lambda: header.model.count() == 2, timeout=5000)
        header.model.hidePopup()
        assert header.model.currentText() == "loopback-model"
        assert header.model.itemText(1) == "deepseek-reasoner  (65,536 tokens)"
        window.composer.set_draft("Which model are you?")
        window.refresh_preview()
        assert json.loads(window.shown.projection.body)["model"] == "loopback-model"

        pick(header.model, "deepseek-reasoner")
        qtbot.waitUntil(lambda: window.conversation.model == "deepseek-reasoner", timeout=5000)
        # The preview follows at once: its body, the inspector and the stored conversation.
        assert json.loads(window.shown.projection.body)["model"] == "deepseek-reasoner"
        assert window.inspector.endpoint.text().endswith("model deepseek-reasoner")
        assert store.conversations.get(conversation.id).model == "deepseek-reasoner"
        assert header.model.currentText() == "deepseek-reasoner"
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        [chat] = [r for r in loopback.requests if r.path == "/v1/chat/completions"]
        assert chat.json()["model"] == "deepseek-reasoner"
        assert models_asked(loopback) == 1  # kept: not asked again on every refresh

        budget_before = window.shown.projection.budget.input_tokens
        assert window.legend.source.text().startswith("Marks show the last request")
        pick(header.profile, second.id)
        qtbot.waitUntil(lambda: window.conversation.model == "", timeout=5000)
        assert setup.active().id == second.id
        # The marks now describe the next request, to the second profile.
        assert window.legend.source.text().startswith("Marks show what the next request")
        assert window.shown.endpoint.label.startswith("Second 第二 · ")
        assert header.model.currentText() == "other-model"
        header.model.showPopup()
        qtbot.waitUntil(lambda: header.model.count() == 1, timeout=5000)
        header.model.hidePopup()
        assert models_asked(second_server) == 1
        window.composer.set_draft("And now?")
        window.refresh_preview()
        projection = window.shown.projection
        assert json.loads(projection.body)["model"] == "other-model"
        # The budget is the second profile's: its 16,384-token window.
        assert projection.budget.context_window == 16_384
        assert projection.budget.input_tokens != budget_before
        assert "window 16,384 tokens" in window.inspector.tokens_label.text()
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        [chat] = [r for r in second_server.requests if r.path == "/v1/chat/completions"]
        assert chat.json()["model"] == "other-model"
    finally:
        window.shutdown()


def test_a_model_the_server_does_not_list_can_be_typed(qtbot, make_window, store, loopback):
    loopback.script(Behaviour.unauthorized(), path="/v1/models")
    conversation = seed(store, "chat", numbered(1))
    window = make_window()
    header = window.centre.header
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    header.model.showPopup()
    qtbot.waitUntil(lambda: "could not be listed" in header.status.text(), timeout=5000)
    header.model.hidePopup()
    assert "The key was refused" in header.status.text()
    header.model.setEditText("qwen3-32b")
    qtbot.keyClick(header.model.lineEdit(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.conversation.model == "qwen3-32b", timeout=5000)
    assert store.conversations.get(conversation.id).model == "qwen3-32b"
    assert json.loads(window.shown.projection.body)["model"] == "qwen3-32b"


def test_sampling_settings_reach_the_body_and_the_budget(qtbot, make_window, store, loopback):
    conversation = seed(store, "chat", [("Hi", "Hello")],
                        settings=ConversationSettings(context_window=32_768))
    window = make_window()
    header = window.centre.header
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    assert header.sampling.full_text() == "Sampling: max 8,192 tokens"
    assert not header.sampling_row.isVisible()
    qtbot.mouseClick(header.sampling, Qt.MouseButton.LeftButton)
    assert header.sampling_row.isVisible()
    assert header.temperature.text() == header.top_p.text() == "server default"
    assert window.inspector.sampling.text() == (
        "Sampling: temperature server default · top_p server default · "
        "max output tokens 8,192")
    before = window.shown.projection.budget

    header.temperature.setValue(0.7)
    header.top_p.setValue(0.9)
    header.max_tokens.setValue(1024)
    qtbot.waitUntil(lambda: window.conversation.settings.top_p == 0.9, timeout=5000)
    settings = store.conversations.get(conversation.id).settings
    assert (settings.temperature, settings.top_p, settings.output_reserve,
            settings.send_max_tokens) == (0.7, 0.9, 1024, True)
    # Whole in its tooltip; on the button whole, or cut at the end where the row is short.
    whole = "Sampling: temperature 0.7 · top_p 0.9 · max 1,024 tokens"
    assert header.sampling.full_text() == header.sampling.toolTip() == whole
    assert whole.startswith(header.sampling.text().removesuffix("…"))
    assert window.inspector.sampling.text() == (
        "Sampling: temperature 0.7 · top_p 0.9 · max output tokens 1,024")
    # The output reserve follows max output tokens: 7,168 more tokens for input.
    budget = window.shown.projection.budget
    assert (budget.output_reserve, budget.input_tokens) == (
        1024, before.input_tokens + 8192 - 1024)
    assert f"/ {budget.input_tokens:,} tokens" in window.composer.counter.text()

    window.composer.set_draft("Again?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert loopback.requests[-1].body == (
        b'{"model":"loopback-model","messages":[{"role":"user","content":"Hi"},'
        b'{"role":"assistant","content":"Hello"},{"role":"user","content":"Again?"}],'
        b'"stream":true,"max_tokens":1024,"temperature":0.7,"top_p":0.9}')

    # "Server default" leaves the fields out of the body; the reserve stays.
    for spin in (header.temperature, header.top_p, header.max_tokens):
        spin.setValue(spin.minimum())
    qtbot.waitUntil(lambda: window.conversation.settings.temperature is None, timeout=5000)
    qtbot.waitUntil(lambda: not window.conversation.settings.send_max_tokens, timeout=5000)
    assert header.sampling.full_text() == "Sampling: server defaults"
    window.composer.set_draft("Once more?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    body = loopback.requests[-1].json()
    assert set(body) == {"model", "messages", "stream"}
    assert window.shown.projection.budget.output_reserve == 1024


def test_reasoning_streams_folded_above_the_answer_and_stays_with_the_turn(
        qtbot, make_window, store, loopback):
    conversation = seed(store, "chat", numbered(2))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    loopback.script(
        Behaviour.answer("Paris.", reasoning=THOUGHT, chunks=6, delay_s=0.08,
                         usage={"prompt_tokens": 50, "completion_tokens": 70,
                                "total_tokens": 120}),
        Behaviour.answer("Berlin."))
    window.composer.set_draft("What is the capital of France?")
    window.send()
    model = window.transcript
    pending = model.index(model.rowCount() - 1)
    # The reasoning arrives first and shows while the answer has not begun.
    qtbot.waitUntil(lambda: 0 < len(pending.data(Role.REASONING) or "") < len(THOUGHT),
                    timeout=5000)
    assert pending.data(Role.ANSWER) == ""
    assert "characters of reasoning" in window.stage_line.text()
    header = window.centre.header
    assert not header.model.isEnabled() and not header.sampling_row.isEnabled()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)

    [*_, turn] = store.turns(conversation.id)
    assert (turn.answer, turn.reasoning) == ("Paris.", THOUGHT)
    row = model.index(model.rowCount() - 1)
    assert (row.data(Role.ANSWER), row.data(Role.REASONING)) == ("Paris.", THOUGHT)
    view, delegate = window.view, window.view.delegate
    assert not delegate.reasoning.is_open(turn.id)  # folded by default
    folded = view.visualRect(row).height()
    line = delegate._fold_line(_option(view, row), row)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=line.center())
    assert delegate.reasoning.is_open(turn.id)
    qtbot.waitUntil(lambda: view.visualRect(row).height() > folded + 40, timeout=3000)
    assert header.model.isEnabled()
    # From the keyboard too: the history's context action on the current turn.
    view.setCurrentIndex(row)
    view.reasoning_action.trigger()
    assert not delegate.reasoning.is_open(turn.id)
    qtbot.waitUntil(lambda: view.visualRect(row).height() == folded, timeout=3000)
    view.reasoning_action.trigger()
    assert delegate.reasoning.is_open(turn.id)
    # Its text is copied whole from the history's menu (it is not sent, nor selectable).
    view.copy_reasoning_action.trigger()
    assert QApplication.clipboard().text() == THOUGHT
    # Its size is shown apart from the answer's in the inspector.
    reasoning = window.inspector.reasoning_value
    assert reasoning.isVisible()
    assert reasoning.text().startswith(f"{len(THOUGHT.encode()):,} bytes · ~")

    # Never sent back: the next request carries the question and answer only.
    window.composer.set_draft("And Germany?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    sent = loopback.requests[-1].body
    assert "首都是巴黎".encode() not in sent
    assert json.loads(sent)["messages"][-3:] == [
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": "Paris."},
        {"role": "user", "content": "And Germany?"}]
    assert not window.inspector.reasoning_value.isVisible()  # "Berlin." had none


def _option(view, index):
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    option.font = view.font()
    option.fontMetrics = view.fontMetrics()
    return option


def _on_screen(window, widget):
    """What the screen shows of `widget` now (the window's last painted pixels)."""
    top = widget.mapTo(window, QPoint(0, 0))
    shot = QGuiApplication.primaryScreen().grabWindow(window.winId()).toImage()
    return shot.copy(top.x(), top.y(), widget.width(), widget.height())


def test_the_prompt_comes_back_on_screen_after_an_answer(qtbot, make_window, store, loopback):
    seed(store, "chat", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    flash = QApplication.cursorFlashTime()
    QApplication.setCursorFlashTime(0)  # a steady cursor: two shots differ only by content
    try:
        edit = window.composer.edit
        loopback.script(Behaviour.slow("An answer.", delay_s=0.1, chunks=3))
        window.composer.set_draft("A question?")
        window.send()
        qtbot.wait(150)
        assert edit.placeholderText() == ANSWERING
        busy = _on_screen(window, edit.viewport())
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        qtbot.wait(150)
        shown = _on_screen(window, edit.viewport())
        edit.viewport().repaint()  # what a full repaint shows: the placeholder as it is
        painted = _on_screen(window, edit.viewport())
        assert edit.placeholderText() == PROMPT
        assert shown == painted, "the screen still shows the placeholder of the running send"
        assert shown != busy
    finally:
        QApplication.setCursorFlashTime(flash)


def test_before_any_request_the_inspector_says_only_what_will_appear(qtbot, make_window,
                                                                    store, loopback):
    window = make_window()
    inspector = window.inspector
    qtbot.wait(50)
    assert inspector.heading.text() == NOTHING_YET
    assert inspector.heading.isVisible()
    for widget in (inspector.bytes_bar, inspector.tokens_bar, inspector.slider,
                   inspector.parts, inspector.body, inspector.outcome_value):
        assert not widget.isVisible()
    conversation = seed(store, "chat", numbered(1))
    window.refresh_conversations(select_id=conversation.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    window.composer.set_draft("Something")
    window.refresh_preview()
    assert inspector.heading.text().startswith("Preview of the next request")
    for widget in (inspector.bytes_bar, inspector.slider, inspector.parts, inspector.body):
        assert widget.isVisible()
