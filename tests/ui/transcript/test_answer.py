"""Answers rendered as a stack of Markdown sections: where the text is cut, that a
streamed answer is cut as the whole one is, and that the stack shows what one document
would."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextDocument

from turnlog.ui.transcript.answer import SECTION_CHARS, AnswerDocument, section_ends
from turnlog.ui.transcript.markdown import render_markdown, text_of

BLOCKS = [
    "A paragraph of plain words that goes on for a while.",
    "# A heading",
    "- a list item\n- another item",
    "1. first\n2. second",
    "```python\nx = 1\n\n\ny = 2\n```",
    "~~~\ncode with a blank line\n\n~~~",
    "> a quote\n> of two lines",
    "    indented code",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "Some **bold**, `code`, 中文 and 🙂.",
    "123456789012 is a number, not an item",
    "12) an item",
]


def cuts(text: str, min_chars: int) -> list[int]:
    return list(section_ends(text, min_chars=min_chars))


def in_fence(text: str, position: int) -> bool:
    """Plainly: an odd number of fence lines before `position`."""
    fences = [line for line in text[:position].split("\n")
              if line.lstrip(" ").startswith(("```", "~~~"))]
    return len(fences) % 2 == 1


answers = st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=30).map(
    lambda blocks: "\n\n".join(blocks) + "\n")


@settings(max_examples=200, deadline=None)
@given(answers, st.integers(min_value=0, max_value=200), st.data())
def test_a_growing_answer_is_cut_where_the_whole_one_is(text, min_chars, data):
    whole = cuts(text, min_chars)
    assert whole == sorted(set(whole))
    for cut in whole:
        assert text[cut - 2:cut] == "\n\n"  # after a blank line
        assert text[cut] not in " \t>\n-*+" and not re.match(r"\d{1,9}[.)][ \t\n]", text[cut:])
        assert not in_fence(text, cut)
    previous = 0
    for cut in whole:
        assert cut - previous >= min_chars
        previous = cut
    # Streamed in arbitrary pieces, each prefix is cut only where the whole text is.
    sizes = data.draw(st.lists(st.integers(min_value=1, max_value=40), max_size=200))
    end = 0
    for size in sizes:
        end = min(len(text), end + size)
        assert set(cuts(text[:end], min_chars)) <= set(whole)


def test_a_line_too_long_to_wait_for_streams_as_the_whole_answer_shows(qtbot):
    # A paragraph, then one line of 200,000 characters: streamed, the cut before that line
    # comes while it still arrives, so its rest turns to plain text at the same place.
    text = "word " * 500 + "\n\n" + "1 & " * 50_000 + "\n"

    def new_doc(width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setTextWidth(width)
        return doc

    at_once = AnswerDocument(new_doc, 600)
    at_once.update(text)
    streamed = AnswerDocument(new_doc, 600)
    for end in (len(text) // 3, len(text) // 2, len(text)):
        streamed.update(text[:end])
    assert at_once.excess is not None and streamed.excess is not None
    assert streamed.excess.at == at_once.excess.at == 2_502 + 16_000
    assert [text_of(doc) for doc in streamed.documents] == \
        [text_of(doc) for doc in at_once.documents]


def test_sections_show_what_one_document_shows(qtbot):
    text = "\n\n".join(BLOCKS * 16) + "\n"
    assert cuts(text, SECTION_CHARS), "the sample is long enough to be cut"

    def new_doc(width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)  # as the transcript's delegate makes them
        doc.setTextWidth(width)
        return doc

    whole = QTextDocument()
    render_markdown(whole, text)
    streamed = AnswerDocument(new_doc, 600)
    for end in range(0, len(text) + 1, 37):
        streamed.update(text[:end])
    streamed.update(text)
    at_once = AnswerDocument(new_doc, 600)
    at_once.update(text)
    assert len(streamed.documents) == len(at_once.documents) > 1
    assert [d.toMarkdown() for d in streamed.documents] == \
        [d.toMarkdown() for d in at_once.documents]
    assert streamed.plain_text() == whole.toPlainText()
    # As tall as the one document, laid out at the same width.
    whole.setDocumentMargin(0)
    whole.setTextWidth(600)
    assert streamed.height() == at_once.height() == whole.size().height()
