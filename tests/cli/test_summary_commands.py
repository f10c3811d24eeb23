"""turnlog-cli summaries: the compaction history of a conversation (what each summary
replaced and folded, by whom, the requests that carried it), and the summary the user
rewrites from a file, undoes, and whose earlier versions they forget."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cli_runs import cli
from loopback import Behaviour
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, PendingTurn
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.store import TurnlogStore

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


def compacted(home, loopback, turns: int = 40) -> int:
    """A conversation of `turns` long turns whose request needed a summary."""
    loopback.default = Behaviour.answer("Summary made by the model.")
    with TurnlogStore.open(home) as store:
        cid = store.conversations.create("cli", model="loopback-model", settings=SETTINGS).id
        for i in range(1, turns + 1):
            store.turns.commit(cid, PendingTurn(
                f"c{i}", f"question {i}: " + "q" * 220, f"answer {i}: " + "a" * 200, "m",
                "stop", Usage(), datetime.now(UTC)))
        conv = store.conversations.get(cid)
        outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url), CostIndex()
                             ).send(request_for(conv, "now?", Route("loopback-model")))
        assert isinstance(outcome, Committed)
    return cid


def history(cid: int) -> list[dict]:
    shown = cli("summaries", "--conversation", str(cid), "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)["summaries"]


def test_history_lists_the_summary_with_its_turns_model_and_request(turnlog_home, loopback):
    cid = compacted(turnlog_home, loopback)
    [made] = history(cid)
    assert made["state"] == "current" and made["model"] == "loopback-model"
    assert not made["edited_by_you"] and made["replaced"] is None
    first, last = made["covers_turns"]
    assert first == 1 and last > 1 and made["folded_turns"] == [first, last]
    assert made["text"] == "Summary made by the model." and len(made["records"]) == 1
    assert made["made_in_record"] == made["records"][0] and made["made_for_turn"] == 41
    that = cli("sent", "--conversation", str(cid), "--turn", "41", "--json")
    assert json.loads(that.stdout)["verified"] is True
    assert json.loads(that.stdout)["record"] == made["made_in_record"]
    words = cli("summaries", "--conversation", str(cid))
    assert words.returncode == 0, words.stderr
    assert "made by loopback-model" in words.stdout and f"turns 1–{last}" in words.stdout
    assert "    Summary made by the model." in words.stdout
    assert f"made while sending turn 41 (that request: turnlog-cli sent --conversation {cid} " \
        "--turn 41 --json)" in words.stdout


def test_edit_from_a_file_then_undo_then_forget(turnlog_home, loopback, tmp_path):
    cid = compacted(turnlog_home, loopback)
    text = tmp_path / "summary.txt"
    text.write_text("  My own summary: the questions were numbered. 我的摘要\n", "utf-8")
    edited = cli("summaries", "edit", "--conversation", str(cid), "--file", str(text))
    assert edited.returncode == 0, edited.stderr
    assert "edited by you" in edited.stdout
    made, mine = history(cid)
    assert mine["state"] == "current" and mine["edited_by_you"]
    assert mine["text"] == "My own summary: the questions were numbered. 我的摘要"
    assert mine["edited_from"] == mine["replaced"] == made["id"]
    assert mine["covers_turns"] == made["covers_turns"] and mine["folded_turns"] is None
    assert made["state"] == "earlier"

    undone = cli("summaries", "undo", "--conversation", str(cid))
    assert undone.returncode == 0, undone.stderr
    assert [e["id"] for e in history(cid)] == [made["id"]]  # no record carried the edit
    again = cli("summaries", "undo", "--conversation", str(cid))
    assert again.returncode == 1 and "no edit to undo" in again.stderr

    assert cli("summaries", "edit", "--conversation", str(cid), "--file",
               str(text)).returncode == 0
    forgot = cli("summaries", "forget-earlier", "--conversation", str(cid))
    assert forgot.returncode == 0 and "removed 1" in forgot.stdout
    [left] = history(cid)
    assert left["edited_by_you"] and left["replaced_kept"] is False


def test_bad_edits_are_refused_and_change_nothing(turnlog_home, loopback, tmp_path):
    cid = compacted(turnlog_home, loopback)
    before = history(cid)
    blank = tmp_path / "blank.txt"
    blank.write_text(" \n\n", "utf-8")
    huge = tmp_path / "huge.txt"
    huge.write_text("x" * 40_000, "utf-8")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café".encode("latin-1"))
    for name, words in [(blank, "would be empty"), (huge, "bytes"),
                        (latin, "not UTF-8"), (tmp_path / "absent.txt", "no such file")]:
        refused = cli("summaries", "edit", "--conversation", str(cid), "--file", str(name))
        assert refused.returncode == 1 and words in refused.stderr, refused.stderr
    assert cli("summaries", "edit", "--conversation", str(cid)).returncode == 2
    missing = cli("summaries", "--conversation", "99")
    assert missing.returncode == 1 and "99" in missing.stderr
    assert history(cid) == before


def shown_numbers(cid: int) -> dict[str, int]:
    """Each turn id with the number `turnlog-cli show` heads it with ("## turn 7  [id]")."""
    shown = cli("show", str(cid))
    assert shown.returncode == 0, shown.stderr
    return {line.split("[")[1].split("]")[0]: int(line.split()[2])
            for line in shown.stdout.splitlines() if line.startswith("## turn ")}


def test_history_names_turns_as_show_does_after_a_regenerate(turnlog_home, loopback):
    loopback.default = Behaviour.answer("Summary made by the model.")
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("cli", model="loopback-model", settings=SETTINGS).id
        for i in range(1, 41):
            store.turns.commit(cid, PendingTurn(
                f"c{i}", f"question {i}: " + "q" * 220, f"answer {i}: " + "a" * 200, "m",
                "stop", Usage(), datetime.now(UTC)))
            if i == 3:  # turn 3 regenerated: its new version is stored at ordinal 4
                store.turns.commit(cid, PendingTurn(
                    "c3b", "question 3: " + "q" * 220, "answer 3 again: " + "b" * 200, "m",
                    "stop", Usage(), datetime.now(UTC), replaces="c3"))
        outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url), CostIndex()
                             ).send(request_for(store.conversations.get(cid), "now?",
                                                Route("loopback-model")))
        assert isinstance(outcome, Committed)
        made = store.records.latest_summary(cid)
        last_covered = store.records.turn_at(cid, made.last_ordinal)
    numbers = shown_numbers(cid)
    assert numbers["c3b"] == numbers["c3"] == 3 and numbers[outcome.turn.id] == 41
    last = numbers[last_covered]
    assert made.last_ordinal == last + 1  # the stored ordinal runs one ahead
    [entry] = history(cid)
    assert entry["covers_turns"] == [1, last] and entry["made_for_turn"] == 41
    words = cli("summaries", "--conversation", str(cid)).stdout
    assert f"covers turns 1–{last};" in words and f"folded turns 1–{last};" in words
    assert f"made while sending turn 41 (that request: turnlog-cli sent --conversation {cid} " \
        "--turn 41 --json)" in words
    that = json.loads(cli("sent", "--conversation", str(cid), "--turn", "41", "--json").stdout)
    assert that["verified"] is True and that["record"] == entry["made_in_record"]
