"""A first send from the window (Send with no conversation open) that fails leaves no
conversation behind; the question stays in the composer, kept on disk across a quit or a
crash, until a later send saves it."""

from __future__ import annotations

import stat

from first_send_steps import QUESTION, send_with_nothing_open
from loopback import Behaviour
from turnlog.store.drafts import NO_CONVERSATION, draft_path

pytest_plugins = ["uiwindow"]


def test_a_failed_first_send_leaves_no_conversation_and_keeps_the_question(
        qtbot, make_window, store, loopback, turnlog_home):
    loopback.script(Behaviour.error(500, "the server broke", type="server_error"))
    window = make_window()
    send_with_nothing_open(qtbot, window)
    qtbot.waitUntil(lambda: len(loopback.requests) == 1 and not window.running
                    and window.conversation is None, timeout=10_000)
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert window.sidebar.current() is None
    assert window.sidebar.list.model().rowCount() == 0
    assert window.composer.text() == QUESTION
    assert window.composer.cursor_position() == 4
    assert window.banner.isVisible()  # the failure is still named
    assert "500" in window.banner.report() or "server" in window.banner.report().lower()
    assert "Type a question below" in window.empty_hint.text()
    path = draft_path(turnlog_home, NO_CONVERSATION)
    qtbot.waitUntil(path.exists, timeout=3000)
    assert path.read_text(encoding="utf-8") == QUESTION
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no draft of the gone one

    # A crash (no shutdown): the next window, on the same data, has the question back.
    again = make_window()
    qtbot.waitUntil(lambda: again.composer.text() == QUESTION, timeout=5000)
    assert again.conversation is None and store.conversations() == []

    # Sent again and answered: it is in the new conversation, the kept draft is gone.
    loopback.script(Behaviour.answer("Tout droit. 一直走。"))
    window.shutdown()
    again.refresh_preview()
    again.send()
    qtbot.waitUntil(lambda: len(again.transcript.turns) == 1 and not again.running,
                    timeout=10_000)
    [conversation] = store.conversations()
    assert [t.question for t in store.turns(conversation.id)] == [QUESTION]
    assert again.composer.text() == ""
    qtbot.waitUntil(lambda: not path.exists(), timeout=3000)
    assert not draft_path(turnlog_home, conversation.id).exists()


def test_what_is_typed_with_nothing_open_comes_back_after_a_crash(
        qtbot, make_window, store, turnlog_home):
    window = make_window()
    qtbot.keyClicks(window.composer.edit, "Typed, never sent")
    path = draft_path(turnlog_home, NO_CONVERSATION)
    qtbot.waitUntil(path.exists, timeout=3000)
    again = make_window()
    qtbot.waitUntil(lambda: again.composer.text() == "Typed, never sent", timeout=5000)
    assert again.conversation is None
    window.shutdown()


def test_a_failed_send_in_a_conversation_made_with_new_keeps_it(
        qtbot, make_window, store, loopback, turnlog_home):
    made = store.conversations.create("made with New")
    loopback.script(Behaviour.error(500, "the server broke", type="server_error"))
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    window.composer.set_draft("A question")
    window.refresh_preview()
    window.send()
    qtbot.waitUntil(lambda: len(loopback.requests) == 1 and not window.running,
                    timeout=10_000)
    qtbot.wait(300)
    assert [c.id for c in store.conversations()] == [made.id]
    assert window.conversation.id == made.id
    assert window.composer.text() == "A question"
    assert not draft_path(turnlog_home, NO_CONVERSATION).exists()


def test_the_kept_question_is_the_only_copy_and_delete_all_removes_it(
        qtbot, make_window, store, loopback, turnlog_home):
    from privacy_answers import Answers, scan
    from turnlog.ui.dialogs.privacy import Decision

    secret = "HEATHER-58-FIRST-SEND-Q3"
    loopback.script(Behaviour.error(500, "the server broke", type="server_error"))
    window = make_window()
    send_with_nothing_open(qtbot, window, secret)
    qtbot.waitUntil(lambda: len(loopback.requests) == 1 and not window.running
                    and store.conversations() == [], timeout=10_000)
    path = draft_path(turnlog_home, NO_CONVERSATION)
    qtbot.waitUntil(path.exists, timeout=3000)
    loopback.wait_idle()
    store.privacy.scrub()
    assert scan(turnlog_home, [secret]) == [(path.name, secret)]  # no title, no record

    window.confirm = Answers(Decision(True))
    window.delete_all_history()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Deleted "),
                    timeout=10_000)
    window.shutdown()
    store.close()
    assert scan(turnlog_home, [secret]) == []
