"""The two budgets: body bytes and input tokens, and an estimate that errs high."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnlog.core.budget import (
    ESTIMATE,
    MESSAGE_OVERHEAD_TOKENS,
    Budget,
    InvalidBudget,
    estimate_text_tokens,
    safety_margin,
)
from turnlog.core.model import ConversationSettings


@pytest.mark.parametrize(
    "window, margin",
    [
        (1, 128),
        (2_560, 128),  # 5 % is exactly 128
        (2_561, 129),  # 5 % rounds up, never down
        (4_096, 205),
        (32_768, 1_639),
        (128_000, 6_400),
        (163_840, 8_192),  # 5 % is exactly the cap
        (200_000, 8_192),
        (1_000_000, 8_192),
    ],
)
def test_safety_margin_is_five_percent_clamped(window, margin):
    assert safety_margin(window) == margin


@given(st.integers(1, 10**9))
def test_safety_margin_is_at_least_five_percent_within_bounds(window):
    margin = safety_margin(window)
    assert 128 <= margin <= 8_192
    assert margin == min(8_192, max(128, math.ceil(window * 5 / 100)))


def test_unknown_window_assumes_200k_with_default_reserve():
    budget = Budget.from_settings(ConversationSettings())
    assert budget.context_window == 200_000
    assert not budget.window_known
    assert budget.max_bytes == 16_000
    assert budget.output_reserve == 8_192
    assert budget.input_tokens == 200_000 - 8_192 - 8_192


def test_known_window_from_settings_or_server():
    settings = ConversationSettings(context_window=32_768, output_reserve=1_024)
    from_settings = Budget.from_settings(settings)
    assert from_settings.window_known
    assert from_settings.input_tokens == 32_768 - 1_024 - 1_639
    from_server = Budget.from_settings(settings, context_window=8_192)
    assert from_server.context_window == 8_192
    assert from_server.input_tokens == 8_192 - 1_024 - 410


@pytest.mark.parametrize("reserve", [256, 8_192, 32_768])
def test_output_reserve_within_bounds_is_accepted(reserve):
    assert Budget(16_000, 200_000, reserve).output_reserve == reserve


@pytest.mark.parametrize("reserve", [0, 255, 32_769, -1])
def test_output_reserve_outside_bounds_is_refused_with_the_range(reserve):
    with pytest.raises(InvalidBudget, match="256 and 32,768"):
        Budget(16_000, 200_000, reserve)


@pytest.mark.parametrize("max_bytes", [0, -5])
def test_byte_limit_must_be_positive(max_bytes):
    with pytest.raises(InvalidBudget):
        Budget(max_bytes, 200_000, 8_192)


def test_context_window_must_be_positive():
    with pytest.raises(InvalidBudget):
        Budget(16_000, 0, 8_192)


def test_settings_outside_bounds_are_refused_when_the_budget_is_made():
    with pytest.raises(InvalidBudget):
        Budget.from_settings(ConversationSettings(output_reserve=100))


CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
EMOJI = st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF)


@given(st.text(CJK, min_size=1))
def test_cjk_is_never_undercounted(text):
    assert estimate_text_tokens(text) >= len(text)


@given(st.text(EMOJI, min_size=1))
def test_emoji_is_never_undercounted(text):
    assert estimate_text_tokens(text) >= len(text)


# Runs of one character, which plain random text almost never has: "-----", "     ", "──".
RUNS = st.builds(lambda parts: "".join(ch * n for ch, n in parts),
                 st.lists(st.tuples(st.characters(), st.integers(1, 40)), max_size=8))


@given(st.one_of(st.text(), RUNS))
def test_every_character_costs_a_tenth_and_every_non_ascii_one_a_token_outside_line_runs(
        text):
    # Runs merge in every tokenizer ("----" sixteen to a token), so they are priced near
    # what they cost; nothing else falls below a fifth of a token a character.
    estimate = estimate_text_tokens(text)
    assert estimate * 10 >= len(text)
    lines = sum(1 for i in range(1, len(text))
                if text[i] == text[i - 1] and text[i] in "\u2500\u2550\u2588")
    assert estimate >= sum(1 for ch in text if ord(ch) > 0x7F) - lines


@given(st.one_of(st.text(), RUNS), st.one_of(st.text(), RUNS))
def test_estimating_parts_separately_never_counts_less_than_the_whole(a, b):
    # Projection sums per-message estimates; the sum must stay on the high side.
    assert estimate_text_tokens(a) + estimate_text_tokens(b) >= estimate_text_tokens(a + b)


def test_english_is_counted_above_chars_over_four():
    text = "The quick brown fox jumps over the lazy dog. " * 20
    assert estimate_text_tokens(text) > len(text) / 4


def test_empty_text_costs_nothing_but_a_message_still_has_overhead():
    assert estimate_text_tokens("") == 0
    assert ESTIMATE.message_tokens("user", "") == MESSAGE_OVERHEAD_TOKENS
    assert not ESTIMATE.exact


# ------------------------------------------------------- the estimate, character by character
OPENERS = " \t\n\r\f\v(\"'._/["
PUNCT = "".join(ch for ch in map(chr, range(0x21, 0x7F)) if not ch.isalnum())
LOWER, UPPER = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


REPEATED_MARK = {**dict.fromkeys("#*-._=~", 10), **dict.fromkeys("+/", 20),
                 **dict.fromkeys("!%),:^", 40), **dict.fromkeys("\"$'(<>?@[\\]`{|}", 75),
                 **dict.fromkeys("&;", 100)}
REPEATED_LINE = {"\u2500": 25, "\u2550": 75, "\u2588": 75}


def in_range(ch: str, low: int, high: int) -> bool:
    return bool(ch) and low <= ord(ch) <= high


def reference_beyond_ascii(ch: str, prev: str) -> int:
    cost = 100 * len(ch.encode("utf-8", "surrogatepass"))
    if ch in REPEATED_LINE and prev == ch:
        return REPEATED_LINE[ch]
    if (in_range(ch, 0x430, 0x45F) and in_range(prev, 0x400, 0x45F)
            or in_range(ch, 0x3AC, 0x3CE) and in_range(prev, 0x386, 0x3CE)):
        return cost - 50
    if in_range(ch, 0x900, 0x97F) and in_range(prev, 0x900, 0x97F):
        return cost - 100
    return cost


def reference_letter(ch: str, prev: str, prev2: str) -> int:
    letters = LOWER + UPPER
    if ch in LOWER and prev == ch:
        return 50
    if prev and prev in OPENERS:
        return 75
    if ch in LOWER and prev and prev in letters and prev2 == " ":
        return 15
    if ch in LOWER and prev and prev in letters and prev2 and prev2 in OPENERS:
        return 30
    if ch in LOWER and prev and prev in LOWER and prev2 and prev2 in letters:
        return 25
    if ch in UPPER and prev and prev in UPPER and prev2 and prev2 in UPPER and prev != ch:
        return 60
    return 100


def reference_cost(text: str, i: int) -> int:
    """What character i of `text` costs, in hundredths of a token: the estimator's rules
    written out one character at a time (the estimator counts them in bulk)."""
    ch = text[i]
    prev = text[i - 1] if i >= 1 else ""
    prev2 = text[i - 2] if i >= 2 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ord(ch) > 0x7F:
        return reference_beyond_ascii(ch, prev)
    if ch == " ":
        if not after or after in "0123456789" or in_range(after, 0x300, 0x36F):
            return 100
        if after == " " and not (prev and prev in " \t\n\r\f\v"):
            return 100
        return 20 if prev == " " and prev2 == " " else 25
    if ch in LOWER + UPPER:
        return reference_letter(ch, prev, prev2)
    if ch in PUNCT and prev == " ":
        return 75
    if ch in PUNCT and prev == ch:
        return REPEATED_MARK[ch]
    if ch == "\n" and after == "\n":
        return 50
    if ch == "\n" and after and after in " \t\r\f\v":
        return 30
    return 100


def reference_estimate(text: str) -> int:
    return (sum(reference_cost(text, i) for i in range(len(text))) + 99) // 100


TRICKY = st.text(st.sampled_from(list(
    " \n\t\r-=_.,()'\"/[|#!?;&*abczzXYZZ019é中😀жЖΆαक─═█\u0301")), max_size=60)


@given(st.one_of(TRICKY, st.text(), RUNS))
def test_the_estimate_is_the_sum_of_its_characters_costs(text):
    assert estimate_text_tokens(text) == reference_estimate(text)


@given(TRICKY, TRICKY)
def test_a_character_never_costs_less_without_its_context(a, b):
    # Why counting messages apart never counts less than counting them joined.
    joined = a + b
    for i in range(len(a)):
        assert reference_cost(a, i) >= reference_cost(joined, i)
    for i in range(len(b)):
        assert reference_cost(b, i) >= reference_cost(joined, len(a) + i)


@given(TRICKY, TRICKY)
def test_tricky_parts_counted_apart_never_count_less_than_joined(a, b):
    assert estimate_text_tokens(a) + estimate_text_tokens(b) >= estimate_text_tokens(a + b)


@pytest.mark.parametrize("text, low, high", [
    ("0123456789", 10, 10),  # a digit a token
    ("3f9a0c1be47d", 10, 12),  # a hash: about a token a character
    ("The committee met on Tuesday to review the proposal.", 12, 20),
    ("    " * 8, 9, 9),  # indentation: a fifth of a token a space in a run; the first
    # and the last whole (what comes before and after is not known)
    ("end.  Next", 4, 6),  # the first of two spaces after a word is a token of its own
    ("-" * 80, 9, 9),  # a rule: a tenth of a token a dash after the first
    ("1,234.56 7", 10, 10),  # a space before a digit is a token of its own
    ("zzzz", 3, 3),  # a letter after the same letter: half a token
    ("你好世界", 12, 12),  # a token per UTF-8 byte outside ASCII
])
def test_classes_of_text_cost_what_tokenizers_spend_on_them_or_a_little_more(text, low, high):
    assert low <= estimate_text_tokens(text) <= high
