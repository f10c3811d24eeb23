"""An assistant's system prompt variables: a closed set and the person's own, filled once."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnlog.core.assistant_vars import (
    VariableRefused,
    built_in_values,
    check_value,
    fill,
    names_in,
    own_names,
)

NOW = datetime(2026, 12, 6, 9, 5)
BUILT = built_in_values(NOW, "Simplified Chinese (简体中文)", "qwen2.5")


def test_the_closed_set_and_the_person_s_own_are_filled():
    filled = fill("{{date}} {{time}} {{language}} {{model}} for {{ audience }}", BUILT,
                  {"audience": "工程师"})
    assert filled.text == "2026-12-06 09:05 Simplified Chinese (简体中文) qwen2.5 for 工程师"
    assert filled.unknown == ()


def test_an_unknown_name_stays_as_typed_with_a_warning():
    filled = fill("Hi {{who}} and {{who}}; {{ not a name }}", BUILT, {})
    assert filled.text == "Hi {{who}} and {{who}}; {{ not a name }}"
    assert filled.warnings == ("{{who}} has no value and stays as typed",)


def test_four_braces_write_two_and_a_value_is_never_filled_again():
    filled = fill("{{{{date}} {{x}}", BUILT, {"x": "{{model}}"})
    assert filled.text == "{{date}} {{model}}"


def test_own_values_never_stand_for_the_closed_set():
    assert fill("{{model}}", {}, {"model": "evil"}).text == "{{model}}"
    with pytest.raises(VariableRefused, match="filled by Turnlog"):
        check_value("date", "yesterday")
    with pytest.raises(VariableRefused, match="not a variable name"):
        check_value("a b", "x")
    with pytest.raises(VariableRefused, match="at most"):
        check_value("a", "x" * 5_000)


def test_names_are_listed_once_in_order():
    assert names_in("{{b}} {{a}} {{b}} {{{{c}} {{date}}") == ("b", "a", "date")
    assert own_names("{{b}} {{a}} {{date}}") == ("b", "a")


def _naive(template: str) -> str:
    """Reference: without any `{{`, nothing changes."""
    return template


@given(st.text(alphabet=st.characters(blacklist_characters="{")))
def test_text_without_braces_is_unchanged(text):
    assert fill(text, BUILT, {"a": "b"}).text == _naive(text)


@given(st.text(), st.dictionaries(st.from_regex(r"[a-z]{1,5}", fullmatch=True),
                                  st.text(alphabet="xyz", max_size=5)))
def test_filling_with_no_name_in_the_text_only_unescapes(text, values):
    escaped = text.replace("{", "[")  # no brace at all, then escapes of its own
    assert fill(escaped + "{{{{", BUILT, values).text == escaped + "{{"
