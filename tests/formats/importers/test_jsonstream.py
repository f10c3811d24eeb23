"""The streaming reader of a JSON array: the same values as `json.loads`, wherever the
chunks happen to cut the text, and a named problem for anything else."""

from __future__ import annotations

import io
import json

import pytest

from turnlog.core.imports import ImportProblem
from turnlog.formats.importers.jsonstream import ArrayReader

SAMPLE = [
    {"title": "a", "n": None, "t": True, "f": False, "x": 1700000000.125, "e": -1.5e-7,
     "s": "quote \" backslash \\ tab \t \u00e9 😀 \udc80 中文 \u2028", "list": [1, [2, [3]]]},
    {},
    {"empty": [], "nested": {"deep": {"deeper": ["null", None]}}},
    {"big": 12345678901234567890, "neg": -0, "esc": "\\u0041 \u0000"},
]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 16, 1 << 20])
@pytest.mark.parametrize("escaped", [True, False])
def test_every_cut_reads_the_same_values(chunk, escaped):
    text = json.dumps(SAMPLE, ensure_ascii=escaped, indent=1 if chunk % 2 else None)
    got = list(ArrayReader(io.StringIO(text), "x.json", chunk=chunk))
    assert got == json.loads(text) == SAMPLE


@pytest.mark.parametrize(("text", "expected"), [
    ("", "x.json is empty"),
    ("   \n", "x.json is empty"),
    ('{"a": 1}', "does not hold a JSON array (it starts with '{')"),
    ('[{"a": 1}', "x.json ends early"),
    ('[{"a": 1},', "x.json ends early"),
    ('[{"a": "unterminated', "x.json ends early"),
    ('[{"a": nul}]', "x.json is not valid JSON at character 8: Expecting value"),
    ('[{"a": 1} {"b": 2}]', "expected ',' or ']' between conversations"),
    ('[{"a": 1}] x', "has more after its closing ']'"),
])
@pytest.mark.parametrize("chunk", [1, 4, 1 << 20])
def test_bad_text_is_named(text, expected, chunk):
    with pytest.raises(ImportProblem, match=None) as caught:
        list(ArrayReader(io.StringIO(text), "x.json", chunk=chunk))
    assert expected in str(caught.value)


def test_an_element_over_the_limit_is_refused_without_reading_on():
    text = "[" + json.dumps({"s": "x" * 5000}) + "]"
    with pytest.raises(ImportProblem, match="one conversation is larger than"):
        list(ArrayReader(io.StringIO(text), "x.json", chunk=64, max_element=1024))
