"""The provider's readers of server bytes against arbitrary input: the SSE decoder keeps
every event and line within its bound, the JSON reader names every failure (never a
RecursionError), the inflater gives back what was compressed in bounded pieces."""

from __future__ import annotations

import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.providers.inflate import Inflater
from turnlog.providers.sse import EventStreamDecoder, LineTooLong, NotAnEventStream
from turnlog.providers.wirejson import MAX_DEPTH, UnreadableJson, server_json

PIECES = st.lists(st.sampled_from([b"data: ", b"data:", b"x" * 7, b"{}", b"\n", b"\r\n",
                                   b": ping\n", b"event: e\n", b"\n\n", b"[DONE]"]),
                  max_size=60)


@settings(max_examples=300)
@given(PIECES, st.lists(st.integers(1, 40), min_size=1, max_size=8), st.booleans())
def test_sse_events_and_lines_stay_within_their_bound(pieces, cuts, split):
    stream = b"".join(pieces)
    decoder = EventStreamDecoder(max_line=24, max_event=40, split_oversized=split)
    chunks, start = [], 0
    for cut in cuts * (len(stream) // sum(cuts) + 1):
        chunks.append(stream[start:start + cut])
        start += cut
    try:
        payloads = [p for chunk in chunks for p in decoder.feed(chunk)] + decoder.finish()
    except (LineTooLong, NotAnEventStream):
        return
    assert all(len(payload) <= 40 for payload in payloads)


def test_an_event_of_many_short_lines_stops_at_its_bound():
    decoder = EventStreamDecoder(max_line=100, max_event=1000)
    with pytest.raises(LineTooLong):
        for _ in range(200):
            decoder.feed(b"data: 0123456789\n")


def test_an_oversized_event_can_be_given_line_by_line():
    decoder = EventStreamDecoder(max_line=100, max_event=30, split_oversized=True)
    payloads = [p for n in range(6) for p in decoder.feed(b'data: {"n": %d}\n' % n)]
    payloads += decoder.finish()
    assert payloads == [b'{"n": 0}', b'{"n": 1}', b'{"n": 2}', b'{"n": 3}\n{"n": 4}\n{"n": 5}']


JSON_ISH = st.text(alphabet='[]{}":,0123456789 \\ud800e.-tnul', max_size=300)


@settings(max_examples=400)
@given(st.one_of(JSON_ISH, st.integers(1, 5000).map(lambda n: "[" * n + "]" * n),
                 st.integers(1, 5000).map(lambda n: '{"a":' * n + "1" + "}" * n)))
def test_server_json_parses_or_names_why(text):
    try:
        data = server_json(text.encode("utf-8", "surrogatepass"))
    except UnreadableJson as err:
        assert err.reason
        return
    assert json.loads(text) == data and depth(data) <= MAX_DEPTH


def depth(value: object) -> int:
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, level + 1) for child in children)
    return deepest


@settings(max_examples=100)
@given(st.binary(max_size=3000), st.integers(1, 300))
def test_inflating_gives_back_what_was_compressed(data, step):
    packed = zlib.compress(data * 20)
    inflater = Inflater("deflate", 512)
    pieces = [piece for start in range(0, len(packed), step)
              for piece in inflater.feed(packed[start:start + step])]
    pieces += list(inflater.finish())
    assert b"".join(pieces) == data * 20 and all(len(piece) <= 512 for piece in pieces)
