"""What every importer reads the same way from a foreign export's JSON (a time in ISO 8601,
a field that should be text, text made storable) and the skips they all report."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ...providers import DEFAULT_MAX_CONTENT_BYTES

# What every importer says it skipped, and why (the report's words).
UNANSWERED = "questions without an answer"
NO_QUESTION = "answers without a question"
TOO_LONG = f"turns over {DEFAULT_MAX_CONTENT_BYTES // (1024 * 1024)} MiB"


def iso_time(value: Any) -> datetime | None:
    """An ISO 8601 time ("Z" or an offset; none: UTC), or None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def text_field(value: Any) -> str:
    """`value` when it is text, else empty."""
    return value if isinstance(value, str) else ""


def storable(text: str) -> str:
    """`text` with any lone surrogate (valid JSON, not storable text) as U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
