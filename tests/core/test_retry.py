"""The retry budget, over real HTTP into a real store: which failures are tried again,
how many times, how long it waits, and that every attempt leaves its request record."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from loopback import Behaviour
from turnlog.core.failures import Failure, FailureKind
from turnlog.core.model import ConversationSettings
from turnlog.core.projection import CostIndex
from turnlog.core.provider import CancelToken
from turnlog.core.retry import RetryPolicy, worth_retrying
from turnlog.core.send import Committed, Failed, Stage
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.store import TurnlogStore

FAST = RetryPolicy(backoff_s=0.05)
SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


@pytest.fixture
def conv(store):
    return store.conversations.create("retry", model="loopback-model", settings=SETTINGS)


def send(store, conv, base_url, *, retry=FAST, cancel=None, stages=None, deltas=None):
    provider = ChatCompletionsProvider(base_url, read_timeout_s=5)
    return sender_for(store, provider, CostIndex(), retry).send(
        request_for(conv, "Still there?", Route("loopback-model")), cancel=cancel,
        on_stage=lambda stage, detail: (stages if stages is not None else []).append(
            (stage, detail)),
        on_delta=(deltas if deltas is not None else []).append)


def busy(status):
    return Behaviour.error(status, f"busy {status}", type="server_error")


@pytest.mark.parametrize("first", [Behaviour.rate_limited("0.05"), busy(502), busy(503),
                                   busy(504)], ids=["429", "502", "503", "504"])
def test_not_now_is_tried_again_and_the_answer_is_saved(store, conv, loopback, first):
    loopback.script(first, Behaviour.answer("Here now"))
    outcome = send(store, conv, loopback.base_url)
    assert isinstance(outcome, Committed) and outcome.turn.answer == "Here now"
    assert len(loopback.requests) == 2
    assert loopback.requests[0].body == loopback.requests[1].body  # the same bytes again
    records = store.records.of(conv.id)
    assert [(r.attempt, r.outcome) for r in records][-2:] == [
        (1, FailureKind.RATE_LIMITED.value if first.status == 429 else
         (FailureKind.TIMEOUT.value if first.status == 504 else FailureKind.HTTP_STATUS.value)),
        (2, "committed")]


def test_at_most_three_attempts_then_the_last_failure_is_shown(store, conv, loopback):
    loopback.script(*[busy(503)] * 5)
    stages = []
    outcome = send(store, conv, loopback.base_url, stages=stages)
    assert isinstance(outcome, Failed)
    assert outcome.failure.status == 503 and outcome.draft == "Still there?"
    assert len(loopback.requests) == 3
    assert [r.attempt for r in store.records.of(conv.id)] == [1, 2, 3]
    assert [d for s, d in stages if s is Stage.RETRYING] == [
        "in 1 s (attempt 2 of 3)", "in 1 s (attempt 3 of 3)"]
    assert store.turns(conv.id) == ()


@pytest.mark.parametrize("behaviour", [
    Behaviour.unauthorized(), Behaviour.error(403, "forbidden"),
    Behaviour.error(400, "bad request"), Behaviour.openai_overflow(),
    Behaviour.server_error(), Behaviour.error(404, "no such model")],
    ids=["401", "403", "400", "overflow", "500", "404"])
def test_final_failures_are_never_tried_again(store, loopback, behaviour):
    # No turns to drop: an overflow has nothing to recover with either.
    conv = store.conversations.create("never", model="loopback-model", settings=SETTINGS)
    loopback.script(behaviour, Behaviour.answer("must not be asked for"))
    outcome = send(store, conv, loopback.base_url)
    assert isinstance(outcome, Failed)
    assert len(loopback.requests) == 1
    assert len(store.records.of(conv.id)) == 1


def test_a_partial_stream_is_never_tried_again(store, conv, loopback):
    """Answer text arrived, then the connection dropped: the person saw it start, so the
    send ends there (a retry would answer something else)."""
    loopback.script(Behaviour.cut(after_chunks=1), Behaviour.answer("must not be asked for"))
    deltas = []
    outcome = send(store, conv, loopback.base_url, deltas=deltas)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.TRUNCATED
    assert deltas and outcome.partial
    assert len(loopback.requests) == 1
    assert store.turns(conv.id) == ()


def test_an_error_event_after_answer_text_is_not_tried_again(store, conv, loopback):
    loopback.script(Behaviour.raw(
        200, b'data: {"choices":[{"index":0,"delta":{"content":"Half"}}]}\n\n'
             b'data: {"error":{"message":"overloaded","code":503}}\n\n',
        content_type="text/event-stream"), Behaviour.answer("must not be asked for"))
    deltas = []
    outcome = send(store, conv, loopback.base_url, deltas=deltas)
    assert isinstance(outcome, Failed) and deltas == ["Half"]
    assert len(loopback.requests) == 1


def test_retry_after_is_honoured(store, conv, loopback):
    loopback.script(Behaviour.rate_limited("0.6"), Behaviour.answer("After the wait"))
    started = time.monotonic()
    outcome = send(store, conv, loopback.base_url)
    assert isinstance(outcome, Committed)
    assert time.monotonic() - started >= 0.6
    assert len(loopback.requests) == 2


def test_retry_after_past_the_budget_is_not_waited_for(store, conv, loopback):
    loopback.script(Behaviour.rate_limited("120"), Behaviour.answer("must not be asked for"))
    started = time.monotonic()
    outcome = send(store, conv, loopback.base_url, retry=RetryPolicy())
    assert time.monotonic() - started < 2
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.RATE_LIMITED
    assert "Retry after 120 s" in outcome.failure.message()
    assert len(loopback.requests) == 1


def test_the_budget_is_a_time_window(store, conv, loopback):
    """Three attempts at most, and every wait inside the window from the first one."""
    policy = RetryPolicy(window_s=1.0)
    loopback.script(Behaviour.rate_limited("0.6"), Behaviour.rate_limited("0.6"),
                    Behaviour.answer("must not be asked for"))
    outcome = send(store, conv, loopback.base_url, retry=policy)
    assert isinstance(outcome, Failed)
    assert len(loopback.requests) == 2  # 0.6 + 0.6 would pass the 1 s window


def test_off_means_one_attempt(store, conv, loopback):
    loopback.script(busy(503), Behaviour.answer("must not be asked for"))
    outcome = send(store, conv, loopback.base_url, retry=None)
    assert isinstance(outcome, Failed) and len(loopback.requests) == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connection_refused_is_tried_again(store, conv):
    port = _closed_port()
    stages = []
    outcome = send(store, conv, f"http://127.0.0.1:{port}/v1", stages=stages)
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.NETWORK
    assert outcome.failure.transport == "refused"
    assert [r.attempt for r in store.records.of(conv.id)] == [1, 2, 3]
    assert sum(s is Stage.RETRYING for s, _ in stages) == 2


def test_a_connection_closed_without_an_answer_is_tried_again(store, conv, loopback):
    """A server that resets the connection (closes it without a response)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    hits = []

    def reset_once():
        conn, _ = listener.accept()
        hits.append(1)
        conn.recv(65536)
        conn.close()  # no response at all
        listener.close()

    thread = threading.Thread(target=reset_once)
    thread.start()
    # The second attempt finds the port closed (refused): still "not now", tried again.
    outcome = send(store, conv, f"http://127.0.0.1:{port}/v1")
    thread.join(5)
    assert hits == [1]
    assert isinstance(outcome, Failed)
    assert [r.attempt for r in store.records.of(conv.id)] == [1, 2, 3]


def test_stop_cancels_the_wait_promptly(store, conv, loopback):
    loopback.script(Behaviour.rate_limited("30"), Behaviour.answer("must not be asked for"))
    cancel = CancelToken()
    stages = []
    result = []
    thread = threading.Thread(target=lambda: result.append(
        send(store, conv, loopback.base_url, retry=RetryPolicy(), cancel=cancel,
             stages=stages)))
    thread.start()
    deadline = time.monotonic() + 5
    while not any(s is Stage.RETRYING for s, _ in stages) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (Stage.RETRYING, "in 30 s (attempt 2 of 3)") in stages
    stopped = time.monotonic()
    cancel.cancel()
    thread.join(5)
    assert time.monotonic() - stopped < 0.2
    outcome = result[0]
    assert isinstance(outcome, Failed) and outcome.failure.kind is FailureKind.CANCELLED
    assert outcome.draft == "Still there?"
    assert len(loopback.requests) == 1


def test_what_is_worth_retrying():
    assert worth_retrying(Failure(FailureKind.RATE_LIMITED, status=429))
    assert worth_retrying(Failure(FailureKind.NETWORK, transport="reset"))
    assert not worth_retrying(Failure(FailureKind.NETWORK, detail="name not found"))
    assert not worth_retrying(Failure(FailureKind.CONTEXT_OVERFLOW, status=503))
    assert not worth_retrying(Failure(FailureKind.AUTH, status=401))
    policy = RetryPolicy()
    fail = Failure(FailureKind.HTTP_STATUS, status=503)
    assert policy.wait_before_next(fail, attempt=1, elapsed_s=0, answered=False) == 1.0
    assert policy.wait_before_next(fail, attempt=2, elapsed_s=0, answered=False) == 2.0
    assert policy.wait_before_next(fail, attempt=3, elapsed_s=0, answered=False) is None
    assert policy.wait_before_next(fail, attempt=1, elapsed_s=0, answered=True) is None
    assert policy.wait_before_next(fail, attempt=1, elapsed_s=59.5, answered=False) is None
