"""Sending from the window against the loopback server: streaming, commit and marks,
every failure giving the draft back with the log untouched, cancel, refusal."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from uihelpers import exported, numbered
from window_sending import CURSOR, QUESTION, open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]


def marks(window: MainWindow) -> dict[int, RowMark]:
    model = window.transcript
    return {model.index(r).data(Role.ORDINAL): model.index(r).data(Role.MARK)
            for r in range(model.rowCount())}


def test_send_streams_commits_and_marks_what_was_sent(qtbot, make_window, store, loopback,
                                                      turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(3))
    loopback.script(Behaviour.slow("Hello **there**, 世界 🌍", delay_s=0.05, chunks=6,
                                   usage={"prompt_tokens": 90, "completion_tokens": 9,
                                          "total_tokens": 99}))
    type_draft(window)
    assert window.composer.send_button.isEnabled()
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    assert window.running
    assert window.composer.text() == ""
    pending_row = window.transcript.rowCount() - 1
    assert window.transcript.index(pending_row).data(Role.PENDING) is True
    assert marks(window)[4] is RowMark.PENDING
    changed: list[tuple[int, int]] = []
    window.transcript.dataChanged.connect(
        lambda a, b, roles: changed.append((a.row(), b.row())) if roles == [Role.ANSWER]
        else None)
    # Part of the answer shows in the pending row before the reply is complete.
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and 0 < len(window.transcript.pending.answer) < 18, timeout=5000)
    assert window.stage_line.text().startswith("Answering")
    wait_done(qtbot, window)

    turns = store.turns(cid)
    assert len(turns) == 4
    assert turns[-1].question == QUESTION
    assert turns[-1].answer == "Hello **there**, 世界 🌍"
    assert set(changed) == {(pending_row, pending_row)}  # streaming touched that row only
    assert marks(window) == {1: RowMark.SENT, 2: RowMark.SENT, 3: RowMark.SENT,
                             4: RowMark.ASKED}
    assert window.legend.source.text().startswith("Marks show the last request")
    assert not window.banner.isVisible()
    assert window.composer.text() == ""
    [request] = loopback.requests
    assert request.body == window.shown.projection.body
    sent = request.json()["messages"]
    assert [m["content"] for m in sent] == [
        text for t in turns[:3] for text in (t.question, t.answer)] + [QUESTION]
    last_line = json.loads(exported(turnlog_home, cid).splitlines()[-1])
    assert (last_line["question"], last_line["answer"]) == (QUESTION, turns[-1].answer)


FAILURES = [
    pytest.param(Behaviour.rate_limited("7"), "Rate limited", "Retry after 7 s", "",
                 id="rate-limited"),
    pytest.param(Behaviour.unauthorized(), "The key was refused", "", "", id="auth"),
    pytest.param(Behaviour.server_error(), "The server returned an error", "", "",
                 id="server-error"),
    pytest.param(Behaviour.openai_overflow(), "larger than the model's context window", "",
                 "", id="context-overflow"),
    pytest.param(Behaviour.length("Cut off at the output lim"), "cut off at the output limit",
                 "output", "Cut off at the output lim", id="length"),
    pytest.param(Behaviour.empty(), "The reply was empty", "", "", id="empty"),
    pytest.param(Behaviour.no_finish_reason("Never says done"), "did not say it was finished",
                 "", "Never says done", id="no-finish-reason"),
    pytest.param(Behaviour.tool_calls(), "ended for an unexpected reason", "tool", "",
                 id="tool-calls"),
    pytest.param(Behaviour.cut("The start of an answer that never", after_chunks=2),
                 "stopped before it was complete", "", "The start of", id="truncated"),
    pytest.param(Behaviour.garbage(), "not a chat reply", "", "", id="malformed"),
]


@pytest.mark.parametrize(("behaviour", "title_part", "hint_part", "partial_part"), FAILURES)
def test_every_failure_restores_the_draft_and_leaves_the_log(
    qtbot, make_window, store, loopback, turnlog_home, behaviour, title_part, hint_part,
    partial_part,
):
    # No earlier turns: an overflow cannot be retried with fewer, so it is reported.
    window, cid = open_window(qtbot, make_window, store, [])
    before = exported(turnlog_home, cid)
    loopback.script(behaviour)
    type_draft(window)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.running
    assert not window.empty_hint.isVisibleTo(window)  # the question is on show instead
    wait_done(qtbot, window)

    assert window.composer.text() == QUESTION
    assert window.composer.cursor_position() == CURSOR
    assert window.transcript.rowCount() == 0  # the pending row is gone
    assert "No turns yet" in window.empty_hint.text()  # and the empty history says so again
    assert window.empty_hint.isVisibleTo(window)
    assert window.banner.isVisible()
    message = window.banner.report()
    assert title_part.lower() in message.lower()
    assert window.banner.message.text()  # the line under the title is not empty
    assert hint_part in message
    if partial_part:
        assert not window.banner.partial.isVisible()  # the answer so far: under Details
        window.banner.details_button.click()
        assert window.banner.partial.isVisible()
        assert partial_part in window.banner.partial.toPlainText()
        assert partial_part in window.banner.report()
    assert store.turns(cid) == ()
    assert exported(turnlog_home, cid) == before
    assert len(loopback.requests) == 1


def test_rate_limit_counts_down_before_sending_again(qtbot, make_window, store, loopback):
    window, _ = open_window(qtbot, make_window, store, [])
    loopback.script(Behaviour.rate_limited("2"), Behaviour.answer("Second time lucky"))
    type_draft(window)
    window.send()
    wait_done(qtbot, window)
    retry = window.banner.retry_button
    assert not retry.isEnabled()
    assert retry.text() == "Send again (2 s)"
    qtbot.waitUntil(retry.isEnabled, timeout=4000)
    qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    wait_done(qtbot, window)
    assert [t.answer for t in window.transcript.turns] == ["Second time lucky"]
    assert not window.banner.isVisible()


def test_timeout_is_a_named_failure(qtbot, make_window, store, loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2), read_timeout_s=0.5)
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.hang())
    type_draft(window)
    window.send()
    wait_done(qtbot, window)
    assert window.banner.title.text() == "The server took too long"
    assert window.composer.text() == QUESTION
    assert exported(turnlog_home, cid) == before


def test_stop_cancels_promptly_and_shows_the_partial_answer(qtbot, make_window, store,
                                                            loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.hang(after_chunks=2, text="Thinking about it"))
    type_draft(window)
    window.send()
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and window.transcript.pending.answer != "", timeout=5000)
    assert window.composer.stop_button.isEnabled()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
    wait_done(qtbot, window, timeout=3000)
    assert window.banner.title.text() == "Stopped"
    assert window.banner.partial.toPlainText() in "Thinking about it"
    assert window.banner.partial.toPlainText()
    assert window.composer.text() == QUESTION
    assert window.composer.cursor_position() == CURSOR
    assert not window.composer.stop_button.isEnabled()
    assert [window.transcript.index(r).data(Role.PENDING) for r in range(2)] == [False, False]
    assert window.transcript.rowCount() == 2
    assert exported(turnlog_home, cid) == before


def test_a_question_too_large_is_refused_before_anything_is_sent(qtbot, make_window, store,
                                                                 loopback, turnlog_home):
    settings = ConversationSettings(max_bytes=400)
    window, cid = open_window(qtbot, make_window, store, numbered(2), settings=settings)
    before = exported(turnlog_home, cid)
    question = "Why? " * 100
    type_draft(window, question, 7)
    assert not window.composer.send_button.isEnabled()
    reason = window.composer.reason.text()
    assert "Too large to send" in reason
    assert "shorten the question by at least" in reason
    assert "400 bytes" in reason
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    assert window.banner.isVisible()
    assert window.banner.title.text() == "Too large to send"
    assert "shorten the question by at least" in window.banner.message.text()
    assert "Nothing was sent" in window.banner.message.text()
    assert not window.banner.retry_button.isVisible()
    assert window.composer.text() == question
    assert window.composer.cursor_position() == 7
    assert loopback.requests == []
    assert exported(turnlog_home, cid) == before


def test_marks_agree_with_the_recorded_body(qtbot, make_window, store, loopback):
    # A byte limit that holds the newest few turns; compaction off so the rest is left out.
    settings = ConversationSettings(max_bytes=900, compaction=False)
    window, cid = open_window(qtbot, make_window, store, numbered(12), settings=settings)
    preview = marks(window)
    assert RowMark.NOT_SENT in preview.values() and RowMark.SENT in preview.values()
    loopback.script(Behaviour.answer("Done."))
    type_draft(window, "Short question?", 3)
    window.send()
    wait_done(qtbot, window)
    [request] = loopback.requests
    body = request.json()
    turns = store.turns(cid)
    shown = marks(window)
    sent = [t for t in turns[:-1] if shown[t.ordinal] is RowMark.SENT]
    left_out = [t for t in turns[:-1] if shown[t.ordinal] is RowMark.NOT_SENT]
    assert sent and left_out
    assert len(sent) + len(left_out) == 12
    assert max(t.ordinal for t in left_out) < min(t.ordinal for t in sent)
    expected = [text for t in sent for text in (t.question, t.answer)] + ["Short question?"]
    assert [m["content"] for m in body["messages"]] == expected
    assert shown[turns[-1].ordinal] is RowMark.ASKED
    assert len(request.body) <= 900
    assert json.loads(window.shown.projection.body) == body
    assert window.shown.projection.body == request.body


def test_each_pending_row_paints_its_own_question_and_answer(qtbot, make_window, store,
                                                             loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    delegate = window.view.delegate
    for question, answer in (("The first question?", "A long first answer " * 5),
                             ("Second?", "Short.")):
        loopback.script(Behaviour.slow(answer, delay_s=0.1, chunks=4))
        type_draft(window, question, 0)
        window.send()
        row = window.transcript.rowCount() - 1
        qtbot.waitUntil(lambda: bool(window.transcript.pending.answer), timeout=5000)
        window.view.viewport().repaint()
        shown_question, shown_answer = delegate._documents(window.transcript.index(row))
        assert shown_question.toPlainText() == question
        assert answer.startswith(shown_answer.plain_text())
        wait_done(qtbot, window)
    assert [t.question for t in store.turns(cid)][1:] == ["The first question?", "Second?"]


def test_the_saved_answer_keeps_the_sections_laid_out_while_it_streamed(
        qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    delegate = window.view.delegate
    paragraphs = [f"Paragraph {i}: " + "a few more words of the answer " * 12
                  for i in range(1, 21)]
    answer = "\n\n".join(paragraphs) + "\n\n```\ncode\n```\n"
    loopback.script(Behaviour.slow(answer, delay_s=0.02, chunks=40))
    type_draft(window, "Tell me at length.", 0)
    window.send()
    qtbot.waitUntil(lambda: len(window.transcript.pending.answer) > len(answer) // 2,
                    timeout=5000)
    window.view.viewport().repaint()
    streaming = delegate._pending
    assert streaming is not None and len(streaming.documents) > 1
    rendered = list(streaming.documents[:-1])  # finished sections, not the open tail
    wait_done(qtbot, window)
    turn = store.turns(cid)[-1]
    assert turn.answer == answer
    row = window.transcript.rowCount() - 1
    assert window.transcript.index(row).data(Role.KEY) == turn.id
    _, shown = delegate._documents(window.transcript.index(row))
    assert shown is streaming
    assert shown.documents[:len(rendered)] == rendered  # the same documents, not new ones
    assert shown.plain_text().startswith("Paragraph 1: a few more words")
    assert shown.text == answer


def test_send_with_no_conversation_starts_one_named_after_the_question(
        qtbot, make_window, store, loopback):
    window = make_window()
    assert window.conversation is None
    assert "Type a question below" in window.empty_hint.text()
    loopback.script(Behaviour.slow("Welcome 👋", delay_s=0.1, chunks=3))
    type_draft(window, "周末去哪里玩？\nAnd what should I pack?", 3)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier)
    # While the first question is answered, no "No turns yet" hint sits above it.
    qtbot.waitUntil(lambda: window.running and window.transcript.pending is not None,
                    timeout=10_000)
    assert not window.empty_hint.isVisibleTo(window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1 and not window.running,
                    timeout=10_000)
    [conversation] = store.conversations()
    assert conversation.title == "周末去哪里玩？"
    [turn] = store.turns(conversation.id)
    assert (turn.question, turn.answer) == ("周末去哪里玩？\nAnd what should I pack?", "Welcome 👋")
    assert window.sidebar.current().id == conversation.id
    assert window.composer.text() == ""
