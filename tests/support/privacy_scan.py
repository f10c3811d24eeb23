"""Scanning every file of a data directory for text that must be gone, in every encoding it
could be stored in."""

from __future__ import annotations

from pathlib import Path

from searchindex import index_hits


def secrets_for(tag: str, n: int) -> tuple[str, str]:
    # Zero-padded and closed at both ends, so no secret is a prefix of another.
    return (f"ORCHID-17-SECRET-{tag}{n:03d}Q 机密兰花{tag}{n:03d}问 🦄{tag}{n:03d}🦄",
            f"ORCHID-17-SECRET-{tag}{n:03d}A 秘密答复{tag}{n:03d}答 🔐{tag}{n:03d}🔐")


def encodings(text: str) -> list[bytes]:
    return [text.encode(e) for e in ("utf-8", "utf-16-le", "utf-16-be")]


def scan(home: Path, needles: list[str]) -> list[tuple[str, str]]:
    hits = []
    for path in home.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        for needle in needles:
            # Each distinctive piece on its own: a fragment surviving anywhere is a leak.
            for piece in needle.split():
                if any(e in data for e in encodings(piece)):
                    hits.append((path.name, piece))
    return hits + index_hits(home, needles)  # and no token of them in the search index
