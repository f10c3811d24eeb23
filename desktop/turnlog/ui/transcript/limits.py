"""How much of an answer is laid out as Markdown: past a limit, the rest shows as plain text.

A model (or an imported conversation) can write a table of 10,000 columns, quotes nested a
thousand deep, a hundred thousand formulas or one formula of a million characters: Qt lays
such things out in time that grows faster than their size, on the GUI thread. `first_excess`
finds, in one pass over the text, the first place where the Markdown goes past one of these
limits; the answer is rendered as Markdown up to there and as plain text after it, with a
note saying why (`answer.py`). Nothing here knows Qt: it reads text only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .maths import find_maths

MAX_COLUMNS = 32  # columns of one table
MAX_CELLS = 240  # cells of one table (Qt lays a cell out in about 0.2 ms)
MAX_DEPTH = 16  # quotes and lists nested in one another
MAX_FORMULAS = 250  # formulas typeset in one answer
MAX_BLOCK_FORMULAS = 60  # formulas in a block that cannot be cut (an image is ~0.6 ms)
MAX_FORMULA_CHARS = 2_000  # characters of one formula
MAX_BLOCK_CHARS = 16_000  # Markdown read in one piece (a block that cannot be cut)…
MAX_BLOCK_LINES = 800  # …and its lines

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_DELIMITER_ROW = re.compile(r"[ \t|:-]*-[ \t|:-]*")  # under a table's head
_MARKER = re.compile(r"[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))")


class Limit(Enum):
    """Which limit an answer went past."""

    COLUMNS = "columns"
    CELLS = "cells"
    DEPTH = "depth"
    FORMULAS = "formulas"
    BLOCK_FORMULAS = "formulas in a block"
    FORMULA_SIZE = "formula size"
    LENGTH = "length"


@dataclass(frozen=True, slots=True)
class Excess:
    """Where the Markdown went past `limit` (`at`: where the plain text starts, an index of
    the whole text), with what was found there and the limit's value."""

    at: int
    limit: Limit
    found: int
    allowed: int


def _depth(line: str) -> int:
    """How deeply the line's block is nested: its quote and list markers and indentation."""
    markers = 0
    pos = 0
    while (match := _MARKER.match(line, pos)) is not None and match.end() > pos:
        markers += 1
        pos = match.end()
    indent = len(line) - len(line.lstrip(" \t"))
    return markers + line[:indent].expandtabs(4).count(" ") // 4


def _columns(line: str) -> int:
    return line.strip().strip("|").count("|") + 1 - line.count("\\|")


def _line_excess(text: str, start: int, end: int) -> Excess | None:
    """The first line of `text[start:end]` past the table, depth or length limits."""
    fence: str | None = None
    cells = 0
    lines = 0
    pos = start
    while pos < end:
        newline = text.find("\n", pos, end)
        line_end = end if newline < 0 else newline
        lines += 1
        line = text[pos:line_end]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
        elif (opening := _FENCE.match(line)) is not None:
            fence = opening.group(1)
        elif line.strip():  # (a blank line nests nothing, however it is indented)
            depth = _depth(line)
            if depth > MAX_DEPTH:
                return Excess(pos, Limit.DEPTH, depth, MAX_DEPTH)
            columns = _columns(line) if "|" in line else 0
            if not columns:
                cells = 0  # the table, if any, ended
            elif not _DELIMITER_ROW.fullmatch(line):
                cells += columns
            if columns > MAX_COLUMNS:
                return Excess(pos, Limit.COLUMNS, columns, MAX_COLUMNS)
            if cells > MAX_CELLS:
                return Excess(pos, Limit.CELLS, cells, MAX_CELLS)
        if line_end - start > MAX_BLOCK_CHARS or lines > MAX_BLOCK_LINES:
            # a line too long is cut inside: its start stays Markdown
            return Excess(max(pos, min(line_end, start + MAX_BLOCK_CHARS)), Limit.LENGTH,
                          end - start, MAX_BLOCK_CHARS)
        pos = line_end + 1
    return None


def first_excess(text: str, start: int = 0, end: int | None = None, *,
                 formulas_before: int = 0) -> tuple[Excess | None, int]:
    """The first place in `text[start:end]` past a limit (None: all of it is within them),
    and how many formulas come before that place. `formulas_before`: how many the answer
    had before `start` (the limit is the answer's)."""
    end = len(text) if end is None else end
    excess = _line_excess(text, start, end)
    checked = excess.at if excess is not None else end
    spans = find_maths(text[start:checked])
    allowed = max(0, MAX_FORMULAS - formulas_before)
    for number, span in enumerate(spans):
        if number >= allowed:
            return Excess(start + span.start, Limit.FORMULAS, formulas_before + len(spans),
                          MAX_FORMULAS), number
        if number >= MAX_BLOCK_FORMULAS:
            return Excess(start + span.start, Limit.BLOCK_FORMULAS, len(spans),
                          MAX_BLOCK_FORMULAS), number
        if len(span.latex) > MAX_FORMULA_CHARS:
            return Excess(start + span.start, Limit.FORMULA_SIZE, len(span.latex),
                          MAX_FORMULA_CHARS), number
    return excess, len(spans)


def next_plain_end(text: str, start: int, size: int) -> int | None:
    """Where the piece of plain text from `start` ends: after the first line end past
    `size` characters, or at `2 * size` in a line longer than that; None while `text`
    does not reach it yet. It depends only on the text before it, so a growing text is
    cut where the whole text is."""
    newline = text.find("\n", start + size, start + 2 * size)
    if newline >= 0:
        return newline + 1
    return start + 2 * size if len(text) >= start + 2 * size else None
