"""The exact request body: what is measured is what goes on the wire."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.body import (
    ASSISTANT,
    SYSTEM,
    USER,
    Envelope,
    Message,
    RequestOptions,
    build_body,
    message_bytes,
    pair_bytes,
)

# Text that stresses JSON escaping and UTF-8 width: quotes, backslashes, every
# control character, CJK, emoji (astral plane), line/paragraph separators, DEL.
TRICKY = (
    list('"\\/\n\r\t\b\f')
    + [chr(c) for c in range(0x20)]
    + [
        "你",
        "好",
        "語",
        "ｶ",
        "😀",
        "🧪",
        "\u200d",
        "💻",
        "\u2028",
        "\u2029",
        "\x7f",
        "é",
        "\ufeff",
    ]
)
texts = st.text(
    alphabet=st.one_of(st.sampled_from(TRICKY), st.characters(codec="utf-8")), max_size=40
)
roles = st.sampled_from([SYSTEM, USER, ASSISTANT])
messages_st = st.lists(st.builds(Message, roles, texts), max_size=8)
options_st = st.builds(
    RequestOptions,
    stream=st.booleans(),
    include_usage=st.booleans(),
    max_tokens=st.none() | st.integers(1, 1_000_000),
    temperature=st.none() | st.floats(0, 2, allow_nan=False, allow_infinity=False),
    top_p=st.none() | st.floats(0, 1, allow_nan=False, allow_infinity=False),
)
models = st.text(
    alphabet=st.one_of(st.sampled_from(TRICKY), st.characters(codec="utf-8")),
    min_size=1,
    max_size=20,
)


def expected_object(model, messages, options):
    obj = {"model": model, "messages": [{"role": m.role, "content": m.content} for m in messages]}
    obj["stream"] = options.stream
    if options.stream and options.include_usage:
        obj["stream_options"] = {"include_usage": True}
    if options.max_tokens is not None:
        obj["max_tokens"] = options.max_tokens
    if options.temperature is not None:
        obj["temperature"] = options.temperature
    if options.top_p is not None:
        obj["top_p"] = options.top_p
    return obj


@settings(max_examples=300)
@given(models, messages_st, options_st)
def test_body_round_trips_through_json_with_fields_in_wire_order(model, messages, options):
    body = build_body(model, messages, options)
    decoded = json.loads(body.decode("utf-8"))
    expected = expected_object(model, messages, options)
    assert decoded == expected
    assert list(decoded) == list(expected)


@settings(max_examples=300)
@given(models, messages_st, options_st)
def test_body_is_compact_utf8_without_ascii_escapes(model, messages, options):
    body = build_body(model, messages, options)
    compact = json.dumps(
        expected_object(model, messages, options), ensure_ascii=False, separators=(",", ":")
    )
    assert body == compact.encode("utf-8")


def test_cjk_and_emoji_travel_as_utf8_not_escapes():
    body = build_body("m", [Message(USER, "你好, 世界 😀")], RequestOptions(stream=False))
    assert "你好, 世界 😀".encode() in body
    assert b"\\u" not in body
    expected = '{"model":"m","messages":[{"role":"user","content":"你好, 世界 😀"}],"stream":false}'
    assert body == expected.encode("utf-8")


def test_control_characters_are_escaped_so_the_body_stays_valid_json():
    body = build_body("m", [Message(USER, 'a"b\\c\n\x00\x1f')], RequestOptions(stream=False))
    assert b'"a\\"b\\\\c\\n\\u0000\\u001f"' in body
    assert json.loads(body)["messages"][0]["content"] == 'a"b\\c\n\x00\x1f'


def test_usage_is_asked_for_only_on_streamed_requests():
    streamed = json.loads(build_body("m", [], RequestOptions(stream=True, include_usage=True)))
    plain = json.loads(build_body("m", [], RequestOptions(stream=False, include_usage=True)))
    assert streamed["stream_options"] == {"include_usage": True}
    assert "stream_options" not in plain


def test_unset_options_are_left_out_of_the_body():
    body = json.loads(build_body("m", [], RequestOptions()))
    assert set(body) == {"model", "messages", "stream"}


def test_a_non_finite_temperature_is_refused_rather_than_sent_as_invalid_json():
    with pytest.raises(ValueError):
        build_body("m", [], RequestOptions(temperature=float("nan")))


def test_a_lone_surrogate_never_becomes_body_bytes():
    with pytest.raises(UnicodeEncodeError):
        build_body("m", [Message(USER, "half \ud800 a pair")], RequestOptions())


@settings(max_examples=300)
@given(models, messages_st, options_st)
def test_predicted_size_equals_the_serialized_body(model, messages, options):
    body = build_body(model, messages, options)
    separators = max(0, len(messages) - 1)
    predicted = Envelope(model, options).bytes + sum(map(message_bytes, messages)) + separators
    assert predicted == len(body)


@settings(max_examples=300)
@given(models, messages_st, texts, texts, texts, options_st)
def test_a_pair_adds_exactly_pair_bytes_before_the_question(
    model, prefix, question, answer, current, options
):
    without = build_body(model, [*prefix, Message(USER, current)], options)
    with_pair = build_body(
        model,
        [*prefix, Message(USER, question), Message(ASSISTANT, answer), Message(USER, current)],
        options,
    )
    assert len(with_pair) - len(without) == pair_bytes(question, answer)


@given(roles, texts)
def test_message_bytes_is_the_utf8_length_of_the_message_object(role, content):
    message = Message(role, content)
    whole = build_body("m", [message], RequestOptions())
    start = whole.index(b'"messages":[') + len(b'"messages":[')
    end = whole.rindex(b"]")
    assert message_bytes(message) == end - start


def test_envelope_is_the_body_without_messages():
    options = RequestOptions(stream=True, include_usage=True, max_tokens=512, temperature=0.5)
    envelope = Envelope("qwen2.5-7b", options)
    assert envelope.bytes == len(build_body("qwen2.5-7b", [], options))
    assert envelope.options_json() == {
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 512,
        "temperature": 0.5,
    }
