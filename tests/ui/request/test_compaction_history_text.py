"""The compaction history shows a summary as the transcript shows an answer: its Markdown
rendered (bold, lists, inline code, a code block, a quote), read-only, Chinese included —
never the raw marks a model writes."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QFont, QTextCursor, QTextDocument

from turnlog.core.compaction import PROMPT_VERSION, SUMMARY_OUTPUT_TOKENS, SummaryDraft, ids_digest
from turnlog.core.model import Usage
from turnlog.ui.transcript.markdown import render_markdown
from uihelpers import seed

pytest_plugins = ["uiwindow"]

SUMMARY = ("**Walk server** here. The user asked about 数据库迁移.\n\n"
           "> Previous summary: the backups stay.\n\n"
           "- one point\n- another, with `inline code`\n\n"
           "```python\nprint(\"hello\")\n```\n\nDone.")


def fragment_format(browser, words: str):
    return fragment_format_in(browser.document(), words)


def fragment_format_in(document, words: str):
    found = document.find(words)
    assert not found.isNull(), words
    cursor = QTextCursor(document)
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat(), cursor.blockFormat(), cursor.block()


def shown_history(qtbot, make_window, store, turns: int, covered: int):
    """The window's compaction history of `turns` turns, the oldest `covered` summarized."""
    conversation = seed(store, "notes", [(f"question {i}", f"answer {i}")
                                         for i in range(1, turns + 1)])
    oldest = store.turns(conversation.id)[:covered]
    store.records.save_summary(conversation.id, SummaryDraft(
        covered_turn_ids=tuple(t.id for t in oldest), first_ordinal=1, last_ordinal=covered,
        covered_digest=ids_digest(oldest), content=SUMMARY, model="loopback-model",
        settings_key=f"v{PROMPT_VERSION}|loopback-model|{SUMMARY_OUTPUT_TOKENS}",
        content_tokens=40, usages=(Usage(300, 40, 340),), warnings=(),
        generation=store.conversations.generation(conversation.id)))
    window = make_window()
    history, panel = window.compaction_history, window.compaction_history.panel
    history.reload()
    qtbot.waitUntil(lambda: history.state is not None and len(history.state.versions) == 1,
                    timeout=5000)
    return panel.browser


def test_a_summary_s_markdown_is_rendered_not_shown_raw(qtbot, make_window, store):
    browser = shown_history(qtbot, make_window, store, 4, 3)
    shown = browser.toPlainText()
    assert "Summary #" in shown and "Covers turns 1–3." in shown  # its provenance stays
    assert "Walk server here. The user asked about 数据库迁移." in shown
    for raw in ("**", "`", "> Previous", "- one point"):
        assert raw not in shown, raw
    bold, _, _ = fragment_format(browser, "Walk server")
    assert bold.fontWeight() >= QFont.Weight.Bold
    code, _, _ = fragment_format(browser, "inline code")
    assert code.fontFixedPitch()
    _, _, item = fragment_format(browser, "one point")
    assert item.textList() is not None
    # The code block as an answer's: its font and its tint.
    answer = QTextDocument()
    render_markdown(answer, SUMMARY)
    block_code, tinted, _ = fragment_format(browser, 'print("hello")')
    as_answer, answer_tint, _ = fragment_format_in(answer, 'print("hello")')
    assert block_code.fontFamilies() == as_answer.fontFamilies()
    assert tinted.background() == answer_tint.background() != QBrush()
    _, quote, quoted = fragment_format(browser, "Previous summary")
    assert quote.leftMargin() > 0 and quoted.blockNumber() in browser.quotes
    assert browser.isReadOnly()


def test_the_turns_it_covers_read_as_their_headers_do(qtbot, make_window, store):
    browser = shown_history(qtbot, make_window, store, 1_002, 1_001)
    assert "Covers turns 1–1,001." in browser.toPlainText()
    assert "turn:1001" in browser.toHtml()  # the link still goes to that turn
