"""Cutting chunks from a huge turn measures only what the chunk could hold: the work per
chunk follows the chunk, not the rest of the turn (the wall-clock figure is in
tests/bench/compaction_huge.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.compaction import json_len, split_utf8, take_chunk


class CountingMeasure:
    """`json_len` that adds up how many characters it was asked to measure."""

    def __init__(self) -> None:
        self.measured = 0

    def __call__(self, text: str) -> int:
        self.measured += len(text)
        return json_len(text)


def test_splitting_measures_about_the_pieces_not_the_whole_rest():
    text = "多字节 text with \"quotes\" and emoji 😀\n" * 30_000  # ~1 MB
    measure = CountingMeasure()
    pieces = split_utf8(text, 4_000, measure)
    assert "".join(pieces) == text
    # A binary search over at most 4,000 characters per piece: ~12 probes of ≤ 4,000.
    assert measure.measured <= 13 * 4_000 * len(pieces)
    assert measure.measured < 20 * len(text)


def test_taking_one_chunk_from_a_huge_turn_leaves_the_rest_intact():
    huge = "x" * 5_000_000
    chunk, rest = take_chunk([huge, "next turn"], 10_000)
    assert json_len(chunk) <= 10_000 and len(chunk) == 10_000
    assert chunk + rest[0] == huge and rest[1:] == ["next turn"]


@settings(max_examples=200)
@given(text=st.text(min_size=1, max_size=400), room=st.integers(6, 120))
def test_pieces_are_the_longest_that_fit(text, room):
    pieces = split_utf8(text, room, json_len)
    assert "".join(pieces) == text
    assert all(json_len(p) <= room for p in pieces)
    for piece, following in zip(pieces, pieces[1:], strict=False):
        assert json_len(piece + following[0]) > room  # one more character would not fit
