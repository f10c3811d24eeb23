"""A ChatGPT data export (`conversations.json`) as Turnlog conversations.

Each conversation's `mapping` is a tree of messages; what the person last saw is the
path from `current_node` back to the root. That path is imported: each question with
the assistant's final visible text after it becomes a turn. The hidden system message
and the custom instructions become the system prompt; tool calls and their output,
code, reasoning and image pointers are not turns (an image in a question becomes a
visible placeholder); messages on other branches (regenerated answers, abandoned
edits) are skipped and counted, as is a question whose answer never came. Turn ids are
derived from the source's message ids, so importing the same export again adds nothing.
The model ChatGPT used is kept as the conversation's provenance (`source_model`), never
as its model: requests name the profile's model unless the user picks another.

A conversation is walked, not decoded: its messages go one by one into a `MessageTree`
(a temporary database), so a conversation of 100,000 turns takes no more memory than one
of a hundred.

An image of a question whose file the export carries (the zip or folder as downloaded,
matched by the pointer's file id) is attached to its turn as well; one it does not carry,
or that cannot be read, stays a placeholder only.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import IO, Any

from ...core.attachments import Attachment, AttachmentRefused
from ...core.imports import ImportedConversation, ImportedTurn, ImportProblem
from ...core.model import Usage
from ...core.send import PendingTurn
from ...providers import DEFAULT_MAX_CONTENT_BYTES
from ..file_reading import read_bytes
from .fields import NO_QUESTION, TOO_LONG, UNANSWERED, storable, text_field
from .tree import MessageTree, mapped_conversations

log = logging.getLogger(__name__)

FileLookup = Callable[[str], tuple[str, bytes] | None]
"""A file the export carries, by its file id ("file-abc…"): its name there and bytes."""

ID_NAMESPACE = uuid.UUID("5d1c7a0e-3f43-4c55-9a51-7c0f1e6b2a9d")
OTHER_BRANCHES = "messages on other branches (regenerated answers, edits)"
TOOLS = "tool calls and their output"
REASONING = "reasoning (thoughts)"
MEMORY = "memory context"
NOT_TEXT = "turns holding text that is not valid UTF-8"
VISIBLE = (None, "all")
SOURCE = "chatgpt"  # recipients of what the person sees


def conversations(stream: IO[str], name: str, files: FileLookup | None = None
                  ) -> Iterator[ImportedConversation]:
    """Every conversation of `conversations.json`, read one at a time
    (`tree.mapped_conversations`); `files` finds the images the export carries. A
    conversation's turns must be read before the next conversation is asked for."""
    for index, fields, tree in mapped_conversations(stream, name, _counts,
                                                    "conversations.json"):
        yield _convert(fields, index, tree, files)


def _time(value: Any) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def _counts(message: Any) -> bool:
    """A message a person would have seen (a question or an answer)."""
    if not isinstance(message, dict):
        return False
    role = (message.get("author") or {}).get("role") if isinstance(
        message.get("author"), dict) else None
    return role in ("user", "assistant")


def _convert(fields: dict[str, Any], index: int, tree: MessageTree,
             files: FileLookup | None = None) -> ImportedConversation:
    """A conversation whose messages are in `tree` (as `fields["mapping"]`)."""
    title = text_field(fields.get("title")).strip()
    where = f"conversation {index}" + (f" ({title[:40]!r})" if title else "")
    if fields.get("mapping") is not tree:
        raise ImportProblem(f"{where}: 'mapping' must be an object of messages")
    off_path = tree.walk(fields.get("current_node"), where)
    source = str(fields.get("conversation_id") or fields.get("id") or "")
    builder = _Turns(source, text_field(fields.get("default_model_slug")), where, tree, files)
    for message in tree.messages():
        if isinstance(message, dict):
            builder.add(message)
    builder.finish()
    if off_path:
        builder.skipped[OTHER_BRANCHES] += off_path
    if not title:
        first = builder.first_question
        title = first.strip().splitlines()[0][:60].strip() if first.strip() else ""
    model = text_field(fields.get("default_model_slug")) or builder.last_model
    return ImportedConversation(
        title=storable(title or "Imported chat"),
        system_prompt=storable("\n\n".join(builder.system)), model="", turns=_turns(tree),
        source=SOURCE, source_model=storable(model), created_at=_time(fields.get("create_time")),
        updated_at=_time(fields.get("update_time")), source_ids=True, skipped=builder.skipped,
        global_id=uuid.uuid5(ID_NAMESPACE, f"chatgpt/{source}").hex if source else "")


def _turns(tree: MessageTree) -> Iterator[ImportedTurn]:
    for turn in tree.turns():
        yield ImportedTurn(turn)


class _Turns:
    """Walks the path's messages, pairing each question with the answer after it."""

    def __init__(self, source: str, default_model: str, where: str,
                 tree: MessageTree, files: FileLookup | None = None) -> None:
        self.source, self.default_model, self.where = source, default_model, where
        self.tree = tree
        self.files = files
        self.attached: tuple[Attachment, ...] = ()  # the current question's images
        self.first_question = ""
        self.last_model = ""
        self.system: list[str] = []
        self.skipped: Counter[str] = Counter()
        self.question: tuple[str, dict[str, Any]] | None = None
        self.answer: tuple[str, dict[str, Any]] | None = None
        self.images = 0

    def add(self, message: dict[str, Any]) -> None:
        author = message.get("author")
        role = author.get("role") if isinstance(author, dict) else None
        content = message.get("content")
        content = content if isinstance(content, dict) else {}
        kind = content.get("content_type")
        meta = message.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        if kind == "user_editable_context":
            self._instructions(content.get("user_profile"), content.get("user_instructions"))
        elif kind == "model_editable_context":
            self.skipped[MEMORY] += 1
        elif role == "system":
            self._system(content, meta)
        elif role == "user":
            text = _render(content, meta)
            if not text.strip():
                return  # hidden context with nothing to show
            self._flush()
            self.question = (text, message)
            self.attached = _images(content, meta, self.files)
        elif role == "assistant":
            self._assistant(message, content, kind)
        elif role == "tool":
            self.skipped[TOOLS] += 1
            self.images += _image_count(content)

    def _instructions(self, *texts: Any) -> None:
        self.system.extend(t.strip() for t in texts if isinstance(t, str) and t.strip())

    def _system(self, content: dict[str, Any], meta: dict[str, Any]) -> None:
        text = _render(content, {}).strip()
        if text:
            self.system.append(text)
            return
        context = meta.get("user_context_message_data")
        if isinstance(context, dict):
            self._instructions(context.get("about_user_message"),
                               context.get("about_model_message"))

    def _assistant(self, message: dict[str, Any], content: dict[str, Any], kind: Any) -> None:
        if kind in ("thoughts", "reasoning_recap"):
            self.skipped[REASONING] += 1
        elif kind in ("text", "multimodal_text") and message.get("recipient") in VISIBLE:
            text = _render(content, {})
            if text.strip():
                self.answer = (text, message)
            self.images += _image_count(content)
        else:
            self.skipped[TOOLS] += 1

    def _flush(self) -> None:
        answer = self.answer
        if answer is None and self.images and self.question is not None:
            answer = (" ".join(["[image]"] * self.images), self.question[1])
        if self.question is None:
            if answer is not None:
                self.skipped[NO_QUESTION] += 1
        elif answer is None:
            self.skipped[UNANSWERED] += 1
        else:
            self._turn(self.question, answer)
        self.question, self.answer, self.images, self.attached = None, None, 0, ()

    def finish(self) -> None:
        self._flush()
        self.tree.flush_turns()

    def _turn(self, question: tuple[str, dict[str, Any]],
              answer: tuple[str, dict[str, Any]]) -> None:
        for text in (question[0], answer[0]):
            try:
                size = len(text.encode("utf-8"))
            except UnicodeEncodeError:
                self.skipped[NOT_TEXT] += 1
                return
            if size > DEFAULT_MAX_CONTENT_BYTES:
                self.skipped[TOO_LONG] += 1
                return
        asked, answered = question[1], answer[1]
        key = f"chatgpt/{self.source}/{asked.get('id')}/{answered.get('id')}"
        meta = answered.get("metadata")
        model = text_field(meta.get("model_slug")) if isinstance(meta, dict) else ""
        stamp = (_time(answered.get("create_time")) or _time(asked.get("create_time"))
                 or datetime.now(UTC))
        model = storable(model or self.default_model)
        if not self.first_question:
            self.first_question = question[0]
        self.last_model = model
        self.tree.add_turn(PendingTurn(
            id=uuid.uuid5(ID_NAMESPACE, key).hex, question=question[0], answer=answer[0],
            model=model, finish_reason="stop", usage=Usage(), created_at=stamp,
            attachments=self.attached))


def _images(content: dict[str, Any], meta: dict[str, Any], files: FileLookup | None
            ) -> tuple[Attachment, ...]:
    """The images of a question that the export carries, read as a question's would be."""
    parts = content.get("parts")
    if files is None or not isinstance(parts, list):
        return ()
    names = _attachment_names(meta)
    found: list[Attachment] = []
    for part in parts:
        if not isinstance(part, dict) or part.get("content_type") != "image_asset_pointer":
            continue
        file_id = text_field(part.get("asset_pointer")).rsplit("/", 1)[-1]
        carried = files(file_id) if file_id else None
        if carried is None:
            continue
        member, data = carried
        try:
            found.append(read_bytes(names.get(file_id) or member.rsplit("/", 1)[-1], data,
                                    attached=found))
        except AttachmentRefused as err:  # it stays a placeholder
            log.info("an image of the export was not attached: %s", err)
    return tuple(found)


def _image_count(content: dict[str, Any]) -> int:
    parts = content.get("parts")
    if not isinstance(parts, list):
        return 0
    return sum(1 for p in parts if isinstance(p, dict)
               and p.get("content_type") == "image_asset_pointer")


def _render(content: dict[str, Any], meta: dict[str, Any]) -> str:
    """A message's visible text; an image or a file becomes a placeholder in brackets."""
    names = _attachment_names(meta)
    pieces: list[str] = []
    parts = content.get("parts")
    if isinstance(parts, list):
        for part in parts:
            pieces.append(_part(part, names))
    elif isinstance(content.get("text"), str):
        pieces.append(content["text"])
    shown = {n for n in names.values() if any(n in p for p in pieces)}
    files = [f"[file: {name}]" for name in names.values() if name not in shown]
    return "\n\n".join(p for p in [*files, *pieces] if p.strip())


def _part(part: Any, names: dict[str, str]) -> str:
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return ""
    kind = text_field(part.get("content_type"))
    if kind == "image_asset_pointer":
        pointer = text_field(part.get("asset_pointer"))
        name = names.get(pointer.rsplit("/", 1)[-1])
        return f"[image: {name}]" if name else "[image]"
    if isinstance(part.get("text"), str):  # e.g. an audio transcription
        return str(part["text"])
    if kind.endswith("asset_pointer"):
        return "[audio]" if "audio" in kind else "[attachment]"
    return ""


def _attachment_names(meta: dict[str, Any]) -> dict[str, str]:
    """Attachment id → file name, from a message's metadata."""
    found: dict[str, str] = {}
    attachments = meta.get("attachments")
    if isinstance(attachments, list):
        for item in attachments:
            if isinstance(item, dict) and isinstance(item.get("id"), str) \
                    and isinstance(item.get("name"), str) and item["name"].strip():
                found[item["id"]] = item["name"].strip()
    return found
