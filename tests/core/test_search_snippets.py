"""A hit's snippet, made for a page of a hundred hits at a time, is exactly what the plain
way makes: a walk of one character at a time out from the match, a look behind for every
word, and a cut moved one character at a time off anything that joins."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.search import (
    Highlighter,
    Snippet,
    _columns,
    _joined,
    _regional,
    cjk_char,
    fold,
    highlighter,
    make_snippet,
    parse_query,
)


def plain_cut(text: str, at: int, *, forward: bool) -> int:
    at = max(0, min(at, len(text)))
    step = 1 if forward else -1
    while 0 < at < len(text) and (_joined(text[at - 1], text[at]) or _regional(text, at)):
        at += step
    return at


def plain_pattern(words: set[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    parts = []
    for word in sorted(words, key=len, reverse=True):
        escaped = re.escape(word)
        parts.append(escaped if cjk_char().match(word) else rf"(?<![^\W_]){escaped}")
    return re.compile("|".join(parts), re.IGNORECASE)


def plain_spans(marks: Highlighter, text: str) -> list[tuple[int, int]]:
    folded, where = fold(text)
    return [(where[m.start()], plain_cut(text, where[m.end()], forward=True))
            for m in marks.folded.finditer(folded)]


def plain_span_around(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    left = right = max(0, (width - sum(_columns(c) for c in text[start:end])) // 2)
    low, high = start, end
    while low > 0 and left > 0:
        low -= 1
        left -= _columns(text[low])
    while high < len(text) and right > 0:
        right -= _columns(text[high])
        high += 1
    while low > 0 and right > 0:
        low -= 1
        right -= _columns(text[low])
    while high < len(text) and left > 0:
        left -= _columns(text[high])
        high += 1
    space = text.find(" ", low, min(start, low + 12))
    if low > 0 and space >= 0:
        low = space + 1
    space = text.rfind(" ", max(end, high - 12), high)
    if high < len(text) and space >= 0:
        high = space
    return plain_cut(text, low, forward=False), plain_cut(text, high, forward=True)


def plain_snippet(texts: list[str], query: str, width: int) -> Snippet:
    words = {w for t in parse_query(query) for w in t.shown}
    exact, folded = plain_pattern(words), plain_pattern({fold(w)[0] for w in words})
    marks = None if exact is None or folded is None else Highlighter(exact, folded)
    chosen, first = texts[0], None
    for text in texts:
        if marks is not None:
            found = marks.exact.search(text)
            spans = plain_spans(marks, text)
            first = found.span() if found is not None else (spans[0] if spans else None)
        if first is not None:
            chosen = text
            break
    if first is None:
        start, end = 0, plain_cut(chosen, width, forward=True)
    else:
        start, end = plain_span_around(chosen, first[0], first[1], width)
    flat = re.sub(r"\s+", " ", chosen[start:end])
    spans = [] if marks is None else plain_spans(marks, flat)
    return Snippet(flat, tuple(spans), start > 0, end < len(chosen))


PIECES = ["budget ", "Budget", "bud", "the ", "Café ", "cafe", "e\u0301", "接口", "预算表",
          "，", "。", " ", "  ", "\n", "ＡＢ", "ｶﾅ", "ひらがな", "👍🏽", "👨\u200d👩", "🇫🇷",
          "\u1100\u1161", "x_y", "C++", "v2.0", "𠀀", "\u3000", "a", "7", "\t", " \r\n"]
texts = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)
queries = st.sampled_from(["budget", "bud", "the", "cafe", "Café", "接口", "预算", "算",
                           "ab", "ひら", "x", "v2", "C++", "budget 接口", '"the budget"', "7"])


@settings(max_examples=500, deadline=None)
@given(st.lists(texts, min_size=1, max_size=3), queries, st.sampled_from([10, 40, 160]))
def test_a_snippet_is_the_one_the_plain_walk_makes(chosen, query, width):
    terms = parse_query(query)
    expected = plain_snippet(chosen, query, width)
    assert make_snippet(chosen, terms, width) == expected
    assert make_snippet(chosen, terms, width, pattern=highlighter(terms)) == expected
