"""Answers given to the privacy dialogs, and scanning what a delete left."""

from __future__ import annotations

from pathlib import Path

from searchindex import index_hits
from turnlog.ui.dialogs.privacy import Confirmation, Decision


def scan(home: Path, needles: list[str]) -> list[tuple[str, str]]:
    """(file, piece) for every piece of every needle found in any file under `home`, in
    UTF-8 or UTF-16 (either byte order)."""
    hits = []
    for path in home.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        for needle in needles:
            for piece in needle.split():
                if any(piece.encode(e) in data for e in ("utf-8", "utf-16-le", "utf-16-be")):
                    hits.append((path.name, piece))
    return hits + index_hits(home, needles)  # and no token of them in the search index


class Answers:
    """Stands in for the person answering confirmations: records each, answers `decision`."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        self.asked: list[Confirmation] = []

    def __call__(self, confirmation: Confirmation) -> Decision:
        self.asked.append(confirmation)
        return self.decision
