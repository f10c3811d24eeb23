"""Export a conversation in formats a person controls: JSON lines (re-importable) and Markdown.

The JSON-lines format (version 2; `importers.turnlog_jsonl` reads 1 and 2): a header
with the conversation (title, system prompt, model, settings, times, next turn number),
then one line per turn, superseded versions too (with `superseded_by`, the id of the turn
that replaced it) and the reasoning a model streamed before its answer. Whatever else a
conversation holds is written as lines with a `"record"` key naming their kind (see
`importers.turnlog_jsonl.RECORD_KINDS`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .core.model import Conversation, Turn
from .core.versions import Versions

NO_VERSIONS = Versions((), {})

FORMAT_VERSION = 2
FORMATS = ("jsonl", "markdown")


def jsonl_header(conversation: Conversation, next_ordinal: int | None = None) -> str:
    header: dict[str, Any] = {
        "turnlog": FORMAT_VERSION,
        "title": conversation.title,
        "system": conversation.system_prompt,
        "model": conversation.model,
        "settings": conversation.settings.to_json(),
        "created_at": conversation.created_at.isoformat(),
        "updated_at": conversation.updated_at.isoformat(),
    }
    if next_ordinal is not None:
        header["next_ordinal"] = next_ordinal
    return json.dumps(header, ensure_ascii=False) + "\n"


def jsonl_turn(turn: Turn, versions: Versions = NO_VERSIONS) -> str:
    line: dict[str, Any] = {
        "id": turn.id,
        "ordinal": turn.ordinal,
        "question": turn.question,
        "answer": turn.answer,
        "model": turn.model,
        "finish_reason": turn.finish_reason,
        "created_at": turn.created_at.isoformat(),
    }
    usage = turn.usage.to_json()
    if usage:
        line["usage"] = usage
    if turn.reasoning:
        line["reasoning"] = turn.reasoning
    if turn.id in versions.replaced_by:
        line["superseded_by"] = versions.replaced_by[turn.id]
    return json.dumps(line, ensure_ascii=False) + "\n"


def jsonl_lines(conversation: Conversation, turns: Iterable[Turn],
                versions: Versions = NO_VERSIONS,
                next_ordinal: int | None = None) -> Iterator[str]:
    """The header line, then one line per turn; `turnlog-cli import` reads it back,
    versions included."""
    yield jsonl_header(conversation, next_ordinal)
    for turn in turns:
        yield jsonl_turn(turn, versions)


def export_jsonl(conversation: Conversation, turns: tuple[Turn, ...],
                 versions: Versions = NO_VERSIONS) -> str:
    return "".join(jsonl_lines(conversation, turns, versions))


def markdown_parts(conversation: Conversation, turns: Iterable[Turn],
                   versions: Versions = NO_VERSIONS) -> Iterator[str]:
    out = [f"# {conversation.title}", ""]
    if conversation.model:
        out += [f"Model: {conversation.model}", ""]
    if conversation.system_prompt:
        out += ["System prompt:", "", *[f"> {line}" for line in
                                         conversation.system_prompt.splitlines()], ""]
    yield "\n".join(out)
    for turn in turns:
        stamp = turn.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        mark = " · *replaced*" if versions.is_superseded(turn.id) else ""
        yield "\n" + "\n".join([f"## Turn {turn.ordinal} · {stamp}{mark}", "", "**You:**", "",
                                turn.question, "", f"**{turn.model or 'Assistant'}:**", "",
                                turn.answer, ""])


def export_markdown(conversation: Conversation, turns: tuple[Turn, ...],
                    versions: Versions = NO_VERSIONS) -> str:
    return "".join(markdown_parts(conversation, turns, versions))


def export_text(conversation: Conversation, turns: tuple[Turn, ...], fmt: str,
                versions: Versions = NO_VERSIONS) -> str:
    if fmt == "jsonl":
        return export_jsonl(conversation, turns, versions)
    if fmt == "markdown":
        return export_markdown(conversation, turns, versions)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
