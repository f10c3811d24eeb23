"""The exact JSON body of an OpenAI-compatible chat completion request.

`build_body` is the one place a request body is serialized. The projection
measures its output, and the provider sends that same `bytes` object.
`MessageSizes` predicts the byte length of a body from per-message fragments
without serializing it, so selection never re-serializes per candidate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

SYSTEM = "system"
USER = "user"
ASSISTANT = "assistant"


@dataclass(frozen=True, slots=True)
class Message:
    """One message. With `images` (data URLs), the content is a list of parts: the text,
    then one `image_url` part per image, in order."""

    role: str
    content: str
    images: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if not self.images:
            return {"role": self.role, "content": self.content}
        parts: list[dict[str, Any]] = [{"type": "text", "text": self.content}]
        parts += [{"type": "image_url", "image_url": {"url": url}} for url in self.images]
        return {"role": self.role, "content": parts}


@dataclass(frozen=True, slots=True)
class WireMessage:
    """A message whose JSON object is given whole: an assistant's tool calls, a tool's
    result. `content` is what its tokens are counted on (its JSON, which errs high)."""

    role: str
    wire: Mapping[str, Any]

    @property
    def content(self) -> str:
        return encode_json({k: v for k, v in self.wire.items() if k != "role"})

    def to_json(self) -> dict[str, Any]:
        return dict(self.wire)


AnyMessage = Message | WireMessage


@dataclass(frozen=True, slots=True)
class RequestOptions:
    """Request fields besides `model` and `messages`, in wire order. `None` omits a field."""

    stream: bool = True
    include_usage: bool = False
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    # The sampling seed: a new sample (Regenerate) asks with a fresh one where the server
    # takes it, so the server does not give back the answer it gave before.
    seed: int | None = None
    # Not a field of the body: whether the model takes image parts. Without, the images
    # of earlier turns are named in their text instead (a question's own are refused
    # before anything is sent).
    images: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stream": self.stream}
        if self.stream and self.include_usage:
            out["stream_options"] = {"include_usage": True}
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.top_p is not None:
            out["top_p"] = self.top_p
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def encode_json(value: Any) -> str:
    """Compact JSON, non-ASCII kept as UTF-8 rather than \\u escapes."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def build_body(model: str, messages: Sequence[AnyMessage], options: RequestOptions,
               tools: Sequence[Mapping[str, Any]] = ()) -> bytes:
    """The bytes that go on the wire: `{"model":…,"messages":[…],"tools":[…],<options>}`
    as UTF-8; no `tools` field when there are none."""
    body: dict[str, Any] = {"model": model, "messages": [m.to_json() for m in messages]}
    if tools:
        body["tools"] = list(tools)
    body.update(options.to_json())
    return encode_json(body).encode("utf-8")


def tools_bytes(tools: Sequence[Mapping[str, Any]]) -> int:
    """What a `tools` field adds to a body: `,"tools":[…]` (0 without tools)."""
    return len(b',"tools":') + utf8_len(encode_json(list(tools))) if tools else 0


def message_bytes(message: AnyMessage) -> int:
    """Bytes of one message object as it appears inside the `messages` array (no comma)."""
    return utf8_len(encode_json(message.to_json()))


def pair_bytes(question: str, answer: str) -> int:
    """Bytes a user/assistant pair adds to the `messages` array, both separating commas included."""
    return (
        message_bytes(Message(USER, question)) + message_bytes(Message(ASSISTANT, answer)) + 2
    )


@dataclass(frozen=True, slots=True)
class Envelope:
    """Everything in a body that is not a message: model, brackets, options.

    body bytes = envelope.bytes + Σ message bytes + (number of messages − 1).
    """

    model: str
    options: RequestOptions

    @property
    def bytes(self) -> int:
        empty = build_body(self.model, [], self.options)
        return len(empty)

    def options_json(self) -> Mapping[str, Any]:
        return self.options.to_json()
