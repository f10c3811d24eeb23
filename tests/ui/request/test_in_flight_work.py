"""Showing the request in flight costs the window little right after Send: the body is
built once when nothing has to start first, a second report of the same request redraws
nothing, the inspector's parts table writes only the rows that changed, the body is
built after the first frame of the question being answered, and the next request's
preview is built off the GUI thread when the answer is saved."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.service import request_body
from turnlog.ui.request import send_session
from uihelpers import numbered
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]

ROOMY = ConversationSettings(max_bytes=64_000, compaction=False)


def part_texts(window) -> list[tuple[str, str, str]]:
    table = window.inspector.parts
    return [tuple(table.item(r, c).text() for c in range(3)) for r in range(table.rowCount())]


def test_a_send_to_a_ready_server_builds_and_shows_its_body_once(
        qtbot, make_window, store, loopback):
    window, _cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    loopback.script(Behaviour.answer("Fine."))
    reported = []
    window.session.projected.connect(reported.append)
    shown = []
    window.preview.shown_changed.connect(
        lambda s: shown.append(s.projection) if s.kind == "running" else None)
    type_draft(window, "How are you?")
    window.send()
    wait_done(qtbot, window)
    (request,) = loopback.requests
    # One body, built by the send path, and it is the body the server received.
    assert [p.body for p in reported] == [request.body]
    assert [p.body for p in shown if p is not None] == [request.body]


def test_the_same_request_reported_again_redraws_nothing(qtbot, make_window, store):
    window, _cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    type_draft(window, "How are you?")
    planned = window.shown.projection
    window.preview.show_running(window.shown.endpoint)
    window.preview.show_sent(planned)
    changes = []
    window.preview.shown_changed.connect(changes.append)
    again = replace(planned)  # the send path's own plan of the very same request
    window.preview.show_sent(again)
    assert changes == []
    assert window.shown.projection is again
    assert window.inspector.heading.text().startswith("Request in flight")
    # A request that differs is shown at once.
    other = replace(planned, input_tokens=planned.input_tokens + 1)
    window.preview.show_sent(other)
    assert [c.projection for c in changes] == [other]


def test_the_body_in_flight_rewrites_only_the_parts_that_changed(
        qtbot, make_window, store, loopback):
    window, _cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    type_draft(window, "How are you?")
    table = window.inspector.parts
    before = part_texts(window)
    turn_items = [table.item(r, 0) for r in range(table.rowCount())
                  if table.item(r, 0).text().startswith("turn ")]
    assert len(turn_items) == 5
    loopback.script(Behaviour.slow("Fine, thank you.", delay_s=0.2, chunks=5))
    type_draft(window, "How are you, really?")  # a longer question: its row and the total
    window.send()
    qtbot.waitUntil(lambda: window.shown.kind == "running"
                    and window.shown.projection is not None, timeout=5000)
    after = part_texts(window)
    changed = [r for r, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert changed, "the question grew: its row and the total show it"
    assert all(not after[r][0].startswith("turn ") for r in changed)
    # The turns' rows are the very items shown before: nothing was rewritten for them.
    assert [table.item(r, 0) for r in range(table.rowCount())
            if table.item(r, 0).text().startswith("turn ")] == turn_items
    wait_done(qtbot, window)


class FirstFrame(QObject):
    """At the first paint of the list after Send: whether the request reached the server
    while that frame was being drawn (it waits `hold_s` in the frame, as a slow frame
    would take)."""

    def __init__(self, loopback, hold_s: float) -> None:
        super().__init__()
        self.loopback = loopback
        self.hold_s = hold_s
        self.reached: bool | None = None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self.reached is None:
            deadline = time.monotonic() + self.hold_s
            while not self.loopback.requests and time.monotonic() < deadline:
                time.sleep(0.01)
            self.reached = bool(self.loopback.requests)
        return False


def test_the_question_being_answered_is_painted_before_the_body_is_built(
        qtbot, make_window, store, loopback, monkeypatch):
    """The network worker builds the body (Python work that holds the interpreter) after
    the window's first frame of the question being answered, not while it is drawn."""
    monkeypatch.setattr(send_session, "FIRST_PAINT_WAIT_S", 10.0, raising=False)
    window, cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    loopback.script(Behaviour.answer("Fine."))
    frame = FirstFrame(loopback, hold_s=0.5)
    window.view.viewport().installEventFilter(frame)
    type_draft(window, "How are you?")
    window.send()
    wait_done(qtbot, window)
    window.view.viewport().removeEventFilter(frame)
    assert frame.reached is False
    assert len(loopback.requests) == 1
    assert store.turns(cid)[-1].answer == "Fine."


def test_stop_while_waiting_for_the_first_frame_ends_at_once(
        qtbot, make_window, store, loopback, monkeypatch):
    monkeypatch.setattr(send_session, "FIRST_PAINT_WAIT_S", 10.0, raising=False)
    window, cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    window.view.viewport().setUpdatesEnabled(False)  # no frame comes
    try:
        type_draft(window, "How are you?")
        window.send()
        started = time.monotonic()
        window.stop()
        wait_done(qtbot, window, timeout=5000)
        assert time.monotonic() - started < 5
    finally:
        window.view.viewport().setUpdatesEnabled(True)
    assert window.composer.text() == "How are you?"
    assert loopback.requests == []
    assert len(store.turns(cid)) == 5


def test_when_the_answer_is_saved_the_next_preview_is_built_off_the_gui_thread(
        qtbot, make_window, store, loopback, monkeypatch):
    """The frame that shows the answer saved does not wait for the next request's body
    (the log walked back to the budget); the counter shows that body once it is built,
    and the marks and inspector show the request just answered at once."""
    window, cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    loopback.script(Behaviour.answer("Fine."))
    built_on = []  # (question asked, whether on the GUI thread)
    build = request_body.build

    def noted(ask, *args, **kwargs):
        built_on.append((ask.question, threading.current_thread() is threading.main_thread()))
        return build(ask, *args, **kwargs)

    monkeypatch.setattr(request_body, "build", noted)
    type_draft(window, "How are you?")
    window.send()
    wait_done(qtbot, window)
    in_flight = window.composer.counter.text()  # the request just answered, until then
    assert window.shown.kind == "last"
    assert window.legend.source.text().startswith("Marks show the last request")
    qtbot.waitUntil(lambda: any(question == "" for question, _ in built_on), timeout=5000)
    next_preview = [on_gui for question, on_gui in built_on if question == ""]
    assert not any(next_preview), built_on
    qtbot.waitUntil(lambda: window.composer.counter.text() != in_flight, timeout=5000)
    settled = window.composer.counter.text()
    window.refresh_preview()  # built here, now: the body the counter must show
    assert window.composer.counter.text() == settled
    assert len(store.turns(cid)) == 6


class SavedFrame(QObject):
    """At the first paint of the list once the answer is saved: whether the next
    preview's body was being built while that frame was drawn (it waits `hold_s` in the
    frame, as a slow frame would take)."""

    def __init__(self, built_on: list, hold_s: float) -> None:
        super().__init__()
        self.built_on = built_on
        self.hold_s = hold_s
        self.saved = False
        self.building: bool | None = None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self.saved and self.building is None:
            deadline = time.monotonic() + self.hold_s
            while not self.next_preview() and time.monotonic() < deadline:
                time.sleep(0.01)
            self.building = self.next_preview()
        return False

    def next_preview(self) -> bool:
        return any(question == "" for question, _ in self.built_on)


def test_the_next_preview_is_built_after_the_frame_that_shows_the_answer_saved(
        qtbot, make_window, store, loopback, monkeypatch):
    """Building the body holds the interpreter: the frame of the saved answer is drawn
    first, so the two do not share the processor."""
    window, _cid = open_window(qtbot, make_window, store, numbered(5), settings=ROOMY)
    loopback.script(Behaviour.answer("Fine."))
    built_on = []
    build = request_body.build

    def noted(ask, *args, **kwargs):
        built_on.append((ask.question, threading.current_thread() is threading.main_thread()))
        return build(ask, *args, **kwargs)

    monkeypatch.setattr(request_body, "build", noted)
    frame = SavedFrame(built_on, hold_s=0.5)
    window.view.viewport().installEventFilter(frame)
    window.transcript.pending_saved.connect(lambda *_: setattr(frame, "saved", True))
    type_draft(window, "How are you?")
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: frame.building is not None, timeout=5000)
    window.view.viewport().removeEventFilter(frame)
    assert frame.building is False
    qtbot.waitUntil(frame.next_preview, timeout=5000)
