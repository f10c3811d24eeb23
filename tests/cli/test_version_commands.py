"""turnlog-cli regenerate, edit-last, versions, use-version, fork and delete with forks,
against the real loopback server and a real store."""

from __future__ import annotations

import json

import pytest

from cli_runs import FAILURES, add_profile, cli, export, request_rows
from loopback import Behaviour


def lines_of(cid: int) -> list[dict]:
    return [json.loads(line) for line in export(cid).splitlines()[1:]]


@pytest.fixture
def two_turns(loopback) -> int:
    add_profile(loopback)
    loopback.script(Behaviour.answer("Noted: ORCHID-17."), Behaviour.answer("Bad answer 🙁"))
    assert cli("ask", "--new", "--title", "V", "My project code is ORCHID-17.").returncode == 0
    assert cli("ask", "--conversation", "1", "Which code? 中文").returncode == 0
    return 1


def test_regenerate_supersedes_the_last_turn(loopback, two_turns, turnlog_home):
    loopback.script(Behaviour.answer("Better: ORCHID-17 ✅"))
    result = cli("ask", "--conversation", "1", "--regenerate")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Better: ORCHID-17 ✅\n"
    # A new version keeps its turn's number (stored at ordinal 3, it is turn 2).
    assert "saved as turn 2" in result.stderr and "a new version of turn 2" in result.stderr
    sent = loopback.requests[-1].json()["messages"]
    # The question again, after the turns before it: the replaced answer is not sent.
    assert [m["content"] for m in sent] == [
        "My project code is ORCHID-17.", "Noted: ORCHID-17.", "Which code? 中文"]
    turns = lines_of(1)
    assert [(t["ordinal"], t.get("superseded_by")) for t in turns] == [
        (1, None), (2, turns[2]["id"]), (3, None)]
    projected = json.loads(cli("project", "--conversation", "1", "--question", "next",
                               "--json").stdout)
    assert projected["superseded"] == [2] and 2 not in projected["sent"]
    assert projected["sent"] == [1, 3]
    show = cli("show", "1").stdout
    assert "## turn 2" in show and "*replaced*" in show and "version 2 of 2" in show
    assert "## turn 3" not in show and show.count("## turn 2") == 2
    # Counted once: two turns in use (three stored).
    assert "     2 turns  V" in cli("list").stdout
    assert request_rows(turnlog_home)[-1][18] == turns[2]["id"]  # which version was sent


@pytest.mark.parametrize(("behaviour", "name", "words"), FAILURES[:6],
                         ids=[f[1] for f in FAILURES[:6]])
def test_a_failed_regenerate_changes_nothing(loopback, two_turns, behaviour, name, words):
    before = export(1)
    loopback.script(behaviour)
    # --no-retry: a 429 or 504 would be tried again by itself (core/test_retry.py covers that).
    result = cli("ask", "--no-retry", "--conversation", "1", "--regenerate")
    assert result.returncode == 4, result.stderr
    assert f"failure: {name}" in result.stderr
    assert "Which code? 中文" in result.stderr  # the question given back
    assert export(1) == before


def test_edit_last_sends_new_text_as_a_version(loopback, two_turns):
    loopback.script(Behaviour.answer("It is ORCHID-17."))
    result = cli("ask", "--conversation", "1", "--edit-last", "What is my project code?")
    assert result.returncode == 0, result.stderr
    sent = loopback.requests[-1].json()["messages"]
    assert sent[-1]["content"] == "What is my project code?" and len(sent) == 3
    turns = lines_of(1)
    assert turns[1]["superseded_by"] == turns[2]["id"]
    assert turns[2]["question"] == "What is my project code?"
    assert cli("ask", "--conversation", "1", "--regenerate", "text").returncode == 2
    assert cli("ask", "--conversation", "1", "--edit-last").returncode == 2


def test_versions_and_use_version(loopback, two_turns):
    loopback.script(Behaviour.answer("Second version"), Behaviour.answer("After"))
    assert cli("ask", "--conversation", "1", "--regenerate").returncode == 0
    listed = json.loads(cli("versions", "--conversation", "1", "--turn", "2",
                            "--json").stdout)["versions"]
    assert [(v["ordinal"], v["active"]) for v in listed] == [(2, False), (3, True)]
    assert [v["number"] for v in listed] == [2, 2]
    assert cli("versions", "--conversation", "1", "--turn", "3").returncode == 1
    text = cli("versions", "--conversation", "1", "--turn", "2").stdout
    assert "version 1 of 2" in text and "*replaced*" in text and "in use" in text
    used = cli("use-version", listed[0]["id"])
    assert used.returncode == 0, used.stderr
    projected = json.loads(cli("project", "--conversation", "1", "--question", "q",
                               "--json").stdout)
    assert projected["sent"] == [1, 2] and projected["superseded"] == [3]
    assert cli("ask", "--conversation", "1", "Then?").returncode == 0
    assert [m["content"] for m in loopback.requests[-1].json()["messages"]][:4] == [
        "My project code is ORCHID-17.", "Noted: ORCHID-17.", "Which code? 中文",
        "Bad answer 🙁"]
    refused = cli("use-version", listed[1]["id"])  # no longer the last position
    assert refused.returncode == 1 and "Fork from this turn" in refused.stderr


def test_fork_with_an_older_version_of_a_turn_that_later_turns_followed(loopback, two_turns,
                                                                        turnlog_home):
    loopback.script(Behaviour.answer("Second version ✅"), Behaviour.answer("After 之后"))
    assert cli("ask", "--conversation", "1", "--regenerate").returncode == 0
    assert cli("ask", "--conversation", "1", "Then? 然后？").returncode == 0  # turn 3
    before = export(1)
    listed = json.loads(cli("versions", "--conversation", "1", "--turn", "2",
                            "--json").stdout)["versions"]
    older = listed[0]["id"]  # "Bad answer 🙁", replaced while it was the last turn
    assert not listed[0]["active"]
    assert cli("use-version", older).returncode == 1  # turn 4 was asked after the other
    wrong = cli("fork", "--conversation", "2", "--with-version", older)
    assert wrong.returncode == 1 and "no turn" in wrong.stderr
    result = cli("fork", "--conversation", "1", "--with-version", older)
    assert result.returncode == 0, result.stderr
    fork = int(result.stdout)
    assert "copied 2 turn(s)" in result.stderr and "turn 3" in result.stderr
    assert [(t["question"], t["answer"]) for t in lines_of(fork)] == [
        ("My project code is ORCHID-17.", "Noted: ORCHID-17."),
        ("Which code? 中文", "Bad answer 🙁")]
    assert (turnlog_home / "drafts" / f"{fork}.txt").read_text() == "Then? 然后？"
    assert "forked from “V”, turn 3" in cli("show", str(fork)).stdout
    assert export(1) == before  # the source is as it was
    last = lines_of(1)[-1]["id"]  # a version of the last turn is used in place, not forked
    refused = cli("fork", "--conversation", "1", "--with-version", last)
    assert refused.returncode == 1 and "use-version" in refused.stderr


def test_fork_then_delete_the_source(loopback, two_turns, turnlog_home):
    result = cli("fork", "--conversation", "1", "--at", "2")
    assert result.returncode == 0, result.stderr
    fork = int(result.stdout)
    assert "copied 1 turn" in result.stderr
    assert [t["question"] for t in lines_of(fork)] == ["My project code is ORCHID-17."]
    assert (turnlog_home / "drafts" / f"{fork}.txt").read_text() == "Which code? 中文"
    assert "forked from “V”, turn 2" in cli("show", str(fork)).stdout
    # The ORCHID-17 fact still reaches the model from the fork.
    loopback.script(Behaviour.answer("ORCHID-17"))
    assert cli("ask", "--conversation", str(fork), "Which code?").returncode == 0
    assert "ORCHID-17" in loopback.requests[-1].json()["messages"][0]["content"]
    deleted = cli("delete", "--conversation", "1", "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert f"1 fork(s) hold copies of its turns: {fork} (V)" in deleted.stderr
    assert "forked from a deleted conversation, turn 2" in cli("show", str(fork)).stdout
    assert len(lines_of(fork)) == 2


def test_delete_with_forks(loopback, two_turns):
    fork = int(cli("fork", "--conversation", "1", "--at", "2", "--title", "F").stdout)
    assert cli("delete", "--conversation", "1", "--with-forks", "--yes").returncode == 0
    assert cli("show", str(fork)).returncode == 1
    assert "no conversations yet" in cli("list").stdout


def test_export_import_round_trip_keeps_versions(loopback, two_turns, tmp_path):
    loopback.script(Behaviour.answer("v2"), Behaviour.answer("v3"))
    assert cli("ask", "--conversation", "1", "--regenerate").returncode == 0
    assert cli("ask", "--conversation", "1", "--regenerate").returncode == 0
    turns = lines_of(1)
    assert cli("use-version", turns[1]["id"]).returncode == 0  # the first answer again
    path = tmp_path / "v.jsonl"
    path.write_text(export(1), encoding="utf-8")
    imported = cli("import", "--as-copies", str(path))  # here already: a copy on purpose
    assert imported.returncode == 0, imported.stderr
    new = int(imported.stdout)
    again = lines_of(new)
    assert [t.get("superseded_by") is None for t in again] == [
        t.get("superseded_by") is None for t in lines_of(1)] == [True, True, False, False]
    old = json.loads(cli("project", "--conversation", "1", "--question", "q", "--json").stdout)
    got = json.loads(cli("project", "--conversation", str(new), "--question", "q",
                         "--json").stdout)
    assert (got["sent"], got["superseded"], got["body"]) == (
        old["sent"], old["superseded"], old["body"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"turnlog": 1, "title": "x"}\n{"id": "a", "question": "q", "answer": "a", '
                   '"superseded_by": "nowhere"}\n', encoding="utf-8")
    refused = cli("import", str(bad))
    assert refused.returncode == 1 and "superseded_by" in refused.stderr


def test_after_a_regenerate_the_words_name_turns_as_show_does(loopback, two_turns):
    loopback.script(Behaviour.answer("Better: ORCHID-17 ✅"))
    assert cli("ask", "--conversation", "1", "--regenerate").returncode == 0
    show = cli("show", "1").stdout
    assert "## turn 1 " in show and show.count("## turn 2 ") == 2  # stored at 1, 2 and 3
    projected = cli("project", "--conversation", "1", "--question", "next")
    assert projected.returncode == 0, projected.stderr
    assert "sent verbatim: 1–2\n" in projected.stdout
    aside = cli("project", "--side", "--conversation", "1", "--question", "btw?")
    assert aside.returncode == 0, aside.stderr
    assert "recent turns:  1–2\n" in aside.stdout
    # An answer cut off and kept is the next turn by number (stored at ordinal 4).
    loopback.script(Behaviour.length("Half an ans"))
    kept = cli("ask", "--conversation", "1", "--keep-incomplete", "And then?")
    assert "kept as turn 3 (" in kept.stderr
    assert "## turn 3 " in cli("show", "1").stdout
