"""Build Claude data exports for tests as claude.ai writes them (the fields public parsers
of it read: Sinity/polylogue, socketteer/Claude-Conversation-Exporter): `conversations.json`
(an array of conversations with `chat_messages`), `projects.json`, `users.json`, and the
`.zip` as downloaded."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

ACCOUNT = [{"uuid": "u-1", "full_name": "Ada Example", "email_address": "ada@example.org",
            "verified_phone_number": "+15550100"}]


def stamp(minute: int) -> str:
    return f"2024-06-01T10:{minute:02d}:00.000000Z"


def message(uuid: str, sender: str, minute: int, content: list[dict[str, Any]], *,
            attachments: list[dict[str, Any]] | None = None,
            files: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    text = "\n\n".join(b["text"] for b in content if b.get("type") == "text")
    return {"uuid": uuid, "text": text, "content": content, "sender": sender,
            "created_at": stamp(minute), "updated_at": stamp(minute),
            "attachments": attachments or [], "files": files or [], **extra}


def said(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value, "citations": [], "start_timestamp": None}


def conversation(uuid: str, name: str, messages: list[dict[str, Any]],
                 **extra: Any) -> dict[str, Any]:
    return {"uuid": uuid, "name": name, "summary": "", "created_at": stamp(0),
            "updated_at": stamp(59), "account": {"uuid": "u-1"}, "chat_messages": messages,
            **extra}


def conversations() -> list[dict[str, Any]]:
    """English with thinking, a tool call and an attachment with extracted text; Chinese
    with an edited question (a branch) and a file the export names but lacks; one never
    answered."""
    trip = conversation("c-trip", "Trip budget", [
        message("m1", "human", 1, [said("Here is my budget. What is the total?")],
                attachments=[{"file_name": "budget.csv", "file_size": 32,
                              "file_type": "text/csv",
                              "extracted_content": "item,cost\nhotel,300\ntrain,120\n"}]),
        message("m2", "assistant", 2, [
            {"type": "thinking", "thinking": "Add 300 and 120.", "summaries": []},
            said("Let me check the rate."),
            {"type": "tool_use", "id": "toolu_1", "name": "web_search",
             "input": {"query": "EUR USD rate"}},
            {"type": "tool_result", "tool_use_id": "toolu_1", "name": "web_search",
             "content": [{"type": "text", "text": "1 EUR = 1.08 USD"}], "is_error": False},
            said("The total is 420 EUR (about 454 USD).")]),
        message("m3", "human", 3, [said("Thanks!")]),
        message("m4", "assistant", 4, [said("You're welcome.")], stop_reason="stop_sequence"),
    ], project_uuid="p-1")
    poem = conversation("c-poem", "写一首诗", [
        message("n1", "human", 10, [said("写一首关于秋天的诗")], parent_message_uuid=
                "00000000-0000-4000-8000-000000000000"),
        message("n2", "assistant", 11, [said("秋风起，落叶黄。")], parent_message_uuid="n1"),
        message("n3", "human", 12, [said("再长一点")], parent_message_uuid="n2"),
        message("n4", "assistant", 13, [said("（旧版本）")], parent_message_uuid="n3"),
        message("n5", "human", 14, [said("再长一点，加上月亮 🌕")], parent_message_uuid="n2",
                files=[{"file_name": "moon.jpg"}]),
        message("n6", "assistant", 15, [said("秋风起，落叶黄，明月照故乡。")],
                parent_message_uuid="n5"),
    ])
    lost = conversation("c-lost", "Never answered", [
        message("l1", "human", 20, [said("Are you there?")])])
    return [trip, poem, lost]


def projects() -> list[dict[str, Any]]:
    return [{"uuid": "p-1", "name": "Travel", "description": "Trips and budgets",
             "is_private": True, "prompt_template": "Answer in EUR.",
             "created_at": stamp(0), "updated_at": stamp(0),
             "docs": [{"uuid": "d-1", "filename": "rules.md", "content": "Max 500 EUR."}]}]


def write_json(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return path


def write_zip(path: Path, items: list[dict[str, Any]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", json.dumps(items, ensure_ascii=False))
        archive.writestr("projects.json", json.dumps(projects(), ensure_ascii=False))
        archive.writestr("users.json", json.dumps(ACCOUNT))
    return path
