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
import unicodedata
from dataclasses import dataclass, field
from functools import cache

# Han (with its extensions and compatibility ideographs) and kana: none of it ASCII.
_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"


# The patterns over `_CJK` are compiled when first needed, by text that is not ASCII:
# compiling one walks every character of its ranges (a millisecond and more each), which
# a search for English words need not pay at each start of `turnlog-cli search`.
@cache
def cjk_char() -> re.Pattern[str]:
    """One CJK character."""
    return re.compile(f"[{_CJK}]")


@cache
def _cjk_split() -> re.Pattern[str]:
    return re.compile(f"([{_CJK}]+)")


@cache
def _cjk_pieces() -> re.Pattern[str]:
    return re.compile(f"[{_CJK}]+|[^{_CJK}]+")


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
    if text.isascii():
        return text
    parts = _cjk_split().split(text)
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
    pieces = [text] if text.isascii() else _cjk_pieces().findall(text)
    tokens: list[str] = []
    prefix = False
    shown: list[str] = []
    for number, chunk in enumerate(pieces):
        if not chunk.isascii() and cjk_char().match(chunk):
            last = not any(_WORDISH.search(p) for p in pieces[number + 1:])
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


def _pattern(words: set[str]) -> re.Pattern[str] | None:
    """Chinese words anywhere, other words at a word's start, the longest first where two
    start alike. The look behind that keeps a word to a word's start is written after its
    first character (the character before that one is no letter or digit): a pattern that
    begins with its words' first characters lets the search skip to where one is, where a
    look behind first made every place in a text try every word."""
    if not words:
        return None
    parts = []
    for word in sorted(words, key=len, reverse=True):
        if not word.isascii() and cjk_char().match(word):
            parts.append(re.escape(word))
        else:
            parts.append(rf"{re.escape(word[0])}(?<![^\W_](?s:.)){re.escape(word[1:])}")
    return re.compile("|".join(parts), re.IGNORECASE)


@cache
def _diacritic() -> re.Pattern[str]:
    """Common combining diacritics: text without them (and unchanged by NFD) folds to
    itself. (Compiled by the first text that is not ASCII.)"""
    return re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> tuple[str, list[int]]:
    """`text` without its diacritics (as the index's `remove_diacritics` reads it: é → e),
    and for each folded character where it came from in `text` (one more at the end)."""
    out: list[str] = []
    where: list[int] = []
    for at, char in enumerate(text):
        base = char if char.isascii() else "".join(
            c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
        out.append(base)
        where.extend([at] * len(base))
    where.append(len(text))
    return "".join(out), where


@dataclass(frozen=True, slots=True)
class Highlighter:
    """Finds the words of a query in text as the index matches them: Chinese anywhere,
    other words at a word's start (prefixes), case aside — and, where the words as typed
    are not there, diacritics aside (`cafe` finds `Café`, `café` finds `cafe`)."""

    exact: re.Pattern[str]
    folded: re.Pattern[str]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Each match's (start, end) in `text`, in order, never inside a character as
        seen (a base and its marks stay together)."""
        if text.isascii() or (not _diacritic().search(text)
                              and unicodedata.is_normalized("NFD", text)):
            # The text folds to itself: the words folded find what they find in it.
            return [(m.start(), safe_cut(text, m.end(), forward=True))
                    for m in self.folded.finditer(text)]
        folded, where = fold(text)
        return [(where[m.start()], safe_cut(text, where[m.end()], forward=True))
                for m in self.folded.finditer(folded)]

    def first(self, text: str) -> tuple[int, int] | None:
        found = self.exact.search(text)
        if found is not None:
            return found.span()
        spans = self.spans(text)
        return spans[0] if spans else None


def highlighter(terms: list[Term]) -> Highlighter | None:
    """The `Highlighter` of `terms`; None: no words to find."""
    words = {w for t in terms for w in t.shown}
    exact = _pattern(words)
    folded = _pattern({fold(w)[0] for w in words})
    if exact is None or folded is None:
        return None
    return Highlighter(exact, folded)


def find_matches(text: str, pattern: Highlighter | None) -> list[tuple[int, int]]:
    """The (start, end) of each match of `pattern` (`highlighter`) in `text`, in order."""
    return [] if pattern is None else pattern.spans(text)


_JOINERS = {0x200C, 0x200D, 0x034F}


def _joined(before: str, after: str) -> bool:
    """Whether a cut between `before` and `after` would split what is seen as one
    character: a base and its combining marks, variation selectors or emoji modifiers,
    a zero-width joiner's sequence, a surrogate pair, a Hangul syllable's jamo."""
    a, b = ord(after), ord(before)
    if unicodedata.category(after) in ("Mn", "Me", "Mc") or a in _JOINERS or b == 0x200D:
        return True
    if 0xFE00 <= a <= 0xFE0F or 0xE0100 <= a <= 0xE01EF or 0x1F3FB <= a <= 0x1F3FF:
        return True
    if 0xE0020 <= a <= 0xE007F:  # emoji tag sequences (subdivision flags)
        return True
    if 0xD800 <= b <= 0xDBFF and 0xDC00 <= a <= 0xDFFF:
        return True
    return 0x1100 <= b <= 0x11FF and 0x1160 <= a <= 0x11FF


def _regional(text: str, at: int) -> bool:
    """Whether `at` falls inside a flag (a pair of regional indicators)."""
    run = 0
    while at - run > 0 and 0x1F1E6 <= ord(text[at - run - 1]) <= 0x1F1FF:
        run += 1
    return run % 2 == 1 and at < len(text) and 0x1F1E6 <= ord(text[at]) <= 0x1F1FF


def safe_cut(text: str, at: int, *, forward: bool) -> int:
    """`at` moved (forward or back) to the nearest place between two characters as a
    person sees them: never inside a combining sequence, an emoji sequence, a flag or a
    surrogate pair."""
    at = max(0, min(at, len(text)))
    if at in (0, len(text)) or (text[at - 1] < "\x80" and text[at] < "\x80"):
        return at  # nothing joins two ASCII characters
    step = 1 if forward else -1
    while 0 < at < len(text) and (_joined(text[at - 1], text[at]) or _regional(text, at)):
        at += step
    return at


def _columns(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


class _Widths(dict[str, int]):
    """Each character's columns (`_columns`), kept as characters are met (bounded by the
    characters there are; a few thousand in practice)."""

    def __missing__(self, char: str) -> int:
        value = self[char] = _columns(char)
        return value


_WIDTHS = _Widths()
_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")  # ASCII, one column a character; other


def _width(text: str) -> int:
    """`text`'s columns: a wide character counts two."""
    return len(text) if text.isascii() else sum(map(_WIDTHS.__getitem__, text))


def _taken(chars: str, budget: int) -> tuple[int, int]:
    """How many of `chars` (in the order walked) a walk takes while `budget` (> 0)
    columns are left — the one that uses up the budget included — and their columns.
    Whole runs of ASCII or of other characters at a time; one character at a time only
    in a run of narrow and wide characters mixed where the budget runs out."""
    taken = used = 0
    for run in _RUNS.findall(chars):
        width = _width(run)
        if used + width < budget:
            taken, used = taken + len(run), used + width
        elif run.isascii():
            return taken + budget - used, budget
        elif width == 2 * len(run):  # every one wide (Chinese)
            wide = (budget - used + 1) // 2
            return taken + wide, used + 2 * wide
        else:
            for char in run:
                taken, used = taken + 1, used + _WIDTHS[char]
                if used >= budget:
                    break
            return taken, used
    return taken, used


def _back(text: str, at: int, budget: int) -> tuple[int, int]:
    """Walk back from `at` over the characters before it while `budget` columns are left:
    (where the walk stops, the columns left — below zero when a wide character took the
    last one). A character takes at least one column, so at most `budget` are read."""
    if budget <= 0 or at <= 0:
        return at, budget
    taken, used = _taken(text[max(0, at - budget):at][::-1], budget)
    return at - taken, budget - used


def _ahead(text: str, at: int, budget: int) -> tuple[int, int]:
    """`_back`, walking forward over the characters from `at` on."""
    if budget <= 0 or at >= len(text):
        return at, budget
    taken, used = _taken(text[at:at + budget], budget)
    return at + taken, budget - used


def _span_around(text: str, start: int, end: int, width: int) -> tuple[int, int]:
    """About `width` columns of `text` (a wide character counts two) centred on
    `start`..`end`, cut only between characters as seen, at a space where one is near."""
    left = right = max(0, (width - _width(text[start:end])) // 2)
    low, left = _back(text, start, left)
    high, right = _ahead(text, end, right)
    # Whatever one side could not use goes to the other.
    low, right = _back(text, low, right)
    high, left = _ahead(text, high, left)
    space = text.find(" ", low, min(start, low + 12))
    if low > 0 and space >= 0:
        low = space + 1
    space = text.rfind(" ", max(end, high - 12), high)
    if high < len(text) and space >= 0:
        high = space
    return safe_cut(text, low, forward=False), safe_cut(text, high, forward=True)


# Every run of white space, as one space: only the runs that are not one space already.
_SPACES = re.compile(r"\s{2,}|[^\S ]")


def make_snippet(texts: list[str], terms: list[Term], width: int = SNIPPET_CHARS, *,
                 pattern: Highlighter | None = None) -> Snippet:
    """A snippet from the first of `texts` (question, answer, title) holding a match,
    about `width` columns (a Chinese character counts two), centred on the match; spaces
    collapsed. `pattern`: `highlighter(terms)`, made once for a page of snippets."""
    if pattern is None:
        pattern = highlighter(terms)
    chosen, first = texts[0] if texts else "", None
    for text in texts:
        first = pattern.first(text) if pattern is not None else None
        if first is not None:
            chosen = text
            break
    if first is None:
        start, end = 0, safe_cut(chosen, width, forward=True)
    else:
        start, end = _span_around(chosen, first[0], first[1], width)
    piece = chosen[start:end]
    # Printable text holds no white space but the ASCII space.
    flat = piece if piece.isprintable() and "  " not in piece else _SPACES.sub(" ", piece)
    spans = find_matches(flat, pattern)
    return Snippet(flat, tuple(spans), start > 0, end < len(chosen))
