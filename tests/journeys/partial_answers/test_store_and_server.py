"""Partial answers, kept on purpose, against the real SQLite store and the loopback server.

A send whose answer stopped early (Stop, a cut stream, `length`, no finish reason) fails
and leaves the log byte for byte as it was, offering its answer so far. Kept, it is a turn
marked incomplete with its reason (in `turnlog-cli show`, the exports, an import, the next
request). Continued, the request carries that answer as mandatory input (as the start of
the final assistant message where the server continues one, else followed by a request
for the rest), and only a complete answer is committed: one turn, the answer so far plus
the rest, a new version of the kept turn when it had been kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopback import Behaviour
from turnlog.core.body import ASSISTANT, USER
from turnlog.core.failures import FailureKind
from turnlog.core.model import ConversationSettings
from turnlog.core.partial import (
    CONTINUE_PROMPT,
    CUT,
    LENGTH,
    NO_FINISH_REASON,
    STOPPED,
    join_answer,
)
from turnlog.core.projection import CostIndex
from turnlog.core.provider import CancelToken
from turnlog.core.send import Committed, Failed, PartialAnswer, keep_partial
from turnlog.formats.export import export_markdown
from turnlog.providers import LLAMA_CPP, OPENAI, ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.transfer import import_file
from turnlog.store import TurnlogStore
from uihelpers import exported, numbered, seed

QUESTION = "Explain 量子纠缠 in two paragraphs 🙂"
PLAIN = Route("loopback-model")
PREFILL = Route("loopback-model", prefill=True)


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def log_rows(store: TurnlogStore) -> list[tuple[object, ...]]:
    """Every stored row of the log: the turns and the supersede records."""
    turns = store.db.execute_sql("SELECT * FROM turns ORDER BY conversation_id, ordinal")
    records = store.db.execute_sql("SELECT * FROM supersedes ORDER BY id")
    return [*turns.fetchall(), *records.fetchall()]


def send(store, loopback, conversation, question=QUESTION, *, route=PLAIN, partial=None,
         cancel=None, on_delta=lambda text: None):
    provider = ChatCompletionsProvider(loopback.base_url)
    request = request_for(conversation, question, route, partial=partial,
                          replaces=partial.replaces if partial else None,
                          memory=store.memory(conversation.id))
    return sender_for(store, provider, CostIndex()).send(request, cancel=cancel,
                                                         on_delta=on_delta)


def failed_with_offer(outcome) -> PartialAnswer:
    assert isinstance(outcome, Failed)
    assert outcome.answer is not None
    return outcome.answer


def cli(home, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from turnlog.cli import main; sys.exit(main())",
         *args], env={**os.environ, "TURNLOG_HOME": str(home)}, capture_output=True,
        text=True, timeout=60, check=True)
    return done.stdout


# ------------------------------------------------------------------ the reasons
REASONS = [
    pytest.param(Behaviour.cut("The start of an answer that never", after_chunks=2),
                 CUT, "The start of", id="cut"),
    pytest.param(Behaviour.length("Cut off at the output lim"), LENGTH,
                 "Cut off at the output lim", id="length"),
    pytest.param(Behaviour.no_finish_reason("Never says done"), NO_FINISH_REASON,
                 "Never says done", id="no-finish-reason"),
]


@pytest.mark.parametrize(("behaviour", "reason", "text"), REASONS)
def test_an_answer_that_stopped_early_is_offered_with_its_reason_and_nothing_is_kept(
        store, loopback, turnlog_home, behaviour, reason, text):
    conversation = seed(store, "chat", numbered(2))
    before, rows = exported(turnlog_home, conversation.id), log_rows(store)
    loopback.script(behaviour)
    outcome = send(store, loopback, conversation)
    answer = failed_with_offer(outcome)
    assert answer.reason == reason
    assert answer.text.startswith(text) and answer.text == outcome.partial
    assert answer.question == QUESTION
    assert log_rows(store) == rows  # a missing finish reason is still a failure
    assert exported(turnlog_home, conversation.id) == before


def test_stop_mid_stream_offers_the_answer_so_far_as_stopped(store, loopback):
    conversation = seed(store, "chat", [])
    loopback.script(Behaviour.hang(after_chunks=2, text="Thinking about it slowly"))
    cancel, seen = CancelToken(), []

    def on_delta(text: str) -> None:
        seen.append(text)
        threading.Timer(0.05, cancel.cancel).start()

    outcome = send(store, loopback, conversation, cancel=cancel, on_delta=on_delta)
    answer = failed_with_offer(outcome)
    assert outcome.failure.kind is FailureKind.CANCELLED
    assert (answer.reason, answer.text) == (STOPPED, "".join(seen))
    assert store.turns(conversation.id) == ()


def test_failures_without_an_answer_so_far_offer_nothing(store, loopback):
    conversation = seed(store, "chat", [])
    for behaviour in (Behaviour.server_error(), Behaviour.empty(), Behaviour.rate_limited()):
        loopback.script(behaviour)
        outcome = send(store, loopback, conversation)
        assert isinstance(outcome, Failed) and outcome.answer is None


# ------------------------------------------------------------------------ keep
def test_keep_appends_one_turn_marked_incomplete_that_later_requests_carry(
        store, loopback, turnlog_home):
    conversation = seed(store, "chat", numbered(1))
    loopback.script(Behaviour.length("Die Antwort bis hier 到这里"))
    answer = failed_with_offer(send(store, loopback, conversation))
    kept = keep_partial(store, answer)
    assert keep_partial(store, answer) == kept  # a second click stores it once
    turns = store.turns(conversation.id)
    assert [t.id for t in turns][-1] == kept.id and len(turns) == 2
    assert (kept.question, kept.answer, kept.incomplete) == (
        QUESTION, "Die Antwort bis hier 到这里", LENGTH)

    loopback.script(Behaviour.answer("Sure."))
    assert isinstance(send(store, loopback, conversation, "And then?"), Committed)
    messages = loopback.requests[-1].json()["messages"]
    assert messages[-3:] == [{"role": USER, "content": QUESTION},
                             {"role": ASSISTANT, "content": "Die Antwort bis hier 到这里"},
                             {"role": USER, "content": "And then?"}]

    shown = cli(turnlog_home, "show", str(conversation.id))
    assert "## turn 2" in shown and "(*incomplete (cut off at the output limit)*)" in shown
    assert shown.count("incomplete") == 1  # the complete turns are not marked
    lines = [json.loads(line) for line in exported(turnlog_home, conversation.id).splitlines()]
    assert [line.get("incomplete") for line in lines[1:]] == [None, LENGTH, None]
    markdown = export_markdown(store.conversations.get(conversation.id),
                               store.turns.all(conversation.id))
    assert "## Turn 2 · " in markdown and "*incomplete (cut off at the output limit)*" in markdown

    store.privacy.delete_turn(kept.id)  # deletable like any turn
    assert [t.incomplete for t in store.turns(conversation.id)] == [None, None]


def test_an_export_with_a_kept_turn_imports_back_marked(store, loopback, turnlog_home,
                                                        tmp_path):
    conversation = seed(store, "chat", [])
    loopback.script(Behaviour.no_finish_reason("Half of it"))
    keep_partial(store, failed_with_offer(send(store, loopback, conversation)))
    path = tmp_path / "chat.jsonl"
    path.write_text(exported(turnlog_home, conversation.id), encoding="utf-8")
    import_file(store, path, as_copies=True)  # the same data directory: a copy on purpose
    copy = max(c.id for c in store.conversations())
    assert copy != conversation.id
    [turn] = store.turns(copy)
    assert (turn.answer, turn.incomplete) == ("Half of it", NO_FINISH_REASON)


def test_keep_after_a_delete_meanwhile_is_refused(store, loopback):
    conversation = seed(store, "chat", numbered(2))
    loopback.script(Behaviour.length("partial"))
    answer = failed_with_offer(send(store, loopback, conversation))
    store.privacy.delete_turn(store.turns(conversation.id)[0].id)
    rows = log_rows(store)
    with pytest.raises(Exception, match="deleted"):
        keep_partial(store, answer)
    assert log_rows(store) == rows


# -------------------------------------------------------------------- continue
def test_continue_with_prefill_sends_the_answer_so_far_as_the_start_of_the_reply(
        store, loopback, turnlog_home):
    conversation = seed(store, "chat", numbered(1))
    loopback.script(Behaviour.length("量子纠缠是一种"))
    answer = failed_with_offer(send(store, loopback, conversation, route=PREFILL))
    rows = log_rows(store)
    loopback.script(Behaviour.answer("奇特的关联。 Done."))
    outcome = send(store, loopback, conversation, route=PREFILL, partial=answer)
    assert isinstance(outcome, Committed)
    request = loopback.requests[-1]
    assert request.body == outcome.projection.body  # the bytes that were measured
    first = numbered(1)[0]
    assert request.json()["messages"] == [
        {"role": USER, "content": first[0]}, {"role": ASSISTANT, "content": first[1]},
        {"role": USER, "content": QUESTION}, {"role": ASSISTANT, "content": "量子纠缠是一种"}]
    turns = store.turns(conversation.id)
    assert len(turns) == len(rows) + 1 == 2  # one turn: question and the whole answer
    assert (turns[-1].question, turns[-1].answer, turns[-1].incomplete) == (
        QUESTION, "量子纠缠是一种奇特的关联。 Done.", None)
    assert outcome.record.outcome == "committed" and outcome.record.turn_id == turns[-1].id
    assert store.records.of(conversation.id)[-1].turn_id == turns[-1].id


def test_continue_without_prefill_asks_for_the_rest_and_keeps_a_repeated_tail_once(
        store, loopback):
    conversation = seed(store, "chat", [])
    loopback.script(Behaviour.cut("The capital of France is Pa", after_chunks=3, chunks=3))
    answer = failed_with_offer(send(store, loopback, conversation))
    assert answer.text == "The capital of France is Pa"
    loopback.script(Behaviour.answer("France is Paris. It lies on the Seine."))
    outcome = send(store, loopback, conversation, partial=answer)
    assert isinstance(outcome, Committed)
    assert loopback.requests[-1].json()["messages"] == [
        {"role": USER, "content": QUESTION},
        {"role": ASSISTANT, "content": "The capital of France is Pa"},
        {"role": USER, "content": CONTINUE_PROMPT}]
    assert outcome.turn.answer == "The capital of France is Paris. It lies on the Seine."
    projection = outcome.projection
    continued = projection.parts[-1]
    assert continued.kind.value == "continuation" and continued.tokens > 0
    assert sum(p.bytes for p in projection.parts) == projection.body_bytes
    # The answer so far is mandatory input: in the part that is never cut to fit.
    assert projection.mandatory_bytes == projection.body_bytes  # no earlier turns here
    assert projection.mandatory_tokens == projection.input_tokens


def test_continue_after_keep_is_a_new_version_and_the_kept_turn_stays_unchanged(
        store, loopback, turnlog_home):
    conversation = seed(store, "chat", numbered(1))
    loopback.script(Behaviour.length("First half,"))
    kept = keep_partial(store, failed_with_offer(send(store, loopback, conversation)))
    kept_row = store.db.execute_sql("SELECT * FROM turns WHERE id = ?", (kept.id,)).fetchall()
    loopback.script(Behaviour.answer(" second half."))
    continuing = PartialAnswer.of_kept(conversation.id, kept)
    outcome = send(store, loopback, conversation, partial=continuing)
    assert isinstance(outcome, Committed)
    # Asked with the turns before the kept one, never the kept one itself.
    assert [m["content"] for m in loopback.requests[-1].json()["messages"]] == [
        *numbered(1)[0], QUESTION, "First half,", CONTINUE_PROMPT]
    line = store.turns(conversation.id)
    assert [t.answer for t in line] == [numbered(1)[0][1], "First half, second half."]
    assert store.turns.versions(conversation.id).replaced_by == {kept.id: outcome.turn.id}
    assert store.db.execute_sql("SELECT * FROM turns WHERE id = ?",
                                (kept.id,)).fetchall() == kept_row
    shown = cli(turnlog_home, "show", str(conversation.id))
    assert "incomplete (cut off at the output limit)" in shown and "*replaced*" in shown
    listed = cli(turnlog_home, "versions", "--conversation", str(conversation.id),
                 "--turn", "2")
    assert "version 1 of 2  turn 2" in listed
    assert "*replaced*, *incomplete (cut off at the output limit)*" in listed
    listed_json = json.loads(cli(turnlog_home, "versions", "--conversation",
                                 str(conversation.id), "--turn", "2", "--json"))
    assert [v["incomplete"] for v in listed_json["versions"]] == [LENGTH, None]


def test_a_failed_continuation_leaves_the_log_and_offers_the_longer_answer(
        store, loopback, turnlog_home):
    conversation = seed(store, "chat", numbered(1))
    loopback.script(Behaviour.no_finish_reason("One, two,"))
    answer = failed_with_offer(send(store, loopback, conversation))
    before, rows = exported(turnlog_home, conversation.id), log_rows(store)
    loopback.script(Behaviour.cut(" three, four, five", after_chunks=2, chunks=3))
    again = failed_with_offer(send(store, loopback, conversation, partial=answer))
    assert again.text.startswith("One, two, three,") and again.reason == CUT
    loopback.script(Behaviour.server_error())
    third = send(store, loopback, conversation, partial=again)
    assert failed_with_offer(third).text == again.text  # nothing more came: the same offer
    assert failed_with_offer(third).reason == CUT
    assert log_rows(store) == rows
    assert exported(turnlog_home, conversation.id) == before


def test_a_continuation_too_large_is_refused_with_the_sizes(store, loopback):
    conversation = seed(store, "chat", [], settings=ConversationSettings(max_bytes=400))
    answer = PartialAnswer(conversation.id, QUESTION, "词" * 200, LENGTH, "m", "t1", 0)
    outcome = send(store, loopback, conversation, partial=answer)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.REFUSED
    assert "answer so far and question take" in outcome.failure.detail
    assert "bytes, but the request limit is 400 bytes" in outcome.failure.detail
    assert outcome.answer is not None and outcome.answer.text == answer.text  # still offered
    assert loopback.requests == []


def test_the_presets_say_which_servers_continue_a_final_assistant_message():
    assert LLAMA_CPP.prefill and not OPENAI.prefill
    from turnlog.service.chat import ProviderConfig, profile_route
    config = ProviderConfig("p", "llama", LLAMA_CPP, "http://127.0.0.1:8080/v1", "m")
    assert profile_route(config, "m").prefill
    assert not profile_route(replace(config, preset=OPENAI), "m").prefill


# ----------------------------------------------------------------- the joining
@given(st.text(max_size=60), st.text(max_size=60))
def test_a_prefilled_rest_is_joined_exactly(partial, rest):
    assert join_answer(partial, rest, prefill=True) == partial + rest


def joins(partial: str, rest: str, joined: str, *, at_least: int = 0) -> bool:
    """Whether `joined` is `partial` and `rest` less a start of `rest` (of at least
    `at_least` characters) that `partial` ends with: nothing else dropped, nothing added."""
    return any(partial.endswith(rest[:k]) and joined == partial + rest[k:]
               for k in range(at_least, len(rest) + 1))


@given(st.text(max_size=40), st.text(max_size=40),
       st.text(alphabet="abc词 \n", min_size=4, max_size=30))
def test_a_repeated_tail_is_kept_once_and_nothing_else_is_lost(head, tail, overlap):
    partial, rest = head + overlap, overlap + tail
    joined = join_answer(partial, rest, prefill=False)
    repeated = len("".join(overlap.split())) >= 4
    assert joins(partial, rest, joined, at_least=len(overlap) if repeated else 0)
    assert joins(head, tail, join_answer(head, tail, prefill=False))


def test_short_or_blank_overlaps_are_kept_as_they_came():
    assert join_answer("end of paragraph.\n", "\nNext one", prefill=False) == \
        "end of paragraph.\n\nNext one"
    assert join_answer("Pa", "Paris", prefill=False) == "PaParis"  # too short to be sure
    assert join_answer("我们可以说这个", "可以说这个问题", prefill=False) == "我们可以说这个问题"


# ------------------------------------------------------------- the command line
def ask(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", "ask", *args],
                          capture_output=True, text=True, timeout=60, env=os.environ.copy())


def test_the_cli_keeps_an_early_stop_only_when_asked_and_continues_it(loopback, turnlog_home):
    added = subprocess.run(
        [sys.executable, "-m", "turnlog.cli", "profile", "add", "loop", "--preset", "custom",
         "--base-url", loopback.base_url, "--model", "loopback-model", "--no-retry"],
        capture_output=True, text=True, input="", timeout=60, env=os.environ.copy())
    assert added.returncode == 0, added.stderr
    loopback.script(Behaviour.length("Erstens, 第一，"))
    plain = ask("--new", "--title", "CLI", QUESTION)
    assert plain.returncode == 4 and "failure: length" in plain.stderr
    assert "--keep-incomplete keeps such an answer" in plain.stderr
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        assert store.conversations() == []  # nothing kept without asking

    loopback.script(Behaviour.length("Erstens, 第一，"))
    kept = ask("--new", "--title", "CLI", "--keep-incomplete", QUESTION)
    assert kept.returncode == 4, kept.stderr
    assert "kept as turn 1" in kept.stderr and "incomplete (cut off at the output limit)" \
        in kept.stderr
    assert "(*incomplete (cut off at the output limit)*)" in cli(turnlog_home, "show", "1")

    loopback.script(Behaviour.answer("zweitens. 第二。"))
    done = ask("--conversation", "1", "--continue-last")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Erstens, 第一，zweitens. 第二。\n"
    assert "a new version of turn 1" in done.stderr
    assert loopback.requests[-1].json()["messages"][-3:] == [
        {"role": USER, "content": QUESTION}, {"role": ASSISTANT, "content": "Erstens, 第一，"},
        {"role": USER, "content": CONTINUE_PROMPT}]
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        [turn] = store.turns(1)
        assert (turn.answer, turn.incomplete) == ("Erstens, 第一，zweitens. 第二。", None)
    again = ask("--conversation", "1", "--continue-last")
    assert again.returncode == 4 and "nothing to continue" in again.stderr


def test_compaction_makes_room_for_the_answer_so_far(store, loopback):
    settings = ConversationSettings(max_bytes=4_000, context_window=32_768,
                                    output_reserve=1024)
    conversation = seed(store, "compacting", numbered(5, size=300), settings=settings)
    answer = PartialAnswer(conversation.id, QUESTION, "量" * 500, LENGTH, "m", "t2", 0)
    loopback.default = Behaviour.answer("The user asked five numbered questions.")
    loopback.script(Behaviour.answer("The user asked five numbered questions."),
                    Behaviour.answer("子。"))
    outcome = send(store, loopback, conversation, partial=answer)
    assert isinstance(outcome, Committed), outcome
    assert outcome.projection.left_out == ()  # folded into the summary, not dropped
    assert outcome.projection.summarized
    assert outcome.turn.answer == "量" * 500 + "子。"
    assert outcome.projection.body_bytes <= 4_000
    assert loopback.requests[-1].json()["messages"][-2:] == [
        {"role": ASSISTANT, "content": "量" * 500}, {"role": USER, "content": CONTINUE_PROMPT}]
