"""Export a conversation in formats a person controls: JSON lines (re-importable) and Markdown."""

from __future__ import annotations

import json
from typing import Any

from .core.memory import (
    MAX_PRIORITY,
    MIN_PRIORITY,
    StoredNote,
    StoredPin,
    StoredPreference,
)
from .core.model import Conversation, Turn
from .core.versions import Versions

NO_VERSIONS = Versions((), {})

FORMAT_VERSION = 1
FORMATS = ("jsonl", "markdown")


def memory_section(pins: list[StoredPin], notes: list[StoredNote],
                   preferences: list[StoredPreference]) -> dict[str, Any]:
    """The header's "memory": pins with their source turn ids, notes, and the preferences
    the conversation uses (import adds those it does not have yet)."""
    return {
        "pins": [{"text": p.text, "kind": p.kind, "sources": list(p.sources),
                  "created_at": p.created_at} for p in pins],
        "notes": [{"text": n.text, "priority": n.priority, "created_at": n.created_at}
                  for n in notes],
        "preferences": [{"text": p.text, "priority": p.priority} for p in preferences],
    }


def read_memory_section(value: Any) -> dict[str, list[dict[str, Any]]]:
    """The header's "memory" checked: each entry a non-empty "text", priorities 1–5,
    sources a list of turn ids; ValueError names what is wrong."""
    if value is None:
        return {"pins": [], "notes": [], "preferences": []}
    if not isinstance(value, dict):
        raise ValueError("'memory' must be an object")
    out: dict[str, list[dict[str, Any]]] = {}
    for key in ("pins", "notes", "preferences"):
        entries = value.get(key, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise ValueError(f"'memory.{key}' must be a list of objects")
        for entry in entries:
            if not isinstance(entry.get("text"), str) or not entry["text"].strip():
                raise ValueError(f"each of 'memory.{key}' needs a non-empty 'text'")
            priority = entry.get("priority", 3)
            if key != "pins" and (not isinstance(priority, int)
                                  or not MIN_PRIORITY <= priority <= MAX_PRIORITY):
                raise ValueError(f"a priority in 'memory.{key}' must be 1–5")
            sources = entry.get("sources", [])
            if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
                raise ValueError("'sources' of a pin must be a list of turn ids")
        out[key] = entries
    return out


def export_jsonl(conversation: Conversation, turns: tuple[Turn, ...],
                 versions: Versions = NO_VERSIONS,
                 memory: dict[str, Any] | None = None) -> str:
    """A header line, then one line per turn (superseded ones too, with the id of the turn
    that replaced them); `turnlog-cli import` reads it back, versions included. The
    header carries the conversation's `memory_section`, if given and not empty."""
    header: dict[str, Any] = {
        "turnlog": FORMAT_VERSION,
        "title": conversation.title,
        "system": conversation.system_prompt,
        "model": conversation.model,
    }
    if memory and any(memory.values()):
        header["memory"] = memory
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
                versions: Versions = NO_VERSIONS,
                memory: dict[str, Any] | None = None) -> str:
    if fmt == "jsonl":
        return export_jsonl(conversation, turns, versions, memory)
    if fmt == "markdown":
        return export_markdown(conversation, turns, versions)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
