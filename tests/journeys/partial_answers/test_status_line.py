"""What the status bar says about one conversation ("Kept as turn 2, marked incomplete.")
goes when another conversation is opened: it never reads as if said about that one."""

from __future__ import annotations

from loopback import Behaviour
from partial_clicks import click_button, offered
from uihelpers import numbered, seed
from window_sending import type_draft

pytest_plugins = ["uiwindow"]


def test_a_kept_turn_s_message_stays_with_its_conversation(qtbot, make_window, store,
                                                           loopback):
    other = seed(store, "other", numbered(3))
    kept = seed(store, "kept", numbered(1))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == kept.id
                    and len(window.transcript.turns) == 1, timeout=5000)
    loopback.script(Behaviour.length("Tout droit,"))
    type_draft(window, "Which way to the station?", 3)
    window.send()
    qtbot.waitUntil(lambda: not window.running and offered(window), timeout=10_000)
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 2, timeout=5000)
    assert window.statusBar().currentMessage() == "Kept as turn 2, marked incomplete."

    assert window.sidebar.select(other.id)
    qtbot.waitUntil(lambda: window.conversation.id == other.id
                    and len(window.transcript.turns) == 3, timeout=5000)
    assert window.statusBar().currentMessage() == ""
