"""Budgets that never get stuck, in the window, over real HTTP: after a server said
"maximum context length is 512", sends still reach it; Settings shows the learned window
with its date and a window set by you wins over it (with a warning), and *Forget learned
window* forgets it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from loopback import Behaviour
from turnlog.config.model_counts import ModelCounts
from turnlog.config.model_facts import FactStore
from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.core.model import ConversationSettings
from turnlog.providers import CUSTOM
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]

MODEL = "loopback-model"
OVERFLOW_512 = Behaviour.error(
    400, "This model's maximum context length is 512 tokens. However, your messages "
    "resulted in 2400 tokens. Please reduce the length of the messages.",
    code="context_length_exceeded")
PAIRS = [(f"问题 {i}: how do budgets work? " + "q" * 300, f"回答 {i}: " + "a" * 300)
         for i in range(1, 9)]


@pytest.fixture
def counted_window(qtbot, store, loopback, turnlog_home):
    """A window over one seeded conversation, whose connector remembers what the server
    said about its window (as the app's does)."""
    seed(store, "long", PAIRS, model=MODEL)
    counts = ModelCounts(FactStore.in_dir(turnlog_home))
    profiles = ProfileStore()
    profile = new_profile(CUSTOM, model=MODEL, base_url=loopback.base_url)
    profiles.put(profile)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(profile.id)
    window = MainWindow(store, TaskRunner(),
                        ProviderConnector(setup.config, setup.keys, counts=counts),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    yield window, lambda: counts.window(profile.id, MODEL)
    window.shutdown()


def send(qtbot, window, loopback, question: str) -> list:
    before = len(loopback.requests)
    window.composer.set_draft(question)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    return [r for r in loopback.requests[before:] if r.path == "/v1/chat/completions"]


def test_an_overflow_does_not_leave_the_conversation_stuck_and_your_window_wins(
        qtbot, store, loopback, counted_window):
    window, window_known = counted_window
    qtbot.waitUntil(lambda: len(window.transcript.turns) == len(PAIRS))
    conversation = window.conversation

    # The first send overflows a 512-token window, and the one recovery fits it.
    loopback.script(OVERFLOW_512, Behaviour.answer("Recovered."))
    sent = send(qtbot, window, loopback, "Still there? 还在吗？")
    assert len(sent) == 2 and sent[1].json()["max_tokens"] <= 512 // 4 + 256
    assert window_known() == (512, "learned")

    # Every later send on the learned window still reaches the server (no summary call
    # fits 512 tokens: the oldest turns are left out instead) and is answered.
    loopback.script(Behaviour.answer("Answered in 512."))
    sent = send(qtbot, window, loopback, "And now?")
    assert len(sent) == 1
    assert store.turns(conversation.id)[-1].answer == "Answered in 512."

    # Settings shows the learned window with its date; 32,768 set by you wins, warned of.
    dialog = window.open_settings()
    dialog.show_conversation_page()
    shown = dialog.window_in_effect
    today = datetime.now(UTC).date().isoformat()
    assert f"512 tokens, learned from an overflow on {today}" in shown.summary.text()
    assert shown.forget_button.isVisibleTo(dialog)
    dialog.window_tokens.setValue(8_192)  # the default output reserve is sized to it
    assert not dialog.problem.isVisibleTo(dialog)
    assert "8,192 tokens, set by you · output reserve 2,048" in shown.summary.text()
    dialog.window_tokens.setValue(32_768)
    assert "32,768 tokens, set by you" in shown.summary.text()
    assert shown.warning.isVisibleTo(dialog) and "512" in shown.warning.text()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    qtbot.waitUntil(lambda: window.conversation.settings.context_window == 32_768,
                    timeout=5000)

    # The window's inspector warns of the server's smaller window too.
    window.composer.set_draft("Everything now?")
    window.refresh_preview()
    assert "server’s window is 512 tokens" in window.inspector.endpoint.text()

    loopback.script(Behaviour.answer("All of it."))
    sent = send(qtbot, window, loopback, "Everything now?")
    assert len(sent) == 1
    body = sent[0].json()
    assert body["max_tokens"] == 8_192
    carried = " ".join(m["content"] for m in body["messages"])
    assert all(f"问题 {i}:" in carried for i in range(1, len(PAIRS) + 1))
    assert store.turns(conversation.id)[-1].answer == "All of it."

    # Forget learned window: gone from Settings and from what later sends use.
    dialog = window.open_settings()
    dialog.show_conversation_page()
    dialog.window_in_effect.forget_button.click()
    assert window_known() == (None, "")
    assert not dialog.window_in_effect.warning.isVisibleTo(dialog)
    assert not dialog.window_in_effect.forget_button.isVisibleTo(dialog)
    dialog.reject()


def test_ask_aside_on_a_4096_window_shows_its_budget_while_typing_and_is_answered(
        qtbot, make_window, store, loopback):
    """Window 4,096 and output reserve 1,024 set by you: the side reserve (never set) is
    sized to the window too, so a 10-token side question fits and is answered, and the
    side inspector shows the side budget and the planned request while it is typed."""
    settings = ConversationSettings(context_window=4_096, output_reserve=1_024)
    seed(store, "小窗口 small window", [("Hi", "Hello"), ("预算？", "Budgets.")],
         settings=settings)
    window = make_window()
    qtbot.waitUntil(lambda: window.side.shown_for is not None, timeout=5000)
    panel = window.side.panel
    panel.edit.setPlainText("What did we just say? 我们说了什么？")
    qtbot.waitUntil(lambda: panel.inspector.state is not None
                    and panel.inspector.state.projection is not None, timeout=5000)
    planned = panel.inspector.state.projection
    assert planned.budget.context_window == 4_096
    assert planned.budget.output_reserve == 1_024 and planned.budget.input_tokens > 0
    assert "preview" in panel.inspector.heading.text()
    assert "own output reserve 1024 tokens" in panel.inspector.endpoint.text().replace(",", "")
    assert loopback.requests == []  # a preview sends nothing

    loopback.script(Behaviour.answer("We said hello. 我们打了招呼。"))
    window.side.ask()
    qtbot.waitUntil(lambda: not window.side.session.running, timeout=10_000)
    assert panel.list.count() == 1 and not panel.problem.isVisible()
    body = loopback.requests[-1].json()
    assert body["max_tokens"] == 1_024


def test_a_reserve_that_leaves_no_input_is_refused_naming_the_reserve_to_set(
        qtbot, make_window, store, loopback):
    """Set by you, 4,000 of a 4,096-token window: Send is refused before anything goes,
    and the reason names the output reserve to set, with its value (Settings refuses to
    save such a reserve, with the sizes: test_ui_settings)."""
    seed(store, "tight", [("Hi", "Hello")],
         settings=ConversationSettings(context_window=4_096, output_reserve=4_000))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    window.composer.set_draft("One short question? 一个短问题？")
    window.refresh_preview()
    reason = window.composer.reason.text()
    assert not window.composer.send_button.isEnabled()
    assert "set the output reserve to" in reason and "tokens" in reason, reason
    assert loopback.requests == []
