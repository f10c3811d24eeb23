"""Tools in a turn: the model's calls, their results, and the bounds of the loop.

A turn that used tools is still one turn: its question, then one `ToolRound` per reply
that asked for tools (the assistant's calls and a result for each, in order), then the
final answer. Rounds are projected with their turn, whole, and committed with it, at
once; a call never travels without its result, nor a result without its call.

A tool's error is a result the model reads. A bound hit (rounds, a call's time, the
turn's deadline, an approval nobody answered) is a named failure of the send
(`FailureKind.TOOLS`, the bound in `Failure.code`) that lists the calls that ran.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_ROUNDS = 8
CALL_TIMEOUT_S = 60.0
RESULT_SENT_BYTES = 100_000
RESULT_KEPT_BYTES = 4 * 1024 * 1024
APPROVAL_TIMEOUT_S = 600.0
TURN_DEADLINE_S = 900.0
DECLINED = "The user declined to run this tool call."
MAX_CALLS_PER_REPLY = 32
MAX_ARGUMENT_BYTES = 1 << 20


class MalformedToolCall(ValueError):
    """A reply's tool calls cannot be read as calls (the message says what is wrong)."""


class Approval(enum.Enum):
    """How a call was let run (or not): asked and approved, approved and always allowed
    from now on in this conversation, allowed before without asking, allowed by the
    command line's --approve-all, or declined."""

    RUN = "approved"
    ALWAYS = "always allowed"
    ALLOWED = "allowed before"
    ALL = "approve-all"
    DENY = "declined"

    @property
    def runs(self) -> bool:
        return self is not Approval.DENY


@dataclass(frozen=True, slots=True)
class ToolBounds:
    max_rounds: int = MAX_ROUNDS
    call_timeout_s: float = CALL_TIMEOUT_S
    result_sent_bytes: int = RESULT_SENT_BYTES
    result_kept_bytes: int = RESULT_KEPT_BYTES
    approval_timeout_s: float = APPROVAL_TIMEOUT_S
    deadline_s: float = TURN_DEADLINE_S  # the whole turn, time waiting for approval aside


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as the request offers it (chat-completions `tools` format)."""

    name: str
    description: str
    parameters: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.name, "description": self.description,
            "parameters": dict(self.parameters) or {"type": "object", "properties": {}}}}


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model asked for; `arguments` is the JSON text exactly as it came."""

    id: str
    name: str
    arguments: str

    def parsed(self) -> dict[str, Any]:
        """The arguments as an object; MalformedToolCall when they are not one."""
        try:
            value = json.loads(self.arguments or "{}")
        except ValueError as err:
            raise MalformedToolCall(f"the arguments of “{self.name}” are not JSON: {err}") \
                from None
        if not isinstance(value, dict):
            raise MalformedToolCall(f"the arguments of “{self.name}” are not a JSON object")
        return value

    def pretty_arguments(self) -> str:
        try:
            return json.dumps(json.loads(self.arguments or "{}"), ensure_ascii=False, indent=2)
        except ValueError:
            return self.arguments

    def line(self) -> str:
        """One line naming the call, for a failure's list of what ran."""
        arguments = " ".join(self.arguments.split())
        if len(arguments) > 120:
            arguments = arguments[:117] + "…"
        return f"{self.name} {arguments}"

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A call's result as sent to the model (`content`, cut to the sent limit with a note
    saying so), how long it took, who let it run, whether it ran at all, and the name of
    the tool server that ran it (`server`, "" where none did)."""

    call_id: str
    content: str
    is_error: bool = False
    duration_s: float = 0.0
    approval: Approval = Approval.RUN
    cut_bytes: int = 0  # bytes of the full result left out of `content`
    ran: bool = True  # False: declined, or its arguments could not be read
    server: str = ""

    def to_wire(self) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": self.call_id, "content": self.content}


@dataclass(frozen=True, slots=True)
class ToolRound:
    """One reply that asked for tools, and a result for each of its calls, in order.
    `content`: any text the model said beside its calls."""

    calls: tuple[ToolCall, ...]
    results: tuple[ToolResult, ...]
    content: str = ""
    full_results: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if [c.id for c in self.calls] != [r.call_id for r in self.results] or not self.calls:
            raise ValueError("a tool round needs one result per call, in the calls' order")

    def wire_messages(self) -> tuple[dict[str, Any], ...]:
        """The assistant's message with the calls, then one tool message per result."""
        assistant = {"role": "assistant", "content": self.content or None,
                     "tool_calls": [call.to_wire() for call in self.calls]}
        return (assistant, *(result.to_wire() for result in self.results))

    def pairs(self) -> tuple[tuple[ToolCall, ToolResult], ...]:
        return tuple(zip(self.calls, self.results, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {"content": self.content, "calls": [
            {"id": c.id, "name": c.name, "arguments": c.arguments, "result": r.content,
             "is_error": r.is_error, "duration_s": round(r.duration_s, 3),
             "approval": r.approval.value, "cut_bytes": r.cut_bytes, "ran": r.ran,
             **({"server": r.server} if r.server else {})}
            for c, r in self.pairs()]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ToolRound:
        items = data["calls"]
        calls = tuple(ToolCall(str(i["id"]), str(i["name"]), str(i["arguments"]))
                      for i in items)
        results = tuple(ToolResult(str(i["id"]), str(i["result"]), bool(i["is_error"]),
                                   float(i["duration_s"]), Approval(i["approval"]),
                                   int(i.get("cut_bytes", 0)), bool(i.get("ran", True)),
                                   str(i.get("server") or ""))
                        for i in items)
        return cls(calls, results, str(data.get("content") or ""))


def rounds_to_json(rounds: Sequence[ToolRound]) -> str:
    return json.dumps([r.to_json() for r in rounds], ensure_ascii=False,
                      separators=(",", ":"))


def rounds_from_json(text: str | None) -> tuple[ToolRound, ...]:
    """The rounds `rounds_to_json` wrote; ValueError for text that is not such rounds."""
    if not text:
        return ()
    try:
        return tuple(ToolRound.from_json(item) for item in json.loads(text))
    except (KeyError, TypeError, AttributeError, ValueError) as err:
        raise ValueError(f"the tool exchange cannot be read: {err!r}") from None


def executed(rounds: Sequence[ToolRound]) -> tuple[str, ...]:
    """The calls that ran (their effects stay whatever happens to the send), one a line."""
    return tuple(call.line() for r in rounds for call, result in r.pairs() if result.ran)


def _cut_utf8(text: str, limit: int) -> tuple[str, int]:
    """`text` cut to at most `limit` UTF-8 bytes on a character boundary; and the bytes
    left out."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text, 0
    head = data[:limit].decode("utf-8", "ignore")
    return head, len(data) - len(head.encode("utf-8", "surrogatepass"))


def cut_note(cut: int, total: int) -> str:
    return (f"\n\n[Turnlog cut this result: {cut:,} of its {total:,} bytes are not shown; "
            f"the full result is kept with the turn for the user to see.]")


def result_for_model(text: str, bounds: ToolBounds) -> tuple[str, int, str]:
    """What is sent of a result (with a note saying how much was cut), the bytes cut, and
    the full result kept with the turn (itself cut at the kept limit, noted too)."""
    total = len(text.encode("utf-8", "surrogatepass"))
    kept, kept_cut = _cut_utf8(text, bounds.result_kept_bytes)
    if kept_cut:
        kept += cut_note(kept_cut, total).replace(
            "the full result is kept with the turn for the user to see",
            f"Turnlog keeps at most {bounds.result_kept_bytes:,} bytes of a result")
    sent, cut = _cut_utf8(text, bounds.result_sent_bytes)
    if cut:
        sent += cut_note(cut, total)
    return sent, cut, kept


class ToolCallAssembler:
    """The calls of one reply, from a stream's `tool_calls` deltas (by `index`: the first
    delta of a call brings its id and name, later ones pieces of its arguments) or from a
    whole message's `tool_calls`."""

    def __init__(self) -> None:
        self._calls: dict[int, dict[str, Any]] = {}
        self._bytes = 0

    def __bool__(self) -> bool:
        return bool(self._calls)

    def feed(self, deltas: Any) -> None:
        if not isinstance(deltas, list):
            raise MalformedToolCall("“tool_calls” is not a list")
        for position, delta in enumerate(deltas):
            if not isinstance(delta, dict):
                raise MalformedToolCall("a tool call is not a JSON object")
            index = delta.get("index", position)
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise MalformedToolCall("a tool call has no valid index")
            if index not in self._calls and len(self._calls) >= MAX_CALLS_PER_REPLY:
                raise MalformedToolCall(f"a reply asked for more than {MAX_CALLS_PER_REPLY} "
                                        "tool calls")
            call = self._calls.setdefault(index, {"id": "", "name": "", "arguments": []})
            function = delta.get("function") or {}
            if not isinstance(function, dict):
                raise MalformedToolCall("a tool call's “function” is not a JSON object")
            for key, value in (("id", delta.get("id")), ("name", function.get("name"))):
                if isinstance(value, str) and value:
                    call[key] = call[key] + value if key == "name" and call[key] and \
                        not delta.get("id") else value
            piece = function.get("arguments")
            if isinstance(piece, dict):  # some servers send the object, not its text
                piece = json.dumps(piece, ensure_ascii=False)
            if isinstance(piece, str) and piece:
                self._bytes += len(piece.encode("utf-8", "surrogatepass"))
                if self._bytes > MAX_ARGUMENT_BYTES:
                    raise MalformedToolCall("a reply's tool call arguments exceed 1 MiB")
                call["arguments"].append(piece)

    def calls(self) -> tuple[ToolCall, ...]:
        out = []
        for index in sorted(self._calls):
            call = self._calls[index]
            if not call["name"]:
                raise MalformedToolCall("a tool call has no function name")
            out.append(ToolCall(call["id"] or f"call_{index}", call["name"],
                                "".join(call["arguments"])))
        if len({c.id for c in out}) != len(out):
            raise MalformedToolCall("two tool calls of one reply share an id")
        return tuple(out)


def wire_bytes(message: Mapping[str, Any]) -> int:
    return len(json.dumps(message, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False).encode("utf-8"))
