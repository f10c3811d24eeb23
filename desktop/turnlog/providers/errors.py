"""What an error response means, as one of core's named failures.

Servers disagree about how they say things. This module knows the shapes in use:
OpenAI's `{"error": {"message", "type", "code"}}`, vLLM's top-level
`{"object": "error", "message": …}`, Ollama's `{"error": "…"}`, FastAPI's
`{"detail": …}` and plain text or HTML pages from proxies in between.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from turnlog.core.failures import Failure, FailureKind, rate_limit_hint
from turnlog.core.redaction import redact

from .wirejson import UnreadableJson, server_json

MAX_DETAIL_CHARS = 300

# Substrings (lower case) by which servers say a request is larger than the model's
# context window. OpenAI and vLLM: "This model's maximum context length is …";
# llama.cpp: "the request exceeds the available context size"; llama-cpp-python:
# "Requested tokens (…) exceed context window of …"; Ollama: "input length exceeds the
# context length" / "exceeds the context window".
_OVERFLOW_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})
_OVERFLOW_PHRASES = (
    "maximum context length",
    "context length",
    "context window",
    "context size",
    "context_length_exceeded",
    "exceed_context_size",
)


# The window an overflow message states: OpenAI and vLLM "maximum context length is 8192
# tokens", llama-cpp-python "exceed context window of 4096", others "n_ctx: 4096".
_STATED_WINDOW = (
    re.compile(r"maximum context length is (\d[\d,]*)", re.IGNORECASE),
    re.compile(r"context window of (\d[\d,]*)", re.IGNORECASE),
    re.compile(r"\bn_ctx\W{0,3}(\d+)"),
)


@dataclass(frozen=True, slots=True)
class ServerError:
    """An error as the server stated it: its message and machine-readable tags, if any.
    `n_ctx`: the context window llama.cpp's `exceed_context_size_error` carries."""

    message: str
    code: str = ""
    type: str = ""
    n_ctx: int | None = None

    @property
    def stated_window(self) -> int | None:
        """The context window the error states, if it states one."""
        if self.n_ctx is not None:
            return self.n_ctx
        for pattern in _STATED_WINDOW:
            found = pattern.search(self.message)
            if found:
                window = int(found.group(1).replace(",", ""))
                return window if window > 0 else None
        return None

    @property
    def is_context_overflow(self) -> bool:
        if self.code.lower() in _OVERFLOW_CODES or self.type.lower() in _OVERFLOW_CODES:
            return True
        text = self.message.lower()
        return any(phrase in text for phrase in _OVERFLOW_PHRASES)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def error_from_json(data: Any) -> ServerError | None:
    """The error inside a decoded JSON body, or None if the body carries none."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if isinstance(error, dict):
        n_ctx = error.get("n_ctx")
        return ServerError(
            _text(error.get("message") or error.get("detail") or error),
            _text(error.get("code")),
            _text(error.get("type")),
            n_ctx if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0
            else None,
        )
    if isinstance(error, str) and error:
        return ServerError(error)
    if data.get("object") == "error" or ("message" in data and "choices" not in data):
        return ServerError(_text(data.get("message")), _text(data.get("code")),
                           _text(data.get("type")))
    if "detail" in data and "choices" not in data:
        return ServerError(_text(data.get("detail")))
    return None


def error_from_body(body: bytes) -> ServerError:
    """What an error response body says: its JSON error, else its text without markup."""
    try:
        data = server_json(body)
    except UnreadableJson:
        data = None
    found = error_from_json(data)
    if found is not None:
        return found
    text = body.decode("utf-8", errors="replace")
    if text.lstrip().startswith("<"):
        title = re.search(r"(?is)<title[^>]*>(.*?)</title>", text)
        text = title.group(1) if title else re.sub(r"(?s)<[^>]*>", " ", text)
    return ServerError(text)


def tidy(text: str, secrets: Iterable[str]) -> str:
    """A detail fit to show: secrets removed, whitespace collapsed, length bounded."""
    text = " ".join(redact(text, secrets).split())
    if len(text) > MAX_DETAIL_CHARS:
        text = text[: MAX_DETAIL_CHARS - 1].rstrip() + "…"
    return text


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After value (delta seconds or an HTTP date)."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        from email.utils import parsedate_to_datetime  # an HTTP date: rare, and slow to load

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        return None
    return max(0.0, seconds)


def failure_for_error(
    status: int | None,
    error: ServerError,
    secrets: Iterable[str],
    *,
    retry_after: str | None = None,
    retry_after_ms: str | None = None,
) -> Failure:
    """The named failure for an HTTP error status (or an error event inside a stream,
    `status` None), with the server's own words as the detail."""
    secrets = tuple(secrets)
    detail = tidy(error.message, secrets)
    if not detail and status is not None:
        detail = f"HTTP {status}"
    if status == 429:
        wait = None
        if retry_after_ms is not None:
            wait_ms = parse_retry_after(retry_after_ms)
            wait = wait_ms / 1000 if wait_ms is not None else None
        if wait is None:
            wait = parse_retry_after(retry_after)
        return Failure(FailureKind.RATE_LIMITED, detail=detail, hint=rate_limit_hint(wait),
                       retry_after=wait, status=status)
    if status in (401, 403):
        return Failure(FailureKind.AUTH, detail=detail, status=status,
                       hint="Check the API key in the profile")
    if error.is_context_overflow:
        return Failure(FailureKind.CONTEXT_OVERFLOW, detail=detail, status=status,
                       hint="Lower the context window in the profile or start a new "
                            "conversation", context_window=error.stated_window)
    if status == 404:
        return Failure(FailureKind.MODEL_NOT_FOUND, detail=detail, status=status,
                       hint="Check the model name and the base URL in the profile")
    if status in (408, 504):
        return Failure(FailureKind.TIMEOUT, detail=detail, status=status,
                       hint="Send again")
    if status == 413:
        return Failure(FailureKind.REQUEST_TOO_LARGE, detail=detail, status=status,
                       hint="Lower the request size limit in the conversation settings")
    if status is not None and not detail.startswith(f"HTTP {status}"):
        detail = f"HTTP {status}: {detail}"
    return Failure(FailureKind.HTTP_STATUS, detail=detail, status=status)
