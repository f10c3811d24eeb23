"""Streamed text with a known secret taken out, however the server splits it: checked
against redacting the whole text at once (the plain reference)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from turnlog.core.redaction import StreamRedaction, redact_exact, secret_forms

SECRET_CHARS = st.sampled_from("sk-AbZ09_")
TEXT_CHARS = st.sampled_from("sk-AbZ09_ x你🙂")


@st.composite
def streams(draw):
    secret = draw(st.text(SECRET_CHARS, min_size=4, max_size=12))
    pieces = draw(st.lists(st.one_of(st.just(secret), st.text(TEXT_CHARS, max_size=8)),
                           max_size=8))
    text = "".join(pieces)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=10)))
    deltas = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    return secret, text, deltas


@given(streams())
def test_split_deltas_never_show_the_secret_and_lose_nothing_else(case):
    secret, text, deltas = case
    redaction = StreamRedaction([secret])
    shown = [redaction.feed(delta) for delta in deltas]
    shown.append(redaction.finish())
    assert "".join(shown) == redact_exact(text, secret_forms([secret]))
    assert secret not in "".join(shown)


def test_text_that_cannot_begin_a_secret_passes_at_once():
    redaction = StreamRedaction(["sk-secret-123"])
    assert redaction.feed("Hello, 世界 ") == "Hello, 世界 "
    assert redaction.feed("the key is sk-se") == "the key is "  # might be the key: waits
    assert redaction.feed("cret-123!") == "[redacted]!"
    assert redaction.feed("sk-") == ""
    assert redaction.feed("learn") == "sk-learn"  # not the key after all
    assert redaction.finish() == ""


def test_without_secrets_deltas_pass_unchanged():
    redaction = StreamRedaction([])
    assert [redaction.feed(d) for d in ("a", "Bearer x", "")] == ["a", "Bearer x", ""]
