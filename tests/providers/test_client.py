"""The httpx provider against a real scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from loopback import Behaviour, LoopbackServer
from provider_calls import body, complete, failure_of
from turnlog.core.body import Message, RequestOptions, build_body
from turnlog.core.failures import FailureKind, ProviderFailure
from turnlog.core.provider import CancelToken
from turnlog.core.send import validate_reply
from turnlog.providers import (
    CUSTOM,
    DEFAULT_MAX_CONTENT_BYTES,
    LLAMA_CPP,
    OPENAI,
    PRESETS,
    ChatCompletionsProvider,
    ModelInfo,
    parse_retry_after,
    preset_by_id,
)

KEY = "sk-test-Zx81kQ2mVb7pLr4T"
TRICKY = (
    'CJK 你好，世界 / emoji 👋🏽👨‍👩‍👧 / quotes "double" \'single\' \\ back\\slash'
    "\nnew line\ttab \x01\x1f end"
)


@pytest.fixture
def provider(loopback: LoopbackServer) -> ChatCompletionsProvider:
    return ChatCompletionsProvider(loopback.base_url, api_key=KEY)


# -- good replies ----------------------------------------------------------------------


def test_stream_reply_carries_deltas_usage_model_and_first_token_time(loopback, provider):
    usage = {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    loopback.script(Behaviour.answer("Hello there, 世界 👋", chunks=4, usage=usage,
                                     model="served-model"))
    reply, deltas = complete(provider, body(include_usage=True))

    assert reply.content == "Hello there, 世界 👋"
    assert "".join(deltas) == reply.content and len(deltas) == 4
    assert reply.finish_reason == "stop"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens,
            reply.usage.total_tokens) == (12, 5, 17)
    assert reply.model == "served-model"
    assert reply.tool_calls is False
    assert reply.first_token_s is not None and 0 < reply.first_token_s < 5
    assert validate_reply(reply) is None


def test_json_reply_when_the_body_does_not_stream(loopback, provider):
    loopback.script(Behaviour.answer("A whole answer.", usage={"prompt_tokens": 3,
                                                               "completion_tokens": 4}))
    reply, deltas = complete(provider, body(stream=False))
    assert reply.content == "A whole answer." and deltas == ["A whole answer."]
    assert reply.finish_reason == "stop"
    assert reply.usage.prompt_tokens == 3 and reply.usage.total_tokens is None
    assert loopback.requests[-1].headers["accept"] == "application/json"


@pytest.mark.parametrize("stream", [True, False])
def test_usage_stays_unknown_when_the_server_reports_none(loopback, provider, stream):
    loopback.script(Behaviour.answer("No numbers here."))
    reply, _ = complete(provider, body(stream=stream))
    assert reply.content == "No numbers here."
    assert not reply.usage.known


def test_stream_asked_but_json_answered_is_still_read(loopback, provider):
    loopback.script(Behaviour.answer("I ignore stream flags.", stream=False))
    reply, _ = complete(provider, body(stream=True))
    assert reply.content == "I ignore stream flags." and reply.finish_reason == "stop"


@pytest.mark.parametrize("stream", [True, False])
def test_finish_reason_length_reaches_core_as_length(loopback, provider, stream):
    loopback.script(Behaviour.length("Half an ans"))
    reply, _ = complete(provider, body(stream=stream))
    assert reply.finish_reason == "length" and reply.content == "Half an ans"
    problem = validate_reply(reply)
    assert problem is not None and problem.kind is FailureKind.LENGTH


@pytest.mark.parametrize("stream", [True, False])
def test_empty_content_reaches_core_as_empty(loopback, provider, stream):
    loopback.script(Behaviour.empty())
    reply, deltas = complete(provider, body(stream=stream))
    assert reply.content == "" and reply.finish_reason == "stop" and deltas == []
    assert reply.first_token_s is None
    problem = validate_reply(reply)
    assert problem is not None and problem.kind is FailureKind.EMPTY


@pytest.mark.parametrize("stream", [True, False])
def test_done_without_finish_reason_is_a_reply_without_one(loopback, provider, stream):
    loopback.script(Behaviour.no_finish_reason("Some words"))
    reply, _ = complete(provider, body(stream=stream))
    assert reply.content == "Some words" and reply.finish_reason is None
    problem = validate_reply(reply)
    assert problem is not None and problem.kind is FailureKind.NO_FINISH_REASON


@pytest.mark.parametrize("stream", [True, False])
def test_tool_calls_are_flagged(loopback, provider, stream):
    loopback.script(Behaviour.tool_calls())
    reply, _ = complete(provider, body(stream=stream))
    assert reply.tool_calls is True and reply.finish_reason == "tool_calls"
    problem = validate_reply(reply)
    assert problem is not None and problem.kind is FailureKind.OTHER_FINISH_REASON


def test_finish_reason_without_done_is_a_complete_reply(loopback, provider):
    loopback.script(Behaviour.answer("Finished, no DONE.", done=False))
    reply, _ = complete(provider, body())
    assert reply.content == "Finished, no DONE." and reply.finish_reason == "stop"


# -- the wire --------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
def test_wire_body_is_the_given_bytes(loopback, provider, stream):
    data = build_body("loopback-model", [Message("system", "Be brief \"always\"."),
                                         Message("user", TRICKY)],
                      RequestOptions(stream=stream, max_tokens=64))
    complete(provider, data)
    sent = loopback.requests[-1]
    assert sent.method == "POST" and sent.path == "/v1/chat/completions"
    assert sent.body == data
    assert sent.json()["messages"][1]["content"] == TRICKY
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["authorization"] == f"Bearer {KEY}"


def test_unusual_json_spacing_is_not_reserialized(loopback, provider):
    data = (
        '{ "model" : "m",\n  "stream": true, '
        '"messages": [ {"role":"user","content":"\\u4f60"} ] }'
    )
    complete(provider, data.encode())
    assert loopback.requests[-1].body == data.encode()
    assert loopback.requests[-1].headers["accept"] == "text/event-stream"


def test_no_authorization_header_without_a_key(loopback):
    provider = ChatCompletionsProvider(loopback.base_url)
    complete(provider, body())
    assert "authorization" not in loopback.requests[-1].headers


def test_a_preset_that_needs_a_key_refuses_to_send_without_one(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, preset=OPENAI)
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.NO_KEY
    assert loopback.requests == []


# -- error statuses --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("behaviour", "kind", "status"),
    [
        (Behaviour.unauthorized(), FailureKind.AUTH, 401),
        (Behaviour.error(403, "Project not allowed"), FailureKind.AUTH, 403),
        (Behaviour.error(404, "The model `nope` does not exist", code="model_not_found"),
         FailureKind.MODEL_NOT_FOUND, 404),
        (Behaviour.error(408, "Request timed out"), FailureKind.TIMEOUT, 408),
        (Behaviour.error(504, "Gateway timeout"), FailureKind.TIMEOUT, 504),
        (Behaviour.error(413, "Request entity too large"), FailureKind.REQUEST_TOO_LARGE, 413),
        (Behaviour.server_error(), FailureKind.HTTP_STATUS, 500),
        (Behaviour.error(400, "Invalid value for temperature"), FailureKind.HTTP_STATUS, 400),
    ],
)
def test_error_statuses_become_named_failures(loopback, provider, behaviour, kind, status):
    loopback.script(behaviour)
    failure = failure_of(provider, body()).failure
    assert failure.kind is kind and failure.status == status
    message = json.loads(behaviour.body)["error"]["message"]
    assert message in failure.detail


@pytest.mark.parametrize("behaviour", [Behaviour.openai_overflow(), Behaviour.llamacpp_overflow(),
                                       Behaviour.vllm_overflow(), Behaviour.ollama_overflow()],
                         ids=["openai", "llamacpp", "vllm", "ollama"])
@pytest.mark.parametrize("stream", [True, False])
def test_context_overflow_is_recognised_from_each_server(loopback, provider, behaviour, stream):
    loopback.script(behaviour)
    failure = failure_of(provider, body(stream=stream)).failure
    assert failure.kind is FailureKind.CONTEXT_OVERFLOW and failure.status == 400
    assert "context" in failure.detail


def test_overflow_named_in_a_stream_error_event(loopback, provider):
    event = json.dumps({"error": {"message": "This model's maximum context length is 4096 "
                                             "tokens", "code": "context_length_exceeded"}})
    loopback.script(Behaviour.raw(200, f"data: {event}\n\n".encode(),
                                  content_type="text/event-stream"))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.CONTEXT_OVERFLOW


def test_rate_limit_with_retry_after_seconds(loopback, provider):
    loopback.script(Behaviour.rate_limited("7"))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.RATE_LIMITED and failure.status == 429
    assert failure.retry_after == 7.0
    assert failure.hint == "Retry after 7 s"


def test_rate_limit_with_retry_after_http_date(loopback, provider):
    when = datetime.now(UTC) + timedelta(seconds=30)
    loopback.script(Behaviour.rate_limited(format_datetime(when, usegmt=True)))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.RATE_LIMITED
    assert failure.retry_after is not None and 25 <= failure.retry_after <= 31
    assert failure.hint.startswith("Retry after ")


def test_rate_limit_without_retry_after(loopback, provider):
    loopback.script(Behaviour.rate_limited(None))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.RATE_LIMITED and failure.retry_after is None
    assert failure.hint == "Wait a moment and send again"


def test_no_automatic_retry(loopback, provider):
    loopback.script(Behaviour.server_error(), Behaviour.answer("second"))
    failure_of(provider, body())
    assert len(loopback.requests) == 1


def test_long_error_text_is_truncated_and_html_reduced_to_its_title(loopback, provider):
    loopback.script(Behaviour.raw(502, b"<html><head><title>502 Bad Gateway</title></head>"
                                       b"<body>" + b"x" * 5000 + b"</body></html>",
                                  content_type="text/html"),
                    Behaviour.raw(500, b"oops " * 2000, content_type="text/plain"))
    first = failure_of(provider, body()).failure
    assert first.kind is FailureKind.HTTP_STATUS and first.detail == "HTTP 502: 502 Bad Gateway"
    second = failure_of(provider, body()).failure
    assert second.detail.startswith("HTTP 500: oops oops") and len(second.detail) <= 320


def test_huge_error_body_is_not_read_whole(loopback, provider):
    loopback.script(Behaviour.raw(500, b'{"error":{"message":"' + b"a" * (32 * 1024 * 1024)
                                  + b'"}}'))
    started = time.monotonic()
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.HTTP_STATUS and len(failure.detail) <= 320
    assert time.monotonic() - started < 2


def test_redirect_is_reported_with_its_target(loopback, provider):
    loopback.script(Behaviour.raw(308, b"", headers=[("Location", "https://example.test/v1")]))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.HTTP_STATUS and "https://example.test/v1" in failure.detail


# -- broken replies --------------------------------------------------------------------


def test_stream_cut_midway_is_truncated_with_partial_text(loopback, provider):
    loopback.script(Behaviour.cut("One two three four", after_chunks=2, chunks=4))
    err = failure_of(provider, body())
    assert err.failure.kind is FailureKind.TRUNCATED
    assert err.partial == "One two th"


def test_stream_ending_without_finish_reason_or_done_is_truncated(loopback, provider):
    loopback.script(Behaviour.answer("Trailing off", finish_reason=None, done=False))
    err = failure_of(provider, body())
    assert err.failure.kind is FailureKind.TRUNCATED and err.partial == "Trailing off"


def test_empty_200_stream_says_the_server_sent_nothing(loopback, provider):
    loopback.script(Behaviour.empty_stream())
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.TRUNCATED
    assert "sent nothing" in failure.detail


@pytest.mark.parametrize("stream", [True, False])
def test_garbage_is_malformed(loopback, provider, stream):
    loopback.script(Behaviour.garbage())
    failure = failure_of(provider, body(stream=stream)).failure
    assert failure.kind is FailureKind.MALFORMED


def test_html_instead_of_an_event_stream_is_malformed(loopback, provider):
    loopback.script(Behaviour.raw(200, b"<html>Sign in to the Wi-Fi</html>\n",
                                  content_type="text/html"))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.MALFORMED and "Sign in" in failure.detail


def test_json_without_choices_is_malformed(loopback, provider):
    loopback.script(Behaviour.raw(200, b'{"id":"x","object":"chat.completion"}'))
    failure = failure_of(provider, body(stream=False)).failure
    assert failure.kind is FailureKind.MALFORMED


# -- the network -----------------------------------------------------------------------


def test_connection_refused_is_a_network_failure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    provider = ChatCompletionsProvider(f"http://127.0.0.1:{port}/v1")
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.NETWORK and "refused" in failure.detail


def test_tls_to_a_plain_http_server_is_a_network_failure(loopback):
    provider = ChatCompletionsProvider(loopback.base_url.replace("http://", "https://"))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.NETWORK and "secure connection" in failure.detail


def test_a_base_url_without_scheme_is_a_network_failure_in_plain_words():
    provider = ChatCompletionsProvider("localhost:8080/v1")
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.NETWORK and "http://" in failure.detail


def test_silent_server_hits_the_read_timeout(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, read_timeout_s=0.3)
    loopback.script(Behaviour.hang())
    started = time.monotonic()
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.TIMEOUT
    assert 0.25 < time.monotonic() - started < 2


def test_stream_falling_silent_hits_the_read_timeout_with_partial(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, read_timeout_s=0.3)
    loopback.script(Behaviour.hang(after_chunks=1, text="Thinking hard"))
    err = failure_of(provider, body())
    assert err.failure.kind is FailureKind.TIMEOUT and err.partial == "Thinkin"


def test_deadline_bounds_a_reply_that_keeps_trickling(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, deadline_s=0.6, read_timeout_s=5)
    loopback.script(Behaviour.slow("a b c d e f g h i j k l", delay_s=0.15, chunks=12))
    started = time.monotonic()
    err = failure_of(provider, body())
    elapsed = time.monotonic() - started
    assert err.failure.kind is FailureKind.DEADLINE
    assert 0.55 < elapsed < 0.8
    assert err.partial and "a b c d e f g h i j k l".startswith(err.partial)


# -- cancel ----------------------------------------------------------------------------


def _cancel_when(
    trigger: threading.Event, cancel: CancelToken, at: list[float]
) -> threading.Thread:
    def run() -> None:
        trigger.wait(5)
        time.sleep(0.1)
        at.append(time.monotonic())
        cancel.cancel()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_cancel_while_a_stream_is_silent_returns_within_200_ms(loopback, provider):
    loopback.script(Behaviour.hang(after_chunks=1, text="Half of it"))
    cancel, first_delta, at = CancelToken(), threading.Event(), []
    canceller = _cancel_when(first_delta, cancel, at)

    def on_delta(text: str) -> None:
        first_delta.set()

    with pytest.raises(ProviderFailure) as caught:
        provider.complete(body(), on_delta=on_delta, cancel=cancel)
    returned = time.monotonic()
    canceller.join()
    assert caught.value.failure.kind is FailureKind.CANCELLED
    assert caught.value.partial == "Half "
    assert returned - at[0] < 0.2


def test_cancel_before_the_server_answers_returns_within_200_ms(loopback, provider):
    loopback.script(Behaviour.hang())
    cancel, arrived, at = CancelToken(), threading.Event(), []
    canceller = _cancel_when(arrived, cancel, at)
    watcher = threading.Thread(target=lambda: (loopback.wait_for_requests(1), arrived.set()))
    watcher.start()
    err = failure_of(provider, body(), cancel)
    returned = time.monotonic()
    canceller.join()
    watcher.join()
    assert err.failure.kind is FailureKind.CANCELLED and err.partial == ""
    assert returned - at[0] < 0.2


def test_cancelled_before_sending_sends_nothing(loopback, provider):
    cancel = CancelToken()
    cancel.cancel()
    assert failure_of(provider, body(), cancel).failure.kind is FailureKind.CANCELLED
    assert loopback.requests == []


def test_provider_works_again_after_a_cancel(loopback, provider):
    loopback.script(Behaviour.hang(), Behaviour.answer("Back again."))
    cancel = CancelToken()
    threading.Timer(0.2, cancel.cancel).start()
    assert failure_of(provider, body(), cancel).failure.kind is FailureKind.CANCELLED
    reply, _ = complete(provider, body())
    assert reply.content == "Back again."


# -- size bounds -----------------------------------------------------------------------


def test_default_response_cap_is_4_mib():
    assert ChatCompletionsProvider("http://127.0.0.1:9/v1").max_content_bytes == 4 * 1024 * 1024
    assert DEFAULT_MAX_CONTENT_BYTES == 4 * 1024 * 1024


def test_stream_past_the_cap_stops_with_response_too_large(loopback):
    cap = 1024 * 1024
    provider = ChatCompletionsProvider(loopback.base_url, max_content_bytes=cap)
    loopback.script(Behaviour.huge(64 * 1024 * 1024))
    started = time.monotonic()
    err = failure_of(provider, body())
    assert err.failure.kind is FailureKind.RESPONSE_TOO_LARGE
    assert 0 < len(err.partial) <= cap
    assert time.monotonic() - started < 5


def test_json_past_the_cap_is_refused_without_reading_it(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, max_content_bytes=1024 * 1024)
    loopback.script(Behaviour.huge(3 * 1024 * 1024, stream=False))
    failure = failure_of(provider, body(stream=False)).failure
    assert failure.kind is FailureKind.RESPONSE_TOO_LARGE and "1 MiB" in failure.detail


def test_one_endless_stream_line_is_bounded(loopback):
    provider = ChatCompletionsProvider(loopback.base_url, max_content_bytes=64 * 1024)
    loopback.script(Behaviour.raw(200, b"data: " + b"y" * (4 * 1024 * 1024),
                                  content_type="text/event-stream"))
    failure = failure_of(provider, body()).failure
    assert failure.kind is FailureKind.RESPONSE_TOO_LARGE


# -- secrets ---------------------------------------------------------------------------


def test_echoed_authorization_header_is_redacted(loopback, provider):
    loopback.script(Behaviour.echo_auth())
    err = failure_of(provider, body())
    assert loopback.requests[-1].headers["authorization"] == f"Bearer {KEY}"
    assert err.failure.kind is FailureKind.AUTH
    for text in (err.failure.detail, err.failure.message(), str(err), repr(err.failure)):
        assert KEY not in text
    assert "[redacted]" in err.failure.detail


def test_key_echoed_inside_a_stream_error_or_partial_is_redacted(loopback, provider):
    events = (
        'data: {"choices":[{"index":0,"delta":{"content":"your key is ' + KEY + ' "}}]}\n\n'
        'data: {"error":{"message":"key ' + KEY + ' revoked mid-stream"}}\n\n'
    )
    loopback.script(Behaviour.raw(200, events.encode(), content_type="text/event-stream"))
    err = failure_of(provider, body())
    assert KEY not in err.failure.message() and KEY not in err.partial
    assert "revoked mid-stream" in err.failure.detail


def test_a_key_echoed_into_a_streamed_answer_is_never_shown_or_kept(loopback, provider):
    """The key arrives split across deltas (as a server that echoes it would send it):
    no delta and no part of the answer carries it, and the rest of the text is intact."""
    text = f"Your key is {KEY}, and the header was Bearer {KEY}. 你好 🙂"
    loopback.script(Behaviour.answer(text, chunks=17))
    reply, deltas = complete(provider, body())
    assert KEY not in reply.content
    assert reply.content == "Your key is [redacted], and the header was Bearer [redacted]. 你好 🙂"
    assert "".join(deltas) == reply.content
    assert all(KEY[:8] not in delta for delta in deltas)  # not even its start, on its own


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
def test_a_key_echoed_outside_the_text_is_redacted_in_every_field(loopback, provider, stream):
    """A server may echo the key anywhere: the model name, the finish reason, the error's
    code and type, a model list's ids. No string of a reply or a failure carries it."""
    loopback.script(Behaviour.answer("fine", model=f"echo {KEY}", finish_reason=f"x-{KEY}",
                                     reasoning=f"thinking of {KEY}"))
    reply, _ = complete(provider, body(stream=stream))
    assert reply.content == "fine"
    assert reply.model == "echo [redacted]" and reply.finish_reason == "x-[redacted]"
    assert KEY not in repr(reply)
    error = json.dumps({"error": {"message": "no", "type": f"t-{KEY}", "code": KEY}})
    loopback.script(Behaviour.raw(400, error.encode()))
    err = failure_of(provider, body(stream=stream))
    assert KEY not in repr(err.failure) and KEY not in err.failure.message()
    loopback.models = [f"model-{KEY}", {"id": "plain", "context_length": 8192}]
    assert [m.id for m in provider.list_models()] == ["model-[redacted]", "plain"]


def test_surrogates_from_the_server_are_mended_not_kept(loopback, provider):
    """A pair split across two events joins into its character; a lone half, in the
    answer, the reasoning, the model name or an error, becomes U+FFFD."""
    def event(delta: str) -> str:
        return ('data: {"model": "m\\ud800", "choices": [{"index": 0, "delta": '
                + delta + ', "finish_reason": null}]}\n\n')
    events = (event('{"reasoning_content": "think \\udc80"}')
              + event('{"content": "smile \\ud83d"}') + event('{"content": "\\ude00 ok"}')
              + event('{"content": " end \\ud800"}')
              + 'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n')
    loopback.script(Behaviour.raw(200, events.encode(), content_type="text/event-stream"))
    reply, deltas = complete(provider, body())
    assert reply.content == "smile \U0001f600 ok end \ufffd" == "".join(deltas)
    assert reply.reasoning == "think \ufffd" and reply.model == "m\ufffd"
    loopback.script(Behaviour.raw(400, b'{"error": {"message": "bad \\ud800 input"}}'))
    assert "bad \ufffd input" in failure_of(provider, body()).failure.detail


def test_an_answer_about_bearer_tokens_keeps_its_words(loopback, provider):
    text = "Send `Authorization: Bearer <token>` with your own token."
    loopback.script(Behaviour.answer(text, chunks=5))
    reply, deltas = complete(provider, body())
    assert reply.content == text and "".join(deltas) == text


def test_provider_repr_hides_the_key(provider):
    assert KEY not in repr(provider)


# -- models and presets ----------------------------------------------------------------


def test_list_models(loopback, provider):
    loopback.models = ["small", {"id": "big", "context_length": 32768},
                       {"id": "cpp", "meta": {"n_ctx_train": 4096}}]
    assert provider.list_models() == [ModelInfo("small"), ModelInfo("big", 32768),
                                      ModelInfo("cpp", 4096)]
    sent = loopback.requests[-1]
    assert (sent.method, sent.path) == ("GET", "/v1/models")
    assert sent.headers["authorization"] == f"Bearer {KEY}"


def test_list_models_maps_errors(loopback, provider):
    loopback.script(Behaviour.unauthorized(), path="/v1/models")
    with pytest.raises(ProviderFailure) as caught:
        provider.list_models()
    assert caught.value.failure.kind is FailureKind.AUTH


def test_presets_table():
    by_id = {preset.id: preset for preset in PRESETS}
    assert set(by_id) == {"openai", "ollama", "lmstudio", "llamacpp", "vllm", "openrouter",
                          "deepseek", "custom", "builtin"}
    assert by_id["openai"].base_url == "https://api.openai.com/v1" and OPENAI.needs_key
    assert OPENAI.include_usage
    assert by_id["ollama"].base_url == "http://localhost:11434/v1"
    assert by_id["lmstudio"].base_url == "http://localhost:1234/v1"
    assert by_id["vllm"].base_url == "http://localhost:8000/v1"
    assert by_id["openrouter"].base_url == "https://openrouter.ai/api/v1"
    assert by_id["deepseek"].base_url == "https://api.deepseek.com/v1"
    assert [p.id for p in PRESETS if p.needs_key] == ["openai", "openrouter", "deepseek"]
    assert LLAMA_CPP.tokenize_url("http://localhost:8080/v1") == "http://localhost:8080/tokenize"
    assert OPENAI.tokenize_url(OPENAI.base_url) is None
    assert CUSTOM.base_url == "" and not CUSTOM.needs_key
    assert preset_by_id("something-newer") is CUSTOM


def test_parse_retry_after():
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7", now) == 7.0
    assert parse_retry_after("1.5", now) == 1.5
    assert parse_retry_after("Wed, 01 Jan 2025 12:00:20 GMT", now) == 20.0
    assert parse_retry_after("Wed, 01 Jan 2025 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("-3", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("", now) is None
    assert parse_retry_after(None, now) is None


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
def test_a_compressed_reply_is_inflated_in_bounded_pieces(encoding):
    """gzip, zlib-wrapped and raw deflate (both sent as "deflate") come out whole, in
    pieces no larger than asked, however well they compress."""
    import gzip
    import zlib

    from turnlog.providers.inflate import Inflater

    data = "Ünïcode answer, over and over. ".encode() * 50_000
    packed = {"gzip": gzip.compress(data), "deflate": zlib.compress(data),
              "raw-deflate": zlib.compress(data)[2:-4]}[encoding]
    inflater = Inflater("gzip" if encoding == "gzip" else "deflate", 4096)
    pieces = [piece for start in range(0, len(packed), 777)  # as a socket's reads come
              for piece in inflater.feed(packed[start:start + 777])]
    pieces += list(inflater.finish())
    assert b"".join(pieces) == data and max(map(len, pieces)) <= 4096


@pytest.mark.parametrize(("body", "said"), [
    (b'{"n_ctx": 4096}', 4096),
    (b'{"n_ctx": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", None),
    (b'{"n_ctx": 4096, "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}', None),
], ids=["plain", "deep", "huge"])
def test_a_window_is_read_from_a_bounded_reply(loopback, body, said):
    """A server asked for its window that answers nested too deeply, or with megabytes,
    has said nothing (None): no RecursionError, nothing read past the bound."""
    from turnlog.providers.discovery import server_window

    loopback.script(Behaviour.raw(200, body), path="/props")
    assert server_window(LLAMA_CPP, loopback.base_url, "m") == said
