"""A sync object's JSON: written fast (msgspec, with the sync extra) and still the document
the standard library writes, for any record a feed can give; read back the same."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.sync.payload import Payload, encode_json, parse_payload, plain_json

SCALARS = (st.none() | st.booleans() | st.integers(-(2**80), 2**80)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)
RECORDS = st.lists(st.dictionaries(st.text(), VALUES, max_size=6), max_size=8)


@settings(max_examples=150, deadline=None)
@given(records=RECORDS, name=st.text(min_size=1, max_size=50))
def test_the_fast_json_is_the_plain_json_and_reads_back(records, name):
    payload = Payload("m" * 32, name, 3, "2026-12-06T23:00:00+00:00", [1, 3],
                      {3: records, 1: records[:1]}, {"o" * 32: 7}, ["f" * 32])
    data = payload.to_bytes()
    document = json.loads(data)
    assert json.loads(plain_json(document)) == document
    assert json.loads(encode_json(document)) == document
    if not _has_float(records):  # floats may be spelled otherwise, never read otherwise
        assert data == plain_json(document)
    opened = parse_payload(data, "m" * 32, 3)
    assert (opened.name, opened.covers, opened.read) == (name, [1, 3], {"o" * 32: 7})
    assert opened.sections == {3: json.loads(json.dumps(records)), 1: records[:1]}


def _has_float(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return isinstance(value, list) and any(_has_float(v) for v in value)


def test_what_only_the_standard_library_writes_still_goes_through_it():
    odd = {"v": 1, "set": (1, 2), "big": 2**90, "no": float("nan")}
    assert json.loads(encode_json({"v": 1, "big": 2**90})) == {"v": 1, "big": 2**90}
    assert encode_json(odd) in (plain_json(odd), plain_json({**odd, "no": None}))
