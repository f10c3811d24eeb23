"""A title taken from the first question: its first line, cut to about 40 characters at a
space (English) or at 40 (Chinese has no spaces), with an ellipsis when cut; checked
against a plain reference of the rule."""

from __future__ import annotations

import pytest
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


# ---------------------------------------------------------------- plausible model titles
from turnlog.core.titles import plausible_title  # noqa: E402

_WALK_FINDINGS = [
    ("What is the capital of France?", "A just title, but no actual answer"),
    ("你好，介绍一下你自己", "Hi Kaiji,"),
    ("Name three colors.",
     "Two of the most common mistakes in writing is using a word…"),
    ("What is the capital of France?", "The capital of France is Paris"),
    ("你好，介绍一下你自己", "你好"),
    ("How do I sort a list in Python?", "Yes, Python sorts lists"),
    ("How do I sort a list in Python?", "Sorting lists. Use sorted() in Python"),
    ("你好，介绍一下你自己", "Pour le dommel, ami"),
]


@pytest.mark.parametrize(("question", "title"), _WALK_FINDINGS)
def test_nonsense_greetings_and_answers_are_not_titles(question, title):
    assert not plausible_title(question, clean_model_title(title))


@pytest.mark.parametrize(("question", "title"), [
    ("What is the capital of France?", "Capital of France"),
    ("Name three colors.", "Three colours named"),
    ("Why does my Kubernetes deployment keep restarting?", "Restarting pods"),
    ("你好，介绍一下你自己", "自我介绍"),
    ("請介紹台灣的夜市", "台灣夜市介紹"),
    ("帮我写一个Python排序函数", "Python 排序函数"),
    ("How do I sort a list in Python?", "How to sort a Python list"),
])
def test_a_title_that_names_the_question_is_kept(question, title):
    assert plausible_title(question, clean_model_title(title))


_LATIN = st.text(alphabet="bcdfghklmnprstvz" + "aeiou", min_size=4, max_size=9).filter(
    lambda word: word not in {"were", "sure", "here", "there", "then", "than", "them", "they",
                              "this", "that", "what", "when", "with", "from", "have", "does",
                              "make", "more", "most", "over", "some", "such", "tell",
                              "these", "those", "their", "theirs", "should", "could",
                              "would", "using", "about", "under", "very", "must", "been",
                              "being", "into", "onto", "only", "also", "just", "same",
                              "whose", "which", "where", "please", "three", "four", "five",
                              "done", "used", "give", "mine", "answer", "sorry",
                              # greetings: a title never opens with one
                              "hola", "ciao", "hallo", "salut", "howdy", "hello", "dear",
                              "greetings", "bonjour", "certainly", "absolutely"}
    and not word.startswith(("sorry", "answer")))
_HAN = "山水火木金土日月星雲雨風花草魚鳥馬牛羊車船橋路城"
_GREEK = "αβγδεζηθικλμνξοπρστυφχψω"


@given(st.lists(_LATIN, min_size=1, max_size=8), st.data())
def test_a_few_of_the_question_s_own_words_always_make_a_title(words, data):
    question = "Explain " + " ".join(words) + "?"
    picked = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=4))
    assert plausible_title(question, " ".join(picked).capitalize())


@given(st.lists(_LATIN, min_size=1, max_size=8), st.lists(_LATIN, min_size=1, max_size=4))
def test_a_title_sharing_no_word_stem_is_never_kept(question_words, title_words):
    stems = {word[:4] for word in question_words}
    title_words = [w for w in title_words if w[:4] not in stems
                   and not any(q.startswith(w) or w.startswith(q) for q in question_words)]
    if title_words:
        assert not plausible_title(" ".join(question_words), " ".join(title_words))


@given(st.text(alphabet=_HAN, min_size=1, max_size=20), st.data())
def test_a_chinese_title_needs_a_character_of_the_question(question, data):
    title = data.draw(st.text(alphabet=_HAN, min_size=1, max_size=8))
    shared = bool(set(question) & set(title))
    assert plausible_title(question, title) == shared


@given(st.lists(_LATIN, min_size=1, max_size=6), st.text(alphabet=_HAN + _GREEK, min_size=1,
                                                          max_size=8))
def test_a_title_in_another_script_is_never_kept(words, title):
    question = " ".join(words)
    assert not plausible_title(question, title)
    assert not plausible_title(question, title * 10 + " " + words[0])  # mostly another
    assert not plausible_title(_HAN, question)


@given(st.lists(_LATIN, min_size=1, max_size=6),
       st.sampled_from(["Hi", "Hello", "Hey", "Dear", "Greetings"]))
def test_a_greeting_or_a_cut_or_a_long_title_is_never_kept(words, greeting):
    question = " ".join(words)
    assert not plausible_title(question, f"{greeting}, {question}")
    assert not plausible_title(question, question + ELLIPSIS)
    assert not plausible_title(question, "")
    assert not plausible_title(question, " ".join([words[0]] * 11))
