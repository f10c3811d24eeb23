"""The window's compaction history (a tab beside the inspector): the summary a send made,
by whom and what it covers and folded, a turn number that goes to that turn, and the
summary rewritten in place — marked *edited by you*, carried by the preview and the send
— then undone."""

from __future__ import annotations

import json

from PySide6.QtCore import QUrl

from loopback import Behaviour
from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.model import ConversationSettings
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.request.compaction_history import REQUEST_LINK, TURN_LINK
from turnlog.ui.request.past_request import PastRequestDialog
from turnlog.ui.transcript.model import Role
from uihelpers import seed

pytest_plugins = ["uiwindow"]

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)
MINE = "My summary: numbered questions about the garden 🌷 花园"


def long_pairs(count: int) -> list[tuple[str, str]]:
    return [(f"question {i}: " + "q" * 220, f"answer {i}: " + "a" * 200)
            for i in range(1, count + 1)]


def chat_requests(loopback) -> list[dict]:
    return [r.json() for r in loopback.requests
            if r.json()["messages"][0]["content"] != SUMMARY_PROMPT]


def sent_and_waited(qtbot, window, text: str, turns: int) -> None:
    window.composer.set_draft(text)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=15_000)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == turns, timeout=5000)


def test_history_shows_the_summary_goes_to_its_turns_and_edits_then_undoes_it(
        qtbot, make_window, store, loopback):
    seed(store, "long", long_pairs(40), settings=SETTINGS)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 40, timeout=5000)
    history, panel = window.compaction_history, window.compaction_history.panel
    loopback.default = Behaviour.answer("Summary made by the model.")
    sent_and_waited(qtbot, window, "now?", 41)
    qtbot.waitUntil(lambda: history.state is not None and len(history.state.versions) == 1,
                    timeout=5000)
    shown = panel.browser.toPlainText()
    assert "Summary #" in shown and "in use" in shown and "made by loopback-model" in shown
    assert "Summary made by the model." in shown and "Replaced no summary." in shown
    assert "Carried by 1 request." in shown
    made = history.state.current.summary
    assert f"Covers turns 1–{made.last_ordinal}." in shown
    assert not panel.undo_button.isEnabled() and panel.edit_button.isEnabled()

    # A turn number is a link to that turn in the history, as Go to turn shows it.
    assert f"href='{TURN_LINK}{made.last_ordinal}'" in panel.browser.toHtml() or \
        f'href="{TURN_LINK}{made.last_ordinal}"' in panel.browser.toHtml()
    panel.browser.anchorClicked.emit(QUrl(f"{TURN_LINK}{made.last_ordinal}"))
    current = window.view.currentIndex()
    wanted = store.turns(made.conversation_id)[made.last_ordinal - 1]
    assert current.isValid() and current.data(Role.KEY) == wanted.id

    # The request that made it: the send of turn 41, opened as past requests are, verified.
    assert "Made while sending turn 41: the request that made it" in shown
    made_for = history.state.current.made_for
    assert made_for == store.turns(made.conversation_id)[40].id
    panel.browser.anchorClicked.emit(QUrl(f"{REQUEST_LINK}{made_for}"))
    qtbot.waitUntil(lambda: bool(window.findChildren(PastRequestDialog)), timeout=5000)
    (dialog,) = window.findChildren(PastRequestDialog)
    assert dialog.verdict.text().startswith("Verified")
    assert dialog.rebuilt.record_id == history.state.current.made_in
    dialog.close()

    # Rewritten in place: marked edited by you, carried by the preview and the send.
    panel.edit_button.click()
    assert panel.editor.isVisible() and panel.editor.toPlainText() == made.content
    panel.editor.setPlainText("   ")
    panel.save_button.click()
    assert panel.problem.isVisible() and "empty" in panel.problem.text()
    panel.editor.setPlainText(MINE)
    panel.save_button.click()
    qtbot.waitUntil(lambda: history.state.current.summary.edited, timeout=5000)
    assert not panel.editor.isVisible()
    shown = panel.browser.toPlainText()
    assert "edited by you" in shown and MINE in shown
    assert f"Your rewrite of summary #{made.id}." in shown
    assert panel.undo_button.isEnabled()
    qtbot.waitUntil(lambda: window.preview.summary is not None
                    and window.preview.summary.edited, timeout=5000)
    window.composer.set_draft("and next?")
    qtbot.waitUntil(lambda: window.preview.shown.projection is not None and MINE.encode()
                    in window.preview.shown.projection.body, timeout=10_000)
    preview_body = window.preview.shown.projection.body
    sent_and_waited(qtbot, window, "and next?", 42)
    wire = chat_requests(loopback)[-1]
    assert wire["messages"][0]["content"].endswith("\n" + MINE)
    assert json.loads(preview_body)["messages"][0] == wire["messages"][0]

    # Undo: the model's version is in use again, for the preview and the next send.
    panel.undo_button.click()
    qtbot.waitUntil(lambda: not history.state.current.summary.edited, timeout=5000)
    assert history.state.current.summary.id == made.id
    assert "undone" in panel.browser.toPlainText()  # a request carried it: kept, marked
    sent_and_waited(qtbot, window, "after undo?", 43)
    assert chat_requests(loopback)[-1]["messages"][0]["content"].endswith(
        "\nSummary made by the model.")
    # The history follows the sends: the model's summary is now carried by two requests.
    qtbot.waitUntil(lambda: len(history.state.current.record_ids) == 2, timeout=5000)
    assert "Carried by 2 requests." in panel.browser.toPlainText()

    # Forget earlier versions: asked first; refused, nothing goes; accepted, only the
    # summary in use stays.
    asked = []
    window.confirm = lambda question: asked.append(question) or Decision(False)
    assert panel.forget_button.isEnabled()
    panel.forget_button.click()
    assert "1 earlier version" in asked[-1].text and "verified" in asked[-1].detail
    qtbot.wait(200)
    assert len(history.state.versions) == 2
    window.confirm = lambda question: Decision(True)
    panel.forget_button.click()
    qtbot.waitUntil(lambda: len(history.state.versions) == 1, timeout=5000)
    assert history.state.current.summary.id == made.id and not panel.forget_button.isEnabled()
