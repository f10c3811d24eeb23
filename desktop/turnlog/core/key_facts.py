"""The key facts a summary must keep — numbers, identifiers, versions, paths and every
prohibition — found in turns or pins, and those a summary lacks: the warning beside a
summary (the compaction engine's) and beside the pins it should hold (the memory
panel's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from .model import Turn

_VERSION = re.compile(r"\b\d+(?:\.\d+){1,3}\b")
_IDENT = re.compile(r"\b[A-Z][A-Z0-9_]*-\d+[A-Z0-9-]*\b")
_PATH = re.compile(r"(?<![\w/])(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}")
_NEGATION = re.compile(
    r"[^.!?;,\n。！？；，]*\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|"
    r"cannot|can't|no longer)\b[^.!?;,\n。！？；，]*"
    r"|[^。！？；，\n]*(?:不要|不能|禁止|切勿|别)[^。！？；，\n]*",
    re.IGNORECASE,
)


# `_NEGATION.finditer` in linear time. The pattern's own search is quadratic on a long run
# of text without a separator (every start position scans to the run's end), and key facts
# are found in every covered turn at each compaction. The same matches, found segment by
# segment: an English prohibition is the clause (between any separators) holding one of its
# words; a Chinese one runs from where the search stands to the end of its sentence (only
# Chinese punctuation and line breaks end it).
_SENTENCES = re.compile(r"[^。！？；，\n]+")
_CLAUSE_END = re.compile(r"[.!?;,]")
_NEGATION_EN = re.compile(r"\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|"
                          r"cannot|can't|no longer)\b", re.IGNORECASE)
_NEGATION_ZH = re.compile(r"不要|不能|禁止|切勿|别")


def negations(text: str) -> list[str]:
    """The prohibitions stated in `text`: exactly what `_NEGATION.finditer` matches, in
    time linear in the text's length."""
    found: list[str] = []
    for sentence in _SENTENCES.finditer(text):
        start, end = sentence.span()
        last_zh = max((m.start() for m in _NEGATION_ZH.finditer(text, start, end)),
                      default=-1)
        pos = start
        while pos < end:
            stop = _CLAUSE_END.search(text, pos, end)
            clause_end = stop.start() if stop is not None else end
            if pos < clause_end and _NEGATION_EN.search(text, pos, clause_end):
                found.append(text[pos:clause_end])
                pos = clause_end
            elif last_zh >= pos:
                found.append(text[pos:end])
                pos = end
            else:
                pos = clause_end + 1
    return found


def _norm(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text.lower()).strip()


def key_facts(turns: Iterable[Turn]) -> list[str]:
    """Exact facts a summary must keep: versions, identifiers, paths, prohibitions."""
    facts: list[str] = []
    seen: set[str] = set()
    for turn in turns:
        for text in (turn.question, turn.answer):
            found = (
                _VERSION.findall(text) + _IDENT.findall(text)
                + [path.rstrip(".,;:") for path in _PATH.findall(text)]
                # prohibitions the user stated (an answer's are the model's words)
                + ([match.strip() for match in negations(text)]
                   if text is turn.question else [])
            )
            for fact in found:
                if fact and fact not in seen:
                    seen.add(fact)
                    facts.append(fact)
    return facts


def missing_key_facts(facts: Iterable[str], summary: str) -> list[str]:
    """Facts the summary dropped. Literal facts must appear verbatim; a prohibition must
    appear with its negation and its words in order (case and punctuation aside)."""
    normalized = _norm(summary)
    missing = []
    for fact in facts:
        if _NEGATION.fullmatch(fact):
            if _norm(fact) not in normalized:
                missing.append(fact)
        elif fact not in summary:
            missing.append(fact)
    return missing


_EPOCH = datetime.fromtimestamp(0)


def pinned_facts_missing(pins: Iterable[str], summary: str) -> list[str]:
    """The numbers, identifiers, paths and prohibitions of pinned facts a summary lacks.
    A summary never replaces a pin (pins are sent regardless): this only warns that the
    summary contradicts or forgot what is pinned."""
    facts: list[str] = []
    for text in pins:
        facts += [f for f in key_facts([Turn("", 0, text, "", "", "", _EPOCH)])
                  if f not in facts]
    return missing_key_facts(facts, summary)
