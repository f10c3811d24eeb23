"""Stop while the built-in model starts: nothing was sent, so the window goes back to what
it showed before Send — the question in the composer, the earlier turns marked as the
preview of that question sends them (not "not sent"), and the inspector's preview."""

from __future__ import annotations

from mark_reading import marks
from starting_windows import ROOMY, shown_body, starting_window
from turnlog.core.send import Stage
from turnlog.ui.transcript.marks import RowMark
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def test_stop_while_the_model_starts_leaves_the_earlier_turns_marked_as_sent(
        qtbot, store, loopback):
    seed(store, "dogs", [("Hello", "Hi"), ("And cats?", "Cats too.")], settings=ROOMY)
    window, connector, stages = starting_window(qtbot, store, loopback)
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
        window.composer.set_draft("Tell me about dogs")
        window.refresh_preview()
        qtbot.waitUntil(lambda: window.shown.projection is not None, timeout=10_000)
        before = marks(window)
        assert before == {1: RowMark.SENT, 2: RowMark.SENT}
        window.send()
        qtbot.waitUntil(lambda: Stage.STARTING_LOCAL_MODEL in stages, timeout=10_000)
        window.stop()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        assert window.composer.text() == "Tell me about dogs"
        qtbot.waitUntil(lambda: marks(window) == before, timeout=10_000)
        assert b'"Tell me about dogs"' in shown_body(window)
        assert not window.inspector.heading.text().startswith("Request in flight")
        assert loopback.requests == []
    finally:
        connector.ready.set()
        window.shutdown()
