"""A title taken from the first question: its first line, cut to about 40 characters at a
space (English) or at 40 (Chinese has no spaces), with an ellipsis when cut; checked
against a plain reference of the rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from turnlog.core.titles import (
    CUT_WINDOW,
    ELLIPSIS,
    TITLE_LENGTH,
    clean_model_title,
    short_title,
    title_from_question,
)


def reference(line: str) -> str:
    """The rule as the issue words it, plainly."""
    if len(line) <= 40:
        return line
    if line[40] == " ":
        return line[:40].rstrip() + "…"
    for cut in range(39, 29, -1):  # a space within the last 10 characters before 40
        if line[cut] == " ":
            return line[:cut].rstrip() + "…"
    return line[:40] + "…"


def test_an_english_question_is_cut_at_a_space_with_an_ellipsis():
    question = "Why does my Kubernetes deployment keep restarting every few minutes?"
    assert title_from_question(question) == "Why does my Kubernetes deployment keep…"


def test_a_chinese_question_is_cut_at_forty_characters():
    question = ("请帮我解释一下为什么在分布式系统中一致性、可用性和分区容错性"
                "三者不能同时满足，并举一个具体的例子说明")
    title = title_from_question(question)
    assert title == question[:40] + ELLIPSIS
    assert len(title) == 41


def test_a_short_question_is_its_own_title_and_only_its_first_line_counts():
    assert title_from_question("Hello there\nsecond line") == "Hello there"
    assert title_from_question("\n\n   fix   my\tcode  \nplease") == "fix my code"
    assert title_from_question("   \n ") == ""


def test_a_long_word_with_no_space_near_the_limit_is_cut_at_the_limit():
    line = "see " + "x" * 60
    assert short_title(line) == line[:TITLE_LENGTH] + ELLIPSIS


def test_a_cut_never_leaves_half_an_emoji_sequence():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    line = "a" * 38 + family + " and more words here"
    title = short_title(line)
    assert "\u200d" not in title[-2:]
    assert title.endswith(ELLIPSIS)


@given(st.text(alphabet=st.sampled_from("ab 中文é"), max_size=80))
def test_the_cut_follows_the_rule(line):
    line = " ".join(line.split())
    assert short_title(line) == reference(line)
    assert len(short_title(line)) <= TITLE_LENGTH + 1
    assert TITLE_LENGTH - CUT_WINDOW >= 30


def test_a_model_reply_becomes_a_clean_title():
    assert clean_model_title('Title: "Reading big CSV files."\nMore text') == \
        "Reading big CSV files"
    assert clean_model_title("《分布式系统的一致性》。") == "分布式系统的一致性"
    assert clean_model_title("  \n") == ""
