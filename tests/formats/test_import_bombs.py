"""Archive bombs and endless files end in a named problem, early and in bounded memory:
a zip that inflates a thousandfold, a file of millions of empty conversations, one string
far past the bound of a conversation."""

from __future__ import annotations

import io
import json
import time
import tracemalloc
import zipfile

import pytest

from turnlog.core.imports import ImportProblem
from turnlog.formats.importers import MAX_CONVERSATIONS
from turnlog.formats.importers.jsonstream import ArrayReader
from turnlog.service.transfer import check_file


def write_member(path, name: str, pieces) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive, \
            archive.open(name, "w", force_zip64=True) as member:
        for piece in pieces:
            member.write(piece)


def test_a_zip_that_inflates_a_thousandfold_is_refused_at_once(tmp_path):
    bomb = tmp_path / "export.zip"
    blanks = b" " * (1 << 20)
    write_member(bomb, "conversations.json", [b"[", *([blanks] * 512), b"]"])  # 512 MiB
    assert bomb.stat().st_size < 2 << 20
    started = time.monotonic()
    with pytest.raises(ImportProblem, match="archive bomb"):
        check_file(bomb)
    assert time.monotonic() - started < 20


def test_millions_of_empty_conversations_stop_at_the_count_bound(tmp_path):
    export = tmp_path / "conversations.json"
    export.write_text("[" + ",".join(['{"mapping":{}}'] * (MAX_CONVERSATIONS + 10)) + "]")
    tracemalloc.start()
    try:
        with pytest.raises(ImportProblem, match=f"more than {MAX_CONVERSATIONS:,} conv"):
            check_file(export)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20


def test_one_string_past_the_bound_is_refused_holding_no_more_than_the_bound():
    bound = 4 << 20
    text = io.StringIO('[{"title": "' + "a" * (8 * bound) + '"}]')
    tracemalloc.start()
    try:
        with pytest.raises(ImportProblem, match="larger than 4 MiB"):
            list(ArrayReader(text, "conversations.json", chunk=1 << 16, max_element=bound))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The bound, a copy of it while reading on, and the chunk: not twice the bound again.
    assert peak < 2.5 * bound, peak / bound


def test_an_export_of_blanks_reads_quickly():
    text = io.StringIO("[" + " " * (64 << 20) + json.dumps({"a": 1}) + "]")
    started = time.monotonic()
    assert list(ArrayReader(text, "conversations.json")) == [{"a": 1}]
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(("member", "head"), [
    ("conversations.json", b'[{"uuid": "c", "chat_messages": [{"sender": "human", "text": "'),
    ("conversations.json", b'[{"id": "d", "inserted_at": "2025-01-01", "mapping": {"'),
    ("projects.json", b'[{"name": "p", "docs": [{"content": "'),
])
def test_a_claude_or_deepseek_bomb_is_refused_at_once(tmp_path, member, head):
    bomb = tmp_path / "export.zip"
    blanks = b"a" * (1 << 20)
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        if member != "conversations.json":
            archive.writestr("conversations.json", '[{"uuid": "c", "chat_messages": []}]')
        with archive.open(member, "w", force_zip64=True) as out:
            out.write(head)
            for _ in range(512):  # 512 MiB of one string
                out.write(blanks)
            out.write(b'"}]}]')
    assert bomb.stat().st_size < 2 << 20
    started = time.monotonic()
    with pytest.raises(ImportProblem, match="archive bomb"):
        check_file(bomb)
    assert time.monotonic() - started < 20


def test_a_claude_export_nested_too_deeply_or_with_lone_surrogates_is_named_or_cleaned(
        tmp_path, turnlog_home):
    deep = tmp_path / "deep.json"
    deep.write_text('[{"uuid": "c", "chat_messages": [{"sender": "human", "content": '
                    + "[" * 100_000 + "]" * 100_000 + "}]}]")
    with pytest.raises(ImportProblem, match="nested too deeply"):
        check_file(deep)
    hostile = tmp_path / "conversations.json"
    hostile.write_text(json.dumps([{"uuid": "c", "name": "bad \ud800 title",
                                    "chat_messages": [
        {"uuid": "h", "sender": "human", "text": "q \udc00", "content": []},
        {"uuid": "a", "sender": "assistant", "text": "a \ud800\x1b[31m", "content": []}]}]))
    from turnlog.service.transfer import import_file
    from turnlog.store import TurnlogStore
    with TurnlogStore.open(turnlog_home) as store:
        [outcome] = import_file(store, hostile)
        [turn] = store.turns.all(outcome.id)
        assert (outcome.title, turn.question, turn.answer) == (
            "bad \ufffd title", "q \ufffd", "a \ufffd\x1b[31m")
