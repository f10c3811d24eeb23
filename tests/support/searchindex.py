"""What the search index holds, for the privacy scans: every token in its pages, read
without writing.

FTS5 keeps each token once, prefix-compressed against its neighbours in the index's pages,
so scanning the file's bytes for a deleted question cannot see whether its tokens remain;
nor can the index's own vocabulary (`fts5vocab`), which hides a deleted row's tokens that
are still written in the pages until a merge rewrites them. So the scan reads the pages
themselves: every leaf of every FTS5 table's `_data` table (and the terms of its `_idx`),
each term rebuilt from its prefix-compressed form. A scan takes each deleted text's
distinctive tokens (those holding a digit, such as the `a002q` of
`ORCHID-17-SECRET-A002Q`) and looks for them there.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from turnlog.core.search import index_text

_PAGE_BITS = 31  # a leaf's id: segment << 37 | page; bits 31..36: a doclist index's


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's varint at `at`: (value, offset after it)."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9


def leaf_terms(page: bytes) -> list[bytes]:
    """The terms on one FTS5 leaf page (its footer holds each term's offset)."""
    if len(page) < 4:
        return []
    footer = int.from_bytes(page[2:4], "big")
    offsets, at, where = [], footer, 0
    while at < len(page):
        delta, at = _varint(page, at)
        where += delta
        offsets.append(where)
    terms: list[bytes] = []
    previous = b""
    for number, offset in enumerate(offsets):
        if number == 0:  # the first term on a page is written whole
            size, at = _varint(page, offset)
            term = page[at:at + size]
        else:
            common, at = _varint(page, offset)
            size, at = _varint(page, at)
            term = previous[:common] + page[at:at + size]
        terms.append(term)
        previous = term
    return terms


def _fts_tables(con: sqlite3.Connection) -> list[str]:
    return [name for (name, sql) in con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        if sql and "USING FTS5" in sql.upper()]


def index_terms(db_path: Path) -> set[str]:
    """Every token written in the search index's pages of the (closed) database at
    `db_path`, deleted rows' tokens not yet merged away included."""
    if not db_path.exists() or db_path.stat().st_size == 0:
        return set()
    con = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        raw: set[bytes] = set()
        for table in _fts_tables(con):
            for key, block in con.execute(f'SELECT id, block FROM "{table}_data"'):
                if key >> (_PAGE_BITS + 6) and not (key >> _PAGE_BITS) & 0x3F and block:
                    raw.update(leaf_terms(block))
            raw.update(term for (term,) in con.execute(f'SELECT term FROM "{table}_idx"'))
        # Each term starts with the byte of the index it belongs to ("0": the main one).
        return {term[1:].decode("utf-8", "replace") for term in raw if term}
    finally:
        con.close()


def distinctive_tokens(text: str) -> set[str]:
    """The tokens the index makes of `text` that hold a digit and a letter."""
    tokens = re.findall(r"[^\W_]+", index_text(text).lower())
    return {t for t in tokens if re.search(r"\d", t) and re.search(r"[^\W\d_]", t)}


def index_hits(home: Path, needles: list[str]) -> list[tuple[str, str]]:
    """("search index", token) for each distinctive token of `needles` still indexed."""
    terms = index_terms(home / "turnlog.sqlite3")
    return [("search index", token) for needle in needles
            for token in sorted(distinctive_tokens(needle)) if token in terms]
