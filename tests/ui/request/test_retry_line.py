"""Automatic retry in the window: the stage line says when the next attempt goes out,
and Stop ends the wait at once with the draft given back."""

from __future__ import annotations

import time

from loopback import Behaviour
from uihelpers import numbered
from window_sending import QUESTION, open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]


def test_the_stage_line_says_retrying_and_the_answer_is_saved(qtbot, make_window, store,
                                                               loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1), retry=True)
    loopback.script(Behaviour.rate_limited("1"), Behaviour.answer("Patience pays"))
    stages: list[str] = []
    window.stage_entered.connect(stages.append)
    type_draft(window)
    window.send()
    qtbot.waitUntil(lambda: window.stage_line.text().startswith("Retrying"), timeout=5000)
    assert window.stage_line.text().startswith("Retrying in 1 s (attempt 2 of 3)")
    wait_done(qtbot, window)
    assert "Retrying in 1 s (attempt 2 of 3)" in stages
    assert [t.answer for t in window.transcript.turns][-1] == "Patience pays"
    assert len(loopback.requests) == 2
    assert [r.attempt for r in store.records.of(cid)] == [1, 2]


def test_stop_ends_the_wait_promptly_with_the_draft_back(qtbot, make_window, store,
                                                          loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1), retry=True)
    loopback.script(Behaviour.rate_limited("30"), Behaviour.answer("must not be asked for"))
    type_draft(window)
    window.send()
    qtbot.waitUntil(lambda: window.stage_line.text().startswith("Retrying"), timeout=5000)
    stopped = time.monotonic()
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=2000)
    assert time.monotonic() - stopped < 0.2 + 0.1  # the wait ends within 200 ms (+ Qt's turn)
    assert window.composer.text() == QUESTION
    assert window.banner.title.text() == "Stopped"
    assert len(loopback.requests) == 1
    assert len(store.turns(cid)) == 1
