"""Key facts (versions, identifiers, paths, the user's prohibitions) are found in time
linear in the text: a long answer or question without punctuation used to take seconds to
minutes at every compaction (40,000 characters: 40 s), for the same facts."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.key_facts import _NEGATION, key_facts, negations
from turnlog.core.model import Turn

PIECES = ["never", "Never", "do not", "don't", "can't", "no longer", "cannot", "x", "a b",
          " ", ".", ",", "!", "?", ";", "\n", "。", "，", "！", "不要", "别", "禁止", "中",
          "ab", "never1", "_never", "é"]


def reference(text: str) -> list[str]:
    """The pattern's own search: obviously right, quadratic on long clauses."""
    return [match.group(0) for match in _NEGATION.finditer(text)]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_negations_are_exactly_what_the_pattern_finds(text):
    assert negations(text) == reference(text)


def test_known_prohibitions_in_english_and_chinese():
    text = ("Use version 2.1, never push to main\n请不要删除日志，谢谢。"
            "Also: we do not ship on Fridays\nok")
    assert negations(text) == reference(text) == [
        " never push to main", "请不要删除日志", "Also: we do not ship on Fridays"]


def turn(question: str, answer: str) -> Turn:
    return Turn("t", 1, question, answer, "m", "stop", datetime.now(UTC))


def test_key_facts_of_long_unpunctuated_text_take_linear_time():
    def seconds(size: int) -> float:
        words = ("lorem ipsum dolor sit amet " * (size // 27 + 1))[:size]
        turns = [turn(words + " never do that " + words, words)]
        started = time.perf_counter()
        facts = key_facts(turns)
        took = time.perf_counter() - started
        assert any("never do that" in fact for fact in facts)
        return took

    small, large = seconds(20_000), seconds(160_000)
    # Linear: 8× the text, about 8× the time (the pattern's own search took 64×, and
    # 10 s already for 20,000 characters).
    assert small < 0.5 and large < 2.0, (small, large)
    assert large < 40 * max(small, 1e-3), (small, large)
