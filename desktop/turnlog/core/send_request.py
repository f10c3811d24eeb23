"""What a send is asked to do: the candidate (`SendRequest`) and an answer that stopped
before it was complete (`PartialAnswer`). Plain data, quick to load: the preview,
`turnlog-cli project` and the window's first screen build these without loading the
sender (`core.send`, which names them too).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

from .body import RequestOptions
from .budget import Budget
from .cost import NO_PRICING, Pricing
from .model import UNKNOWN_USAGE, Conversation, Turn, Usage
from .projection import Pinned

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # what a send keeps or goes on with: loaded when it does
    from .attachments import Attachment
    from .partial import Continuation
    from .pending import PendingTurn
    from .tool_loop import ToolRunner
    from .tools import ToolSpec


@dataclass(frozen=True, slots=True)
class SendRequest:
    """The candidate: what the user asked, and how to project it."""

    conversation: Conversation
    question: str
    model: str
    budget: Budget
    options: RequestOptions = field(default_factory=RequestOptions)
    pinned: Pinned = ()  # pinned facts, or the conversation's memory with its optional items
    turn_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    # A new version of the last turn (regenerate, edit and resend): asked with the turns
    # before it, committed as superseding it.
    replaces: str | None = None
    # A request for the rest of a partial answer to `question`: committed, once complete,
    # as one turn whose answer is the partial answer and the rest.
    continuation: Continuation | None = None
    # The files and images attached to the question (`turnlog.attachments` reads them).
    attachments: tuple[Attachment, ...] = ()
    # The tools this send may offer and run (None: no `tools` field is sent).
    tools: ToolRunner | None = None
    # The profile and prices its request records are costed at.
    pricing: Pricing = NO_PRICING


def offered_specs(request: SendRequest) -> tuple[ToolSpec, ...]:
    """The tool definitions `request` offers (none without tools)."""
    return tuple(request.tools.specs()) if request.tools is not None else ()


@dataclass(frozen=True, slots=True)
class PartialAnswer:
    """An answer that stopped before it was complete, offered to the person to keep or
    continue. Nothing of it is in the log: `keep_partial` commits it, marked `reason`,
    under `turn_id`, as a new version of `replaces` when the request was one; a log
    changed meanwhile by a delete (`generation`) refuses it."""

    conversation_id: int
    question: str
    text: str
    reason: str
    model: str
    turn_id: str
    generation: int | None
    finish_reason: str = ""
    usage: Usage = UNKNOWN_USAGE
    replaces: str | None = None
    reasoning: str = ""
    attachments: tuple[Attachment, ...] = ()

    def pending(self) -> PendingTurn:
        from .pending import PendingTurn

        return PendingTurn(
            id=self.turn_id, question=self.question, answer=self.text, model=self.model,
            finish_reason=self.finish_reason, usage=self.usage, created_at=datetime.now(UTC),
            generation=self.generation, replaces=self.replaces, reasoning=self.reasoning,
            incomplete=self.reason, attachments=self.attachments,
        )

    @classmethod
    def of_kept(cls, conversation_id: int, turn: Turn) -> PartialAnswer:
        """The answer of a turn kept incomplete, to continue: the complete answer will be
        a new version of it (asked with the turns before it)."""
        return cls(conversation_id, turn.question, turn.answer, turn.incomplete or "",
                   turn.model, uuid.uuid4().hex, None, replaces=turn.id,
                   attachments=turn.attachments)

    def continuation(self, *, prefill: bool) -> Continuation:
        """What a request for the rest of this answer goes on from."""
        from .partial import Continuation

        return Continuation(self.text, self.reason, prefill=prefill)
