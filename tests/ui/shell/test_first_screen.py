"""A start paints the open conversation's turns before it previews the draft: the size
counter, the turns' marks and the inspector follow once the first screen is up (or at
once, for a window that is not being started)."""

from __future__ import annotations

from uihelpers import seed

pytest_plugins = ["uiwindow"]


def test_at_a_start_the_draft_is_previewed_once_the_turns_are_on_screen(qtbot, store,
                                                                         make_window):
    seed(store, "opened at start", [("first?", "one"), ("second?", "two")])
    window = make_window()
    window.warm_up.hold()  # as `app.main` does, before the conversation has loaded
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=10_000)
    qtbot.wait(100)  # time enough for a preview that was not held
    assert window.composer.counter.text() == ""

    window.warm_up()  # the first screen is up
    assert window.composer.counter.text() != ""
    counted = window.composer.counter.text()
    window.warm_up()  # only the first call does anything
    assert window.composer.counter.text() == counted


def test_a_window_that_is_not_being_started_previews_as_soon_as_it_has_loaded(
        qtbot, store, make_window):
    seed(store, "opened", [("first?", "one")])
    window = make_window()
    qtbot.waitUntil(lambda: window.composer.counter.text() != "", timeout=10_000)
    assert len(window.transcript.turns) == 1
