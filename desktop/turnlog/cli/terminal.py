"""Conversation text on a terminal: control characters shown, never obeyed.

Text from a model or an imported file may hold escape sequences that change the window
title, clear the screen or plant links (C0/C1 controls), or bidi overrides that make
text read in a different order than it is stored. Written to a terminal, each of these
becomes a visible escape (`\\x1b`, `\\u202e`); newline and tab stay. `--raw`, or output
to a pipe or file, keeps the bytes as they are. `TURNLOG_TERMINAL=1` treats any output
as a terminal (`0`: as a pipe), for tests and for pagers that pass controls through.
JSON (`--json`) always goes out through `print_json`, its controls as `\\u` escapes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from ..core.visible import visible, visible_json

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import TextIO

    from ..core.numbers import TurnNumbers
    from ..core.projection import ProjectionRefused

ENV_FORCE = "TURNLOG_TERMINAL"

def is_terminal(stream: TextIO) -> bool:
    forced = os.environ.get(ENV_FORCE)
    if forced in ("0", "1"):
        return forced == "1"
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def safe_for(stream: TextIO, *, raw: bool = False) -> Callable[[str], str]:
    """The function that makes conversation text safe for `stream`: `visible` on a
    terminal, unchanged with `raw` or for a pipe."""
    if raw or not is_terminal(stream):
        return _unchanged
    return visible


def print_json(value: object, *, indent: int | None = None) -> None:
    """Print `value` as JSON on standard output, the one way every command's `--json`
    goes out: C1 and bidi controls written as `\\u` escapes, terminal or not (a program
    reading it gets the same data; a person's terminal obeys none of them)."""
    print(visible_json(value, indent=indent))


def _unchanged(text: str) -> str:
    return text


def print_refusal(refusal: ProjectionRefused, as_json: bool) -> int:
    """Say why a projection is refused (one JSON object, or words on stderr); exit 3."""
    if as_json:
        print_json(refusal.to_json())
    else:
        print(refusal.describe(), file=sys.stderr)
    return 3


def runs_text(ordinals: Sequence[int], numbers: TurnNumbers) -> str:
    """Sorted stored ordinals as the runs of turn numbers `show` heads them with (a newer
    version keeps its turn's number): "1–3, 5", or "none"."""
    if not ordinals:
        return "none"
    from ..core.model import ordinal_runs

    runs = numbers.runs(ordinal_runs(ordinals))
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs)
