"""An httpx client for OpenAI-compatible chat completions.

`ChatCompletionsProvider.complete` sends the exact body core measured and turns the
response into a `Reply` or a named `ProviderFailure`. The HTTP exchange runs on a
short-lived thread of its own while the calling thread watches the cancel token and
the overall deadline, so a cancel or a deadline returns at once even when the server
is silent, or a name lookup hangs. Waking the exchange is done by shutting its socket
down, which interrupts a blocked read.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import queue
import socket
import ssl
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from turnlog.core.calibration import estimated_request_tokens
from turnlog.core.cost import PER_TOKENS, PRICED_BY_SERVER, PriceInvalid, Prices, parse_price
from turnlog.core.failures import Failure, FailureKind, ProviderFailure
from turnlog.core.model import UNKNOWN_USAGE, Usage
from turnlog.core.provider import CancelToken, Reply
from turnlog.core.redaction import (
    StreamRedaction,
    map_text_fields,
    redact,
    redact_exact,
    secret_forms,
)
from turnlog.core.tools import MalformedToolCall, ToolCall, ToolCallAssembler
from turnlog.core.visible import mend_surrogates
from turnlog.system.lazy import LazyModule

from .errors import error_from_body, error_from_json, failure_for_error, tidy
from .inflate import INFLATABLE as _INFLATABLE
from .inflate import Inflater
from .presets import CUSTOM, Preset
from .security import INSECURE_KEY_HINT, context_for, insecure_key_detail, key_in_clear
from .sse import EventStreamDecoder, LineTooLong, NotAnEventStream
from .wirejson import UnreadableJson, server_json

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # loaded by the first request

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 90.0
# Once an answer has started, this long without a delta (content or reasoning) ends it.
IDLE_TIMEOUT_S = 90.0
# How long the first delta may take: prompt processing on a local CPU server takes minutes.
FIRST_TOKEN_TIMEOUT_S = 90.0
LOCAL_FIRST_TOKEN_TIMEOUT_S = 600.0
DEFAULT_DEADLINE_S = 600.0
MODELS_DEADLINE_S = 30.0
DEFAULT_MAX_CONTENT_BYTES = 4 * 1024 * 1024
# JSON around the content: what a non-stream body or one stream line may add to it.
ENVELOPE_ALLOWANCE = 256 * 1024
# Enough of an error body to find the server's message; the rest is not read.
MAX_ERROR_BODY_BYTES = 64 * 1024
# After aborting, wait this long for the exchange thread; a shut-down socket ends it in
# about a millisecond, and only a hung name lookup could outlast it.
_ABORT_JOIN_S = 0.1
# The most of a body held at once between the socket and the limits that count it.
_PIECE = 64 * 1024
_DONE = b"[DONE]"
REPLACEMENT = "\ufffd"  # what stands in for a lone surrogate

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """One entry of `GET /models`. `context_window` only where the server reports one."""

    id: str
    context_window: int | None = None
    # What the server's list says the model costs (OpenRouter's `pricing`), per million
    # tokens; None where it says nothing usable.
    prices: Prices | None = None


class _Aborted(Exception):
    """Raised inside the exchange thread once the caller has given up on it."""


@dataclass(slots=True)
class _Finished(Generic[T]):
    value: T | None = None
    error: BaseException | None = None


_WAKE = object()


@dataclass(slots=True)
class _Watch:
    """The time bounds an exchange is held to: the overall deadline and, for a reply,
    the time to its first delta and the longest quiet spell after it. Only deltas (content
    or reasoning) count as progress: SSE comments and keep-alives do not."""

    started: float
    deadline_s: float
    first_token_s: float | None = None
    idle_s: float | None = None
    last: float | None = None  # when the last delta arrived

    def next_bound(self) -> tuple[float, FailureKind, str, str]:
        """(when, kind, detail, hint) of the bound that runs out first."""
        bounds = [(self.started + self.deadline_s, FailureKind.DEADLINE,
                   f"no complete reply within {_seconds(self.deadline_s)}",
                   "Send again, or raise the time limit if the server is slow")]
        if self.last is None and self.first_token_s is not None:
            bounds.append((self.started + self.first_token_s, FailureKind.TIMEOUT,
                           f"no answer began within {_seconds(self.first_token_s)}",
                           "Send again, or raise “Time to first token” in the profile"))
        elif self.last is not None and self.idle_s is not None:
            bounds.append((self.last + self.idle_s, FailureKind.TIMEOUT,
                           f"the answer stalled: nothing new for {_seconds(self.idle_s)}",
                           "Send again"))
        return min(bounds, key=lambda bound: bound[0])


@dataclass(frozen=True, slots=True)
class _Reasoning:
    """Reasoning text on its way from the exchange thread, apart from the answer's."""

    text: str


class _Exchange:
    """One HTTP exchange on its own thread, reporting deltas and its end through a queue."""

    def __init__(self) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.usage: Usage = UNKNOWN_USAGE
        self.responded = False
        self._aborted = threading.Event()
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None

    @property
    def aborted(self) -> bool:
        return self._aborted.is_set()

    def emit(self, text: str) -> None:
        if self._aborted.is_set():
            raise _Aborted
        self.events.put(text)

    def emit_reasoning(self, text: str) -> None:
        if self._aborted.is_set():
            raise _Aborted
        self.events.put(_Reasoning(text))

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpcore's trace hook: remember the socket so `abort` can interrupt reads."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._socket = sock
        if self._aborted.is_set():
            self._shutdown()
            if event.endswith(".complete") and hasattr(info.get("return_value"), "close"):
                # A connection made just as the exchange was given up: httpcore never
                # gets to keep it once we raise, so close it here or its socket leaks.
                with contextlib.suppress(Exception):
                    info["return_value"].close()
            # Closing events run during cleanup, where an exception would be lost (and
            # reported as unraisable), as does a stream closed unread (GeneratorExit, when
            # it is collected); only stop the exchange on its way forward.
            if ".close" not in event and "response_closed" not in event \
                    and not isinstance(info.get("exception"), GeneratorExit):
                raise _Aborted

    def abort(self) -> None:
        self._aborted.set()
        self._shutdown()

    def _shutdown(self) -> None:
        with self._lock:
            sock = self._socket
        if sock is None:
            return
        # The plain socket method: for TLS it must not touch the SSL object, which the
        # exchange thread may be using right now. OSError: already closed, nothing to wake.
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def run(self, work: Callable[[_Exchange], T]) -> None:
        try:
            result = work(self)
        except BaseException as err:  # handed to the calling thread, which re-raises it
            self.events.put(_Finished(error=err))
        else:
            self.events.put(_Finished(value=result))


@dataclass(slots=True)
class _StreamState:
    parts: list[str] = field(default_factory=list)
    content_bytes: int = 0
    reasoning_parts: list[str] = field(default_factory=list)
    reasoning_bytes: int = 0
    finish_reason: str | None = None
    model: str = ""
    tool_calls: bool = False
    calls: ToolCallAssembler = field(default_factory=ToolCallAssembler)
    first_token_s: float | None = None
    payloads: int = 0
    done: bool = False
    held: dict[str, str] = field(default_factory=dict)  # a high surrogate, per field

    def mend(self, name: str, text: str) -> str:
        """A delta's text with lone surrogates replaced; a high surrogate at its end waits
        for the next delta of the same field, which may begin with its pair."""
        text = self.held.pop(name, "") + text
        if text and "\ud800" <= text[-1] <= "\udbff":
            self.held[name] = text[-1]
            text = text[:-1]
        return mend_surrogates(text)

    @property
    def content(self) -> str:
        return "".join(self.parts)

    @property
    def reasoning(self) -> str:
        return "".join(self.reasoning_parts)


def load_transport(base_url: str, verify: ssl.SSLContext | bool = True) -> None:
    """Load what the first request to `base_url` would load on first use — the HTTP
    transport's own modules, and for https:// the process's TLS context for `verify` —
    so the first send does not wait for it. Sends nothing, opens no connection."""
    httpx.Client(verify=context_for(base_url, verify)).close()


class ChatCompletionsProvider:
    """A `ChatProvider` for any server speaking OpenAI's `/chat/completions`.

    `base_url` ends before `/chat/completions` (for example `http://localhost:8080/v1`).
    The key, when given, is sent as `Authorization: Bearer …` and removed from every
    failure text. There are no automatic retries here (core's send path has a budget).
    `first_token_timeout_s` bounds the wait for a reply's first delta (None: 600 s for a
    local server's preset, else the read timeout); `idle_timeout_s` the quiet spell after
    it (None: the read timeout). `allow_insecure_key` lets a key go to a plain `http://`
    address that is not this machine; without it such a request is refused unsent.
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        preset: Preset = CUSTOM,
        deadline_s: float = DEFAULT_DEADLINE_S,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
        read_timeout_s: float = READ_TIMEOUT_S,
        max_content_bytes: int = DEFAULT_MAX_CONTENT_BYTES,
        verify: ssl.SSLContext | bool = True,
        first_token_timeout_s: float | None = None,
        idle_timeout_s: float | None = None,
        allow_insecure_key: bool = False,
    ) -> None:
        self.base_url = base_url.strip().rstrip("/")
        self.preset = preset
        self.deadline_s = deadline_s
        self.connect_timeout_s = connect_timeout_s
        self.read_timeout_s = read_timeout_s
        self.first_token_timeout_s = first_token_timeout_s if first_token_timeout_s else (
            LOCAL_FIRST_TOKEN_TIMEOUT_S if preset.local else read_timeout_s)
        self.idle_timeout_s = idle_timeout_s or read_timeout_s
        self.allow_insecure_key = allow_insecure_key
        self.max_content_bytes = max_content_bytes
        self._api_key = api_key.strip() if api_key and api_key.strip() else None
        self._verify = verify

    def __repr__(self) -> str:  # never shows the key
        key = "set" if self._api_key else "none"
        return f"ChatCompletionsProvider({self.base_url!r}, preset={self.preset.id}, key={key})"

    # -- public -------------------------------------------------------------------------

    def complete(
        self, body: bytes, *, on_delta: Callable[[str], None], cancel: CancelToken,
        on_reasoning: Callable[[str], None] | None = None,
    ) -> Reply:
        """Send `body` unchanged to `{base_url}/chat/completions` and read the reply.

        Streams when the body asks for `"stream": true`. Raises `ProviderFailure` for
        anything that is not a reply that reached its end. A server that echoes the key
        into the answer never gets it shown or stored: deltas and content are redacted.
        A reasoning model's `reasoning_content` goes to `on_reasoning` and into
        `Reply.reasoning`, redacted the same way, never into the answer.
        """
        self._check_key()
        started = time.monotonic()
        streaming = _asks_to_stream(body)
        shown = StreamRedaction(self._secrets())
        thought = StreamRedaction(self._secrets())
        think = on_reasoning or (lambda text: None)

        def work(exchange: _Exchange) -> Reply:
            return self._chat(exchange, body, streaming, started)

        def deliver(delta: str) -> None:
            if safe := shown.feed(delta):
                on_delta(safe)

        def reason(delta: str) -> None:
            if safe := thought.feed(delta):
                think(safe)

        watch = _Watch(started, self.deadline_s, self.first_token_timeout_s,
                       self.idle_timeout_s)
        with self._redacting_failures():
            reply = self._drive(work, cancel, deliver, watch, reason)
        if rest := thought.finish():
            think(rest)
        if rest := shown.finish():
            on_delta(rest)
        return map_text_fields(reply, self._server_text())

    def list_models(
        self, *, cancel: CancelToken | None = None, deadline_s: float = MODELS_DEADLINE_S
    ) -> list[ModelInfo]:
        """The models `GET {base_url}/models` lists, in the server's order."""
        self._check_key()
        started = time.monotonic()
        with self._redacting_failures():
            models = self._drive(self._models, cancel or CancelToken(), lambda text: None,
                                 _Watch(started, min(deadline_s, self.deadline_s)))
        clean = self._server_text()
        return [map_text_fields(model, clean) for model in models]

    def _server_text(self) -> Callable[[str], str]:
        """What every text from the server passes before it is kept or shown: the key
        taken out, lone surrogates (unwritable as UTF-8) replaced."""
        forms = secret_forms(self._secrets())
        return lambda text: redact_exact(mend_surrogates(text), forms)

    @contextlib.contextmanager
    def _redacting_failures(self) -> Iterator[None]:
        """Every failure leaves with each of its texts cleaned, whatever raised it."""
        try:
            yield
        except ProviderFailure as err:
            clean = self._server_text()
            failure = map_text_fields(err.failure, clean)
            partial = clean(err.partial)
            if failure is err.failure and partial == err.partial:
                raise
            raise ProviderFailure(failure, partial=partial, usage=err.usage) from None

    # -- the calling thread -------------------------------------------------------------

    def _drive(
        self,
        work: Callable[[_Exchange], T],
        cancel: CancelToken,
        on_delta: Callable[[str], None],
        watch: _Watch,
        on_reasoning: Callable[[str], None] = lambda text: None,
    ) -> T:
        if cancel.cancelled:
            raise ProviderFailure(Failure(FailureKind.CANCELLED, detail="nothing was sent"))
        exchange = _Exchange()
        thread = threading.Thread(target=exchange.run, args=(work,), name="turnlog-http",
                                  daemon=True)
        events = exchange.events
        cancel.on_cancel(lambda: events.put(_WAKE))
        seen: list[str] = []
        finished = False
        thread.start()
        try:
            while True:
                if cancel.cancelled:
                    raise self._failure(FailureKind.CANCELLED, "", "".join(seen),
                                        exchange.usage)
                when, kind, detail, hint = watch.next_bound()
                remaining = when - time.monotonic()
                if remaining <= 0:
                    raise self._failure(kind, detail, "".join(seen), exchange.usage,
                                        hint=hint)
                try:
                    event = events.get(timeout=remaining)
                except queue.Empty:
                    continue
                if isinstance(event, str):
                    watch.last = time.monotonic()
                    seen.append(event)
                    on_delta(event)
                elif isinstance(event, _Reasoning):
                    watch.last = time.monotonic()  # thinking is progress, though not shown
                    on_reasoning(event.text)
                elif isinstance(event, _Finished):
                    finished = True
                    thread.join()
                    if event.error is not None:
                        raise event.error
                    return event.value  # type: ignore[return-value]
        finally:
            if not finished:
                exchange.abort()
                thread.join(_ABORT_JOIN_S)

    # -- the exchange thread ------------------------------------------------------------

    def _chat(self, exchange: _Exchange, body: bytes, streaming: bool, started: float) -> Reply:
        accept = "text/event-stream" if streaming else "application/json"
        with self._client() as client:
            try:
                with client.stream(
                    "POST", self.base_url + "/chat/completions", content=body,
                    headers=self._headers(accept), extensions={"trace": exchange.trace},
                ) as response:
                    exchange.responded = True
                    if response.status_code >= 300:
                        raise self._status_failure(response)
                    kind = response.headers.get("content-type", "").lower()
                    # A server may ignore "stream" or answer an error as JSON with 200.
                    if streaming and not kind.startswith("application/json"):
                        return self._read_stream(response, exchange, started, body)
                    return self._read_json(response, exchange, started)
            except httpx.HTTPError as err:
                raise self._transport_failure(err, exchange) from None
            except httpx.InvalidURL as err:
                raise self._bad_url(err) from None

    def _models(self, exchange: _Exchange) -> list[ModelInfo]:
        with self._client() as client:
            try:
                with client.stream(
                    "GET", self.base_url + "/models", headers=self._headers("application/json"),
                    extensions={"trace": exchange.trace},
                ) as response:
                    exchange.responded = True
                    if response.status_code >= 300:
                        raise self._status_failure(response)
                    raw = self._read_capped(response, self.max_content_bytes + ENVELOPE_ALLOWANCE)
            except httpx.HTTPError as err:
                raise self._transport_failure(err, exchange) from None
            except httpx.InvalidURL as err:
                raise self._bad_url(err) from None
        try:
            data = server_json(raw)
        except UnreadableJson as err:
            raise self._malformed(f"the model list cannot be read: {err.reason}", raw) from None
        entries = data.get("data") if isinstance(data, dict) else None
        if entries is None and isinstance(data, dict):
            entries = data.get("models")  # Ollama's native shape, if a proxy passes it on
        if not isinstance(entries, list):
            raise self._malformed("the model list has no “data” array", raw)
        models: list[ModelInfo] = []
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("id") or entry.get("name"), str):
                models.append(ModelInfo(entry.get("id") or entry["name"], _context_of(entry),
                                        prices_of_entry(entry)))
        return models

    def _read_stream(
        self, response: httpx.Response, exchange: _Exchange, started: float, body: bytes = b""
    ) -> Reply:
        state = _StreamState()
        decoder = EventStreamDecoder(self.max_content_bytes + ENVELOPE_ALLOWANCE,
                                     split_oversized=True)
        cut: str | None = None
        try:
            for chunk in self._body(response):
                for payload in decoder.feed(chunk):
                    self._take(payload, state, exchange, started)
                    if state.done:
                        break
                if state.done:
                    break
            else:
                for payload in decoder.finish():
                    self._take(payload, state, exchange, started)
        except LineTooLong:
            raise self._too_large(state, exchange) from None
        except NotAnEventStream as err:
            raise self._malformed("the reply is not an event stream", err.line,
                                  state.content, exchange.usage) from None
        except httpx.ReadTimeout:
            raise self._failure(
                FailureKind.TIMEOUT, f"the server sent nothing for {_seconds(self.read_timeout_s)}",
                state.content, exchange.usage, hint="Send again",
            ) from None
        except (httpx.RemoteProtocolError, httpx.ReadError) as err:
            if exchange.aborted:
                raise _Aborted from None
            cut = str(err) or type(err).__name__
        if state.payloads == 0 and decoder.lines == 0:
            if not cut and self.preset.empty_stream_overflows:
                raise self._empty_stream_overflow(body, exchange.usage)
            detail = "the server sent nothing: the reply stream was empty"
            if cut:
                detail = "the connection closed before any reply arrived"
            raise self._failure(
                FailureKind.TRUNCATED, detail, "", exchange.usage,
                hint="Some servers do this when the conversation is larger than the model's "
                     "context window; try a smaller context window in the profile",
            )
        if state.held.pop("reasoning", ""):
            state.reasoning_parts.append(REPLACEMENT)
            exchange.emit_reasoning(REPLACEMENT)
        if state.held.pop("content", ""):
            state.parts.append(REPLACEMENT)
            exchange.emit(REPLACEMENT)
        if state.finish_reason is None and not state.done:
            detail = "the stream ended before the reply said it was finished"
            if cut:
                detail = "the connection closed before the reply was finished"
            raise self._failure(FailureKind.TRUNCATED, detail, state.content, exchange.usage,
                                hint="Send again")
        return Reply(
            content=state.content,
            finish_reason=state.finish_reason,
            usage=exchange.usage,
            model=state.model,
            tool_calls=state.tool_calls,
            first_token_s=state.first_token_s,
            reasoning=state.reasoning,
            calls=self._calls(state.calls, state.content, exchange.usage),
        )

    def _take(self, payload: bytes, state: _StreamState, exchange: _Exchange,
              started: float) -> None:
        """Apply one event's data to the reply being assembled."""
        if payload.strip() == _DONE:
            state.done = True
            return
        try:
            chunks = [server_json(payload)]
        except UnreadableJson as err:
            # Some servers put events on consecutive lines with no blank line between.
            lines = [line for line in payload.split(b"\n") if line.strip()]
            if len(lines) < 2:
                raise self._malformed(f"a stream event cannot be read: {err.reason}", payload,
                                      state.content, exchange.usage) from None
            for line in lines:
                self._take(line, state, exchange, started)
            return
        state.payloads += 1
        for chunk in chunks:
            self._take_chunk(chunk, payload, state, exchange, started)

    def _take_chunk(self, chunk: Any, payload: bytes, state: _StreamState,
                    exchange: _Exchange, started: float) -> None:
        if not isinstance(chunk, dict):
            raise self._malformed("a stream event is not a JSON object", payload, state.content,
                                  exchange.usage)
        error = error_from_json(chunk) if chunk.get("error") else None
        if error is not None:
            failure = failure_for_error(None, error, self._secrets())
            raise ProviderFailure(failure, partial=self._redact(state.content),
                                  usage=exchange.usage)
        if isinstance(chunk.get("model"), str) and chunk["model"]:
            state.model = chunk["model"]
        if isinstance(chunk.get("usage"), dict):
            exchange.usage = Usage.from_json(chunk["usage"])
        choices = chunk.get("choices")
        if choices is None:
            return
        if not isinstance(choices, list):
            raise self._malformed("“choices” is not a list", payload, state.content,
                                  exchange.usage)
        for choice in choices:
            if not isinstance(choice, dict):
                raise self._malformed("a choice is not a JSON object", payload, state.content,
                                      exchange.usage)
            if choice.get("index", 0) != 0:
                continue  # Turnlog asks for one choice; ignore any others
            delta = choice.get("delta") or {}
            if not isinstance(delta, dict):
                raise self._malformed("a delta is not a JSON object", payload, state.content,
                                      exchange.usage)
            if delta.get("tool_calls") or delta.get("function_call"):
                state.tool_calls = True
            if delta.get("tool_calls"):
                try:
                    state.calls.feed(delta["tool_calls"])
                except MalformedToolCall as err:
                    raise self._malformed(str(err), payload, state.content,
                                          exchange.usage) from None
            self._take_reasoning(delta, state, exchange)
            text = delta.get("content")
            if isinstance(text, str) and text:
                text = state.mend("content", text)
            if isinstance(text, str) and text:
                size = len(text.encode("utf-8"))
                if state.content_bytes + size > self.max_content_bytes:
                    raise self._too_large(state, exchange)
                state.content_bytes += size
                state.parts.append(text)
                if state.first_token_s is None:
                    state.first_token_s = time.monotonic() - started
                exchange.emit(text)
            reason = choice.get("finish_reason")
            if isinstance(reason, str) and reason:
                state.finish_reason = reason

    def _take_reasoning(self, delta: dict[str, Any], state: _StreamState,
                        exchange: _Exchange) -> None:
        """A reasoning model's delta of thought (DeepSeek, Qwen3 and vLLM/llama.cpp's
        reasoning parsers: `reasoning_content`; OpenRouter and Ollama: `reasoning`)."""
        text = state.mend("reasoning", _reasoning_of(delta))
        if not text:
            return
        size = len(text.encode("utf-8"))
        if state.reasoning_bytes + size > self.max_content_bytes:
            raise self._too_large(state, exchange)
        state.reasoning_bytes += size
        state.reasoning_parts.append(text)
        exchange.emit_reasoning(text)

    def _read_json(self, response: httpx.Response, exchange: _Exchange, started: float) -> Reply:
        raw = self._read_capped(response, self.max_content_bytes + ENVELOPE_ALLOWANCE)
        try:
            data = server_json(raw)
        except UnreadableJson as err:
            if not raw.strip():
                raise self._failure(FailureKind.TRUNCATED,
                                    "the server sent nothing: the reply body was empty", "",
                                    UNKNOWN_USAGE, hint="Send again") from None
            raise self._malformed(f"the reply cannot be read: {err.reason}", raw) from None
        if not isinstance(data, dict):
            raise self._malformed("the reply is not a JSON object", raw)
        if "choices" not in data:
            error = error_from_json(data)
            if error is not None:
                raise ProviderFailure(failure_for_error(None, error, self._secrets()))
        usage = Usage.from_json(data.get("usage"))
        exchange.usage = usage
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._malformed("the reply has no choices", raw, usage=usage)
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise self._malformed("the reply's choice has no message", raw, usage=usage)
        content = _message_text(message.get("content"))
        if content is None:
            raise self._malformed("the reply's content is not text", raw, usage=usage)
        content = mend_surrogates(content)
        if len(content.encode("utf-8")) > self.max_content_bytes:
            raise self._failure(FailureKind.RESPONSE_TOO_LARGE, self._too_large_detail(), "",
                                usage)
        reasoning = mend_surrogates(_reasoning_of(message))
        if len(reasoning.encode("utf-8")) > self.max_content_bytes:
            raise self._failure(FailureKind.RESPONSE_TOO_LARGE, self._too_large_detail(), "",
                                usage)
        if reasoning:
            exchange.emit_reasoning(reasoning)
        first_token_s = None
        if content:
            first_token_s = time.monotonic() - started
            exchange.emit(content)
        reason = choice.get("finish_reason")
        assembler = ToolCallAssembler()
        if message.get("tool_calls"):
            try:
                assembler.feed(message["tool_calls"])
            except MalformedToolCall as err:
                raise self._malformed(str(err), raw, usage=usage) from None
        return Reply(
            content=content,
            finish_reason=reason if isinstance(reason, str) and reason else None,
            usage=usage,
            model=data["model"] if isinstance(data.get("model"), str) else "",
            tool_calls=bool(message.get("tool_calls") or message.get("function_call")),
            first_token_s=first_token_s,
            reasoning=reasoning,
            calls=self._calls(assembler, "", usage),
        )

    def _calls(self, assembler: ToolCallAssembler, partial: str,
               usage: Usage) -> tuple[ToolCall, ...]:
        try:
            return assembler.calls()
        except MalformedToolCall as err:
            raise self._failure(FailureKind.MALFORMED, str(err), partial, usage,
                                hint="Send again, or try another model") from None

    # -- pieces -------------------------------------------------------------------------

    def _client(self) -> httpx.Client:
        # No keep-alive: each exchange opens its own connection, so the socket that
        # `abort` shuts down is always the one this exchange is using.
        return httpx.Client(
            # The watch on the calling thread bounds the first delta and quiet spells; a
            # read may wait as long as the first delta may take.
            timeout=httpx.Timeout(connect=self.connect_timeout_s,
                                  read=max(self.read_timeout_s, self.first_token_timeout_s),
                                  write=self.read_timeout_s, pool=self.connect_timeout_s),
            limits=httpx.Limits(max_keepalive_connections=0),
            # The process's one context for this verify setting; none loaded for http://.
            verify=context_for(self.base_url, self._verify),
            follow_redirects=False,
        )

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": accept,
            # Byte limits then count what the server really sends.
            "Accept-Encoding": "identity",
            "User-Agent": "Turnlog",
        }
        headers.update(dict(self.preset.extra_headers))
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _check_key(self) -> None:
        if self.preset.needs_key and not self._api_key:
            raise ProviderFailure(Failure(
                FailureKind.NO_KEY, detail=f"{self.preset.name} needs an API key",
                hint="Add the key in the profile settings",
            ))
        if self._api_key and not self.allow_insecure_key and key_in_clear(self.base_url):
            raise ProviderFailure(Failure(
                FailureKind.INSECURE_KEY, detail=insecure_key_detail(self.base_url),
                hint=INSECURE_KEY_HINT,
            ))
        if self._api_key and any(not ("!" <= ch <= "~") for ch in self._api_key):
            raise ProviderFailure(Failure(
                FailureKind.AUTH,
                detail="the stored key contains spaces or characters that are not plain ASCII",
                hint="Paste the key again in the profile settings",
            ))

    def _secrets(self) -> tuple[str, ...]:
        return (self._api_key,) if self._api_key else ()

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets())

    def _failure(self, kind: FailureKind, detail: str, partial: str, usage: Usage, *,
                 hint: str = "", status: int | None = None,
                 transport: str = "") -> ProviderFailure:
        failure = Failure(kind, detail=tidy(detail, self._secrets()), hint=hint, status=status,
                          transport=transport)
        return ProviderFailure(failure, partial=self._redact(partial), usage=usage)

    def _empty_stream_overflow(self, body: bytes, usage: Usage) -> ProviderFailure:
        """llama-cpp-python's server answers a request larger than its window with an empty
        stream. The window is then smaller than the request, and the request is at most
        its estimate (which never undercounts): one less than that bounds the window."""
        try:
            messages = [(m["role"], m["content"]) for m in json.loads(body)["messages"]]
            bound: int | None = max(1, estimated_request_tokens(messages) - 1)
        except (ValueError, KeyError, TypeError):
            bound = None
        failure = Failure(
            FailureKind.CONTEXT_OVERFLOW,
            detail=("the server sent nothing, as llama-cpp-python does when the request is "
                    "larger than its context window"),
            hint="Set the context window in the profile, or start a new conversation",
            context_window=bound)
        return ProviderFailure(failure, usage=usage)

    def _malformed(self, what: str, raw: bytes, partial: str = "",
                   usage: Usage = UNKNOWN_USAGE) -> ProviderFailure:
        sample = raw[:120].decode("utf-8", errors="replace")
        return self._failure(FailureKind.MALFORMED, f"{what}: “{sample}”", partial, usage,
                             hint="Check the base URL: it should point at an OpenAI-compatible "
                                  "API (usually ending in /v1)")

    def _too_large_detail(self) -> str:
        return f"the reply passed {_size(self.max_content_bytes)}"

    def _too_large(self, state: _StreamState, exchange: _Exchange) -> ProviderFailure:
        return self._failure(FailureKind.RESPONSE_TOO_LARGE, self._too_large_detail(),
                             state.content, exchange.usage,
                             hint="Ask for a shorter answer or lower the output limit")

    def _bad_url(self, err: Exception) -> ProviderFailure:
        return self._failure(FailureKind.NETWORK, f"the base URL is not usable ({err})", "",
                             UNKNOWN_USAGE, hint="Check the base URL in the profile")

    def _body(self, response: httpx.Response) -> Iterator[bytes]:
        """The body as it arrives; a compressed one inflated here, in pieces of at most
        `_PIECE` bytes, rather than by httpx, which inflates each piece read whole (a small
        gzip body can grow a thousandfold before any limit could look at it)."""
        encodings = [e for e in (part.strip().lower() for part in
                                 response.headers.get("content-encoding", "").split(","))
                     if e and e != "identity"]
        if not encodings:
            yield from response.iter_raw()
            return
        if len(encodings) > 1 or encodings[0] not in _INFLATABLE:
            raise self._failure(
                FailureKind.MALFORMED, "the reply is compressed as "
                f"“{', '.join(encodings)[:40]}”, which Turnlog did not ask for", "",
                UNKNOWN_USAGE)
        inflater = Inflater(encodings[0], _PIECE)
        try:
            for raw in response.iter_raw():
                yield from inflater.feed(raw)
            yield from inflater.finish()
        except zlib.error as err:
            raise self._failure(FailureKind.MALFORMED,
                                f"the reply could not be decompressed ({err})", "",
                                UNKNOWN_USAGE) from None

    def _read_capped(self, response: httpx.Response, limit: int) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise self._failure(FailureKind.RESPONSE_TOO_LARGE, self._too_large_detail(), "",
                                UNKNOWN_USAGE)
        body = bytearray()
        for chunk in self._body(response):
            body += chunk
            if len(body) > limit:
                raise self._failure(FailureKind.RESPONSE_TOO_LARGE, self._too_large_detail(),
                                    "", UNKNOWN_USAGE)
        return bytes(body)

    def _status_failure(self, response: httpx.Response) -> ProviderFailure:
        status = response.status_code
        body = bytearray()
        try:
            for chunk in self._body(response):
                body += chunk
                if len(body) >= MAX_ERROR_BODY_BYTES:
                    del body[MAX_ERROR_BODY_BYTES:]
                    break
        except (httpx.HTTPError, ProviderFailure):
            pass  # what arrived is enough to describe the error
        if 300 <= status < 400:
            where = response.headers.get("location", "another address")
            failure = Failure(FailureKind.HTTP_STATUS, status=status,
                              detail=tidy(f"HTTP {status}: the server redirected to {where}",
                                          self._secrets()),
                              hint="Use that address as the base URL")
            return ProviderFailure(failure)
        failure = failure_for_error(
            status, error_from_body(bytes(body)), self._secrets(),
            retry_after=response.headers.get("retry-after"),
            retry_after_ms=response.headers.get("retry-after-ms"),
        )
        log.debug("HTTP %s from %s", status, self.base_url)
        return ProviderFailure(failure)

    def _transport_failure(self, err: httpx.HTTPError, exchange: _Exchange) -> Exception:
        if exchange.aborted:
            return _Aborted()
        usage = exchange.usage
        if isinstance(err, httpx.ConnectTimeout):
            return self._failure(
                FailureKind.TIMEOUT,
                f"no connection to {self.base_url} within {_seconds(self.connect_timeout_s)}",
                "", usage, hint="Check that the server is running and reachable")
        if isinstance(err, httpx.TimeoutException):
            return self._failure(
                FailureKind.TIMEOUT,
                f"the server sent nothing for {_seconds(self.read_timeout_s)}", "", usage,
                hint="Send again")
        if isinstance(err, httpx.ConnectError):
            return self._failure(FailureKind.NETWORK, _connect_problem(err, self.base_url), "",
                                 usage, hint="Check the base URL and that the server is running",
                                 transport=_refused_or_reset(err))
        if isinstance(err, httpx.UnsupportedProtocol):
            return self._failure(FailureKind.NETWORK,
                                 "the base URL must start with http:// or https://", "", usage,
                                 hint="Check the base URL in the profile")
        if isinstance(err, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
            if exchange.responded:
                return self._failure(FailureKind.TRUNCATED,
                                     "the connection closed before the reply was complete", "",
                                     usage, hint="Send again")
            return self._failure(FailureKind.NETWORK,
                                 f"the server closed the connection without answering ({err})",
                                 "", usage, hint="Send again", transport="reset")
        if isinstance(err, httpx.DecodingError):
            return self._failure(FailureKind.MALFORMED, f"the reply could not be decoded ({err})",
                                 "", usage)
        return self._failure(FailureKind.NETWORK, str(err) or type(err).__name__, "", usage)


def _asks_to_stream(body: bytes) -> bool:
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("stream") is True


def _message_text(content: Any) -> str | None:
    """A message's content as text; None if it is neither text nor a list of text parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        if all(isinstance(part, str) for part in parts):
            return "".join(str(part) for part in parts)
    return None


def _reasoning_of(message: dict[str, Any]) -> str:
    """The reasoning text of a delta or message ("" when there is none)."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def prices_of_entry(entry: dict[str, Any]) -> Prices | None:
    """A models entry's prices per million tokens: OpenRouter lists `pricing` as USD per
    token in text ("0.00000015"); "-1" (a price that varies) or anything unreadable gives
    none: never a guess."""
    pricing = entry.get("pricing")
    if not isinstance(pricing, dict):
        return None

    def per_million(key: str) -> Decimal | None:
        value = pricing.get(key)
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return None
        try:
            return parse_price(Decimal(str(value)) * PER_TOKENS)
        except (InvalidOperation, PriceInvalid):
            return None

    input_, output = per_million("prompt"), per_million("completion")
    if input_ is None or output is None:
        return None
    return Prices(input_, output, per_million("input_cache_read"), "USD",
                  date.today().isoformat(), PRICED_BY_SERVER)


def _context_of(entry: dict[str, Any]) -> int | None:
    """The context window a models entry reports: OpenRouter `context_length`, vLLM
    `max_model_len`, llama.cpp `meta.n_ctx_train`."""
    candidates: list[Any] = [entry.get("context_length"), entry.get("max_model_len"),
                             entry.get("context_window")]
    meta = entry.get("meta")
    if isinstance(meta, dict):
        candidates.append(meta.get("n_ctx_train"))
    for value in candidates:
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _causes(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _connect_problem(err: httpx.ConnectError, base_url: str) -> str:
    """Plain words for why a connection could not be made."""
    url = httpx.URL(base_url)
    where = f"{url.host}:{url.port or (443 if url.scheme == 'https' else 80)}"
    for cause in _causes(err):
        if isinstance(cause, socket.gaierror):
            return f"the server name “{url.host}” could not be found"
        if isinstance(cause, ssl.SSLCertVerificationError):
            return f"the server's certificate was not accepted ({cause.verify_message})"
        if isinstance(cause, ssl.SSLError):
            return f"the secure connection failed ({cause.reason or cause})"
        if isinstance(cause, ConnectionRefusedError) or (
            isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED
        ):
            return f"nothing is listening at {where} (connection refused)"
    return f"could not connect to {where} ({err})"


def _refused_or_reset(err: httpx.ConnectError) -> str:
    """"refused" or "reset" when the connection failed that way (worth trying again)."""
    for cause in _causes(err):
        if isinstance(cause, ConnectionRefusedError) or (
                isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED):
            return "refused"
        if isinstance(cause, ConnectionResetError) or (
                isinstance(cause, OSError) and cause.errno == errno.ECONNRESET):
            return "reset"
    return ""


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _size(value: int) -> str:
    if value >= 1024 * 1024:
        return f"{value / (1024 * 1024):g} MiB"
    if value >= 1024:
        return f"{value / 1024:g} KiB"
    return f"{value} bytes"
