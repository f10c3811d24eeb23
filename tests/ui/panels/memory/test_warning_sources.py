"""The Memory panel warns that the summary lacks a pinned fact only when the summary
should hold it: a pin typed, or taken from a turn the summary stands in for. A pin taken
from a turn sent word for word is no summary's business: no warning that cannot go."""

from __future__ import annotations

from uihelpers import numbered
from window_sending import open_window

pytest_plugins = ["uiwindow"]

SUMMARY = "Turns 1–2: the deployment was discussed."


def test_a_pin_from_a_turn_sent_verbatim_is_not_missing_from_the_summary(
        qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(4))
    panel = window.memory.panel
    first, _second, _third, fourth = store.turns(cid)
    store.memory.add_pin(cid, "The data lives in /srv/quokka77", sources=[fourth.id])
    window.memory.reload()
    qtbot.waitUntil(lambda: panel.pins.count() == 1)
    # Turns 1 and 2 summarized; turn 4 (the pin's) sent word for word.
    panel.show_selection(None, SUMMARY, (1, 2))
    assert not panel.warning.isVisible() and panel.warning.text() == ""

    store.memory.add_pin(cid, "Backups go to /mnt/wombat12", sources=[first.id])
    window.memory.reload()
    qtbot.waitUntil(lambda: panel.pins.count() == 2)
    panel.show_selection(None, SUMMARY, (1, 2))
    assert panel.warning.isVisible()
    assert "/mnt/wombat12" in panel.warning.text()
    assert "quokka77" not in panel.warning.text()
