"""`turnlog-cli import` of a ChatGPT data export (a generated one, with branches, tool
messages, reasoning, an image, custom instructions, a missing title and an unanswered
question), as `conversations.json` and as the downloaded `.zip`; and bad files."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

import chatgpt_export as gpt


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())


def rows(home: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def imported(path: Path) -> list[dict]:
    result = cli("import", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["conversations"]


@pytest.fixture
def export_zip(tmp_path) -> Path:
    return gpt.write_zip(tmp_path / "chatgpt-export.zip", gpt.conversations())


def test_the_path_to_current_node_is_imported_and_the_rest_reported(export_zip, turnlog_home):
    report = imported(export_zip)
    kyoto, poem, lost = report
    assert kyoto["title"] == "Trip to Kyoto" and kyoto["turns"] == 3
    skipped = {s["reason"]: s["count"] for s in kyoto["skipped"]}
    assert skipped == {
        "messages on other branches (regenerated answers, edits)": 5,
        "questions without an answer": 1, "tool calls and their output": 2,
        "reasoning (thoughts)": 2}
    assert poem == {"id": poem["id"], "title": "你好，帮我写一首诗", "turns": 1, "attached": 0,
                    "skipped": []}
    assert lost == {"id": None, "title": "Never answered", "turns": 0, "attached": 0,
                    "skipped": [{"reason": "questions without an answer", "count": 1}]}

    [(title, system, model, source, source_model, created, updated)] = rows(
        turnlog_home, "SELECT title, system_prompt, model, source, source_model, created_at, "
        f"updated_at FROM conversations WHERE id = {kyoto['id']}")
    # ChatGPT's model is provenance: the conversation names none, so the profile's is sent.
    assert title == "Trip to Kyoto" and model == ""
    assert (source, source_model) == ("chatgpt", "gpt-4o")
    assert system == "I am a vegetarian.\n\nAnswer briefly."
    assert datetime.fromisoformat(created) == datetime.fromtimestamp(gpt.T0, UTC)
    assert datetime.fromisoformat(updated) > datetime.fromisoformat(created)
    turns = rows(turnlog_home, "SELECT ordinal, question, answer, model, created_at FROM turns "
                 f"WHERE conversation_id = {kyoto['id']} ORDER BY ordinal")
    assert [(o, q, a, m) for o, q, a, m, _ in turns] == [
        (1, "Plan a day in Kyoto.", "Morning: Fushimi Inari. Afternoon: Arashiyama.",
         "gpt-4o"),
        (2, "[image: temple.jpg]\n\nWhich temple is this?",
         "It is Kinkaku-ji, the Golden Pavilion.", "o1"),
        (3, "Compute 17 * 23.", "17 × 23 = 391.", "gpt-4o")]
    assert all(datetime.fromisoformat(t[4]).year == 2023 for t in turns)  # the source's times
    text = " ".join(str(v) for row in rows(turnlog_home, "SELECT * FROM turns") for v in row)
    for never in ("regenerated", "408", "816", "Golden pavilion, pond", "Thought for",
                  "And the weather"):
        assert never not in text
    assert rows(turnlog_home, "SELECT system_prompt FROM conversations WHERE id = "
                f"{poem['id']}") == [("Always answer in Chinese.",)]
    assert rows(turnlog_home, "SELECT count(*) FROM conversations") == [(2,)]


def test_reimporting_adds_nothing_and_a_later_export_adds_only_what_is_new(
        export_zip, tmp_path, turnlog_home):
    first = imported(export_zip)
    as_json = gpt.write_json(tmp_path / "conversations.json", gpt.conversations())
    again = imported(as_json)  # the same export, unpacked
    assert [c["id"] for c in again] == [c["id"] for c in first]
    assert [c["turns"] for c in again] == [0, 0, 0]
    assert {"reason": "already imported", "count": 3} in again[0]["skipped"]
    before = rows(turnlog_home, "SELECT id, conversation_id, ordinal FROM turns ORDER BY id")

    later = gpt.kyoto()  # the person went on in ChatGPT: the last question got its answer
    later.current = later.add(later.current, "assistant", gpt.text("Sunny, 21 °C."),
                              model="gpt-4o")
    [grown] = imported(gpt.write_zip(tmp_path / "later.zip", gpt.conversations(later)))
    assert grown["id"] == first[0]["id"] and grown["turns"] == 1
    after = rows(turnlog_home, "SELECT id, conversation_id, ordinal FROM turns ORDER BY id")
    assert set(before) < set(after) and len(after) == len(before) + 1
    assert rows(turnlog_home, f"SELECT max(ordinal), count(*) FROM turns WHERE "
                f"conversation_id = {grown['id']}") == [(4, 4)]


def _png() -> bytes:
    """A real 2×2 PNG (the export's image is attached only if it reads as one)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _zip_with_image(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("conversations.json", json.dumps(gpt.conversations()))
        archive.writestr("file-abc-temple.png", _png())
    return path


def test_the_zip_after_its_json_attaches_its_images_to_the_turns_it_brought(
        tmp_path, turnlog_home):
    imported(gpt.write_json(tmp_path / "conversations.json", gpt.conversations()))
    turns = rows(turnlog_home, "SELECT * FROM turns ORDER BY id")
    result = cli("import", str(_zip_with_image(tmp_path / "export.zip")))
    assert result.returncode == 0, result.stderr
    assert "0 turns imported" in result.stderr
    assert "attached 1 image to 1 earlier imported turn" in result.stderr
    assert "not attached" not in result.stderr
    assert rows(turnlog_home, "SELECT * FROM turns ORDER BY id") == turns  # unchanged
    [(name, added_at)] = rows(turnlog_home, "SELECT name, added_at FROM turn_attachments")
    assert name == "temple.jpg" and datetime.fromisoformat(added_at).tzinfo is not None
    again = cli("import", str(tmp_path / "export.zip"), "--json")
    assert again.returncode == 0 and "earlier imported" not in again.stderr
    assert all("added_to_earlier_turns" not in c
               for c in json.loads(again.stdout)["conversations"])
    assert rows(turnlog_home, "SELECT count(*) FROM turn_attachments") == [(1,)]


def test_the_json_after_its_zip_adds_nothing_and_the_images_stay(tmp_path, turnlog_home):
    first = imported(_zip_with_image(tmp_path / "export.zip"))
    assert sum(c["attached"] for c in first) == 1
    for again in (gpt.write_json(tmp_path / "conversations.json", gpt.conversations()),
                  tmp_path / "export.zip"):
        result = cli("import", str(again))
        assert result.returncode == 0, result.stderr
        assert "3 conversations read, 0 turns imported, 0 files attached; skipped: " \
            in result.stderr and "already imported: 4" in result.stderr
        assert "not attached" not in result.stderr
    assert rows(turnlog_home, "SELECT count(*) FROM turns") == [(4,)]
    assert rows(turnlog_home, "SELECT count(*) FROM turn_attachments") == [(1,)]


def test_the_plain_report_names_each_conversation(export_zip, turnlog_home):
    result = cli("import", str(export_zip))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "2"]  # the ids, one a line
    assert "conversation 1: Trip to Kyoto — 3 turns imported; skipped: messages on other " \
           "branches (regenerated answers, edits): 5; reasoning (thoughts): 2; tool calls " \
           "and their output: 2; questions without an answer: 1\n" in result.stderr
    assert "not imported: Never answered — 0 turns imported; skipped: questions without " \
           "an answer: 1\n" in result.stderr
    assert "ChatGPT export (.zip): 3 conversations read, 4 turns imported" in result.stderr


def _truncated(tmp_path: Path) -> Path:
    whole = json.dumps(gpt.conversations())
    return _write(tmp_path / "conversations.json", whole[: len(whole) // 2])


def _write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(("make", "expected"), [
    (lambda p: _truncated(p), "conversations.json ends early (at character"),
    (lambda p: _write(p / "x.json", "hello, this is not JSON"),
     "neither Turnlog JSON lines nor a ChatGPT, Claude or DeepSeek export"),
    (lambda p: gpt.write_zip(p / "x.zip", [], with_conversations=False),
     "the zip archive holds no conversations.json, so it is not a ChatGPT, Claude or "
     "DeepSeek data export"),
    (lambda p: _write(p / "x.json", '[{"title": "t", "mapping": []}]'),
     "conversation 1 ('t'): 'mapping' must be an object of messages"),
    (lambda p: _write(p / "x.json", "[1, 2]"),
     "conversation 1 of conversations.json is not a JSON object but int"),
    (lambda p: _write(p / "x.json", '[{"mapping": {}}] trailing'),
     "has more after its closing ']'"),
    (lambda p: _write(p / "x.json", "[" + "[" * 100_000 + "]" * 100_000 + "]"),
     "nested too deeply"),
    (lambda p: _write(p / "x.json", b'[{"title": "\xff\xfe"}]'), "not UTF-8"),
    (lambda p: _write(p / "x.zip", b"PK\x03\x04 a cut-off download"), "cannot be read"),
])
def test_a_bad_export_is_named_and_nothing_is_written(tmp_path, turnlog_home, make, expected):
    result = cli("import", str(make(tmp_path)))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: cannot import ") and expected in result.stderr, \
        result.stderr[:400]
    assert result.stderr.count("\n") == 1
    assert not (turnlog_home / "turnlog.sqlite3").exists()


def test_a_bad_conversation_late_in_a_good_export_leaves_nothing(tmp_path, turnlog_home):
    items = gpt.conversations()
    items.append({"title": "broken", "mapping": {"a": "not a node"}, "current_node": "a"})
    result = cli("import", str(gpt.write_json(tmp_path / "conversations.json", items)))
    assert result.returncode == 1 and "message 'a' is not a JSON object" in result.stderr
    assert not (turnlog_home / "turnlog.sqlite3").exists()


def peak_import(path: Path, home: Path) -> tuple[int, float]:
    """Import `path` in a process of its own: (exit status, its peak memory in MB)."""
    child = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "import", str(path)],
                             env={**os.environ, "TURNLOG_HOME": str(home)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return child.returncode, usage.ru_maxrss / 1024


def test_a_large_export_is_streamed_in_bounded_memory(tmp_path):
    small = gpt.write_json(tmp_path / "small.json", gpt.conversations())
    big = tmp_path / "conversations.json"
    turns = gpt.write_large(big, 30)
    size_mb = big.stat().st_size / 1e6
    status, baseline = peak_import(small, tmp_path / "a")
    assert status == 0
    status, peak = peak_import(big, tmp_path / "b")
    assert status == 0
    # Holding the file's text even once would add its whole size; decoding it all at once
    # (json.load) several times that.
    assert peak - baseline < size_mb / 2, (peak, baseline, size_mb)
    assert rows(tmp_path / "b", "SELECT count(*) FROM turns") == [(turns,)]


def test_hostile_values_in_an_export_are_named_or_made_safe(tmp_path, turnlog_home):
    tree = gpt.Tree("c-hostile", "bad \udc80 title")
    q1 = tree.add("root", "user", gpt.text("q1 \ud800"))
    a1 = tree.add(q1, "assistant", gpt.text("a1"))
    q2 = tree.add(a1, "user", gpt.text("q2"))
    a2 = tree.add(q2, "assistant", gpt.text("x" * (4 * 1024 * 1024 + 1)))
    q3 = tree.add(a2, "user", gpt.text("q3"), meta={"n": 10 ** 30})
    tree.current = tree.add(q3, "assistant", gpt.text("a3"))
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([tree.to_json()]), encoding="utf-8")  # \\udc80 escapes
    [report] = imported(path)
    assert report["title"] == "bad \ufffd title" and report["turns"] == 1
    assert {s["reason"]: s["count"] for s in report["skipped"]} == {
        "turns holding text that is not valid UTF-8": 1, "turns over 4 MiB": 1}
    assert rows(turnlog_home, "SELECT question, answer FROM turns") == [("q3", "a3")]
    huge = tmp_path / "huge.json"
    huge.write_text('[{"mapping": {}, "n": ' + "9" * 5000 + "}]", encoding="utf-8")
    result = cli("import", str(huge))
    assert result.returncode == 1 and "holds a value that cannot be read" in result.stderr


def test_a_long_conversation_changed_since_its_import_adds_nothing_even_past_a_batch(
        tmp_path, turnlog_home):
    """Its turns are read in batches: the first 2,000 are new, written, and then the next
    batch shows turns imported before (the conversation was edited in ChatGPT): what was
    written is taken back and the whole conversation is reported, nothing added."""
    import re

    from turnlog.store.imports import BATCH

    first = gpt.write_long(tmp_path / "first.json", BATCH + 500)
    [was] = imported(first)
    assert was["turns"] == BATCH + 500

    def renamed(found: re.Match) -> str:
        return ("n0" if int(found[2]) < BATCH else "l0") + found[1] + found[2] + found[3]

    text = re.sub(r"l0([qa])(\d+)(x?)", renamed, first.read_text(encoding="utf-8"))
    [again] = imported(_write(tmp_path / "edited.json", text))
    assert again["id"] == was["id"] and again["turns"] == 0
    assert {(s["reason"], s["count"]) for s in again["skipped"]} >= {
        ("already imported", 500), ("changed since an earlier import (another branch)", BATCH)}
    assert rows(turnlog_home, "SELECT count(*) FROM conversations") == [(1,)]
    assert rows(turnlog_home, "SELECT count(*), max(ordinal) FROM turns") == [
        (BATCH + 500, BATCH + 500)]
    # The search index holds the turns there are, none of those taken back.
    assert rows(turnlog_home, 'SELECT count(*) FROM "search_keys"') == [(BATCH + 500,)]
    hits = subprocess.run([sys.executable, "-m", "turnlog.cli", "search", "Question 2499"],
                          capture_output=True, text=True, env=os.environ.copy())
    assert hits.returncode == 0 and hits.stdout.count("turn 2500") == 1


def test_show_says_where_an_imported_conversation_came_from_and_list_counts_one_turn(
        export_zip, turnlog_home):
    kyoto, poem, _lost = imported(export_zip)
    shown = cli("show", str(kyoto["id"]))
    assert shown.returncode == 0, shown.stderr
    assert "(imported from ChatGPT · gpt-4o)" in shown.stdout  # as the window's header says
    listed = cli("list")
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if x.split()[0] == str(poem["id"]))
    assert " 1 turn  " in line and "turns" not in line
    line = next(x for x in listed.stdout.splitlines() if x.split()[0] == str(kyoto["id"]))
    assert " 3 turns  Trip to Kyoto" in line
