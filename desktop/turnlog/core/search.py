"""Full-text search, the pure part: what the index holds, what a query means, snippets.

SQLite's FTS5 `unicode61` tokenizer splits words at spaces and punctuation, which
Chinese and Japanese do not use: a whole run of Han characters would be one token, and
searching a 2-character word inside it would find nothing. So the index is fed a derived
text (`index_text`) in which every run of CJK characters becomes its overlapping pairs
followed by its last character alone (`预算表` → `预算 算表 表`): a 2-character word is one
token, a longer one a phrase of consecutive pairs, and a single character the start of
some token (a prefix query, served by the index's 1-character prefix table). Other text
is passed through as it is, so English words, numbers and identifiers are unicode61's.

What a person types is plain text, never FTS5 syntax (`match_expression`): every word
becomes a quoted phrase (quotes doubled), so `AND`, `NOT`, `*`, `C++` or an unbalanced
quote are words to find, or nothing, never an error. Words are prefixes (`embed` finds
`embedding`); a "quoted phrase" is matched exactly. All of them must match.

`index_text` is frozen: the index is kept by triggers that compute it again when a row is
deleted, so a changed derivation would fail to remove what an older one added. A new
derivation needs a new function name and a schema step that rebuilds the index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Han (with its extensions and compatibility ideographs) and kana.
_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_CJK_SPLIT = re.compile(f"([{_CJK}]+)")


class _Twice(dict[int, str]):
    """A `str.translate` table writing a CJK character twice, space between (filled as
    characters are met: bounded by the CJK ranges, a few thousand in practice)."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        value = self[code] = f"{char} {char}"
        return value


_TWICE = _Twice()
# What unicode61 keeps in a token: letters, digits, marks (and private use, rare).
_TOKEN_RUN = re.compile(r"[^\W_]+")
_WORDISH = re.compile(r"[^\W_]")
MAX_TERMS = 32
SNIPPET_CHARS = 160


def _pairs(run: str, *, tail: bool) -> list[str]:
    """A CJK run as its overlapping pairs, then (with `tail`) its last character alone."""
    if len(run) == 1:
        return [run]
    pairs = [run[i:i + 2] for i in range(len(run) - 1)]
    return [*pairs, run[-1]] if tail else pairs


def index_text(text: str) -> str:
    """The text the index tokenizes for `text` (frozen: see the module's docstring):
    every CJK run as " " + its pairs and last character, joined by spaces, + " ".

    Each character after a run's first is written twice (`预算表` → ` 预` `算 算` `表 表`
    → ` 预算 算表 表 `): the same text, made in C a run at a time (imports index
    hundreds of thousands of texts)."""
    parts = _CJK_SPLIT.split(text)
    if len(parts) == 1:
        return text
    parts[1::2] = [f" {run[0]}{run[1:].translate(_TWICE)} " for run in parts[1::2]]
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Term:
    """One thing that must match: a phrase of index tokens, maybe open at its end."""

    tokens: tuple[str, ...]
    prefix: bool
    shown: tuple[str, ...] = field(default=())  # the words to highlight in a snippet

    def fts(self) -> str:
        phrase = '"' + " ".join(self.tokens).replace('"', '""') + '"'
        return phrase + " *" if self.prefix else phrase


def _term(text: str, *, open_end: bool) -> Term | None:
    """`text` as a phrase of index tokens. A CJK run that ends the phrase is only its
    pairs (the text may go on after it), a single character a prefix; `open_end` makes
    a final word a prefix too."""
    pieces = list(re.finditer(f"[{_CJK}]+|[^{_CJK}]+", text))
    tokens: list[str] = []
    prefix = False
    shown: list[str] = []
    for number, piece in enumerate(pieces):
        chunk = piece.group()
        if _CJK_CHAR.match(chunk):
            last = not any(_WORDISH.search(p.group()) for p in pieces[number + 1:])
            tokens.extend(_pairs(chunk, tail=not last))
            shown.append(chunk)
            prefix = last and len(chunk) == 1
        else:
            words = _TOKEN_RUN.findall(chunk)
            if not words:
                continue
            tokens.extend(words)
            shown.extend(words)
            prefix = open_end and bool(_WORDISH.match(chunk[-1]))
    if not tokens:
        return None
    return Term(tuple(tokens), prefix, tuple(shown))


def parse_query(query: str) -> list[Term]:
    """The terms a plain-text query asks for, at most `MAX_TERMS`: "quoted" parts are
    exact phrases (a quote left open is just a character), other words prefixes."""
    terms: list[Term] = []
    parts = query.split('"')
    if len(parts) % 2 == 0:  # an unbalanced quote: the last one is not a quote
        parts[-2:] = [parts[-2] + " " + parts[-1]]
    for number, part in enumerate(parts):
        if number % 2 == 1:
            found = _term(part, open_end=False)
            if found is not None:
                terms.append(found)
            continue
        for word in part.split():
            found = _term(word, open_end=True)
            if found is not None:
                terms.append(found)
    return terms[:MAX_TERMS]


def match_expression(terms: list[Term]) -> str | None:
    """The FTS5 MATCH expression for `terms` (all of them), or None: nothing to find."""
    if not terms:
        return None
    return " AND ".join(term.fts() for term in terms)


@dataclass(frozen=True, slots=True)
class Snippet:
    """A short piece of text around the first match, with the matches' spans in it."""

    text: str
    spans: tuple[tuple[int, int], ...] = ()
    cut_before: bool = False
    cut_after: bool = False

    def marked(self, before: str = "[", after: str = "]", ellipsis: str = "…") -> str:
        """The snippet with each match between `before` and `after`."""
        out, at = [], 0
        for start, end in self.spans:
            out += [self.text[at:start], before, self.text[start:end], after]
            at = end
        out.append(self.text[at:])
        body = "".join(out)
        return (ellipsis if self.cut_before else "") + body + (ellipsis if self.cut_after else "")


def _highlighter(terms: list[Term]) -> re.Pattern[str] | None:
    words = sorted({w for t in terms for w in t.shown}, key=len, reverse=True)
    if not words:
        return None
    parts = []
    for word in words:
        escaped = re.escape(word)
        parts.append(escaped if _CJK_CHAR.match(word) else rf"(?<![^\W_]){escaped}")
    return re.compile("|".join(parts), re.IGNORECASE)


def make_snippet(texts: list[str], terms: list[Term], width: int = SNIPPET_CHARS) -> Snippet:
    """A snippet from the first of `texts` (question, answer, title) holding a match,
    about `width` characters, the match a third of the way in; spaces collapsed."""
    pattern = _highlighter(terms)
    chosen, first = texts[0] if texts else "", None
    for text in texts:
        found = pattern.search(text) if pattern is not None else None
        if found is not None:
            chosen, first = text, found
            break
    start = 0 if first is None else max(0, first.start() - width // 3)
    end = min(len(chosen), start + width)
    start = max(0, min(start, end - width))
    piece = chosen[start:end]
    flat = re.sub(r"\s+", " ", piece)
    spans = [] if pattern is None else [(m.start(), m.end()) for m in pattern.finditer(flat)]
    return Snippet(flat, tuple(spans), start > 0, end < len(chosen))
