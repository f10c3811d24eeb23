"""Fuzzing the transcript's rendering with hostile Markdown and LaTeX: wide and long tables,
quotes and lists nested deep, formulas by the thousand and of any size, fences left open,
text of any characters. Each answer goes through the window's own rendering
(`AnswerDocument`: Markdown sections, limits, plain text past them, formulas asked of the
typesetter) a slice at a time, as the transcript renders it: every slice is short, the
whole answer ends rendered in bounded time and memory, and an answer streamed in pieces
ends as the same documents as the answer rendered at once.

The examples per test are fixed for CI (`TURNLOG_FUZZ_EXAMPLES`, default below), and so
are they themselves where that is not set (the same examples each run: rendering is timed,
and a run must not pass or fail by the draw); `tests/bench/fuzz.py` sets it and runs the
same tests for a given time with fresh seeds. Answers are as long as Turnlog takes one
(`DEFAULT_MAX_CONTENT_BYTES`): a longer answer is refused before it is shown.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QTextDocument, QTextOption

from turnlog.providers.client import DEFAULT_MAX_CONTENT_BYTES
from turnlog.ui.transcript.answer import RENDER_BUDGET, AnswerDocument
from turnlog.ui.transcript.markdown import MathStyle, text_of
from turnlog.ui.transcript.maths import FormulaImages

EXAMPLES = int(os.environ.get("TURNLOG_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize="TURNLOG_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
SLICE_CPU_S = 0.1  # one slice's GUI-thread time (twice the budget's target, for slow CI)
WHOLE_S = 20.0  # one answer, all slices
MEMORY_MB = 500

# Random characters from Latin scripts; other scripts come as fixed samples. (Text mixing
# dozens of rare scripts makes Qt load a fallback font for each the first time it lays
# one out: up to ~0.7 s for a piece of 16,000 characters, outside what slicing bounds.)
WORDS = st.text(st.characters(max_codepoint=0x24F, exclude_categories=["Cs"]), max_size=30) \
    | st.sampled_from(["", "word", "**bold**", "_it_", "`code`", "中文 字", "\u202e", "\x00",
                       "😀", "עברית", "العربية", "ไทย", "|", "\\|", "$", "$$", "\\(", "\\[",
                       "```", "> ", "- ", "1. ", "    "])
LATEX = st.lists(st.sampled_from(list("x^_{}\\&+=12 ") + [
    "\\frac{a}{b}", "\\begin{pmatrix}", "\\end{pmatrix}", "\\\\", "\\sqrt{", "中"]),
    max_size=60).map("".join)


@st.composite
def table(draw) -> str:
    columns = draw(st.sampled_from([1, 3, 40, 65, 300, 3_000]))
    rows = draw(st.sampled_from([0, 1, 5, 70, 400]))
    cell = draw(WORDS.filter(lambda w: "\n" not in w))
    line = "|" + "|".join([cell] * columns) + "|\n"
    return line + "|" + "|".join(["---"] * columns) + "|\n" + line * rows


@st.composite
def nested(draw) -> str:
    depth = draw(st.sampled_from([1, 5, 16, 17, 100, 2_000]))
    if draw(st.booleans()):
        return ">" * depth + " " + draw(WORDS) + "\n"
    return "".join("  " * level + "- " + draw(WORDS) + "\n"
                   for level in range(min(depth, 300)))


@st.composite
def formulas(draw) -> str:
    count = draw(st.sampled_from([1, 10, 251, 5_000, 30_000]))
    latex = draw(LATEX)
    if draw(st.booleans()):
        return " ".join(f"${latex or 'x'}$" for _ in range(count))
    size = draw(st.sampled_from([1, 40, 300]))
    rows = " \\\\ ".join(" & ".join(["1"] * size) for _ in range(size))
    return f"\n\n$$\\begin{{pmatrix}} {rows} \\end{{pmatrix}}$$\n\n\\[{latex}\\]"


@st.composite
def code(draw) -> str:
    lines = draw(st.sampled_from([0, 3, 801, 20_000]))
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    closed = draw(st.booleans())
    return f"{fence}py\n" + (draw(WORDS) + "\n") * lines + (fence + "\n" if closed else "")


PART = WORDS | table() | nested() | formulas() | code() \
    | st.builds(lambda w, n: (w + " ") * n, WORDS, st.sampled_from([1, 500, 40_000]))
ANSWER = st.lists(st.tuples(PART, st.sampled_from(["", "\n", "\n\n"])), max_size=6).map(
    lambda parts: "".join(part + gap for part, gap in parts)).map(
    lambda text: text.encode()[:DEFAULT_MAX_CONTENT_BYTES].decode(errors="ignore"))


def rss_mb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


@pytest.fixture(scope="module")
def images(qapp) -> FormulaImages:
    # The fixed samples' fallback fonts are loaded once, before any slice is timed: the
    # first layout of a script in a process pays for its font (a one-time cost, not the
    # rendering's), and timing it made a slice fail once and then pass on the retry.
    warm = new_doc(640)
    warm.setMarkdown("中文 字 😀 עברית العربية ไทย **bold** _it_ `code`\n\n> quote\n\n- item")
    warm.size()
    return FormulaImages()


def new_doc(width: int) -> QTextDocument:
    """A document as the transcript's delegate makes one."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    doc.setDefaultTextOption(option)
    doc.setTextWidth(width)
    return doc


def render_in_slices(answer: AnswerDocument, text: str) -> float:
    """Render `text` as the transcript does (a budget per call); the longest slice."""
    started = time.perf_counter()
    cpu = time.thread_time()
    answer.update(text, RENDER_BUDGET)
    longest = time.thread_time() - cpu
    while not answer.done:
        cpu = time.thread_time()
        answer.advance(RENDER_BUDGET)
        longest = max(longest, time.thread_time() - cpu)
        assert time.perf_counter() - started < WHOLE_S, "the answer never finished rendering"
    answer.height()
    return longest


def shown(answer: AnswerDocument) -> list[str]:
    """Each section's text, formulas as typed (typeset or not yet)."""
    return [text_of(doc) for doc in answer.documents]


@FUZZ
@given(text=ANSWER, cut=st.floats(0, 1))
@example(text="\\( " * 40_000, cut=0.0)  # each lone opener once searched to the end: 23 s
def test_any_answer_renders_in_short_slices_and_streams_alike(qapp, images, text, cut):
    before = rss_mb()
    style = MathStyle(images, QColor("black"))
    at_once = AnswerDocument(new_doc, 640, lambda: style)
    longest = render_in_slices(at_once, text)
    assert longest <= SLICE_CPU_S, f"a slice held the GUI thread {longest * 1000:.0f} ms"
    streamed = AnswerDocument(new_doc, 640, lambda: style)
    render_in_slices(streamed, text[:int(len(text) * cut)])
    render_in_slices(streamed, text)
    assert shown(streamed) == shown(at_once)
    if text.strip():
        assert at_once.documents
    if at_once.excess is not None:
        assert "shown as plain text" in "".join(shown(at_once))
    assert rss_mb() - before < MEMORY_MB
