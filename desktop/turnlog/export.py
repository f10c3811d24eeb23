"""Export a conversation in formats a person controls: JSON lines (re-importable) and Markdown."""

from __future__ import annotations

import json
from typing import Any

from .core.model import Conversation, Turn
from .core.versions import Versions

NO_VERSIONS = Versions((), {})

FORMAT_VERSION = 1
FORMATS = ("jsonl", "markdown")


def export_jsonl(conversation: Conversation, turns: tuple[Turn, ...],
                 versions: Versions = NO_VERSIONS) -> str:
    """A header line, then one line per turn (superseded ones too, with the id of the turn
    that replaced them); `turnlog-cli import` reads it back, versions included."""
    header = {
        "turnlog": FORMAT_VERSION,
        "title": conversation.title,
        "system": conversation.system_prompt,
        "model": conversation.model,
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    for turn in turns:
        line: dict[str, Any] = {
            "id": turn.id,
            "ordinal": turn.ordinal,
            "question": turn.question,
            "answer": turn.answer,
            "model": turn.model,
            "created_at": turn.created_at.isoformat(),
        }
        usage = turn.usage.to_json()
        if usage:
            line["usage"] = usage
        if turn.id in versions.replaced_by:
            line["superseded_by"] = versions.replaced_by[turn.id]
        lines.append(json.dumps(line, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def export_markdown(conversation: Conversation, turns: tuple[Turn, ...],
                    versions: Versions = NO_VERSIONS) -> str:
    out = [f"# {conversation.title}", ""]
    if conversation.model:
        out += [f"Model: {conversation.model}", ""]
    if conversation.system_prompt:
        out += ["System prompt:", "", *[f"> {line}" for line in
                                         conversation.system_prompt.splitlines()], ""]
    for turn in turns:
        stamp = turn.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        mark = " · *replaced*" if versions.is_superseded(turn.id) else ""
        out += [f"## Turn {turn.ordinal} · {stamp}{mark}", "", "**You:**", "", turn.question, "",
                f"**{turn.model or 'Assistant'}:**", "", turn.answer, ""]
    return "\n".join(out)


def export_text(conversation: Conversation, turns: tuple[Turn, ...], fmt: str,
                versions: Versions = NO_VERSIONS) -> str:
    if fmt == "jsonl":
        return export_jsonl(conversation, turns, versions)
    if fmt == "markdown":
        return export_markdown(conversation, turns, versions)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
