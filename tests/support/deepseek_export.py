"""Build DeepSeek data exports for tests as chat.deepseek.com writes them (the fields
public parsers of it read: DavidShiang/DeepSeek2md, andrmkrff/deepseek-chat-export):
`conversations.json`, each conversation a `mapping` tree from a "root" node whose
messages carry typed `fragments` (REQUEST, THINK, RESPONSE)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any


def stamp(minute: int) -> str:
    return f"2025-04-29T11:{minute:02d}:13.202000+08:00"


class Tree:
    def __init__(self, conversation_id: str, title: str) -> None:
        self.id, self.title = conversation_id, title
        self.mapping: dict[str, Any] = {
            "root": {"id": "root", "parent": None, "children": [], "message": None}}
        self._n = 0

    def add(self, parent: str, fragments: list[tuple[str, str]], *,
            model: str = "deepseek-reasoner", files: list[dict[str, Any]] | None = None
            ) -> str:
        self._n += 1
        node = str(self._n)
        self.mapping[node] = {"id": node, "parent": parent, "children": [], "message": {
            "files": files or [], "model": model, "inserted_at": stamp(self._n),
            "fragments": [{"type": kind, "content": text} for kind, text in fragments]}}
        self.mapping[parent]["children"].append(node)
        return node

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "inserted_at": stamp(0),
                "updated_at": stamp(59), "mapping": self.mapping}


def conversations() -> list[dict[str, Any]]:
    """Chinese with thinking and a regenerated answer (the newer one is the branch in use),
    and an English one with a web search fragment."""
    tree = Tree("d-1", "秋天的诗")
    q1 = tree.add("root", [("REQUEST", "写一首关于秋天的诗")])
    tree.add(q1, [("THINK", "用户想要一首诗。"), ("RESPONSE", "（旧的回答）")])
    a1 = tree.add(q1, [("THINK", "写短一点。"), ("RESPONSE", "秋风起，落叶黄。")])
    q2 = tree.add(a1, [("REQUEST", "翻译成英文")])
    tree.add(q2, [("RESPONSE", "Autumn wind rises, leaves turn gold.")], model="deepseek-chat")
    web = Tree("d-2", "Weather")
    q = web.add("root", [("REQUEST", "Weather in Paris?")], files=[{"file_name": "map.png"}])
    web.add(q, [("SEARCH", "[results]"), ("RESPONSE", "Sunny, 21 °C.")], model="deepseek-chat")
    return [tree.to_json(), web.to_json()]


def write_json(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return path


def write_zip(path: Path, items: list[dict[str, Any]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", json.dumps(items, ensure_ascii=False))
        archive.writestr("user.json", json.dumps({"email": "x@example.org"}))
    return path
