"""Compaction in the window, against the loopback server playing both the summarizer and
the model: the stages of a send in order, the *in summary* marks and what their tooltips
say, honest previews before a send, the summary's provenance and key-fact warning in the
inspector, and a failure that keeps its stage name."""

from __future__ import annotations

import json
import re

from PySide6.QtCore import Qt

from loopback import Behaviour
from mark_reading import marks
from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.model import ConversationSettings
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.marks import RowMark
from uihelpers import exported, seed

pytest_plugins = ["uiwindow"]

USAGE = {"prompt_tokens": 1_234, "completion_tokens": 56, "total_tokens": 1_290}
# The three folds a 40-turn log needs at a 6,000-byte limit: compacting down to half of
# the budget summarizes turns 1–34 and keeps 35–40 verbatim.
STAGES = ["Preparing", "Organizing turns", "Compacting (chunk 1 of 3)",
          "Compacting (chunk 2 of 3)", "Compacting (chunk 3 of 3)", "Answering"]
# The summarizer's reply keeps the ticket but drops the prohibition and the build number.
LOSSY_SUMMARY = "- tracking ticket ORCHID-17\n- garden: tulips along the fence"
FAITHFUL_SUMMARY = ("- Never delete the backups\n- build 4.2.17\n- ticket ORCHID-17\n"
                    "- garden: tulips along the fence")


def key_fact_log() -> list[tuple[str, str]]:
    """40 turns of about 370 bytes; the first three state the key facts."""
    pairs = [
        ("Never delete the backups. Keep that in mind for every plan we make together.",
         "Understood: the backups stay, whatever happens."),
        ("We are on build 4.2.17 of the installer for this whole project.",
         "Noted, build 4.2.17."),
        ("Our tracking ticket is ORCHID-17 in the team tracker.", "Got it: ORCHID-17."),
    ]
    for i in range(4, 41):
        pairs.append((f"Question {i}: " + "tell me more about the garden plans " * 5,
                      f"Answer {i}: " + "plant the tulips along the fence " * 5))
    return pairs


def open_window(qtbot, make_window, store, pairs=None, **settings):
    pairs = key_fact_log() if pairs is None else pairs
    conversation = seed(store, "garden", pairs,
                        settings=ConversationSettings(max_bytes=6_000, **settings))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == len(pairs), timeout=5000)
    return window, conversation.id


def tooltip(window: MainWindow, ordinal: int) -> str:
    model = window.transcript
    model.load_all()
    return model.index(model.row_of_ordinal(ordinal)).data(Qt.ItemDataRole.ToolTipRole)


def summary_calls(loopback) -> list[dict]:
    return [r.json() for r in loopback.requests
            if r.json()["messages"][0]["content"] == SUMMARY_PROMPT]


def draft(window: MainWindow, text: str) -> None:
    window.composer.set_draft(text)
    window.preview.draft_edited()
    window.refresh_preview()


def send_and_watch(qtbot, window: MainWindow) -> list[tuple[str, str, bool]]:
    """Send; return each stage entered with the stage line's text and whether Stop could
    be pressed at that moment."""
    seen: list[tuple[str, str, bool]] = []
    window.stage_entered.connect(lambda words: seen.append(
        (words, window.stage_line.text(), window.composer.stop_button.isEnabled())))
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=15_000)
    return seen


def test_stages_in_order_then_summary_marks_and_their_tooltips(qtbot, make_window, store,
                                                                loopback):
    window, cid = open_window(qtbot, make_window, store)
    # Before the send: no summary exists yet, so the oldest turns are to be summarized.
    draft(window, "What should we plant next?")
    before = marks(window)
    assert {o for o, m in before.items() if m is RowMark.TO_SUMMARIZE} == set(range(1, 35))
    assert {o for o, m in before.items() if m is RowMark.SENT} == set(range(35, 41))
    assert "sending first summarizes turns 1–34" in window.inspector.outcome_value.text()
    assert RowMark.NOT_SENT not in before.values()
    assert "folds it into the rolling summary" in tooltip(window, 5)

    loopback.script(*[Behaviour.answer(FAITHFUL_SUMMARY, delay_s=0.15, usage=USAGE)] * 3,
                    Behaviour.slow("Plant garlic in October.", delay_s=0.05))
    seen = send_and_watch(qtbot, window)

    assert [words for words, _, _ in seen] == STAGES
    assert all(line.startswith(words + "…") for words, line, _ in seen)
    assert all(stop for _, _, stop in seen)  # Stop could be pressed at every stage
    assert len(summary_calls(loopback)) == 3
    answer_request = loopback.requests[-1]
    assert answer_request.body == window.shown.projection.body
    # The summary stands in for turns 1–34, right after the system part.
    sent = answer_request.json()["messages"]
    assert sent[0]["role"] == "system"
    assert sent[0]["content"].startswith("Summary of the earlier conversation (turns 1–34)")
    after = marks(window)
    assert {o for o, m in after.items() if m is RowMark.SUMMARY} == set(range(1, 35))
    assert {o for o, m in after.items() if m is RowMark.SENT} == set(range(35, 41))
    assert after[41] is RowMark.ASKED

    # Hovering a summarized turn names the summary that covers it.
    qtbot.waitUntil(lambda: window.transcript.summary is not None)
    stored = store.records.latest_summary(cid)
    when = stored.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
    assert tooltip(window, 5) == (
        f"Turn 5 is in the rolling summary #{stored.id} of turns 1–34 (34 turns), made by "
        f"loopback-model on {when}, {len(FAITHFUL_SUMMARY.encode()):,} bytes, "
        f"~{stored.content_tokens:,} tokens.")
    assert tooltip(window, 37) == "Turn 37: carried verbatim in the request"


def test_preview_reuses_the_cached_summary_and_names_what_a_send_would_add(
        qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store)
    loopback.script(*[Behaviour.answer(FAITHFUL_SUMMARY)] * 3, Behaviour.answer("Garlic."))
    draft(window, "What should we plant next?")
    send_and_watch(qtbot, window)
    assert len(store.turns(cid)) == 41
    # After the send the inspector shows the body actually sent.
    assert window.inspector._shown_body == loopback.requests[-1].body

    # A new window (as after a restart) previews with the stored summary: turns 1–34 are
    # in it, and it and every turn after it still fit, so the preview is final: the body
    # a send will carry, with no summary call first.
    again = make_window()
    qtbot.waitUntil(lambda: len(again.transcript.turns) == 41, timeout=5000)
    draft(again, "And after the garlic?")
    preview = marks(again)
    assert {o for o, m in preview.items() if m is RowMark.SUMMARY} == set(range(1, 35))
    assert {o for o, m in preview.items() if m is RowMark.SENT} == set(range(35, 42))
    assert RowMark.NOT_SENT not in preview.values()
    assert RowMark.TO_SUMMARIZE not in preview.values()
    assert again.shown.projection.summary.summary_id == store.records.latest_summary(cid).id
    assert "final: this body is exactly what Send puts on the wire" in \
        again.inspector.outcome_value.text()
    assert "summary #" in again.inspector.summary_value.text()
    calls_before = len(summary_calls(loopback))
    promised = again.shown.projection.body
    loopback.script(Behaviour.answer("Then beans."))
    send_and_watch(qtbot, again)
    assert len(summary_calls(loopback)) == calls_before
    assert loopback.requests[-1].body == promised

    # New turns accumulate verbatim until the next request would not fit; then the
    # preview says it will compact and names the turns, and the send folds exactly those
    # onto the cached summary, in one pass.
    for n in range(20):
        draft(again, f"And then, step {n}?")
        preview = marks(again)
        if RowMark.TO_SUMMARIZE in preview.values():
            break
        promised = again.shown.projection.body
        loopback.script(Behaviour.answer("Next: " + "more beans and peas " * 10))
        send_and_watch(qtbot, again)
        assert len(summary_calls(loopback)) == calls_before
        assert loopback.requests[-1].body == promised
    else:
        raise AssertionError("the conversation never outgrew its budget")
    assert n >= 1
    to_summarize = sorted(o for o, m in preview.items() if m is RowMark.TO_SUMMARIZE)
    assert to_summarize[0] == 35 and to_summarize == list(range(35, to_summarize[-1] + 1))
    assert f"will compact: sending first summarizes turns 35–{to_summarize[-1]}" in \
        again.inspector.outcome_value.text()
    loopback.script(Behaviour.answer(FAITHFUL_SUMMARY), Behaviour.answer("Then peas."))
    send_and_watch(qtbot, again)
    assert len(summary_calls(loopback)) == calls_before + 1
    fold = summary_calls(loopback)[-1]["messages"][1]["content"]
    folded = [int(x) for x in re.findall(r"\[Turn (\d+)\]", fold)]
    assert folded == to_summarize
    projection = again.shown.projection
    assert projection.summarized == tuple(range(1, to_summarize[-1] + 1))
    assert set(projection.sent) == {o for o, m in preview.items() if m is RowMark.SENT}
    assert again.inspector._shown_body == loopback.requests[-1].body


def test_inspector_shows_provenance_and_the_key_fact_warning(qtbot, make_window, store,
                                                             loopback):
    window, cid = open_window(qtbot, make_window, store)
    loopback.script(*[Behaviour.answer(LOSSY_SUMMARY, usage=USAGE)] * 3,
                    Behaviour.answer("Tulips, then."))
    draft(window, "What should we plant next?")
    send_and_watch(qtbot, window)
    qtbot.waitUntil(lambda: window.inspector.state.summary is not None)

    stored = store.records.latest_summary(cid)
    assert set(stored.warnings) == {"Never delete the backups", "4.2.17"}
    text = window.inspector.summary_value.text()
    when = stored.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
    assert f"summary #{stored.id} of turns 1–34 (34 turns)" in text
    assert f"made by loopback-model on {when}" in text
    assert f"{stored.content_bytes:,} bytes, ~{stored.content_tokens:,} tokens" in text
    assert "Stands in for turns 1–34 of the log as it is now." in text
    assert "Made in 3 calls:" in text
    assert text.count("call 3: 1,234 prompt · 56 completion · 1,290 total tokens") == 2
    assert "Summary calls in this request: 3" in text
    warning = window.inspector.summary_warning
    assert warning.isVisible()
    assert "“Never delete the backups”" in warning.text()
    assert "“4.2.17”" in warning.text()
    assert "ORCHID-17" not in warning.text()
    assert "may have dropped “Never delete the backups”, “4.2.17”" in tooltip(window, 2)
    # The summary really is the part after the system prompt in the body shown.
    body = json.loads(window.inspector.body.toPlainText())
    assert LOSSY_SUMMARY in body["messages"][0]["content"]
    parts = [window.inspector.parts.item(r, 0).text()
             for r in range(window.inspector.parts.rowCount())]
    assert parts[1] == "rolling summary"

    # A faithful summary raises no warning.
    window2, _ = open_window(qtbot, make_window, store)
    loopback.script(*[Behaviour.answer(FAITHFUL_SUMMARY)] * 3, Behaviour.answer("Fine."))
    draft(window2, "What should we plant next?")
    send_and_watch(qtbot, window2)
    qtbot.waitUntil(lambda: window2.inspector.state.summary is not None)
    assert not window2.inspector.summary_warning.isVisible()


def test_a_compaction_failure_keeps_its_stage_name(qtbot, make_window, store, loopback,
                                                   turnlog_home):
    window, cid = open_window(qtbot, make_window, store)
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.answer(FAITHFUL_SUMMARY),
                    Behaviour.length("- Never delete the backups\n- build"))
    draft(window, "What should we plant next?")
    seen = send_and_watch(qtbot, window)

    assert [words for words, _, _ in seen] == STAGES[:4]
    assert window.banner.isVisible()
    assert window.banner.title.text() == "The summary of older turns failed"
    assert window.banner.message.text().startswith(
        "While compacting (chunk 2 of 3): the summary was cut off at its 2,048-token limit")
    assert window.composer.text() == "What should we plant next?"
    assert store.records.latest_summary(cid) is None
    assert exported(turnlog_home, cid) == before
    assert len(loopback.requests) == 2  # no answer was asked for


def test_stop_while_compacting_gives_the_draft_back(qtbot, make_window, store, loopback,
                                                    turnlog_home):
    window, cid = open_window(qtbot, make_window, store)
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.hang())
    draft(window, "What should we plant next?")
    window.send()
    qtbot.waitUntil(lambda: window.stage_line.text().startswith("Compacting (chunk 1 of 3)"),
                    timeout=5000)
    assert window.composer.stop_button.isEnabled()
    qtbot.mouseClick(window.composer.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=5000)
    assert window.composer.text() == "What should we plant next?"
    assert window.banner.title.text() == "Stopped"
    assert store.records.latest_summary(cid) is None
    assert exported(turnlog_home, cid) == before
