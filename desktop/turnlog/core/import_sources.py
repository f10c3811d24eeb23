"""Where an imported conversation was held before, named for a person ("ChatGPT"). Apart
from `core.imports` (what an import reads) so that naming a source loads nothing of the
reading."""

from __future__ import annotations

SOURCE_NAMES = {"chatgpt": "ChatGPT", "claude": "Claude", "deepseek": "DeepSeek"}


def source_name(source: str) -> str:
    """How an import's source is named to a person ("ChatGPT")."""
    return SOURCE_NAMES.get(source, source)
