"""A real OpenAI-compatible HTTP server on 127.0.0.1, scripted per request.

Use it through the `loopback` fixture (this module is a pytest plugin)::

    def test_answer(loopback):
        loopback.script(Behaviour.answer("Hello", chunks=3), Behaviour.rate_limited("7"))
        provider = ChatCompletionsProvider(loopback.base_url)
        ...                                   # first request: "Hello"; second: 429
        assert loopback.requests[-1].body == sent_bytes

It speaks `POST /v1/chat/completions` as JSON or as server-sent events (following the
request's `"stream"` field unless a behaviour says otherwise), `GET /v1/models`
(listing `loopback.models`), `POST /extras/tokenize` as llama-cpp-python does (one
token per whitespace-separated word, plus a leading BOS token; `tokenize_url`), and
answers 404 elsewhere. Other servers' shapes are there when a test sets them:
`props` (llama.cpp `GET /props`), `ollama_show` (Ollama `POST /api/show`, by model name),
`lmstudio_models` (LM Studio `GET /api/v0/models`), and `tokenize_shape` ("llama.cpp" or
"vllm": `POST /tokenize` as that server takes it). With `template` set, every answer
reports `usage.prompt_tokens` as a server with that chat template would count the
request (`Template`). Each request to a path takes
the next behaviour queued for that path; an empty chat queue answers with
`loopback.default`. Every request is recorded with its raw body and headers.

One server per test, each on a free port; at teardown hanging handlers are released,
every thread is joined and the sockets closed.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
import traceback
import zlib
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"
TOKENIZE_PATH = "/extras/tokenize"
SERVER_TOKENIZE_PATH = "/tokenize"  # llama.cpp's and vLLM's
PROPS_PATH = "/props"
OLLAMA_SHOW_PATH = "/api/show"
LMSTUDIO_MODELS_PATH = "/api/v0/models"
DEFAULT_MODEL = "loopback-model"
_HUGE_PIECE = 64 * 1024


@dataclass(frozen=True, slots=True)
class Behaviour:
    """What the server does with one request. Build one with the class methods."""

    kind: str
    text: str = ""
    chunks: int = 3
    delay_s: float = 0.0
    usage: Mapping[str, int] | None = None
    finish_reason: str | None = "stop"
    done: bool = True
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    model: str = DEFAULT_MODEL
    stream: bool | None = None
    after_chunks: int | None = None
    size: int = 0
    reasoning: str = ""

    # -- answers ------------------------------------------------------------------------

    @classmethod
    def answer(
        cls,
        text: str,
        *,
        chunks: int = 3,
        usage: Mapping[str, int] | None = None,
        finish_reason: str | None = "stop",
        delay_s: float = 0.0,
        done: bool = True,
        model: str = DEFAULT_MODEL,
        stream: bool | None = None,
        reasoning: str = "",
    ) -> Behaviour:
        """A complete answer: `text` split into `chunks` deltas when streaming, then the
        finish reason, a usage chunk if `usage` is given, and `[DONE]` unless `done` is
        False. `delay_s` pauses before each delta. With `reasoning`, a reasoning model's
        thought comes first, as DeepSeek sends it: `chunks` deltas of `reasoning_content`
        (with `content` null) before the answer's, or `message.reasoning_content`."""
        return cls("answer", text=text, chunks=max(1, chunks), usage=usage,
                   finish_reason=finish_reason, delay_s=delay_s, done=done, model=model,
                   stream=stream, reasoning=reasoning)

    @classmethod
    def slow(cls, text: str, *, delay_s: float = 0.2, chunks: int = 5,
             usage: Mapping[str, int] | None = None) -> Behaviour:
        """An answer whose deltas arrive `delay_s` apart."""
        return cls.answer(text, chunks=chunks, delay_s=delay_s, usage=usage)

    @classmethod
    def length(cls, text: str = "Cut off at the output lim", **kwargs: Any) -> Behaviour:
        """An answer that stops with finish reason `length`."""
        return cls.answer(text, finish_reason="length", **kwargs)

    @classmethod
    def empty(cls, **kwargs: Any) -> Behaviour:
        """An answer with empty content that still finishes with `stop`."""
        return cls.answer("", chunks=1, **kwargs)

    @classmethod
    def no_finish_reason(cls, text: str = "An answer that never says it is done",
                         **kwargs: Any) -> Behaviour:
        """An answer whose finish reason is always null, but which ends with `[DONE]`."""
        return cls.answer(text, finish_reason=None, **kwargs)

    @classmethod
    def tool_calls(cls, name: str = "get_weather", arguments: str = '{"city":"Oslo"}',
                   **kwargs: Any) -> Behaviour:
        """The model asks to call a tool instead of answering (finish reason `tool_calls`)."""
        return replace(cls.answer("", finish_reason="tool_calls", **kwargs), kind="tool_calls",
                       body=json.dumps({"name": name, "arguments": arguments}).encode())

    @classmethod
    def calls(cls, *calls: tuple[str, str], text: str = "", **kwargs: Any) -> Behaviour:
        """The model asks for several tools at once (parallel calls `call_1`, `call_2`, …,
        each `(name, arguments text)`, malformed arguments sent as they are), with `text`
        beside them. Streamed, each call's first delta brings its id and name and its
        arguments follow in pieces, interleaved with the other calls'."""
        listed = [{"id": f"call_{i}", "name": name, "arguments": arguments}
                  for i, (name, arguments) in enumerate(calls, 1)]
        return replace(cls.answer(text, finish_reason="tool_calls", **kwargs),
                       kind="tool_calls", body=json.dumps(listed).encode())

    @classmethod
    def huge(cls, size: int, *, stream: bool | None = None) -> Behaviour:
        """An answer of `size` bytes of content: 64 KiB deltas, or one JSON body."""
        return cls("huge", size=size, stream=stream)

    # -- broken answers -----------------------------------------------------------------

    @classmethod
    def endless_event(cls, size: int, *, gzip: bool = False, chunks: bool = False
                      ) -> Behaviour:
        """A stream whose first event never ends: `size` bytes of 1 KiB `data:` lines with
        no blank line between them (with `gzip`, compressed, as `Content-Encoding: gzip`),
        then the end of the stream. The lines are `x`s, or with `chunks` each a whole
        chat-completion chunk of content (as servers that omit the blank line send)."""
        return cls("endless_event", size=size, stream=True, chunks=int(chunks),
                   content_type="gzip" if gzip else "")

    @classmethod
    def cut(cls, text: str = "The start of an answer that never", *, after_chunks: int = 2,
            chunks: int = 4) -> Behaviour:
        """A stream that sends `after_chunks` of `chunks` deltas, then drops the connection
        with no finish reason and no `[DONE]` (and no closing chunk)."""
        return cls("cut", text=text, chunks=chunks, after_chunks=after_chunks, stream=True)

    @classmethod
    def hang(cls, *, after_chunks: int | None = None, text: str = "Thinking about it") -> Behaviour:
        """Never answer (until the test ends). With `after_chunks`, first send the headers
        and that many deltas of `text` (split in `after_chunks + 1`), then fall silent."""
        chunks = (after_chunks or 0) + 1
        return cls("hang", text=text, chunks=chunks, after_chunks=after_chunks)

    @classmethod
    def garbage(cls, *, stream: bool | None = None) -> Behaviour:
        """A 200 whose body is not JSON (as an event stream: a data line that is not JSON)."""
        return cls("garbage", stream=stream)

    @classmethod
    def empty_stream(cls) -> Behaviour:
        """A 200 `text/event-stream` with no bytes at all (llama-cpp-python does this when
        the prompt is larger than its window)."""
        return cls("empty_stream", stream=True)

    @classmethod
    def steps(cls, *steps: tuple[float, Mapping[str, Any] | None],
              finish_reason: str | None = "stop", keepalive_s: float | None = None,
              model: str = DEFAULT_MODEL) -> Behaviour:
        """A stream written step by step: each step pauses, then sends a delta (a mapping,
        e.g. `{"content": "Hi"}` or `{"reasoning_content": "hmm"}`) or, for None, an SSE
        comment (`: keep-alive`). Then the finish reason and `[DONE]`; with `keepalive_s`,
        instead, a comment every `keepalive_s` seconds until the client leaves."""
        script = [{"wait": wait, "delta": None if delta is None else dict(delta)}
                  for wait, delta in steps]
        return cls("steps", body=json.dumps(script).encode(), finish_reason=finish_reason,
                   delay_s=keepalive_s or 0.0, done=keepalive_s is None, model=model,
                   stream=True)

    # -- error responses ----------------------------------------------------------------

    @classmethod
    def error(cls, status: int, message: str, *, type: str = "invalid_request_error",
              code: str | None = None, headers: Sequence[tuple[str, str]] = ()) -> Behaviour:
        """An error status with an OpenAI-style `{"error": {...}}` body."""
        body = json.dumps({"error": {"message": message, "type": type, "param": None,
                                     "code": code}}).encode()
        return cls.raw(status, body, headers=headers)

    @classmethod
    def rate_limited(cls, retry_after: str | None = "7") -> Behaviour:
        """429 with `Retry-After: <retry_after>` (seconds or an HTTP date; None omits it)."""
        headers = (("Retry-After", retry_after),) if retry_after is not None else ()
        return cls.error(429, "Rate limit reached for requests", type="requests",
                         code="rate_limit_exceeded", headers=headers)

    @classmethod
    def server_error(cls, message: str = "The server had an error while processing your "
                                         "request") -> Behaviour:
        return cls.error(500, message, type="server_error")

    @classmethod
    def unauthorized(cls) -> Behaviour:
        return cls.error(401, "Incorrect API key provided", code="invalid_api_key")

    @classmethod
    def openai_overflow(cls) -> Behaviour:
        """OpenAI's 400 for a request larger than the context window."""
        return cls.error(
            400,
            "This model's maximum context length is 8192 tokens. However, your messages "
            "resulted in 9000 tokens. Please reduce the length of the messages.",
            code="context_length_exceeded",
        )

    @classmethod
    def llamacpp_overflow(cls) -> Behaviour:
        """llama.cpp server's 400 (`exceed_context_size_error`)."""
        body = json.dumps({"error": {
            "code": 400, "message": "the request exceeds the available context size, try "
            "increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 5000,
            "n_ctx": 4096}}).encode()
        return cls.raw(400, body)

    @classmethod
    def vllm_overflow(cls) -> Behaviour:
        """vLLM's 400, with its top-level `{"object": "error", ...}` body."""
        body = json.dumps({
            "object": "error", "message": "This model's maximum context length is 4096 "
            "tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the "
            "completion). Please reduce the length of the messages or completion.",
            "type": "BadRequestError", "param": None, "code": 400}).encode()
        return cls.raw(400, body)

    @classmethod
    def ollama_overflow(cls) -> Behaviour:
        """Ollama's error when the input exceeds the model's context length."""
        body = json.dumps({"error": {"message": "the input length exceeds the context "
                                                "length", "type": "api_error"}}).encode()
        return cls.raw(400, body)

    @classmethod
    def echo_auth(cls, status: int = 401) -> Behaviour:
        """An error whose message and headers repeat the request's Authorization header."""
        return cls("echo_auth", status=status)

    @classmethod
    def raw(cls, status: int, body: bytes, *, content_type: str = "application/json",
            headers: Sequence[tuple[str, str]] = ()) -> Behaviour:
        """Exactly this status, body and headers."""
        return cls("raw", status=status, body=body, content_type=content_type,
                   headers=tuple(headers))


@dataclass(frozen=True, slots=True)
class Template:
    """A chat template, as token costs: each message costs its words (one token each, as
    the loopback tokenizer counts) plus its role's overhead; the reply priming is added
    once, and `default_system` more when the first message is not a system message (as
    SmolLM2's template inserts its default system prompt)."""

    overhead: Mapping[str, int] = field(
        default_factory=lambda: {"system": 4, "user": 5, "assistant": 6})
    priming: int = 3
    default_system: int = 21

    def prompt_tokens(self, messages: Sequence[Mapping[str, Any]]) -> int:
        total = self.priming
        if not messages or messages[0].get("role") != "system":
            total += self.default_system
        for message in messages:
            total += self.overhead[message["role"]] + len(str(message["content"]).split())
        return total


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as it arrived: raw body bytes and headers (names in lower case)."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _listed_calls(b: Behaviour) -> list[dict[str, str]]:
    """The calls of a `tool_calls` behaviour: one (`tool_calls`, id `call_loopback`) or
    several (`calls`)."""
    listed = json.loads(b.body)
    if isinstance(listed, dict):
        return [{"id": "call_loopback", **listed}]
    return listed


@dataclass(slots=True)
class _Script:
    queues: dict[str, deque[Behaviour]] = field(default_factory=dict)


class _Server(ThreadingHTTPServer):
    # Non-daemon handler threads, joined by server_close: nothing outlives the test.
    daemon_threads = False
    block_on_close = True

    def __init__(self, owner: LoopbackServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return  # a client that left before its request was read
        self.owner.errors.append(traceback.format_exc())


class LoopbackServer:
    """The scripted server. `base_url` ends in `/v1`, as a provider profile's does."""

    def __init__(self) -> None:
        self.models: list[str | dict[str, Any]] = [DEFAULT_MODEL]
        self.props: dict[str, Any] | None = None
        self.ollama_show: dict[str, dict[str, Any]] = {}
        self.lmstudio_models: list[dict[str, Any]] | None = None
        self.tokenize_shape: str | None = None
        self.template: Template | None = None
        self.default: Behaviour = Behaviour.answer("Hello from the loopback server.")
        self.errors: list[str] = []
        self._requests: list[RecordedRequest] = []
        self._script = _Script()
        self._lock = threading.Condition()
        self._busy = 0
        self.stopping = threading.Event()
        self._httpd = _Server(self)
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05},
                                        name="loopback-server", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def tokenize_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{TOKENIZE_PATH}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    def script(self, *behaviours: Behaviour, path: str = CHAT_PATH) -> None:
        """Queue behaviours for the next requests to `path`, in order."""
        with self._lock:
            self._script.queues.setdefault(path, deque()).extend(behaviours)

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[RecordedRequest]:
        """Block until at least `count` requests have arrived; AssertionError on timeout."""
        with self._lock:
            if not self._lock.wait_for(lambda: len(self._requests) >= count, timeout):
                raise AssertionError(f"expected {count} requests, got {len(self._requests)}")
            return list(self._requests)

    def wait_idle(self, timeout: float = 5.0) -> None:
        """Block until no request is being answered; AssertionError on timeout."""
        with self._lock:
            if not self._lock.wait_for(lambda: self._busy == 0, timeout):
                raise AssertionError("the loopback server is still answering")

    def close(self) -> None:
        """Release hanging handlers, stop serving, join every thread, close sockets."""
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> LoopbackServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- used by the handler ------------------------------------------------------------

    def _arrived(self, request: RecordedRequest) -> Behaviour | None:
        with self._lock:
            self._requests.append(request)
            self._busy += 1
            self._lock.notify_all()
            queue = self._script.queues.get(request.path)
            return queue.popleft() if queue else None

    def _left(self) -> None:
        with self._lock:
            self._busy -= 1
            self._lock.notify_all()


class _ClientGone(Exception):
    """The client closed the connection, or the test ended while answering."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "loopback"
    timeout = 10  # a client that connects and sends nothing cannot hold teardown for long
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # tests read `requests`; stderr stays quiet

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    # -- dispatch -----------------------------------------------------------------------

    def _serve(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        path = self.path.split("?", 1)[0]
        scripted = owner._arrived(RecordedRequest(self.command, path, headers, body))
        self.close_connection = True
        try:
            if path == CHAT_PATH and self.command == "POST":
                self._chat(scripted or owner.default, body)
            elif path == MODELS_PATH and self.command == "GET" and scripted is None:
                self._models()
            elif path == TOKENIZE_PATH and self.command == "POST" and scripted is None:
                self._tokenize(body)
            elif scripted is None and self._other_shape(path, body):
                pass
            elif scripted is not None:
                self._chat(scripted, body)
            else:
                self._send(404, json.dumps({"error": {"message": f"no route {path}",
                                                      "type": "not_found"}}).encode())
        except (_ClientGone, ConnectionError, TimeoutError):
            pass  # the client went away (cancel, a limit): that is what the test is about
        finally:
            owner._left()

    def _chat(self, b: Behaviour, body: bytes) -> None:
        template = self.server.owner.template
        if template is not None and b.kind == "answer" and b.usage is None:
            messages = json.loads(body)["messages"]
            b = replace(b, usage={"prompt_tokens": template.prompt_tokens(messages),
                                  "completion_tokens": 1})
        stream = b.stream
        if stream is None:
            try:
                stream = json.loads(body).get("stream") is True
            except (ValueError, AttributeError):
                stream = False
        if b.kind == "raw":
            self._send(b.status, b.body, b.content_type, b.headers)
        elif b.kind == "echo_auth":
            auth = self.headers.get("Authorization", "")
            payload = json.dumps({"error": {"message": f"Invalid credentials: {auth}",
                                            "type": "invalid_request_error",
                                            "received_headers": {"Authorization": auth}}})
            self._send(b.status, payload.encode(), headers=(("X-Echo-Authorization", auth),))
        elif b.kind == "hang":
            if b.after_chunks is None:
                self._pause(None)
            else:
                self._start_stream()
                for piece in _split(b.text, b.chunks)[: b.after_chunks]:
                    self._event(_chunk(b.model, {"content": piece}))
                self._pause(None)
        elif b.kind == "empty_stream":
            self._start_stream()
            self._end_stream()
        elif b.kind == "garbage":
            if stream:
                self._start_stream()
                self._write_chunk(b"data: {this is not json\n\n")
                self._end_stream()
            else:
                self._send(200, b"<html><body>Welcome to nginx!</body></html>\n")
        elif b.kind == "cut":
            self._start_stream()
            for piece in _split(b.text, b.chunks)[: b.after_chunks]:
                self._event(_chunk(b.model, {"content": piece}))
            self.wfile.flush()
            # Drop the connection without the closing zero-length chunk.
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        elif b.kind == "huge":
            self._huge(b, stream)
        elif b.kind == "endless_event":
            self._endless_event(b)
        elif b.kind == "steps":
            self._steps(b)
        elif stream:
            self._stream_answer(b)
        else:
            self._json_answer(b)

    # -- answers ------------------------------------------------------------------------

    def _stream_answer(self, b: Behaviour) -> None:
        self._start_stream()
        if b.kind == "tool_calls":
            self._stream_calls(b)
        else:
            thought = _split(b.reasoning, b.chunks) if b.reasoning else []
            for index, piece in enumerate(thought):
                self._pause(b.delay_s)
                delta: dict[str, Any] = {"content": None, "reasoning_content": piece}
                if index == 0:
                    delta["role"] = "assistant"
                self._event(_chunk(b.model, delta))
            for index, piece in enumerate(_split(b.text, b.chunks)):
                self._pause(b.delay_s)
                delta = {"content": piece}
                if index == 0 and not thought:
                    delta["role"] = "assistant"
                self._event(_chunk(b.model, delta))
        if b.finish_reason is not None:
            self._event(_chunk(b.model, {}, b.finish_reason))
        if b.usage is not None:
            self._event({"id": "chatcmpl-loopback", "object": "chat.completion.chunk",
                         "created": 0, "model": b.model, "choices": [], "usage": dict(b.usage)})
        if b.done:
            self._write_chunk(b"data: [DONE]\n\n")
        self._end_stream()

    def _stream_calls(self, b: Behaviour) -> None:
        calls = _listed_calls(b)
        first: dict[str, Any] = {"role": "assistant", "content": b.text or None}
        first["tool_calls"] = [{"index": i, "id": c["id"], "type": "function",
                                "function": {"name": c["name"], "arguments": ""}}
                               for i, c in enumerate(calls)]
        self._event(_chunk(b.model, first))
        pieces = [_split(c["arguments"], 3) if c["arguments"] else [] for c in calls]
        for step in range(max((len(p) for p in pieces), default=0)):
            for index, parts in enumerate(pieces):
                if step < len(parts):
                    self._pause(b.delay_s)
                    self._event(_chunk(b.model, {"tool_calls": [
                        {"index": index, "function": {"arguments": parts[step]}}]}))

    def _steps(self, b: Behaviour) -> None:
        self._start_stream()
        for step in json.loads(b.body):
            self._pause(step["wait"])
            if step["delta"] is None:
                self._write_chunk(b": keep-alive\n\n")
            else:
                self._event(_chunk(b.model, step["delta"]))
        if not b.done:  # keep-alives until the client leaves or the test ends
            while True:
                self._pause(b.delay_s)
                self._write_chunk(b": keep-alive\n\n")
        if b.finish_reason is not None:
            self._event(_chunk(b.model, {}, b.finish_reason))
        self._write_chunk(b"data: [DONE]\n\n")
        self._end_stream()

    def _json_answer(self, b: Behaviour) -> None:
        self._pause(b.delay_s)
        message: dict[str, Any] = {"role": "assistant", "content": b.text}
        if b.reasoning:
            message["reasoning_content"] = b.reasoning
        if b.kind == "tool_calls":
            message = {"role": "assistant", "content": b.text or None, "tool_calls": [
                {"id": call["id"], "type": "function",
                 "function": {"name": call["name"], "arguments": call["arguments"]}}
                for call in _listed_calls(b)]}
        reply: dict[str, Any] = {
            "id": "chatcmpl-loopback", "object": "chat.completion", "created": 0,
            "model": b.model,
            "choices": [{"index": 0, "message": message, "finish_reason": b.finish_reason}],
        }
        if b.usage is not None:
            reply["usage"] = dict(b.usage)
        self._send(200, json.dumps(reply, ensure_ascii=False).encode())

    def _huge(self, b: Behaviour, stream: bool) -> None:
        if not stream:
            reply = {"id": "chatcmpl-loopback", "object": "chat.completion", "created": 0,
                     "model": b.model, "choices": [{"index": 0, "message": {
                         "role": "assistant", "content": "x" * b.size},
                         "finish_reason": "stop"}]}
            self._send(200, json.dumps(reply).encode())
            return
        self._start_stream()
        sent = 0
        while sent < b.size:
            piece = "x" * min(_HUGE_PIECE, b.size - sent)
            self._event(_chunk(b.model, {"content": piece}))
            sent += len(piece)
        self._event(_chunk(b.model, {}, "stop"))
        self._write_chunk(b"data: [DONE]\n\n")
        self._end_stream()

    def _endless_event(self, b: Behaviour) -> None:
        line = b"data: " + (json.dumps(_chunk(b.model, {"content": "y" * 900})).encode()
                            if b.chunks else b"x" * 1017) + b"\n"
        block = line * 64
        gzipped = b.content_type == "gzip"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        if gzipped:  # all at once: each piece read inflates a thousandfold
            packer = zlib.compressobj(9, zlib.DEFLATED, 31)
            packed = b"".join(packer.compress(block) for _ in range(b.size // len(block)))
            self._write_chunk(packed + packer.flush())
        else:
            for _ in range(b.size // len(block)):
                self._write_chunk(block)
        self._end_stream()

    def _models(self) -> None:
        data = [m if isinstance(m, dict) else {"id": m, "object": "model", "created": 0,
                                                "owned_by": "loopback"}
                for m in self.server.owner.models]
        self._send(200, json.dumps({"object": "list", "data": data}).encode())

    def _tokenize(self, body: bytes) -> None:
        text = json.loads(body)["input"]
        tokens = [1] + [100 + index for index, _ in enumerate(text.split())]
        self._send(200, json.dumps({"tokens": tokens}).encode())

    def _other_shape(self, path: str, body: bytes) -> bool:
        """Answer as llama.cpp, Ollama, LM Studio or vLLM would, where the test set that
        server's shape; False where it did not."""
        owner = self.server.owner
        reply: Any = None
        if path == PROPS_PATH and self.command == "GET":
            reply = owner.props
        elif path == OLLAMA_SHOW_PATH and self.command == "POST":
            reply = owner.ollama_show.get(json.loads(body).get("model", ""))
        elif path == LMSTUDIO_MODELS_PATH and self.command == "GET":
            reply = None if owner.lmstudio_models is None else {
                "object": "list", "data": owner.lmstudio_models}
        elif path == SERVER_TOKENIZE_PATH and self.command == "POST" and owner.tokenize_shape:
            request = json.loads(body)
            key = "content" if owner.tokenize_shape == "llama.cpp" else "prompt"
            words = str(request[key]).split()
            reply = {"tokens": [100 + index for index, _ in enumerate(words)]}
            if owner.tokenize_shape == "vllm":
                reply |= {"count": len(words), "max_model_len": 4096}
        if reply is None:
            return False
        self._send(200, json.dumps(reply).encode())
        return True

    # -- wire ---------------------------------------------------------------------------

    def _pause(self, seconds: float | None) -> None:
        if seconds == 0:
            return
        if self.server.owner.stopping.wait(seconds):
            raise _ClientGone

    def _send(self, status: int, body: bytes, content_type: str = "application/json",
              headers: Sequence[tuple[str, str]] = ()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()

    def _event(self, data: Mapping[str, Any]) -> None:
        payload = json.dumps(data, ensure_ascii=False).encode()
        self._write_chunk(b"data: " + payload + b"\n\n")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def _chunk(model: str, delta: Mapping[str, Any], finish_reason: str | None = None
           ) -> dict[str, Any]:
    return {"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": dict(delta), "finish_reason": finish_reason}]}


def _split(text: str, parts: int) -> list[str]:
    """`text` in `parts` pieces of nearly equal length (by characters); "" stays one piece."""
    if not text:
        return [""]
    parts = min(parts, len(text))
    size, extra = divmod(len(text), parts)
    pieces, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        pieces.append(text[start:end])
        start = end
    return pieces


@pytest.fixture
def loopback() -> Iterator[LoopbackServer]:
    """A fresh scripted chat-completions server on 127.0.0.1 for this test."""
    server = LoopbackServer()
    try:
        yield server
    finally:
        server.close()
    if server.errors:
        pytest.fail("the loopback server failed while answering:\n" + "\n".join(server.errors))
