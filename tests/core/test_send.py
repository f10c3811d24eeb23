"""The send path in core: only a complete reply reaches the log; every failure gives the draft back.

These are core's unit tests, run against an in-memory `FakeLogStore` and a
`ScriptedProvider`. The same path against the real SQLite store and a real
HTTP server is tested elsewhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.failures import Failure, FailureKind, ProviderFailure, StoreError
from turnlog.core.model import Conversation, Turn, Usage
from turnlog.core.provider import CancelToken, Reply
from turnlog.core.send import (
    Committed,
    Failed,
    PendingTurn,
    RequestRecord,
    Sender,
    SendRequest,
    Stage,
    ordinal_ranges,
)


class FakeTurns:
    """The turns part of `FakeLogStore`."""

    def __init__(self, store: FakeLogStore) -> None:
        self.store = store

    def __call__(self, conversation_id: int) -> Sequence[Turn]:
        return self.store.read(conversation_id)

    def commit(self, conversation_id: int, pending: PendingTurn) -> Turn:
        return self.store.append(conversation_id, pending)


class FakeRecords(list[RequestRecord]):
    """The records part of `FakeLogStore`: the records added, in order."""

    def __init__(self, store: FakeLogStore) -> None:
        super().__init__()
        self.store = store

    def add(self, record: RequestRecord) -> None:
        if self.store.fail_records is not None:
            raise self.store.fail_records
        self.append(record)


class FakeLogStore:
    """An in-memory `LogStore` that keeps the protocol's promises: one append per turn id,
    the same id with another question is an error, a stale generation is refused.
    `fail_reads` / `fail_commits` make it fail like a full or locked disk. It has the
    parts a send uses: `turns`, `records`, and itself as `conversations` and `database`."""

    def __init__(self) -> None:
        self.logs: dict[int, list[Turn]] = {}
        self.generations: dict[int, int] = {}
        self.turns = FakeTurns(self)
        self.records = FakeRecords(self)
        self.conversations = self
        self.database = self
        self.commit_calls = 0
        self.fail_reads: StoreError | None = None
        self.fail_commits: StoreError | None = None
        self.room_asked: list[int] = []  # what each send asked room for
        self.fail_room: StoreError | None = None
        self.fail_records: StoreError | None = None

    def seed(self, conversation_id: int, pairs: Sequence[tuple[str, str]]) -> None:
        for i, (question, answer) in enumerate(pairs):
            self.append(
                conversation_id,
                PendingTurn(
                    f"seed-{conversation_id}-{i}",
                    question,
                    answer,
                    "m",
                    "stop",
                    Usage(),
                    datetime(2026, 1, 1, tzinfo=UTC),
                ),
            )
        self.commit_calls = 0

    def export(self, conversation_id: int) -> list[tuple[str, int, str, str]]:
        return [(t.id, t.ordinal, t.question, t.answer) for t in self.logs.get(conversation_id, [])]

    def clear(self, conversation_id: int) -> None:
        self.logs[conversation_id] = []
        self.generations[conversation_id] = self.generation(conversation_id) + 1

    def read(self, conversation_id: int) -> Sequence[Turn]:
        if self.fail_reads is not None:
            raise self.fail_reads
        return tuple(self.logs.get(conversation_id, []))

    def generation(self, conversation_id: int) -> int:
        return self.generations.get(conversation_id, 0)

    def ensure_room(self, expected_bytes: int) -> None:
        self.room_asked.append(expected_bytes)
        if self.fail_room is not None:
            raise self.fail_room

    def append(self, conversation_id: int, pending: PendingTurn) -> Turn:
        self.commit_calls += 1
        if self.fail_commits is not None:
            raise self.fail_commits
        if pending.generation is not None and pending.generation != self.generation(
            conversation_id
        ):
            raise StoreError(
                "The conversation was cleared while the answer was on its way.",
                kind=FailureKind.CONVERSATION_GONE,
            )
        log = self.logs.setdefault(conversation_id, [])
        for turn in log:
            if turn.id == pending.id:
                if turn.question != pending.question:
                    raise StoreError(f"Turn {pending.id} already exists with another question.")
                return turn
        turn = Turn(
            pending.id,
            len(log) + 1,
            pending.question,
            pending.answer,
            pending.model,
            pending.finish_reason,
            pending.created_at,
            pending.usage,
        )
        log.append(turn)
        return turn


Step = Reply | ProviderFailure | Callable[[bytes, Callable[[str], None], CancelToken], Reply]


class ScriptedProvider:
    """A `ChatProvider` that plays one scripted outcome per call and keeps the bodies it got."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.bodies: list[bytes] = []

    def complete(
        self, body: bytes, *, on_delta: Callable[[str], None], cancel: CancelToken
    ) -> Reply:
        self.bodies.append(body)
        step = self.steps.pop(0)
        if isinstance(step, ProviderFailure):
            raise step
        if isinstance(step, Reply):
            for word in step.content.split(" "):
                on_delta(word)
            return step
        return step(body, on_delta, cancel)


CID = 1
CONVERSATION = Conversation(CID, "Plans", system_prompt="Be brief.", model="m")
GENEROUS = Budget(16_000, 200_000, 8_192)
OK = Reply("Noted.", "stop", Usage(10, 2, 12), model="m-2026")


def make(
    *steps: Step, pairs: Sequence[tuple[str, str]] = (("My project code is ORCHID-17.", "Noted."),)
):
    store = FakeLogStore()
    store.seed(CID, pairs)
    return store, ScriptedProvider(*steps)


def request(question: str = "What is my project code?", **kw) -> SendRequest:
    return SendRequest(CONVERSATION, question, "m", kw.pop("budget", GENEROUS), **kw)


def run(store: FakeLogStore, provider: ScriptedProvider, req: SendRequest, **kw):
    return Sender(store, provider).send(req, **kw)


def assert_failed_without_change(outcome, store: FakeLogStore, before, question: str):
    assert isinstance(outcome, Failed)
    assert outcome.draft == question
    assert store.export(CID) == before
    return outcome


# --- refused before anything is sent -------------------------------------------------------


@pytest.mark.parametrize("question", ["", " ", "\n\t  \u3000"])
def test_blank_question_is_refused_before_sending(question):
    store, provider = make(OK)
    before = store.export(CID)
    outcome = run(store, provider, request(question))
    failed = assert_failed_without_change(outcome, store, before, question)
    assert failed.failure.kind is FailureKind.BLANK_QUESTION
    assert provider.bodies == [] and store.records == [] and store.commit_calls == 0


@pytest.mark.parametrize("question", ["pasted \ud83d text", "\udfff", "ok 你好 \udc80"])
def test_lone_surrogate_is_refused_as_invalid_text_before_sending(question):
    store, provider = make(OK)
    before = store.export(CID)
    outcome = run(store, provider, request(question))
    failed = assert_failed_without_change(outcome, store, before, question)
    assert failed.failure.kind is FailureKind.INVALID_TEXT
    position = next(i for i, ch in enumerate(question) if 0xD800 <= ord(ch) <= 0xDFFF) + 1
    assert f"character {position} " in failed.failure.message()
    assert provider.bodies == [] and store.records == [] and store.commit_calls == 0


def test_question_too_large_for_the_budget_is_refused_with_sizes():
    store, provider = make(OK)
    before = store.export(CID)
    question = "长问题" * 400
    outcome = run(store, provider, request(question, budget=Budget(1_000, 200_000, 8_192)))
    failed = assert_failed_without_change(outcome, store, before, question)
    assert failed.failure.kind is FailureKind.REFUSED
    assert failed.refusal is not None
    assert failed.refusal.max_bytes == 1_000
    assert failed.refusal.mandatory_bytes > 1_000
    assert f"{failed.refusal.mandatory_bytes:,} bytes" in failed.failure.message()
    assert provider.bodies == [] and store.records == [] and store.commit_calls == 0


def test_store_that_cannot_be_read_fails_before_sending():
    store, provider = make(OK)
    before = store.export(CID)
    store.fail_reads = StoreError("database is locked")
    outcome = run(store, provider, request())
    store.fail_reads = None
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure.kind is FailureKind.STORAGE
    assert "database is locked" in failed.failure.message()
    assert provider.bodies == []


def test_cancel_before_sending_sends_nothing():
    store, provider = make(OK)
    before = store.export(CID)
    token = CancelToken()
    token.cancel()
    failed = assert_failed_without_change(
        run(store, provider, request(), cancel=token), store, before, request().question
    )
    assert failed.failure.kind is FailureKind.CANCELLED
    assert provider.bodies == []


# --- the provider does not deliver a reply ---------------------------------------------------

PROVIDER_FAILURES = [
    Failure(FailureKind.TIMEOUT, detail="no data for 60 s"),
    Failure(FailureKind.RATE_LIMITED, retry_after=7.0, status=429),
    Failure(FailureKind.AUTH, status=401),
    Failure(FailureKind.MODEL_NOT_FOUND, status=404),
    Failure(FailureKind.REQUEST_TOO_LARGE, status=413),
    Failure(FailureKind.HTTP_STATUS, status=503),
    Failure(FailureKind.NETWORK, detail="connection refused"),
    Failure(FailureKind.MALFORMED, detail="not JSON"),
    Failure(FailureKind.TRUNCATED, detail="stream ended without [DONE]"),
    Failure(FailureKind.CONTEXT_OVERFLOW, status=400),
    Failure(FailureKind.RESPONSE_TOO_LARGE),
    Failure(FailureKind.DEADLINE),
    Failure(FailureKind.NO_KEY),
    Failure(FailureKind.CANCELLED),
]


@pytest.mark.parametrize("failure", PROVIDER_FAILURES, ids=lambda f: f.kind.value)
def test_provider_failure_keeps_the_log_and_the_partial_text(failure):
    store, _ = make()
    provider = ScriptedProvider(
        ProviderFailure(failure, partial="Your code is ORC", usage=Usage(20, 3, 23))
    )
    before = store.export(CID)
    outcome = run(store, provider, request())
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure == failure
    assert failed.partial == "Your code is ORC"
    assert store.commit_calls == 0
    # The request was made, so it is recorded — by numbers, never by text.
    assert failed.record is not None and store.records == [failed.record]
    assert failed.record.outcome == failure.kind.value
    assert failed.record.status == failure.status
    assert failed.record.usage == Usage(20, 3, 23)
    assert failed.record.turn_id is None
    assert "ORC" not in repr(failed.record)


# --- a reply arrives but is not complete ---------------------------------------------------

INCOMPLETE = [
    (Reply("Your code is", "length"), FailureKind.LENGTH),
    (Reply("Your code is ORCHID-17.", None), FailureKind.NO_FINISH_REASON),
    (Reply("Your code is", "content_filter"), FailureKind.OTHER_FINISH_REASON),
    (Reply("", "tool_calls", tool_calls=True), FailureKind.OTHER_FINISH_REASON),
    (Reply("Let me look.", "stop", tool_calls=True), FailureKind.OTHER_FINISH_REASON),
    (Reply("", "stop"), FailureKind.EMPTY),
    (Reply(" \n\t ", "stop"), FailureKind.EMPTY),
    (Reply("", "length"), FailureKind.LENGTH),
]


@pytest.mark.parametrize("reply, kind", INCOMPLETE, ids=lambda v: getattr(v, "value", None))
def test_incomplete_reply_is_not_committed(reply, kind):
    store, _ = make()
    provider = ScriptedProvider(reply)
    before = store.export(CID)
    outcome = run(store, provider, request())
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure.kind is kind
    assert failed.partial == reply.content
    assert store.commit_calls == 0
    assert failed.record is not None and failed.record.outcome == kind.value
    assert store.records == [failed.record]


def test_other_finish_reason_is_named_in_the_message():
    store, _ = make()
    outcome = run(store, ScriptedProvider(Reply("x", "content_filter")), request())
    assert isinstance(outcome, Failed)
    assert "content_filter" in outcome.failure.message()


def test_cancel_while_answering_discards_even_a_complete_reply():
    store, _ = make()
    before = store.export(CID)

    def answer_then_cancelled(body, on_delta, cancel):
        on_delta("Your code")
        cancel.cancel()
        return Reply("Your code is ORCHID-17.", "stop")

    outcome = run(store, ScriptedProvider(answer_then_cancelled), request())
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure.kind is FailureKind.CANCELLED
    assert failed.partial == "Your code is ORCHID-17."
    assert store.commit_calls == 0


# --- the store fails at the end --------------------------------------------------------------


def test_store_error_on_commit_gives_the_draft_and_the_answer_back():
    store, _ = make()
    before = store.export(CID)
    store.fail_commits = StoreError("The disk is full.")
    outcome = run(store, ScriptedProvider(OK), request())
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure.kind is FailureKind.STORAGE
    assert "The disk is full." in failed.failure.message()
    assert failed.partial == OK.content
    assert failed.record is not None and failed.record.outcome == "storage"


def test_no_room_for_the_commit_is_found_before_anything_is_sent():
    store, _ = make()
    before = store.export(CID)

    class Measured(StoreError):
        code = "storage_full"

    store.fail_room = Measured("The disk is full. Nothing was sent.")
    provider = ScriptedProvider(OK)
    outcome = run(store, provider, request())
    failed = assert_failed_without_change(outcome, store, before, request().question)
    assert failed.failure.name == "storage_full"
    assert provider.bodies == [] and store.records == []
    # Room for the question, the longest answer the request allows, and their index.
    [asked] = store.room_asked
    assert asked > len(request().question.encode())


def test_an_answer_arriving_after_the_log_was_cleared_brings_nothing_back():
    store, _ = make()

    def clear_meanwhile(body, on_delta, cancel):
        store.clear(CID)
        return OK

    outcome = run(store, ScriptedProvider(clear_meanwhile), request())
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.CONVERSATION_GONE
    assert outcome.draft == request().question
    assert store.export(CID) == []


def test_losing_the_request_record_does_not_lose_the_answer():
    store, _ = make()
    store.fail_records = StoreError("The disk is full.")
    outcome = run(store, ScriptedProvider(OK), request())
    assert isinstance(outcome, Committed)
    assert [t[2] for t in store.export(CID)][-1] == request().question


# --- a complete reply ------------------------------------------------------------------------


def test_complete_reply_is_committed_once_with_the_exact_question():
    store, _ = make()
    provider = ScriptedProvider(OK)
    stages: list[Stage] = []
    deltas: list[str] = []
    seen = []
    question = 'What is my project code? 你好 😀 "quoted" \\ \n'
    outcome = run(
        store,
        provider,
        request(question),
        on_stage=lambda stage, detail: stages.append(stage),
        on_delta=deltas.append,
        on_projection=seen.append,
    )
    assert isinstance(outcome, Committed)
    assert store.commit_calls == 1
    assert store.export(CID)[-1][1:] == (2, question, "Noted.")
    assert outcome.turn.finish_reason == "stop"
    assert outcome.turn.model == "m-2026"  # the model that answered, as the server named it
    assert outcome.turn.usage == Usage(10, 2, 12)
    assert stages == [Stage.PREPARING, Stage.ORGANIZING, Stage.ANSWERING]
    assert deltas == ["Noted."]
    # What was measured is what was sent: the very same bytes object.
    assert seen == [outcome.projection]
    assert provider.bodies[0] is outcome.projection.body
    assert b"ORCHID-17" in provider.bodies[0]
    record = outcome.record
    assert store.records == [record]
    assert record.outcome == "committed"
    assert record.turn_id == outcome.turn.id
    assert record.sent == (1,) and record.left_out == ()
    assert record.body_bytes == len(provider.bodies[0])
    assert record.max_bytes == 16_000
    assert record.sent_turn_ids == ("seed-1-0",)


def test_reply_without_a_model_name_is_stored_under_the_requested_model():
    store, _ = make()
    outcome = run(store, ScriptedProvider(Reply("Fine.", "stop")), request())
    assert isinstance(outcome, Committed)
    assert outcome.turn.model == "m"


def test_a_small_budget_sends_only_the_newest_turn_and_records_what_was_left_out():
    pairs = [("My project code is ORCHID-17.", "Noted."), ("And the colour?", "Teal.")]
    store, _ = make(pairs=pairs)
    probe = ScriptedProvider(OK)
    full = run(store, probe, request("Code?"))
    assert isinstance(full, Committed) and full.projection.sent == (1, 2)

    store, _ = make(pairs=pairs)
    tight = Budget(full.projection.body_bytes - 1, 200_000, 8_192)
    provider = ScriptedProvider(OK)
    outcome = run(store, provider, request("Code?", budget=tight))
    assert isinstance(outcome, Committed)
    assert outcome.record.sent == (2,)
    assert outcome.record.left_out == (1,)
    assert b"ORCHID-17" not in provider.bodies[0]
    assert [t[2] for t in store.export(CID)] == [q for q, _ in pairs] + ["Code?"]


# --- one recovery from a context overflow --------------------------------------------------

OVERFLOW = ProviderFailure(Failure(FailureKind.CONTEXT_OVERFLOW, status=400))
THREE = [("My project code is ORCHID-17.", "Noted."), ("Colour?", "Teal."), ("Size?", "Large.")]


def test_overflow_before_any_answer_is_retried_once_with_one_turn_fewer():
    store, _ = make(pairs=THREE)
    provider = ScriptedProvider(OVERFLOW, OK)
    outcome = run(store, provider, request("Code?"))
    assert isinstance(outcome, Committed)
    assert len(provider.bodies) == 2
    assert len(provider.bodies[1]) < len(provider.bodies[0])
    assert b"ORCHID-17" in provider.bodies[0] and b"ORCHID-17" not in provider.bodies[1]
    assert outcome.record.sent == (2, 3) and outcome.record.attempt == 2
    assert [r.outcome for r in store.records] == ["context_overflow", "committed"]
    assert store.commit_calls == 1


def test_overflow_again_after_the_recovery_fails_and_changes_nothing():
    store, _ = make(pairs=THREE)
    before = store.export(CID)
    provider = ScriptedProvider(OVERFLOW, OVERFLOW, OK)
    outcome = run(store, provider, request("Code?"))
    failed = assert_failed_without_change(outcome, store, before, "Code?")
    assert failed.failure.kind is FailureKind.CONTEXT_OVERFLOW
    assert len(provider.bodies) == 2


def test_overflow_after_answer_text_arrived_is_not_retried():
    store, _ = make(pairs=THREE)
    before = store.export(CID)
    partial = ProviderFailure(Failure(FailureKind.CONTEXT_OVERFLOW), partial="Your")
    provider = ScriptedProvider(partial, OK)
    outcome = run(store, provider, request("Code?"))
    failed = assert_failed_without_change(outcome, store, before, "Code?")
    assert failed.failure.kind is FailureKind.CONTEXT_OVERFLOW
    assert failed.partial == "Your"
    assert len(provider.bodies) == 1


def test_overflow_with_no_turns_to_drop_is_not_retried():
    store, _ = make(pairs=())
    provider = ScriptedProvider(OVERFLOW, OK)
    outcome = run(store, provider, request("Code?"))
    assert isinstance(outcome, Failed)
    assert outcome.failure.kind is FailureKind.CONTEXT_OVERFLOW
    assert len(provider.bodies) == 1
    assert store.export(CID) == []


# --- the turn id -----------------------------------------------------------------------------


def test_each_request_gets_its_own_turn_id():
    ids = {request().turn_id for _ in range(100)}
    assert len(ids) == 100


def test_the_committed_turn_carries_the_request_turn_id():
    store, _ = make()
    req = request()
    outcome = run(store, ScriptedProvider(OK), req)
    assert isinstance(outcome, Committed)
    assert outcome.turn.id == req.turn_id


def test_sending_the_same_request_again_stores_the_turn_once():
    store, _ = make()
    req = request()
    first = run(store, ScriptedProvider(OK), req)
    again = run(store, ScriptedProvider(Reply("Noted again.", "stop")), req)
    assert isinstance(first, Committed) and isinstance(again, Committed)
    assert again.turn == first.turn
    assert [t[0] for t in store.export(CID)].count(req.turn_id) == 1
    assert len(store.export(CID)) == 2


def test_the_same_turn_id_with_another_question_fails_and_changes_nothing():
    store, _ = make()
    req = request()
    assert isinstance(run(store, ScriptedProvider(OK), req), Committed)
    before = store.export(CID)
    other = dataclasses.replace(req, question="Something else entirely?")
    outcome = run(store, ScriptedProvider(OK), other)
    failed = assert_failed_without_change(outcome, store, before, "Something else entirely?")
    assert failed.failure.kind is FailureKind.STORAGE


# --- everything at once ----------------------------------------------------------------------

questions = st.text(
    alphabet=st.one_of(
        st.sampled_from(["你", "😀", '"', "\\", "\n", " ", "\x00", "\ud800", "\udfff"]),
        st.characters(),
    ),
    max_size=30,
)
replies = st.builds(
    Reply,
    content=st.text(max_size=20),
    finish_reason=st.sampled_from(["stop", "length", "content_filter", "tool_calls", None]),
    tool_calls=st.booleans(),
)
steps = st.one_of(
    replies,
    st.builds(
        lambda kind, partial: ProviderFailure(Failure(kind), partial=partial),
        st.sampled_from([f.kind for f in PROVIDER_FAILURES]),
        st.text(max_size=10),
    ),
)


@settings(max_examples=300)
@given(questions, steps, st.booleans())
def test_the_log_changes_only_by_one_complete_turn_and_failures_return_the_draft(
    question, step, commit_fails
):
    store, _ = make()
    store.fail_commits = StoreError("The disk is full.") if commit_fails else None
    before = store.export(CID)
    # A context overflow before any answer text is retried once with a smaller request;
    # the retry overflows too, so the outcome is still the overflow.
    provider = ScriptedProvider(step, step)
    outcome = run(store, provider, request(question))
    assert len(provider.bodies) <= 2

    sendable = bool(question.strip()) and not any(0xD800 <= ord(c) <= 0xDFFF for c in question)
    complete = (
        isinstance(step, Reply)
        and step.finish_reason == "stop"
        and not step.tool_calls
        and bool(step.content.strip())
    )
    if sendable and complete and not commit_fails:
        assert isinstance(outcome, Committed)
        assert store.export(CID) == [*before, (outcome.turn.id, 2, question, step.content)]
    else:
        assert isinstance(outcome, Failed)
        assert outcome.draft == question
        assert store.export(CID) == before


@pytest.mark.parametrize(
    "ordinals, runs",
    [
        ((), []),
        ((1, 2, 3, 5), [[1, 3], [5, 5]]),
        ((4,), [[4, 4]]),
        ((1, 3, 4, 9, 10), [[1, 1], [3, 4], [9, 10]]),
    ],
)
def test_ordinal_ranges_compress_runs(ordinals, runs):
    assert ordinal_ranges(ordinals) == runs


@given(st.sets(st.integers(1, 60)))
def test_ordinal_ranges_match_the_runs_walked_one_by_one(chosen):
    ordinals = tuple(sorted(chosen))
    naive: list[list[int]] = []
    for ordinal in ordinals:
        if naive and naive[-1][1] == ordinal - 1:
            naive[-1][1] = ordinal
        else:
            naive.append([ordinal, ordinal])
    assert ordinal_ranges(ordinals) == naive


class CountedOrdinals(Sequence[int]):
    """The ordinals first..last, counting how many of them are read."""

    def __init__(self, first: int, last: int) -> None:
        self._ordinals = range(first, last + 1)
        self.reads = 0

    def __len__(self) -> int:
        return len(self._ordinals)

    def __getitem__(self, index):  # noqa: ANN001, ANN204
        self.reads += 1
        return self._ordinals[index]


def test_a_gap_free_span_is_one_run_known_from_its_ends():
    # The turns left out of a send in a 100,000-turn log: its request record keeps them
    # as one run without walking every ordinal on each send.
    left_out = CountedOrdinals(1, 99_900)
    assert ordinal_ranges(left_out) == [[1, 99_900]]
    assert left_out.reads <= 4


def test_cancel_token_runs_callbacks_once_from_any_moment():
    token = CancelToken()
    calls = []
    token.on_cancel(lambda: calls.append("early"))
    token.cancel()
    token.cancel()
    token.on_cancel(lambda: calls.append("late"))
    assert calls == ["early", "late"]
    assert token.cancelled
    assert token.wait(0)


def test_request_options_reach_the_body():
    store, _ = make()
    provider = ScriptedProvider(OK)
    options = RequestOptions(stream=False, max_tokens=321, temperature=0.25)
    outcome = run(store, provider, request(options=options))
    assert isinstance(outcome, Committed)
    assert provider.bodies[0].endswith(b'"stream":false,"max_tokens":321,"temperature":0.25}')
