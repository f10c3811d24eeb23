"""A conversation made by New and closed with nothing in it does not wait in the list
after a restart; one with a typed question, or with turns, stays."""

from __future__ import annotations

from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]


def open_new(qtbot, window, store, before: int) -> int:
    if before:
        qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    old = {c.id for c in store.conversations()}
    assert len(old) == before
    window.new_conversation()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id not in old, timeout=5000)
    return window.conversation.id


def test_an_unused_new_conversation_is_gone_after_the_window_closes(qtbot, make_window,
                                                                     store):
    kept = seed(store, "chat", numbered(1))
    window = make_window()
    new_id = open_new(qtbot, window, store, 1)
    window.close()
    window.shutdown()
    assert [c.id for c in store.conversations()] == [kept.id]
    assert new_id != kept.id


def test_a_new_conversation_with_a_typed_question_stays(qtbot, make_window, store):
    window = make_window()
    new_id = open_new(qtbot, window, store, 0)
    window.composer.edit.setPlainText("a question not sent yet")
    window.close()
    window.shutdown()
    assert [c.id for c in store.conversations()] == [new_id]
