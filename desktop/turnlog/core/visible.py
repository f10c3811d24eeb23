"""Text from a model or an imported file, made safe to show: controls shown, never obeyed.

C0/C1 control characters can change a terminal's title, clear its screen or plant links;
bidi embeddings, overrides and isolates make text read in another order than it is
stored. `visible` writes each as an escape (`\\x1b`, `\\u202e`); newline and tab stay.
The terminal (turnlog-cli) and the window's titles use it alike.
"""

from __future__ import annotations

import functools
import json
import re

# C0 but newline and tab, DEL, C1; bidi embeddings/overrides/isolates and the marks.
_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
_SURROGATE = "[\ud800-\udfff]"


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled when first used: a class over wide ranges takes a fraction of a
    millisecond to compile, which a start that shows no text (or only ASCII) need not pay."""
    return re.compile(pattern)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control and bidi override written as a visible escape."""
    return _compiled(_UNSAFE).sub(_escape, text)


def visible_json(value: object, *, indent: int | None = None) -> str:
    """`value` as JSON (on one line unless `indent`), with the same characters as
    `visible` escaped: JSON escapes C0 itself, this writes DEL, C1 and the bidi controls
    as `\\u` escapes too (they can only stand inside strings, where an escape reads back
    as the same text)."""
    return _compiled(_UNSAFE).sub(_json_escape,
                                  json.dumps(value, ensure_ascii=False, indent=indent))


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def mend_surrogates(text: str) -> str:
    """`text` with each lone UTF-16 surrogate (which no UTF-8 file, database or terminal
    can hold) replaced by U+FFFD, and each pair written as escapes joined into its
    character: what a JSON `"\\ud800"` from a server or a file can decode to."""
    if text.isascii() or not _compiled(_SURROGATE).search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def has_surrogate(text: str) -> bool:
    """Whether `text` holds a surrogate code point, which cannot be written as UTF-8."""
    return not text.isascii() and _compiled(_SURROGATE).search(text) is not None
