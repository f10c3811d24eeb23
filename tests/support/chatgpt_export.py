"""Build ChatGPT data exports for tests: `conversations.json` as ChatGPT writes it (a tree
of messages per conversation, `current_node` naming what the person last saw), and the
`.zip` as downloaded, beside the other files such an export holds."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

T0 = 1_700_000_000.0


def text(value: str) -> dict[str, Any]:
    return {"content_type": "text", "parts": [value]}


class Tree:
    """One conversation's `mapping`, grown message by message."""

    def __init__(self, conversation_id: str, title: str | None, *, model: str = "gpt-4o",
                 start: float = T0) -> None:
        self.id, self.title, self.model, self.clock = conversation_id, title, model, start
        self.mapping: dict[str, dict[str, Any]] = {
            "root": {"id": "root", "message": None, "parent": None, "children": []}}
        self.current = "root"
        self._n = 0

    def add(self, parent: str, role: str, content: dict[str, Any], *, recipient: str = "all",
            model: str | None = None, meta: dict[str, Any] | None = None,
            name: str | None = None) -> str:
        self._n += 1
        self.clock += 10
        node = f"{self.id}-m{self._n}"
        metadata = dict(meta or {})
        if model:
            metadata["model_slug"] = model
        self.mapping[node] = {
            "id": node, "parent": parent, "children": [],
            "message": {
                "id": node, "author": {"role": role, "name": name, "metadata": {}},
                "create_time": self.clock, "update_time": None, "content": content,
                "status": "finished_successfully", "end_turn": role == "assistant" or None,
                "weight": 1.0, "metadata": metadata, "recipient": recipient, "channel": None,
            },
        }
        self.mapping[parent]["children"].append(node)
        return node

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title, "create_time": T0, "update_time": self.clock,
            "mapping": self.mapping, "moderation_results": [], "current_node": self.current,
            "plugin_ids": None, "conversation_id": self.id, "conversation_template_id": None,
            "gizmo_id": None, "is_archived": False, "safe_urls": [],
            "default_model_slug": self.model, "id": self.id,
        }


def kyoto() -> Tree:
    """Branches (a regenerated answer, an abandoned edit with its own sub-conversation),
    custom instructions, an image, reasoning, a tool call, an unanswered last question."""
    tree = Tree("c-kyoto", "Trip to Kyoto")
    system = tree.add("root", "system", text(""),
                      meta={"is_visually_hidden_from_conversation": True})
    context = tree.add(system, "user", {
        "content_type": "user_editable_context",
        "user_profile": "I am a vegetarian.", "user_instructions": "Answer briefly."},
        meta={"is_visually_hidden_from_conversation": True})
    q1 = tree.add(context, "user", text("Plan a day in Kyoto."))
    tree.add(q1, "assistant", text("An older answer that was regenerated."), model="gpt-4o")
    a1 = tree.add(q1, "assistant", text("Morning: Fushimi Inari. Afternoon: Arashiyama."),
                  model="gpt-4o")
    q2 = tree.add(a1, "user", {"content_type": "multimodal_text", "parts": [
        {"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-abc",
         "size_bytes": 1000, "width": 800, "height": 600},
        "Which temple is this?"]},
        meta={"attachments": [{"id": "file-abc", "name": "temple.jpg",
                               "mimeType": "image/jpeg"}]})
    t2 = tree.add(q2, "assistant", {"content_type": "thoughts", "thoughts": [
        {"summary": "Looking", "content": "Golden pavilion, pond…"}]}, model="o1")
    r2 = tree.add(t2, "assistant", {"content_type": "reasoning_recap",
                                    "content": "Thought for 4 seconds"}, model="o1")
    a2 = tree.add(r2, "assistant", text("It is Kinkaku-ji, the Golden Pavilion."), model="o1")
    edited = tree.add(a2, "user", text("Compute 17 * 24."))  # the edit abandoned later
    e1 = tree.add(edited, "assistant", text("408"), model="gpt-4o")
    e2 = tree.add(e1, "user", text("And doubled?"))
    tree.add(e2, "assistant", text("816"), model="gpt-4o")
    q3 = tree.add(a2, "user", text("Compute 17 * 23."))
    code = tree.add(q3, "assistant", {"content_type": "code", "language": "python",
                                      "text": "17 * 23"}, recipient="python", model="gpt-4o")
    out = tree.add(code, "tool", {"content_type": "execution_output", "text": "391"},
                   name="python")
    a3 = tree.add(out, "assistant", text("17 × 23 = 391."), model="gpt-4o")
    tree.current = tree.add(a3, "user", text("And the weather there tomorrow?"))
    return tree


def untitled() -> Tree:
    """No title; custom instructions the older way (a system message); Chinese."""
    tree = Tree("c-poem", None, model="gpt-4")
    system = tree.add("root", "system", text("Always answer in Chinese."),
                      meta={"is_user_system_message": True,
                            "user_context_message_data": {
                                "about_model_message": "Always answer in Chinese."}})
    q1 = tree.add(system, "user", text("你好，帮我写一首诗\nabout spring"))
    tree.current = tree.add(q1, "assistant", text("春眠不觉晓，处处闻啼鸟。"), model="gpt-4")
    return tree


def unanswered() -> Tree:
    tree = Tree("c-lost", "Never answered")
    tree.current = tree.add("root", "user", text("Is anyone there?"))
    return tree


def conversations(*trees: Tree) -> list[dict[str, Any]]:
    return [t.to_json() for t in (trees or (kyoto(), untitled(), unanswered()))]


def write_json(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return path


def write_zip(path: Path, items: list[dict[str, Any]], *, with_conversations: bool = True
              ) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if with_conversations:
            archive.writestr("conversations.json", json.dumps(items, ensure_ascii=False))
        archive.writestr("chat.html", "<html><body>chats</body></html>")
        archive.writestr("user.json", json.dumps({"id": "user-1", "email": "a@b.c"}))
        archive.writestr("file-abc-temple.jpg", b"\xff\xd8\xff\xe0 not really a jpeg")
    return path


def write_large(path: Path, megabytes: int) -> int:
    """A `conversations.json` of about `megabytes` MB (conversations of 60 turns, each
    with a regenerated answer on another branch), written as it goes; returns the number
    of turns on the current branches."""
    turns = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        c = 0
        while out.tell() < megabytes * 1_000_000:
            tree = Tree(f"big{c}", f"Chat {c}")
            parent = "root"
            for k in range(60):
                q = tree.add(parent, "user", text(f"Question {k} " + "word " * 80))
                tree.add(q, "assistant", text("An answer regenerated later " * 20))
                parent = tree.add(q, "assistant", text(f"Answer {k} " + "ответ 答案 " * 60))
                turns += 1
            tree.current = parent
            out.write(("," if c else "") + json.dumps(tree.to_json(), ensure_ascii=False))
            c += 1
        out.write("]")
    return turns


def write_long(path: Path, turns: int, *, conversations: int = 1) -> Path:
    """A `conversations.json` of `conversations` conversations of `turns` turns each (a
    regenerated answer on another branch every tenth turn; English, Chinese and
    Cyrillic), written node by node so a file of any size is made in little memory: 80,000
    turns are about 110 MB."""
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for c in range(conversations):
            out.write(("," if c else "") + json.dumps({
                "title": f"Long {c}", "create_time": T0, "update_time": T0 + turns,
                "conversation_id": f"long{c}", "default_model_slug": "gpt-4o"})[:-1]
                + ', "mapping": {"root": {"id": "root", "message": null, "parent": null, '
                '"children": []}')
            parent = "root"
            for k in range(turns):
                q, a = f"l{c}q{k}", f"l{c}a{k}"
                nodes = [(q, parent, "user", f"Question {k} " + "word budget 预算 " * 10)]
                if k % 10 == 0:
                    nodes.append((f"{a}x", q, "assistant", "An answer regenerated later " * 3))
                nodes.append((a, q, "assistant", f"Answer {k} " + "ответ 答案 answer " * 14))
                for node, up, role, value in nodes:
                    message = {"id": node, "author": {"role": role}, "create_time": T0 + k,
                               "content": text(value), "metadata": {"model_slug": "gpt-4o"},
                               "recipient": "all"}
                    out.write(", " + json.dumps(node) + ": " + json.dumps(
                        {"id": node, "parent": up, "children": [], "message": message},
                        ensure_ascii=False))
                parent = a
            out.write('}, "current_node": ' + json.dumps(parent) + "}")
        out.write("]")
    return path
