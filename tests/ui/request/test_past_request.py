"""The window's "Request that made this answer…": on a committed turn's context menu, it
opens an inspector on the request rebuilt from its record (on the storage worker) —
verified, with the exact bytes the loopback server received — and says plainly when an
answer has no record (an imported or seeded turn)."""

from __future__ import annotations

from loopback import Behaviour
from turnlog.ui.request.past_request import PastRequestDialog
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def test_a_committed_answer_s_request_opens_verified_with_its_exact_body(
        qtbot, make_window, store, loopback):
    seed(store, "past", [("An older question", "An older answer")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    loopback.script(Behaviour.answer("中文 answer 🎉"))
    window.composer.set_draft("What did the model see? 你好")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    wire = loopback.requests[-1].body

    view = window.view
    index = window.transcript.index(1)
    view.setCurrentIndex(index)
    action = window.past_requests.action
    view._prepare_menu(view.visualRect(index).center())
    assert action.isVisible() and action in view.actions()
    action.trigger()
    qtbot.waitUntil(lambda: bool(window.findChildren(PastRequestDialog)), timeout=5000)
    (dialog,) = window.findChildren(PastRequestDialog)
    assert dialog.verdict.text().startswith("Verified")
    assert dialog.body.toPlainText().encode("utf-8") == wire
    assert "question 2: What did the model see? 你好" in dialog.parts.toPlainText()
    assert "turn 1: An older question" in dialog.parts.toPlainText()
    assert not dialog.rounds.isVisible()  # no tool exchange

    # A turn no request of this window made (seeded) has no record: said inline.
    view.setCurrentIndex(window.transcript.index(0))
    action.trigger()
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    assert "No request to show" in window.banner.title.text()


def test_a_past_request_names_turns_by_the_numbers_the_window_shows(
        qtbot, make_window, store, loopback):
    """A turn with a newer version takes a new ordinal inside the store; the window keeps
    its number. The past request's parts and marks use the window's numbers."""
    from version_turns import pending

    conv = seed(store, "versions", [("First question", "First answer"),
                                    ("Second question", "Second answer")])
    second = store.turns(conv.id)[1]
    store.turns.commit(conv.id, pending("v2", "Second question", "Second answer, again",
                                        replaces=second.id))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    loopback.script(Behaviour.answer("Third answer"))
    window.composer.set_draft("Third question")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
    numbers = window.transcript.numbers
    assert [numbers.number(t.ordinal) for t in window.transcript.turns] == [1, 2, 3]

    window.view.setCurrentIndex(window.transcript.index(2))
    window.past_requests.action.trigger()
    qtbot.waitUntil(lambda: bool(window.findChildren(PastRequestDialog)), timeout=5000)
    (dialog,) = window.findChildren(PastRequestDialog)
    assert dialog.verdict.text().startswith("Verified")
    shown = dialog.parts.toPlainText()
    assert "sent verbatim: 1–2" in shown
    assert "turn 2: Second question" in shown and "question 3: Third question" in shown
    assert "turn 3" not in shown and "question 4" not in shown
