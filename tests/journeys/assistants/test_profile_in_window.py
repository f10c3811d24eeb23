"""New from assistant in the window sends through the provider profile and model the
assistant names (two profiles, two loopback servers: the body arrives at the assistant's
one); an assistant whose profile is not set up here says so and uses the one in use."""

from __future__ import annotations

import pytest

from loopback import Behaviour, LoopbackServer
from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.core.assistants import AssistantSetup
from turnlog.providers import CUSTOM
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings

pytest_plugins = ["uiwindow"]


@pytest.fixture
def second_server():
    with LoopbackServer() as server:
        yield server


def _window(qtbot, store, turnlog_home, loopback, second_server):
    profiles = ProfileStore()
    first = new_profile(CUSTOM, model="first-model", name="First",
                        base_url=loopback.base_url)
    second = new_profile(CUSTOM, model="second-model", name="Second 第二",
                         base_url=second_server.base_url)
    profiles.save([first, second])
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(first.id)
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    return window, setup, second


def _start(qtbot, window, label: str) -> None:
    window.from_assistant.fill(menu := window.sidebar.new_button.menu())
    [action] = [a for a in menu.actions() if a.text() == label]
    before = None if window.conversation is None else window.conversation.id
    action.trigger()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id != before, timeout=5000)


def _send(qtbot, window, text: str) -> None:
    window.composer.set_draft(text)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)


def _chats(server: LoopbackServer) -> list:
    return [r for r in server.requests if r.path == "/v1/chat/completions"]


def test_a_conversation_from_an_assistant_sends_through_its_profile_and_model(
        qtbot, store, turnlog_home, loopback, second_server):
    window, setup, second = _window(qtbot, store, turnlog_home, loopback, second_server)
    store.assistants.add(AssistantSetup("Reviewer", system_prompt="Model {{model}}.",
                                        profile="Second 第二", model="review-model"))
    store.assistants.add(AssistantSetup("Plain", system_prompt="Model {{model}}.",
                                        profile=second.id))
    try:
        second_server.script(Behaviour.answer("Reviewed."), Behaviour.answer("Plain."))
        _start(qtbot, window, "Reviewer")
        assert setup.active().id == second.id
        assert window.centre.header.profile.currentText() == "Second 第二"
        _send(qtbot, window, "Please review.")
        [chat] = _chats(second_server)
        body = chat.json()
        assert body["model"] == "review-model"
        assert body["messages"][0]["content"] == "Model review-model."
        assert _chats(loopback) == []
        # Named by the profile's id, with no model of its own: the profile's model.
        _start(qtbot, window, "Plain")
        _send(qtbot, window, "And you?")
        body = _chats(second_server)[-1].json()
        assert (body["model"], body["messages"][0]["content"]) == (
            "second-model", "Model second-model.")
        assert _chats(loopback) == []
    finally:
        window.shutdown()


def test_an_assistant_whose_profile_is_not_here_says_so_and_uses_the_one_in_use(
        qtbot, store, turnlog_home, loopback, second_server):
    window, setup, _second = _window(qtbot, store, turnlog_home, loopback, second_server)
    store.assistants.add(AssistantSetup("Travelled", profile="Work laptop"))
    try:
        loopback.script(Behaviour.answer("Here."))
        _start(qtbot, window, "Travelled")
        qtbot.waitUntil(lambda: "Work laptop" in window.statusBar().currentMessage(),
                        timeout=5000)
        assert "not set up here" in window.statusBar().currentMessage()
        assert setup.active().name == "First"
        _send(qtbot, window, "Where am I?")
        assert [c.json()["model"] for c in _chats(loopback)] == ["first-model"]
        assert _chats(second_server) == []
    finally:
        window.shutdown()
