"""A Claude data export (claude.ai → Settings → Privacy → Export data) as Turnlog
conversations.

Its `conversations.json` is an array of conversations (`uuid`, `name`, `created_at`,
`updated_at`, `chat_messages`); each message has a `uuid`, a `sender` (human or
assistant), its `text` and `content` blocks (`text`, `thinking`, `tool_use`,
`tool_result`), `attachments` (with the text Claude extracted from them) and `files`
(named only: the export does not carry their bytes). The maker does not document the
format: these fields are what Turnlog reads, and anything else is passed over.

Each question with the answer after it becomes a turn: thinking becomes the turn's
reasoning (kept, never sent), tool calls and their results its tool exchange, an
attachment's extracted text a text attachment of the question. Where messages name a
parent (`parent_message_uuid`: an edited question, a retried answer), the branch that
ends at the newest message is imported and the others are counted as skipped. Turn ids
are derived from the source's message ids, so importing the same export again adds
nothing. A conversation is walked, not decoded, as ChatGPT's are (`tree.MessageTree`).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO, Any

from ...core.assistants import MAX_ITEMS, MAX_NAME
from ...core.attachments import Attachment, AttachmentRefused
from ...core.folders import MAX_NAME as MAX_FOLDER_NAME
from ...core.imports import ImportedConversation, ImportedProject, ImportedTurn, ImportProblem
from ...core.model import Usage
from ...core.send import PendingTurn
from ...core.tools import ToolCall, ToolResult, ToolRound
from ...providers import DEFAULT_MAX_CONTENT_BYTES
from ..file_reading import read_bytes
from . import tree as tree_module
from .fields import NO_QUESTION, TOO_LONG, UNANSWERED, iso_time, storable, text_field
from .jsonstream import TOO_LARGE, ArrayReader
from .tree import MessageTree

log = logging.getLogger(__name__)

SOURCE = "claude"
ID_NAMESPACE = uuid.UUID("8f0b6a52-1c4e-4d7a-9b1e-3a5c2d7e9f10")
ROOT = "00000000-0000-4000-8000-000000000000"  # the parent Claude names for a first message
OTHER_BRANCHES = "messages on other branches (edited questions, retried answers)"
NOT_CARRIED = "files the export names but does not carry (images, PDFs)"
REFUSED = "attachments Turnlog cannot attach (too large or not text)"
DOCS_REFUSED = "project documents Turnlog cannot attach (empty, too many, too large)"
DESCRIPTION = "project descriptions (a folder and an assistant have no place for one)"
UNNAMED_PROJECT = "Claude project"


def conversations(stream: IO[str], name: str, folders: dict[str, str] | None = None
                  ) -> Iterator[ImportedConversation]:
    """Every conversation of a Claude `conversations.json`, read one at a time; a
    conversation's turns must be read before the next conversation is asked for.
    `folders`: a project's uuid → its folder (`project_folders`), for the conversations
    that name their project."""
    reader = ArrayReader(stream, name)
    tree = MessageTree(_counts)
    try:
        for index, _start in enumerate(reader.positions(), start=1):
            if reader.peek() != "{":
                item = reader.value()
                raise ImportProblem(f"conversation {index} of {name} is not a JSON object "
                                    f"but {type(item).__name__}")
            tree.reset()
            whole = reader.small_value(tree_module.SPILL_BYTES)
            feed = _Feed(tree)
            if whole is not TOO_LARGE:
                fields = dict(whole)
                messages = whole.get("chat_messages")
                for message in messages if isinstance(messages, list) else ():
                    feed.add(message, "")
            else:
                fields = _walked(reader, feed)
            yield _convert(fields, index, tree, feed, folders or {})
    finally:
        tree.close()


def _walked(reader: ArrayReader, feed: _Feed) -> dict[str, Any]:
    """A large conversation, its messages read one at a time into the tree."""
    fields: dict[str, Any] = {}
    for key in reader.members():
        if key == "chat_messages" and reader.peek() == "[":
            for _start in reader.elements():
                feed.add(reader.value(raw=True), reader.raw)
        else:
            fields[key] = reader.value()
    return fields


class _Feed:
    """Messages into the tree as nodes with a parent: the one a message names, else the
    message before it (an export without branches is one line)."""

    def __init__(self, tree: MessageTree) -> None:
        self.tree = tree
        self.previous: str | None = None
        self.count = 0

    def add(self, message: Any, raw: str) -> None:
        self.count += 1
        if not isinstance(message, dict):
            return
        message_id = message.get("uuid")
        node_id = message_id if isinstance(message_id, str) and message_id \
            else f"#{self.count}"
        parent: Any = self.previous
        if "parent_message_uuid" in message:
            parent = message["parent_message_uuid"]
            parent = parent if isinstance(parent, str) and parent != ROOT else None
        node_raw = (f'{{"parent": {json.dumps(parent)}, "message": {raw}}}' if raw else "")
        self.tree.add(node_id, {"parent": parent, "message": message}, node_raw)
        self.previous = node_id


def _counts(message: Any) -> bool:
    return isinstance(message, dict) and message.get("sender") in ("human", "assistant")


def _convert(fields: dict[str, Any], index: int, tree: MessageTree,
             feed: _Feed, folders: dict[str, str]) -> ImportedConversation:
    title = text_field(fields.get("name")).strip()
    where = f"conversation {index}" + (f" ({title[:40]!r})" if title else "")
    off_path = tree.walk(feed.previous, where)
    source = text_field(fields.get("uuid"))
    turns = _Turns(source or f"#{index}", tree)
    for message in tree.messages():
        if isinstance(message, dict):
            turns.add(message)
    turns.finish()
    if off_path:
        turns.skipped[OTHER_BRANCHES] += off_path
    if not title:
        first = turns.first_question.strip()
        title = first.splitlines()[0][:60].strip() if first else ""
    return ImportedConversation(
        title=storable(title or "Imported chat"), system_prompt="", model="",
        turns=(ImportedTurn(t) for t in tree.turns()), source=SOURCE,
        source_model=storable(text_field(fields.get("model"))),
        created_at=iso_time(fields.get("created_at")),
        updated_at=iso_time(fields.get("updated_at")), source_ids=True, skipped=turns.skipped,
        folder=folders.get(_project_of(fields), ""),
        global_id=uuid.uuid5(ID_NAMESPACE, f"claude/{source}").hex if source else "")


def _project_of(fields: dict[str, Any]) -> str:
    """The uuid of the project a conversation names (`project_uuid`, or `project`
    as an object with a `uuid`), or ""."""
    named = fields.get("project_uuid")
    if not isinstance(named, str):
        project = fields.get("project")
        named = project.get("uuid") if isinstance(project, dict) else None
    return named if isinstance(named, str) else ""


class _Turns:
    """Pairs each question on the path with the answer after it."""

    def __init__(self, source: str, tree: MessageTree) -> None:
        self.source, self.tree = source, tree
        self.skipped: Counter[str] = Counter()
        self.question: dict[str, Any] | None = None
        self.first_question = ""

    def add(self, message: dict[str, Any]) -> None:
        if message.get("sender") == "human":
            if self.question is not None:
                self.skipped[UNANSWERED] += 1
            self.question = message
        elif message.get("sender") == "assistant":
            if self.question is None:
                self.skipped[NO_QUESTION] += 1
                return
            self._turn(self.question, message)
            self.question = None

    def finish(self) -> None:
        if self.question is not None:
            self.skipped[UNANSWERED] += 1
        self.tree.flush_turns()

    def _turn(self, asked: dict[str, Any], answered: dict[str, Any]) -> None:
        question, attached = self._question(asked)
        answer, reasoning, rounds = _answer(answered)
        if not question.strip() or not answer.strip():
            self.skipped[UNANSWERED] += 1
            return
        if max(len(question.encode("utf-8")), len(answer.encode("utf-8"))) \
                > DEFAULT_MAX_CONTENT_BYTES:
            self.skipped[TOO_LONG] += 1
            return
        key = f"claude/{self.source}/{asked.get('uuid')}/{answered.get('uuid')}"
        if not self.first_question:
            self.first_question = question
        stamp = iso_time(answered.get("created_at")) or iso_time(asked.get("created_at")) \
            or datetime.now(UTC)
        self.tree.add_turn(PendingTurn(
            id=uuid.uuid5(ID_NAMESPACE, key).hex, question=question, answer=answer, model="",
            finish_reason="stop", usage=Usage(), created_at=stamp, reasoning=reasoning,
            attachments=attached, tools=rounds))

    def _question(self, message: dict[str, Any]) -> tuple[str, tuple[Attachment, ...]]:
        """The question's text (files it names but the export lacks as placeholders) and
        its attachments' extracted text as text attachments."""
        text = storable(_blocks_text(message) or text_field(message.get("text")))
        found: list[Attachment] = []
        missing: list[str] = []
        attachments = message.get("attachments")
        for item in attachments if isinstance(attachments, list) else ():
            if not isinstance(item, dict):
                continue
            name = text_field(item.get("file_name")).strip() or "attachment.txt"
            extracted = text_field(item.get("extracted_content"))
            if not extracted.strip():
                missing.append(name)
                continue
            try:
                found.append(read_bytes(name, storable(extracted).encode("utf-8"),
                                        attached=found))
            except AttachmentRefused as err:
                log.info("an attachment of the export was not attached: %s", err)
                self.skipped[REFUSED] += 1
                missing.append(name)
        files = message.get("files")
        for item in files if isinstance(files, list) else ():
            name = text_field(item.get("file_name")).strip() if isinstance(item, dict) else ""
            if name and name not in missing and all(a.name != name for a in found):
                missing.append(name)
        self.skipped[NOT_CARRIED] += sum(1 for n in missing if n)
        marks = [f"[file: {name}]" for name in missing]
        return "\n\n".join(p for p in [*marks, text] if p.strip()), tuple(found)


def _blocks_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if not isinstance(content, list):
        return ""
    return "\n\n".join(b["text"] for b in content if isinstance(b, dict)
                       and b.get("type") == "text" and isinstance(b.get("text"), str)
                       and b["text"].strip())


def _answer(message: dict[str, Any]) -> tuple[str, str, tuple[ToolRound, ...]]:
    """An answer's visible text, its thinking, and its tool calls with their results
    (text said before a call goes with that call's round)."""
    content = message.get("content")
    if not isinstance(content, list) or not content:
        return storable(text_field(message.get("text"))), "", ()
    thinking: list[str] = []
    rounds = _Rounds()
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            rounds.text(block["text"])
        elif kind == "thinking" and text_field(block.get("thinking")).strip():
            thinking.append(block["thinking"])
        elif kind == "tool_use":
            rounds.call(block)
        elif kind == "tool_result":
            rounds.result(block)
    answer = rounds.finish() or text_field(message.get("text"))
    return storable(answer), storable("\n\n".join(thinking)), rounds.done


class _Rounds:
    """Tool blocks grouped into rounds: calls, then their results; text after the last
    result is the answer."""

    def __init__(self) -> None:
        self.done: tuple[ToolRound, ...] = ()
        self.calls: list[ToolCall] = []
        self.results: dict[str, ToolResult] = {}
        self.said: list[str] = []  # text since the last round

    def text(self, text: str) -> None:
        if self.calls and self.results:
            self._close()
        if text.strip():
            self.said.append(text)

    def call(self, block: dict[str, Any]) -> None:
        if self.calls and self.results:
            self._close()
        call_id = text_field(block.get("id")) or f"call_{len(self.done) + 1}_{len(self.calls) + 1}"
        arguments = block.get("input")
        self.calls.append(ToolCall(call_id, storable(text_field(block.get("name")) or "tool"),
                                   storable(json.dumps(arguments if arguments is not None
                                                     else {}, ensure_ascii=False))))

    def result(self, block: dict[str, Any]) -> None:
        if not self.calls:
            return  # a result of no call shown: nothing to pair it with
        call_id = text_field(block.get("tool_use_id"))
        waiting = [c.id for c in self.calls if c.id not in self.results]
        if call_id not in waiting:
            call_id = waiting[0] if waiting else ""
        if call_id:
            self.results[call_id] = ToolResult(call_id, storable(_result_text(block.get(
                "content"))), is_error=block.get("is_error") is True)

    def _close(self) -> None:
        results = tuple(self.results.get(c.id) or ToolResult(
            c.id, "(the export holds no result of this call)", ran=False) for c in self.calls)
        self.done += (ToolRound(tuple(self.calls), results, storable("\n\n".join(self.said))),)
        self.calls, self.results, self.said = [], {}, []

    def finish(self) -> str:
        if self.calls:
            self._close()
        answer = "\n\n".join(self.said)
        if not answer.strip() and self.done:  # no text after the tools: what was said
            answer = "\n\n".join(r.content for r in self.done if r.content.strip())
        return answer


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b["text"] for b in content if isinstance(b, dict)
                 and isinstance(b.get("text"), str)]
        if len(texts) == len(content):
            return "\n\n".join(texts)
    return json.dumps(content, ensure_ascii=False) if content is not None else ""


def projects(stream: IO[str], name: str) -> Iterator[ImportedProject]:
    """Every project of a Claude `projects.json`, read one at a time: its name, its
    instructions (`prompt_template`, kept as written) and its documents' text."""
    reader = ArrayReader(stream, name)
    for index, _start in enumerate(reader.positions(), start=1):
        item = reader.value()
        if not isinstance(item, dict):
            raise ImportProblem(f"project {index} of {name} is not a JSON object but "
                                f"{type(item).__name__}")
        yield _project(item, index)


def project_folders(stream: IO[str], name: str) -> dict[str, str]:
    """Each project's uuid → the folder its conversations go in (the project's name);
    what a project holds besides is read and dropped (its documents may be large)."""
    found: dict[str, str] = {}
    for index, project in enumerate(projects_fields(stream, name), start=1):
        found[text_field(project.get("uuid")) or f"#{index}"] = folder_name(
            project.get("name"))
    return found


def projects_fields(stream: IO[str], name: str) -> Iterator[dict[str, Any]]:
    """Each project's uuid and name, nothing else kept."""
    reader = ArrayReader(stream, name)
    for index, _start in enumerate(reader.positions(), start=1):
        if reader.peek() != "{":
            item = reader.value()
            raise ImportProblem(f"project {index} of {name} is not a JSON object but "
                                f"{type(item).__name__}")
        kept: dict[str, Any] = {}
        for key in reader.members():
            value = reader.value()
            if key in ("uuid", "name"):
                kept[key] = value
        yield kept


def folder_name(value: Any) -> str:
    """A project's name as a folder's: one line, no control characters, at most
    `MAX_NAME` characters ("Claude project" for none)."""
    text = " ".join("".join(c if c.isprintable() else " " for c in storable(
        text_field(value))).split())
    return text[:MAX_FOLDER_NAME].strip() or UNNAMED_PROJECT


def _project(item: dict[str, Any], index: int) -> ImportedProject:
    folder = folder_name(item.get("name"))
    skipped: Counter[str] = Counter()
    files: list[Attachment] = []
    docs = item.get("docs")
    for doc in docs if isinstance(docs, list) else ():
        if not isinstance(doc, dict):
            continue
        content = storable(text_field(doc.get("content")))
        doc_name = text_field(doc.get("filename")).strip() or f"document {len(files) + 1}.txt"
        if not content.strip() or len(files) >= MAX_ITEMS:
            skipped[DOCS_REFUSED] += 1
            continue
        try:
            files.append(read_bytes(doc_name, content.encode("utf-8"), attached=files))
        except AttachmentRefused as err:
            log.info("a project document was not attached: %s", err)
            skipped[DOCS_REFUSED] += 1
    if text_field(item.get("description")).strip():
        skipped[DESCRIPTION] += 1
    return ImportedProject(
        source_id=text_field(item.get("uuid")) or f"#{index}", folder=folder,
        assistant=folder[:MAX_NAME].strip(), prompt=storable(text_field(
            item.get("prompt_template"))), files=tuple(files),
        skipped=tuple(sorted(skipped.items())))
