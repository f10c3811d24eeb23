"""Export all and import back: one folder (or zip) with a JSON-lines and a Markdown file
per conversation, which restores every conversation exactly in another data directory;
cancel leaves nothing behind on either side."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from turnlog.core.compaction import SummaryDraft
from turnlog.core.imports import ImportCancelled
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.core.side import SideQuestion
from turnlog.service.transfer import export_all, import_file
from turnlog.store import TurnlogStore

WHEN = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)


def pending(turn_id: str, question: str, answer: str, minutes: int, **extra) -> PendingTurn:
    return PendingTurn(turn_id, question, answer, extra.get("model", "m1"), "stop",
                       extra.get("usage", Usage()), WHEN + timedelta(minutes=minutes))


def fill(store: TurnlogStore) -> None:
    """Everything a conversation holds today: settings, system prompt, model, usage,
    times, a gap left by a deleted turn, the deleted newest turn's number, an empty one,
    versions (a regenerated answer superseding the first), a model's reasoning, a pin
    taken from a turn, a note, a preference and a side question."""
    plans = store.conversations.create(
        "Plans / ideas: \"v2\"", system_prompt="Be brief.\nAlways cite.", model="m1",
        settings=ConversationSettings(max_bytes=50_000, context_window=8192,
                                      output_reserve=512, compaction=False, temperature=0.3,
                                      compaction_target=40))
    store.turns.commit_many(plans.id, [
        pending("p1", "My project code is ORCHID-17.", "Noted.", 1,
                usage=Usage(12, 3, 15)),
        pending("p2", "Delete me", "ok", 2),
        pending("p3", "你好，今天天气怎么样？😀", "我无法查看天气。\n\n```py\nprint(1)\n```", 3,
                model="m2"),
        pending("p4", "newest, deleted", "gone", 4)])
    store.privacy.delete_turn("p2")
    store.privacy.delete_turn("p4")
    store.memory.add_pin(plans.id, "ORCHID-17", sources=["p1"], kind="identifier")
    store.memory.add_pin(plans.id, "Never on Fridays 🙅")
    store.memory.add_note(plans.id, "背景：预算有限", priority=4)
    store.memory.add_preference("Answer in Chinese", priority=5)
    store.side.add(plans.id, SideQuestion(
        "s1", "翻译一下上面的回答", "我无法查看天气。", "m2", WHEN, Usage(30, 8, 38),
        body_bytes=1_234, input_tokens=300, tokens_exact=True, sent=(1, 3)))
    store.side.add(plans.id, SideQuestion(
        "s2", "再说一遍", "好的。", "m2", WHEN + timedelta(minutes=1), Usage(31, 2, 33),
        body_bytes=1_300, input_tokens=310, sent=(3,), left_out=(1,), side_ids=("s1",)))
    chinese = store.conversations.create("中文对话", model="qwen")
    store.turns.commit_many(chinese.id, [pending(f"c{i}", f"问题 {i}", f"回答 {i}", 10 + i)
                                         for i in range(1, 2501)])
    store.conversations.create("Empty")
    versioned = store.conversations.create("Versions")
    store.turns.commit(versioned.id, pending("v1", "Which one?", "The first answer", 30))
    store.turns.commit(versioned.id, replace(pending("v2", "Which one?", "A better one", 31),
                                             replaces="v1", reasoning="Weighing both…"))
    store.turns.use_version("v1")  # and back: three records, each with its time
    store.turns.use_version("v2")
    store.records.save_summary(chinese.id, SummaryDraft(
        tuple(f"c{i}" for i in range(1, 11)), 1, 10, "digest-1-10", "用户问了十个问题。",
        "m-sum", "key-1", 12, (Usage(100, 12, 112),), ("one turn was cut",), 0))


def snapshot(store: TurnlogStore) -> list[tuple]:
    out = []
    for conversation in sorted(store.conversations(), key=lambda c: c.title):
        out.append((conversation.title, conversation.system_prompt, conversation.model,
                    conversation.settings, conversation.created_at, conversation.updated_at,
                    conversation.source,
                    conversation.source_model,
                    store.turns.next_ordinal(conversation.id), store.turns.all(conversation.id),
                    store.turns.versions(conversation.id).records,
                    store.imports.exported_summaries(conversation.id),
                    [(p.text, p.kind, tuple(p.sources), p.created_at)
                     for p in store.memory.pins(conversation.id)],
                    [(n.text, n.priority, n.created_at)
                     for n in store.memory.notes(conversation.id)],
                    store.side.of(conversation.id)))
    out.append([(p.text, p.priority, p.created_at) for p in store.memory.preferences()])
    return out


@pytest.fixture
def source(tmp_path):
    with TurnlogStore.open(tmp_path / "a") as store:
        fill(store)
        yield store


@pytest.mark.parametrize("name", ["everything", "everything.zip"])
def test_export_all_restores_everything_exactly_elsewhere(source, tmp_path, name):
    done = export_all(source, tmp_path / name)
    assert (done.conversations, done.turns) == (4, 2504)
    if name.endswith(".zip"):
        with zipfile.ZipFile(done.path) as archive:
            names = sorted(archive.namelist())
            header = json.loads(archive.read(names[0]).splitlines()[0])
    else:
        names = sorted(p.name for p in done.path.iterdir())
        header = json.loads((done.path / names[0]).read_text().splitlines()[0])
    assert names == ["00001-Plans - ideas- -v2.jsonl", "00001-Plans - ideas- -v2.md",
                     "00002-中文对话.jsonl", "00002-中文对话.md", "00003-Empty.jsonl",
                     "00003-Empty.md", "00004-Versions.jsonl", "00004-Versions.md"]
    assert header["turnlog"] == 2 and header["next_ordinal"] == 5
    assert not list(tmp_path.glob("*.part"))
    # Read before another store opens: the open stores of one process share the models.
    expected = snapshot(source)
    plans = next(e for e in expected[:-1] if e[0].startswith("Plans"))
    assert plans[-1] and plans[-3]  # its side question and its pins are there
    with TurnlogStore.open(tmp_path / "b") as target:
        outcomes = import_file(target, done.path)
        assert [(o.title, o.turns) for o in outcomes] == [
            ("Plans / ideas: \"v2\"", 2), ("中文对话", 2500), ("Empty", 0), ("Versions", 2)]
        assert snapshot(target) == expected
        [plans] = [c for c in target.conversations() if c.title.startswith("Plans")]
        assert [t.ordinal for t in target.turns.all(plans.id)] == [1, 3]
        [versioned] = [c for c in target.conversations() if c.title == "Versions"]
        assert target.turns.versions(versioned.id).replaced_by == {"v1": "v2"}
        assert target.turns.all(versioned.id)[1].reasoning == "Weighing both…"


def test_importing_an_export_all_twice_adds_nothing_unless_copies_are_asked_for(
        source, tmp_path):
    done = export_all(source, tmp_path / "all.zip")
    expected = snapshot(source)
    with TurnlogStore.open(tmp_path / "b") as target:
        first = import_file(target, done.path)
        again = import_file(target, done.path)
        assert [o.id for o in again] == [o.id for o in first]
        assert [o.turns for o in again] == [0, 0, 0, 0]
        assert again.totals()["already imported"] == 2 + 2500 + 2
        assert again.totals()["already imported (a conversation without turns)"] == 1
        assert snapshot(target) == expected
        copies = import_file(target, done.path, as_copies=True)
        assert [o.turns for o in copies] == [2, 2500, 0, 2]
        assert len(target.conversations()) == 8
        [versioned, _copy] = [c for c in target.conversations() if c.title == "Versions"]
        assert len(target.turns.versions(versioned.id).replaced_by) == 1


def test_a_conversation_that_grew_since_its_export_gets_only_its_new_turns(source,
                                                                          tmp_path):
    older = export_all(source, tmp_path / "older")
    [chinese] = [c for c in source.conversations() if c.title == "中文对话"]
    source.turns.commit(chinese.id, pending("c-new", "新问题", "新回答", 9_000))
    newer = export_all(source, tmp_path / "newer")
    with TurnlogStore.open(tmp_path / "b") as target:
        import_file(target, older.path)
        grown = import_file(target, newer.path)
        assert [o.turns for o in grown] == [0, 1, 0, 0]
        [copy] = [c for c in target.conversations() if c.title == "中文对话"]
        assert [t.question for t in target.turns.all(copy.id)[-2:]] == ["问题 2500", "新问题"]
        assert len(target.conversations()) == 4


def test_the_markdown_files_read_as_the_conversations(source, tmp_path):
    done = export_all(source, tmp_path / "out")
    text = (done.path / "00001-Plans - ideas- -v2.md").read_text(encoding="utf-8")
    assert text.startswith('# Plans / ideas: "v2"\n\nModel: m1\n\nSystem prompt:\n\n> Be brief.')
    assert "## Turn 3 · " in text and "你好，今天天气怎么样？😀" in text and "```py" in text
    assert "Delete me" not in text


def test_the_cli_imports_an_export_all_zip(source, tmp_path):
    done = export_all(source, tmp_path / "all.zip")
    env = {**os.environ, "TURNLOG_HOME": str(tmp_path / "c")}
    result = subprocess.run([sys.executable, "-m", "turnlog.cli", "import", str(done.path),
                             "--json"], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert [c["turns"] for c in json.loads(result.stdout)["conversations"]] == [2, 2500, 0, 2]
    with TurnlogStore.open(tmp_path / "c", readonly=True) as copy:
        assert snapshot(copy) == snapshot(source)


@pytest.mark.parametrize("name", ["cli-out", "cli-out.zip"])
def test_the_cli_exports_all_as_the_window_does(source, tmp_path, name):
    def cli(home: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "turnlog.cli", *args],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "TURNLOG_HOME": str(tmp_path / home)})

    target = tmp_path / name
    done = cli("a", "export", "--all", str(target))
    assert done.returncode == 0, done.stderr
    assert f"exported 4 conversations (2,504 turns) to {target}" in done.stderr
    assert cli("a", "export", "--all", str(target)).returncode == 1  # never overwritten
    assert cli("a", "export").returncode == 2
    imported = cli("c", "import", str(target), "--json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["totals"]["turns"] == 2504
    expected = snapshot(source)
    with TurnlogStore.open(tmp_path / "c", readonly=True) as copy:
        assert snapshot(copy) == expected


def test_a_cancelled_import_leaves_nothing_and_the_log_works_after(source, tmp_path):
    done = export_all(source, tmp_path / "all")
    seen: list[str] = []
    with TurnlogStore.open(tmp_path / "b") as target:
        with pytest.raises(ImportCancelled):
            import_file(target, done.path, progress=lambda p: seen.append(p.stage),
                        cancelled=lambda: "writing" in seen)
        assert "writing" in seen
        assert target.conversations() == []
        conversation = target.conversations.create("after")
        target.turns.commit(conversation.id, pending("x", "q", "a", 1))
        assert len(target.turns(conversation.id)) == 1


def test_a_cancelled_or_failed_export_leaves_nothing(source, tmp_path):
    steps: list[int] = []
    for name in ("out", "out.zip"):
        with pytest.raises(ImportCancelled):
            export_all(source, tmp_path / name, progress=lambda p: steps.append(p.done),
                       cancelled=lambda: len(steps) >= 2)
        steps.clear()
    assert not list(tmp_path.glob("out*"))
    (tmp_path / "taken").mkdir()
    with pytest.raises(FileExistsError):
        export_all(source, tmp_path / "taken")
    assert list((tmp_path / "taken").iterdir()) == []


def test_a_turnlog_file_of_a_newer_format_or_unknown_record_is_refused(tmp_path,
                                                                       turnlog_home):
    newer = tmp_path / "newer.jsonl"
    newer.write_text('{"turnlog": 3, "title": "t"}\n')
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"turnlog": 2, "title": "t"}\n{"question": "q", "answer": "a"}\n'
                       '{"record": "hologram", "data": 1}\n')
    for path, expected in ((newer, "line 1: the file is format version 3, written by a "
                                   "newer Turnlog"),
                           (unknown, "line 3: a 'hologram' record is not known to this "
                                     "Turnlog")):
        result = subprocess.run([sys.executable, "-m", "turnlog.cli", "import", str(path)],
                                capture_output=True, text=True, timeout=120,
                                env=os.environ.copy())
        assert result.returncode == 1 and expected in result.stderr, result.stderr
    assert not (Path(turnlog_home) / "turnlog.sqlite3").exists()
