"""What a folder's name may be: the sidebar's row, typed by a person or read from an
export."""

from __future__ import annotations

from .visible import has_surrogate

MAX_NAME = 100
"""Characters in a folder's name: a sidebar row, not a paragraph."""


def name_problem(name: str) -> str | None:
    """Why `name` (spaces around it already dropped) cannot be a folder's name, or None."""
    if not name:
        return "A folder needs a name."
    if len(name) > MAX_NAME:
        return (f"A folder's name can be at most {MAX_NAME} characters long (this one has "
                f"{len(name):,}).")
    if has_surrogate(name) or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in name):
        return "A folder's name cannot hold control characters or line breaks."
    return None
