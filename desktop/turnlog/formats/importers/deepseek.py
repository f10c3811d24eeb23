"""A DeepSeek data export (chat.deepseek.com → Settings → Data → Export all chats) as
Turnlog conversations.

Its `conversations.json` is an array of conversations (`id`, `title`, `inserted_at`,
`updated_at`) whose `mapping` is a tree of messages, as ChatGPT's is: each node has a
`parent` and `children`, each message typed `fragments` — REQUEST (the question),
RESPONSE (the answer), THINK (the model's reasoning). The maker does not document the
format: these fields are what Turnlog reads, and anything else is passed over.

The branch a person last saw is the one that follows the newest child from the root
(the export names no current message); it is imported like ChatGPT's (`tree.py`), each
question with the answer after it a turn, THINK fragments its reasoning (kept, never
sent). Messages on other branches (regenerated answers, edited questions) are counted
as skipped; so are fragments of other types (web search results) and files a question
names, whose bytes the export does not carry. Turn ids are derived from the source's
ids, so importing the same export again adds nothing.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, Any

from ...core.imports import ImportedConversation, ImportedTurn, ImportProblem
from ...core.model import Usage
from ...core.send import PendingTurn
from ...providers import DEFAULT_MAX_CONTENT_BYTES
from .fields import NO_QUESTION, TOO_LONG, UNANSWERED, iso_time, storable, text_field
from .tree import MessageTree, mapped_conversations

SOURCE = "deepseek"
ID_NAMESPACE = uuid.UUID("2c7d9e41-6b3a-4f85-a0d2-91e4b5c6f7a8")
OTHER_BRANCHES = "messages on other branches (regenerated answers, edits)"
OTHER_FRAGMENTS = "fragments other than question, answer and thinking (e.g. web search)"
NOT_CARRIED = "files the export names but does not carry"


def conversations(stream: IO[str], name: str) -> Iterator[ImportedConversation]:
    """Every conversation of a DeepSeek `conversations.json`, read one at a time; a
    conversation's turns must be read before the next conversation is asked for."""
    for index, fields, tree in mapped_conversations(stream, name, _counts,
                                                    "conversations.json"):
        yield _convert(fields, index, tree)


def _fragments(message: Any) -> list[dict[str, Any]]:
    found = message.get("fragments") if isinstance(message, dict) else None
    return [f for f in found if isinstance(f, dict)] if isinstance(found, list) else []


def _counts(message: Any) -> bool:
    return any(f.get("type") in ("REQUEST", "RESPONSE") for f in _fragments(message))


def _convert(fields: dict[str, Any], index: int, tree: MessageTree) -> ImportedConversation:
    title = text_field(fields.get("title")).strip()
    where = f"conversation {index}" + (f" ({title[:40]!r})" if title else "")
    if fields.get("mapping") is not tree:
        raise ImportProblem(f"{where}: 'mapping' must be an object of messages")
    off_path = tree.walk(fields.get("current_node"), where)
    source = text_field(fields.get("id"))
    turns = _Turns(source or f"#{index}", tree)
    for node_id, message in tree.nodes():
        if isinstance(message, dict):
            turns.add(node_id, message)
    turns.finish()
    if off_path:
        turns.skipped[OTHER_BRANCHES] += off_path
    if not title:
        first = turns.first_question.strip()
        title = first.splitlines()[0][:60].strip() if first else ""
    return ImportedConversation(
        title=storable(title or "Imported chat"), system_prompt="", model="",
        turns=(ImportedTurn(t) for t in tree.turns()), source=SOURCE,
        source_model=storable(turns.last_model), created_at=iso_time(fields.get("inserted_at")),
        updated_at=iso_time(fields.get("updated_at")), source_ids=True, skipped=turns.skipped,
        global_id=uuid.uuid5(ID_NAMESPACE, f"deepseek/{source}").hex if source else "")


class _Turns:
    """Pairs each question on the path with the answer after it (a message may hold both:
    its REQUEST, then its THINK and RESPONSE)."""

    def __init__(self, source: str, tree: MessageTree) -> None:
        self.source, self.tree = source, tree
        self.skipped: Counter[str] = Counter()
        self.question: tuple[str, dict[str, Any]] | None = None
        self.first_question = ""
        self.last_model = ""

    def add(self, node_id: str, message: dict[str, Any]) -> None:
        message = {**message, "id": node_id}  # the node names the message
        asked: list[str] = []
        answered: list[str] = []
        thought: list[str] = []
        for fragment in _fragments(message):
            kind, text = fragment.get("type"), text_field(fragment.get("content"))
            target = {"REQUEST": asked, "RESPONSE": answered, "THINK": thought}.get(str(kind))
            if target is None:
                self.skipped[OTHER_FRAGMENTS] += 1
            elif text.strip():
                target.append(text)
        if asked:
            if self.question is not None:
                self.skipped[UNANSWERED] += 1
            self.question = (self._with_files(message, "\n\n".join(asked)), message)
        if answered:
            if self.question is None:
                self.skipped[NO_QUESTION] += 1
                return
            self._turn(self.question, "\n\n".join(answered), "\n\n".join(thought), message)
            self.question = None

    def _with_files(self, message: dict[str, Any], text: str) -> str:
        files = message.get("files")
        names = [text_field(f.get("file_name") or f.get("name")).strip() for f in files
                 if isinstance(f, dict)] if isinstance(files, list) else []
        self.skipped[NOT_CARRIED] += len(names)
        return "\n\n".join([*(f"[file: {n or 'file'}]" for n in names), text])

    def finish(self) -> None:
        if self.question is not None:
            self.skipped[UNANSWERED] += 1
        self.tree.flush_turns()

    def _turn(self, question: tuple[str, dict[str, Any]], answer: str, reasoning: str,
              answered: dict[str, Any]) -> None:
        text, asked = storable(question[0]), question[1]
        answer, reasoning = storable(answer), storable(reasoning)
        if max(len(text.encode("utf-8")), len(answer.encode("utf-8"))) \
                > DEFAULT_MAX_CONTENT_BYTES:
            self.skipped[TOO_LONG] += 1
            return
        key = f"deepseek/{self.source}/{asked.get('id')}/{answered.get('id')}"
        model = storable(text_field(answered.get("model")))
        self.last_model = model or self.last_model
        if not self.first_question:
            self.first_question = text
        stamp = iso_time(answered.get("inserted_at")) or iso_time(asked.get("inserted_at")) \
            or datetime.now(UTC)
        self.tree.add_turn(PendingTurn(
            id=uuid.uuid5(ID_NAMESPACE, key).hex, question=text, answer=answer, model=model,
            finish_reason="stop", usage=Usage(), created_at=stamp, reasoning=reasoning))
