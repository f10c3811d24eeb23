"""Whole-number arguments: ids, ordinals, sizes and limits, within what SQLite can hold."""

from __future__ import annotations

import argparse

SQLITE_MIN, SQLITE_MAX = -(2**63), 2**63 - 1


def whole_number(text: str) -> int:
    """`text` as an integer SQLite can store and compare (a 64-bit one); argparse names
    anything else as a usage error (exit 2) instead of a traceback further on."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not SQLITE_MIN <= value <= SQLITE_MAX:
        raise argparse.ArgumentTypeError(f"{text} is out of range (at most {SQLITE_MAX:,})")
    return value
