"""What the search index holds, for the privacy scans: its vocabulary, read without writing.

FTS5 keeps each token once, prefix-compressed against its neighbours in the index's pages,
so scanning the file's bytes for a deleted question cannot see whether its tokens remain;
the index's own vocabulary (`fts5vocab`) can. A scan takes each deleted text's distinctive
tokens (those holding a digit, such as the `a002q` of `ORCHID-17-SECRET-A002Q`) and looks
for them there.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from turnlog.core.search import index_text

INDEXES = ("search_turns", "search_titles")


def index_terms(db_path: Path) -> set[str]:
    """Every token in the search index of the (closed) database at `db_path`."""
    if not db_path.exists() or db_path.stat().st_size == 0:
        return set()
    con = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        tables = {name for (name,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        terms: set[str] = set()
        for index in INDEXES:
            if index not in tables:
                continue
            con.execute(f"CREATE VIRTUAL TABLE temp.vocab_{index} USING "
                        f"fts5vocab(main, {index}, 'row')")
            terms.update(term for (term,) in con.execute(f"SELECT term FROM vocab_{index}"))
        return terms
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
