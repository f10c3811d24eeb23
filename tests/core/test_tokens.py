"""The token estimate against two real tokenizers, SmolLM2's and Gemma 3's, over a corpus
of 64 kinds of text users paste (`tokens_corpus.py`: scripts, number formats, structured
data, logs, code, decorative text): never below either tokenizer's exact count, at most
2.0× the larger one, per kind and for short slices of each, with the chat template's
message and reply-priming overhead on both sides.

Needs llama-cpp-python and the SmolLM2 file (the `local` extra) and Gemma 3's file (the
`test` extra); skipped, with the reason, where the `local` extra is missing.
"""

from __future__ import annotations

import pytest

import real_tokenizers
from tokens_corpus import corpus
from turnlog.core.budget import ESTIMATE

pytestmark = pytest.mark.skipif(bool(real_tokenizers.missing()),
                                reason=real_tokenizers.missing() or "available")

CORPUS = corpus()
BOUND = 2.0


def estimated(messages: list[tuple[str, str]]) -> int:
    return ESTIMATE.reply_priming_tokens() + sum(
        ESTIMATE.message_tokens(role, content) for role, content in messages)


def exact(messages: list[tuple[str, str]]) -> dict[str, int]:
    return {name: real_tokenizers.prompt_tokens(name, messages)
            for name in real_tokenizers.NAMES}


def test_the_corpus_has_every_kind_at_about_two_thousand_characters():
    assert len(CORPUS) == 64
    assert all(1_000 <= len(text) <= 2_200 for text in CORPUS.values())
    assert corpus() == CORPUS  # made the same way every time


@pytest.mark.parametrize("name", list(CORPUS))
def test_estimate_is_never_below_either_tokenizer_and_at_most_twice_the_larger(name):
    messages = [("user", CORPUS[name])]
    counts = exact(messages)
    estimate = estimated(messages)
    larger = max(counts.values())
    assert estimate >= larger, (name, estimate, counts)
    assert estimate <= BOUND * larger, (name, estimate / larger, counts)


def test_a_conversation_of_every_kind_is_never_undercounted():
    messages = [("system", "You are a careful assistant. Answer briefly.")]
    for i, text in enumerate(CORPUS.values()):
        messages.append(("user" if i % 2 == 0 else "assistant", text))
    if messages[-1][0] == "assistant":
        messages.append(("user", "And now?"))
    counts = exact(messages)
    assert estimated(messages) >= max(counts.values()), counts


@pytest.mark.parametrize("name", list(CORPUS))
def test_short_messages_are_never_undercounted(name):
    # The template's overhead weighs most on short texts: SmolLM2 adds a default system
    # prompt when the request has none.
    for size in (1, 5, 40, 200):
        messages = [("user", CORPUS[name][:size])]
        counts = exact(messages)
        assert estimated(messages) >= max(counts.values()), (size, counts)
