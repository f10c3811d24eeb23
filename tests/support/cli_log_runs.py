"""turnlog-cli runs over a project with two logged turns (the `two_turns` fixture)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ORCHID = "My project code is ORCHID-17."


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "turnlog.cli", *args],
        capture_output=True, text=True, input=input, timeout=120, env=os.environ.copy(),
    )


def write_jsonl(path: Path, header: dict, turns: list[dict]) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in [header, *turns]),
                    encoding="utf-8")
    return path


@pytest.fixture
def two_turns(tmp_path) -> int:
    path = write_jsonl(tmp_path / "c.jsonl",
                       {"turnlog": 1, "title": "ORCHID", "system": "Be brief.", "model": "m1"},
                       [{"id": "t1", "question": ORCHID, "answer": "Noted: ORCHID-17."},
                        {"id": "t2", "question": "你好，今天天气怎么样？😀",
                         "answer": "我无法查看天气，但希望你今天过得愉快！"}])
    result = cli("import", str(path))
    assert result.returncode == 0, result.stderr
    return int(result.stdout.strip())


def project(conversation: int, question: str, *extra: str) -> tuple[int, dict]:
    result = cli("project", "--conversation", str(conversation), "--question", question,
                 "--json", *extra)
    return result.returncode, json.loads(result.stdout)
