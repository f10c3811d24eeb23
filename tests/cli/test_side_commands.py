"""turnlog-cli btw and project --side against the real loopback server: a side question
leaves the log, the summary cache and the request records byte-identical; its body is
the preview's; failures give the draft back; export/import carry side questions."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cli_runs import add_profile, cli, export
from loopback import Behaviour


def dump(home: Path, tables: tuple[str, ...] = ("conversations", "turns", "summaries",
                                                 "requests")) -> dict[str, list[tuple]]:
    con = sqlite3.connect(home / "turnlog.sqlite3")
    try:
        return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables}
    finally:
        con.close()


@pytest.fixture
def conversation(loopback) -> int:
    add_profile(loopback)
    loopback.script(Behaviour.answer("We meet on Friday at 10:00 in room 4B."))
    assert cli("ask", "--new", "--title", "plans", "When do we meet?").returncode == 0
    loopback.script(Behaviour.answer("Bring the ORCHID-17 report."))
    assert cli("ask", "--conversation", "1", "What should I bring?").returncode == 0
    return 1


def test_btw_answers_apart_and_changes_nothing_of_the_conversation(loopback, conversation,
                                                                   turnlog_home):
    before, exported = dump(turnlog_home), export(conversation)
    preview = cli("project", "--side", "--conversation", "1", "--question", "翻译一下上面的回答",
                  "--json")
    assert preview.returncode == 0, preview.stderr
    planned = json.loads(preview.stdout)
    assert planned["kind"] == "side question" and planned["sent"] == [1, 2]
    assert planned["output_reserve"] == 8_192 and planned["final"] is True
    loopback.script(Behaviour.answer("带上 ORCHID-17 报告。", chunks=3,
                                     usage={"prompt_tokens": 70, "completion_tokens": 9,
                                            "total_tokens": 79}))
    result = cli("btw", "--conversation", "1", "翻译一下上面的回答")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "带上 ORCHID-17 报告。\n"
    assert "not a turn" in result.stderr
    sent = loopback.requests[-1]
    assert sent.body == planned["body"].encode("utf-8")  # the recorded body is the preview's
    assert json.loads(sent.body)["max_tokens"] == 8_192
    assert dump(turnlog_home) == before  # log, summaries and request records untouched
    lines = export(conversation).splitlines()
    assert "\n".join(lines[:3]) + "\n" == exported  # the turns' export is unchanged
    assert json.loads(lines[3])["side_question"]["answer"] == "带上 ORCHID-17 报告。"
    listed = cli("btw", "--conversation", "1", "--list", "--json")
    (side,) = [json.loads(line) for line in listed.stdout.splitlines()]
    assert side["question"] == "翻译一下上面的回答" and side["usage"]["total_tokens"] == 79
    assert side["sent"] == [[1, 2]]
    # The next side question carries this one; the next main request does not.
    loopback.script(Behaviour.answer("Yes."), Behaviour.answer("Main answer."))
    assert cli("btw", "--conversation", "1", "Sure?").returncode == 0
    contents = [m["content"] for m in loopback.requests[-1].json()["messages"]]
    assert contents[-3:] == ["翻译一下上面的回答", "带上 ORCHID-17 报告。", "Sure?"]
    assert cli("ask", "--conversation", "1", "Next step?").returncode == 0
    main = [m["content"] for m in loopback.requests[-1].json()["messages"]]
    assert "带上 ORCHID-17 报告。" not in main and "Sure?" not in main


@pytest.mark.parametrize(("behaviour", "name"), [
    (Behaviour.rate_limited("7"), "rate_limited"),
    (Behaviour.length(), "length"),
    (Behaviour.cut(), "truncated"),
])
def test_btw_failures_give_the_draft_back_and_keep_nothing(loopback, conversation,
                                                           turnlog_home, behaviour, name):
    before = dump(turnlog_home, ("conversations", "turns", "summaries", "requests",
                                 "side_questions"))
    loopback.script(behaviour)
    result = cli("btw", "--conversation", "1", "what did we decide? 我们决定了什么")
    assert result.returncode == 4
    assert f"failure: {name}" in result.stderr
    assert result.stderr.rstrip().endswith("what did we decide? 我们决定了什么")
    assert dump(turnlog_home, tuple(before)) == before


def test_btw_refused_with_sizes(loopback, conversation, turnlog_home):
    result = cli("btw", "--conversation", "1", "长" * 20_000)
    assert result.returncode == 3
    assert "failure: refused_by_budget" in result.stderr and "bytes" in result.stderr
    assert loopback.requests[-1].json()["messages"][-1]["content"] == "What should I bring?"


def test_side_questions_round_trip_through_export_and_import(loopback, conversation,
                                                             turnlog_home, tmp_path):
    loopback.script(Behaviour.answer("Friday, 10:00 🙂"))
    assert cli("btw", "--conversation", "1", "When again?").returncode == 0
    first = export(conversation)
    path = tmp_path / "plans.jsonl"
    path.write_text(first, encoding="utf-8")
    imported = cli("import", str(path))
    assert imported.returncode == 0, imported.stderr
    second = export(int(imported.stdout))
    strip = [{k: v for k, v in json.loads(line).get("side_question", {}).items() if k != "id"}
             for line in (first, second) for line in line.splitlines()[3:]]
    assert strip[0] == strip[1] and strip[0]["answer"] == "Friday, 10:00 🙂"
    turns = [[{k: v for k, v in json.loads(line).items() if k != "id"}
              for line in text.splitlines()[1:3]] for text in (first, second)]
    assert turns[0] == turns[1]  # ids are fresh: the first copy still holds them
    listed = cli("btw", "--conversation", imported.stdout.strip(), "--list")
    assert "When again?" in listed.stdout and "Friday, 10:00 🙂" in listed.stdout


def test_a_side_question_carries_the_conversations_pinned_facts(loopback, conversation):
    """Pinned facts are mandatory in every request, a side request too: the pin typed for
    this conversation reaches the side body word for word, in `project --side` and on the
    wire."""
    pin = cli("pin", "add", "--conversation", "1", "Room 4B, never room 4C")
    assert pin.returncode == 0, pin.stderr
    preview = cli("project", "--side", "--conversation", "1", "--question", "Where?", "--json")
    assert preview.returncode == 0, preview.stderr
    assert "Room 4B, never room 4C" in json.loads(preview.stdout)["body"]
    loopback.script(Behaviour.answer("4B."))
    assert cli("btw", "--conversation", "1", "Where?").returncode == 0
    assert "Room 4B, never room 4C" in loopback.requests[-1].body.decode("utf-8")


COUNTED = {"prompt_tokens": 61, "completion_tokens": 8_192, "total_tokens": 8_253}


@pytest.mark.parametrize(("behaviour", "outcome", "usage"), [
    (Behaviour.length("Cut off at the output lim", usage=COUNTED), "length", COUNTED),
    (Behaviour.answer("A stream that stops before its end", usage=COUNTED, done=False,
                      finish_reason=None),
     "truncated", COUNTED),
    (Behaviour.server_error(), "http_status", None),
])
def test_a_failed_side_request_keeps_its_usage_apart(loopback, conversation, turnlog_home,
                                                     behaviour, outcome, usage):
    before = dump(turnlog_home)
    loopback.script(behaviour)
    result = cli("btw", "--conversation", "1", "what did we decide? 我们决定了什么")
    assert result.returncode == 4, result.stderr
    assert dump(turnlog_home) == before  # the conversation's request records byte-identical
    assert dump(turnlog_home, ("side_questions",)) == {"side_questions": []}
    listed = cli("btw", "--conversation", "1", "--list", "--json")
    (summary,) = [json.loads(line) for line in listed.stdout.splitlines()]
    assert summary == {"failed_attempts": 1, "failed_outcomes": {outcome: 1},
                       "failed_usage": usage}
    # An answered one afterwards: listed first, the failed usage still summed apart.
    loopback.script(Behaviour.answer("周五。", usage={"prompt_tokens": 60, "completion_tokens": 3,
                                                    "total_tokens": 63}))
    assert cli("btw", "--conversation", "1", "When?").returncode == 0
    lines = [json.loads(line) for line in
             cli("btw", "--conversation", "1", "--list", "--json").stdout.splitlines()]
    assert [line.get("answer") for line in lines] == ["周五。", None]
    assert lines[1]["failed_attempts"] == 1 and lines[1]["failed_usage"] == usage
    text = cli("btw", "--conversation", "1", "--list").stdout
    counted = f", {usage['total_tokens']:,} tokens" if usage else ", usage not reported"
    assert text.rstrip().endswith(f"1 failed side request (no answer kept){counted}")
    assert dump(turnlog_home) == before


def test_deleting_the_carried_turn_or_the_conversation_removes_failed_side_usage(
        loopback, conversation, turnlog_home):
    loopback.script(Behaviour.length(usage=COUNTED))
    assert cli("btw", "--conversation", "1", "Why?").returncode == 4
    assert len(dump(turnlog_home, ("side_attempts",))["side_attempts"]) == 1
    from turnlog.store import TurnlogStore

    with TurnlogStore.open(turnlog_home) as store:
        (attempt,) = store.side.attempts(conversation)
        assert attempt.carried == (1, 2) and attempt.usage.total_tokens == 8_253
        store.privacy.delete_turn(store.turns(conversation)[0].id)
        assert store.side.attempts(conversation) == []
    loopback.script(Behaviour.length(usage=COUNTED))
    assert cli("btw", "--conversation", "1", "Why?").returncode == 4
    with TurnlogStore.open(turnlog_home) as store:
        assert len(store.side.attempts(conversation)) == 1
        store.privacy.delete_conversation(conversation)
    assert dump(turnlog_home, ("side_attempts",)) == {"side_attempts": []}
    loopback.script(Behaviour.answer("Hello."), Behaviour.length(usage=COUNTED))
    assert cli("ask", "--new", "--title", "again", "Hi").returncode == 0
    ((again, *_),) = dump(turnlog_home, ("conversations",))["conversations"]
    assert cli("btw", "--conversation", str(again), "Why?").returncode == 4
    assert len(dump(turnlog_home, ("side_attempts",))["side_attempts"]) == 1
    with TurnlogStore.open(turnlog_home) as store:
        store.privacy.delete_all()
    assert dump(turnlog_home, ("side_attempts",)) == {"side_attempts": []}
