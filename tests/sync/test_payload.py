"""A sync object's JSON: written fast (msgspec, with the sync extra) and still the document
the standard library writes, for any record a feed can give; read back the same."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.store.sync_records import TURN_COLUMNS, OutgoingPage, TurnColumns
from turnlog.sync.payload import (
    MAX_RECORDS,
    Payload,
    PayloadInvalid,
    encode_json,
    parse_payload,
    plain_json,
)

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


# ------------------------------------------------------------- format 2: turns by columns
MACHINE = "m" * 32
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
NULLABLE = {"usage", "incomplete", "tool_exchange", "after", "version_of"}


@st.composite
def _turns(draw):
    return {name: draw(st.none() | TEXT) if name in NULLABLE else draw(TEXT)
            for name in TURN_COLUMNS}


def _columns(turns: list[dict]) -> TurnColumns:
    """The columns SQLite joins for `turns` (each value's UTF-8, its length in bytes)."""
    data, lengths = [], []
    for name in TURN_COLUMNS:
        values = [turn[name] for turn in turns]
        data.append(b"".join(v.encode() for v in values if v is not None))
        lengths.append(",".join(str(-1 if v is None else len(v.encode())) for v in values))
    return TurnColumns(len(turns), lengths, data)


def _page(turns: list[dict], records: list[dict], at: list[int]) -> OutgoingPage:
    return OutgoingPage([plain_json(r) for r in records], set(), [], 9,
                        _columns(turns) if turns else None, at)


def _fresh(page: OutgoingPage) -> bytes:
    payload = Payload.fresh(MACHINE, "laptop 笔记本", 4, "2026-12-07T10:00:00+00:00",
                            {"o" * 32: 2}, page)
    data = payload.joined()
    assert len(data) == payload.size
    return data


@settings(max_examples=120, deadline=None)
@given(turns=st.lists(_turns(), min_size=1, max_size=8),
       records=st.lists(st.dictionaries(st.text(max_size=8), TEXT, max_size=3), max_size=4),
       seed=st.randoms())
def test_turns_by_columns_read_back_as_their_records_in_their_places(turns, records, seed):
    """Any text (quotes, newlines, Chinese, emoji, empty, null where a field may be) comes
    back as the record its JSON would be, with the other records at their places."""
    at = sorted(seed.sample(range(len(turns) + len(records)), len(records)))
    data = _fresh(_page(turns, records, at))
    opened = parse_payload(data, MACHINE, 4)
    expected = [{"v": 1, "kind": "turn", **turn} for turn in turns]
    for place, record in zip(at, records, strict=True):
        expected.insert(place, record)
    assert opened.sections == {4: expected}
    assert (opened.name, opened.covers, opened.read) == ("laptop 笔记本", [4], {"o" * 32: 2})
    assert opened.ids() >= {turn["id"] for turn in turns}


def test_a_page_without_plain_turns_is_one_json_document_as_before():
    """Format 1, which every Turnlog reads: a page of other records only."""
    data = _fresh(_page([], [{"kind": "conversation", "id": "c1"}], []))
    assert json.loads(data)["v"] == 1
    assert parse_payload(data, MACHINE, 4).sections == {4: [{"kind": "conversation",
                                                             "id": "c1"}]}


TURN = {name: f"{name} 值" for name in TURN_COLUMNS}


def _tampered(change) -> bytes:
    data = _fresh(_page([TURN, {**TURN, "usage": None}], [{"kind": "x"}], [1]))
    document, _, columns = data.partition(b"\n")
    head = json.loads(document)
    columns = change(head["turns"]["4"], columns)
    return plain_json(head) + b"\n" + columns


@pytest.mark.parametrize(("change", "says"), [
    (lambda block, columns: columns[:-1], "shorter than it says"),
    (lambda block, columns: columns + b"x", "longer than it says"),
    (lambda block, columns: b"\xff" + columns[1:], "not UTF-8"),
    (lambda block, columns: block.update(fields=["id", "secret"]) or columns,
     "fields this Turnlog does not know"),
    (lambda block, columns: block.update(at=[5]) or columns, "places are invalid"),
    (lambda block, columns: block.update(at=[1, 1]) or columns, "places are invalid"),
    (lambda block, columns: block.update(count=3) or columns, "lengths are invalid"),
    (lambda block, columns: block["lengths"][0].__setitem__(0, -2) or columns,
     "lengths are invalid"),
    (lambda block, columns: block.update(count=MAX_RECORDS + 1) or columns, "more than"),
])
def test_columns_that_do_not_add_up_are_refused_by_name(change, says):
    with pytest.raises(PayloadInvalid, match=says):
        parse_payload(_tampered(change), MACHINE, 4)


def test_the_two_formats_are_told_apart_by_what_they_say():
    data = _fresh(_page([TURN], [], []))
    document, _, columns = data.partition(b"\n")
    with pytest.raises(PayloadInvalid, match="format"):
        parse_payload(document, MACHINE, 4)  # format 2 without its columns
    head = json.loads(document)
    with pytest.raises(PayloadInvalid, match="format"):
        parse_payload(plain_json({**head, "v": 1}) + b"\n" + columns, MACHINE, 4)
    with pytest.raises(PayloadInvalid, match="newer"):
        parse_payload(plain_json({**head, "v": 3}), MACHINE, 4)
    del head["turns"]
    with pytest.raises(PayloadInvalid, match="turns name a number"):
        parse_payload(plain_json(head) + b"\n" + columns, MACHINE, 4)
