"""The status bar's sync button in a data directory without sync: nothing is shown, the
window does not sync by itself, and View → Sync now says how to set it up. The words of
the last sync's time, of what stops a sync and when it is tried again, and the waits
between tries (30 s, 1 min, 2 min … 15 min)."""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar

from turnlog.ui.infra.sync_words import failure_words, retry_words, since_words
from turnlog.ui.shell.sync_control import RetryDelays, SyncTimes

pytest_plugins = ["uiwindow"]


def test_without_sync_the_button_stays_hidden_and_sync_now_says_how_to_set_it_up(
        qtbot, make_window):
    window = make_window()
    window.sync.retime(SyncTimes(first=10, after_change=10, every=60_000, words=50))
    window.warm_up()  # the first screen is up: the first sync finds none set up
    qtbot.waitUntil(lambda: window.sync.set_up is False, timeout=10_000)
    assert window.sync.button is None
    assert window.findChild(QStatusBar) is None  # no empty strip under the composer
    assert not (window.store.home / "sync.sqlite3").exists()  # nothing made by asking
    window.sync.action.trigger()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "", timeout=10_000)
    assert window.statusBar().currentMessage() == (
        "Sync is not set up — open Settings → Sync")
    assert window.sync.button is None
    assert window.sync.action.shortcut().toString() == "F5"


def test_the_last_syncs_time_in_plain_words():
    assert since_words(0) == "Synced just now"
    assert since_words(59) == "Synced just now"
    assert since_words(125) == "Synced 2 min ago"
    assert since_words(60) == "Synced 1 min ago"
    assert since_words(3 * 3600 + 10) == "Synced 3 h ago"
    assert failure_words("folder_missing", "/media/usb/Sync") == (
        "Sync folder not found: /media/usb/Sync")
    assert failure_words("failed", "disk full") == "Sync failed: disk full"


def test_what_stops_a_sync_and_when_it_is_tried_again_in_plain_words():
    assert retry_words(failure_words("offline", ""), 60) == "Sync: offline, retrying in 1 min"
    assert retry_words(failure_words("offline", ""), 29.6) == "Sync: offline, retrying in 30 s"
    assert retry_words(failure_words("storage_full", ""), 240) == (
        "Sync: the storage is full, retrying in 4 min")
    assert failure_words("authentication_failed", "401") == (
        "Sync: authentication failed — open Settings → Sync")
    assert failure_words("wrong_passphrase", "") == "Sync: wrong passphrase — open Settings → Sync"


def test_the_waits_between_tries_double_up_to_a_quarter_of_an_hour_and_start_over():
    times = SyncTimes()
    delays = RetryDelays(times.retry, times.retry_most)
    taken = [delays.take() // 1000 for _ in range(8)]
    assert taken == [30, 60, 120, 240, 480, 900, 900, 900]
    delays.reset()
    assert delays.take() == 30_000
