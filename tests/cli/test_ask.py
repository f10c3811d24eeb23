"""turnlog-cli ask/profile against the real loopback server: commits, named failures, keys."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cli_runs import FAILURES, add_profile, cli, export, request_rows
from loopback import Behaviour

TRICKY = 'CJK 中文 “quotes” "double" \\ back\nnew line\ttab \x01\x1f ctl 😀🎉 end'


@pytest.fixture
def conversation(loopback) -> int:
    add_profile(loopback)
    loopback.script(Behaviour.answer("First answer, saved.", chunks=4))
    result = cli("ask", "--new", "--title", "CLI", "My project code is ORCHID-17.")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "First answer, saved.\n"
    assert "saved as turn 1" in result.stderr
    return 1


def test_ask_streams_and_commits(loopback, conversation, turnlog_home):
    loopback.script(Behaviour.answer("你好！Second answer 🎉", chunks=5,
                                     usage={"prompt_tokens": 30, "completion_tokens": 9,
                                            "total_tokens": 39}))
    result = cli("ask", "--conversation", str(conversation), "你好？")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "你好！Second answer 🎉\n"
    lines = [json.loads(line) for line in export(conversation).splitlines()]
    assert [(t["question"], t["answer"]) for t in lines[1:]] == [
        ("My project code is ORCHID-17.", "First answer, saved."),
        ("你好？", "你好！Second answer 🎉")]
    assert lines[2]["usage"] == {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39}
    sent = loopback.requests[-1].json()
    assert sent["messages"][0]["content"] == "My project code is ORCHID-17."
    assert sent["model"] == "loopback-model" and sent["stream"] is True


def test_wire_body_equals_the_projection(loopback, conversation):
    projected = cli("project", "--conversation", str(conversation), "--question", TRICKY,
                    "--json")
    assert projected.returncode == 0, projected.stderr
    body = json.loads(projected.stdout)["body"].encode("utf-8")
    loopback.script(Behaviour.answer("ok"))
    result = cli("ask", "--conversation", str(conversation), TRICKY)
    assert result.returncode == 0, result.stderr
    assert loopback.requests[-1].body == body
    assert "中文" in loopback.requests[-1].body.decode("utf-8")  # not \\u-escaped


@pytest.mark.parametrize(("behaviour", "name", "words"), FAILURES,
                         ids=[f[1] + str(i) for i, f in enumerate(FAILURES)])
def test_every_failure_is_named_and_leaves_the_log(loopback, conversation, turnlog_home,
                                                   behaviour, name, words):
    before = export(conversation)
    rows_before = request_rows(turnlog_home)
    loopback.script(behaviour)
    question = f"Please keep this draft {name} 草稿 ✍️"
    # --no-retry: a 429 or 504 would be tried again by itself (core/test_retry.py covers that).
    result = cli("ask", "--no-retry", "--conversation", str(conversation), question)
    assert result.returncode == 4, result.stderr
    assert f"failure: {name}" in result.stderr
    assert words in result.stderr
    assert question in result.stderr, "the question must be given back"
    assert export(conversation) == before
    rows = request_rows(turnlog_home)
    assert len(rows) == len(rows_before) + 1
    assert rows[-1][4] == name  # outcome column
    assert "草稿" not in repr(rows) and "keep this draft" not in repr(rows)


def test_ask_tries_again_by_itself_within_the_budget(loopback, conversation, turnlog_home):
    sent = len(loopback.requests)
    loopback.script(Behaviour.error(503, "overloaded", type="server_error"),
                    Behaviour.answer("Back again"))
    result = cli("ask", "--conversation", str(conversation), "Are you there?")
    assert result.returncode == 0, result.stderr
    assert "[retrying in 1 s (attempt 2 of 3)]" in result.stderr
    assert "Back again" in result.stdout
    assert len(loopback.requests) == sent + 2
    assert [row[4] for row in request_rows(turnlog_home)][-2:] == ["http_status", "committed"]


def test_ask_no_retry_sends_once(loopback, conversation):
    sent = len(loopback.requests)
    loopback.script(Behaviour.error(503, "overloaded", type="server_error"),
                    Behaviour.answer("must not be asked for"))
    result = cli("ask", "--no-retry", "--conversation", str(conversation), "Are you there?")
    assert result.returncode == 4
    assert "retrying" not in result.stderr
    assert len(loopback.requests) == sent + 1


def test_overflow_twice_is_a_named_failure(loopback, conversation):
    before = export(conversation)
    # Overflow → compact the oldest turn into a summary → retry once, smaller → overflow again.
    loopback.script(Behaviour.openai_overflow(), Behaviour.answer("S: code ORCHID-17"),
                    Behaviour.llamacpp_overflow())
    result = cli("ask", "--conversation", str(conversation), "long one")
    assert result.returncode == 4
    assert "failure: context_overflow" in result.stderr
    first, summary_call, retry = (r.json() for r in loopback.requests[1:4])
    assert len(loopback.requests) == 4
    assert summary_call["max_tokens"] == 2048
    assert "Summary of the earlier conversation (turn 1)" in retry["messages"][0]["content"]
    assert len(loopback.requests[3].body) < len(loopback.requests[1].body)
    assert export(conversation) == before


def test_refusal_exits_3_before_sending(loopback, conversation):
    requests = len(loopback.requests)
    result = cli("ask", "--conversation", str(conversation), "x" * 20_000)
    assert result.returncode == 3
    assert "failure: refused_by_budget" in result.stderr
    assert "16,000 bytes" in result.stderr
    assert len(loopback.requests) == requests


def test_network_error_when_nothing_listens(loopback, conversation, turnlog_home):
    before = export(conversation)
    cli("profile", "remove", "loop")
    result = cli("profile", "add", "dead", "--preset", "custom", "--base-url",
                 "http://127.0.0.1:9/v1", "--model", "m", input="")
    assert result.returncode == 0
    result = cli("ask", "--conversation", str(conversation), "hello?")
    assert result.returncode == 4 and "failure: network" in result.stderr
    assert export(conversation) == before


def test_ctrl_c_cancels_mid_stream(loopback, conversation):
    before = export(conversation)
    loopback.script(Behaviour.slow("word " * 50, delay_s=0.2, chunks=50))
    proc = subprocess.Popen([sys.executable, "-m", "turnlog.cli", "ask", "--conversation",
                             str(conversation), "stream slowly"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    loopback.wait_for_requests(2, timeout=20)
    time.sleep(0.6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 4
    assert "failure: cancelled" in err and "stream slowly" in err
    assert "not saved" in err
    assert export(conversation) == before


def test_profiles_list_and_remove(loopback):
    add_profile(loopback, "first")
    listing = cli("profile", "list").stdout
    assert "first" in listing and loopback.base_url in listing
    assert cli("profile", "remove", "first").returncode == 0
    assert "no profiles yet" in cli("profile", "list").stdout
    assert cli("ask", "--new", "hi").returncode == 4


@pytest.mark.keyring
def test_key_lives_in_the_keyring_only(loopback, secret_service, turnlog_home):
    key = "sk-test-ORCHIDKEY-" + "9" * 24
    result = cli("profile", "add", "paid", "--preset", "openai", "--base-url",
                 loopback.base_url, "--model", "gpt-test", "--key-stdin", input=key + "\n")
    assert result.returncode == 0, result.stderr
    loopback.script(Behaviour.answer("fine"), Behaviour.echo_auth())
    assert cli("ask", "--new", "--profile", "paid", "first").returncode == 0
    assert loopback.requests[-1].headers["authorization"] == f"Bearer {key}"
    echoed = cli("ask", "--conversation", "1", "--profile", "paid", "second")
    assert echoed.returncode == 4 and "failure: auth" in echoed.stderr
    assert key not in echoed.stderr and key not in echoed.stdout
    for path in turnlog_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert key.encode() not in data, path
            assert key.encode("utf-16-le") not in data, path
    profile_id = json.loads((turnlog_home / "profiles.json").read_text())["profiles"][0]["id"]
    assert secret_service.get_password("turnlog", profile_id) == key
    assert cli("profile", "remove", "paid").returncode == 0
    assert json.loads((turnlog_home / "profiles.json").read_text())["profiles"] == []
    assert secret_service.get_password("turnlog", profile_id) is None


def test_key_needed_but_missing_is_named(loopback):
    result = cli("profile", "add", "paid", "--preset", "openai", "--base-url",
                 loopback.base_url, "--model", "gpt-test", input="")
    assert result.returncode == 0
    asked = cli("ask", "--new", "--profile", "paid", "hello")
    assert asked.returncode == 4
    assert "failure: no_key" in asked.stderr and "hello" in asked.stderr


def test_project_says_final_only_when_its_body_is_what_ask_sends(loopback, tmp_path):
    """A conversation that outgrew the budget: the first preview will compact (not final),
    `ask` makes the summary; the next preview reuses it and is the exact wire body."""
    add_profile(loopback)
    lines = [{"turnlog": 1, "title": "long", "model": "loopback-model"}] + [
        {"id": f"l{i}", "question": f"Question {i}: " + "garden plans " * 15,
         "answer": f"Answer {i}: " + "tulips by the fence " * 10} for i in range(1, 61)]
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in lines), encoding="utf-8")
    cid = cli("import", str(path)).stdout.strip()

    def project(question: str) -> dict:
        result = cli("project", "--conversation", cid, "--question", question, "--json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    first = project("What next?")
    assert first["final"] is False and first["summary"]["state"] == "to_make"
    folded = first["summarized"]
    assert folded == list(range(1, folded[-1] + 1)) and first["left_out"] == []
    assert first["summary"]["covers"] == [1, folded[-1]]
    loopback.default = Behaviour.answer("Summary: garden plans, tulips by the fence.")
    result = cli("ask", "--conversation", cid, "What next?")
    assert result.returncode == 0, result.stderr
    summary_calls = [r for r in loopback.requests if r.json()["max_tokens"] == 2048]
    assert summary_calls and json.loads(loopback.requests[-1].body)["messages"][0][
        "content"].startswith(f"Summary of the earlier conversation (turns 1–{folded[-1]})")

    second = project("And after that?")
    assert second["final"] is True and second["summary"]["state"] == "cached"
    assert second["summarized"] == folded and second["summary"]["covers"] == [1, folded[-1]]
    assert second["summary"]["bytes"] > 0 and second["sent"][-1] == 61
    before = len(loopback.requests)
    result = cli("ask", "--conversation", cid, "And after that?")
    assert result.returncode == 0, result.stderr
    assert len(loopback.requests) == before + 1  # no summary call
    assert loopback.requests[-1].body == second["body"].encode("utf-8")
