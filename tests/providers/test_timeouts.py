"""Time bounds of a reply: time to first token, and the quiet spell once it has started.
Only deltas (content or reasoning) count; SSE comments and keep-alives do not."""

from __future__ import annotations

import time

import pytest

from loopback import Behaviour
from provider_calls import body, complete, failure_of
from turnlog.core.failures import FailureKind
from turnlog.providers import (
    CUSTOM,
    FIRST_TOKEN_TIMEOUT_S,
    IDLE_TIMEOUT_S,
    LLAMA_CPP,
    LOCAL_FIRST_TOKEN_TIMEOUT_S,
    ChatCompletionsProvider,
)


def test_a_server_sending_only_comments_fails_as_timeout_at_the_first_token_bound(loopback):
    """Finding 13: SSE comments every so often used to keep a request "alive" until the
    overall deadline; they are not an answer, so the time to first token runs out."""
    provider = ChatCompletionsProvider(loopback.base_url, first_token_timeout_s=0.5,
                                       read_timeout_s=5, deadline_s=8)
    loopback.script(Behaviour.steps(keepalive_s=0.1))
    started = time.monotonic()
    err = failure_of(provider, body())
    elapsed = time.monotonic() - started
    assert err.failure.kind is FailureKind.TIMEOUT
    assert "no answer began within 0.5 s" in err.failure.detail
    assert "Time to first token" in err.failure.hint
    assert 0.45 < elapsed < 1.5
    assert err.partial == ""


def test_comments_after_the_answer_started_fail_at_the_idle_bound_with_the_partial(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, idle_timeout_s=0.5,
                                       read_timeout_s=5, deadline_s=8)
    loopback.script(Behaviour.steps((0, {"content": "The start"}), keepalive_s=0.1))
    started = time.monotonic()
    err = failure_of(provider, body())
    elapsed = time.monotonic() - started
    assert err.failure.kind is FailureKind.TIMEOUT
    assert "nothing new for 0.5 s" in err.failure.detail
    assert err.partial == "The start"
    assert 0.45 < elapsed < 1.5


def test_a_slow_first_token_within_its_bound_is_fine_though_longer_than_the_idle_bound(
        loopback):
    """Prompt processing may take longer than any quiet spell allowed once answering."""
    provider = ChatCompletionsProvider(loopback.base_url, first_token_timeout_s=3,
                                       idle_timeout_s=0.4, read_timeout_s=5)
    loopback.script(Behaviour.steps(*[(0.2, None)] * 5, (0.2, {"content": "Late "}),
                                    (0.1, {"content": "but fine"})))
    reply, deltas = complete(provider, body())
    assert reply.content == "Late but fine" and reply.finish_reason == "stop"


def test_reasoning_deltas_keep_an_answer_alive_and_are_not_shown(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, first_token_timeout_s=0.5,
                                       idle_timeout_s=0.5, read_timeout_s=5)
    thinking = [(0.3, {"reasoning_content": f"step {i} "}) for i in range(5)]
    loopback.script(Behaviour.steps(*thinking, (0.3, {"reasoning": "done "}),
                                    (0.3, {"content": "Answer"})))
    reply, deltas = complete(provider, body())
    assert reply.content == "Answer" and deltas == ["Answer"]


def test_comments_between_deltas_do_not_count_as_progress(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, idle_timeout_s=0.5,
                                       read_timeout_s=5, deadline_s=8)
    loopback.script(Behaviour.steps((0, {"content": "a"}), *[(0.15, None)] * 6,
                                    (0, {"content": "b"})))
    err = failure_of(provider, body())
    assert err.failure.kind is FailureKind.TIMEOUT and err.partial == "a"


def test_the_bounds_by_default():
    assert FIRST_TOKEN_TIMEOUT_S == IDLE_TIMEOUT_S == 90
    assert LOCAL_FIRST_TOKEN_TIMEOUT_S == 600
    remote = ChatCompletionsProvider("https://example.invalid/v1", preset=CUSTOM)
    local = ChatCompletionsProvider("http://localhost:8080/v1", preset=LLAMA_CPP)
    assert (remote.first_token_timeout_s, remote.idle_timeout_s) == (90, 90)
    assert (local.first_token_timeout_s, local.idle_timeout_s) == (600, 90)
    chosen = ChatCompletionsProvider("http://localhost:8080/v1", preset=LLAMA_CPP,
                                     first_token_timeout_s=1200)
    assert chosen.first_token_timeout_s == 1200


@pytest.mark.parametrize("stream", [True, False])
def test_a_local_server_may_think_longer_than_the_read_timeout_before_its_first_token(
        loopback, stream):
    """The read timeout does not cut a local server's long prompt processing short."""
    provider = ChatCompletionsProvider(loopback.base_url, preset=LLAMA_CPP,
                                       read_timeout_s=0.3, first_token_timeout_s=3)
    loopback.script(Behaviour.answer("Slow start", chunks=1, delay_s=0.8, stream=stream))
    reply, _ = complete(provider, body(stream=stream))
    assert reply.content == "Slow start"


def test_an_aborted_stream_closed_unread_is_not_an_error_in_cleanup():
    """Stop, then the unread response stream is collected: httpcore reports the read as
    failed with GeneratorExit from inside the generator's close. Raising there would be
    lost and reported as an unraisable exception (a CI run caught it at a test's end);
    on the way forward an aborted exchange still stops."""
    from turnlog.providers.client import _Aborted, _Exchange

    exchange = _Exchange()
    exchange.abort()
    exchange.trace("http11.receive_response_body.failed", {"exception": GeneratorExit()})
    exchange.trace("http11.response_closed.started", {})
    with pytest.raises(_Aborted):
        exchange.trace("http11.receive_response_body.started", {})
    with pytest.raises(_Aborted):
        exchange.trace("http11.receive_response_body.failed", {"exception": OSError("reset")})
