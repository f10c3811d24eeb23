"""One send, from pressing Send to commit or failure, as the window sees it.

`SendSession.start` hands the question to the core send path on the network worker
(connecting first: the built-in model's server may have to start) and reports by
signals: each stage entered, the stage line's text, the answer text as it streams
(coalesced to ~30 Hz), the projection the request carries, and how it ended. The
outcome carries what the window needs to show it — the committed turn, the newest
summary — so the GUI thread does not read the store afterwards.
"""

from __future__ import annotations

import logging
import math
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from ...core.attachments import Attachment
from ...core.failures import ProviderFailure, StoreError
from ...core.model import Conversation
from ...core.outcome import Failed, Outcome, Stage
from ...core.projection import CostIndex, Projection
from ...core.send_request import PartialAnswer
from ...core.summaries import StoredSummary
from ...service.request_body import Ask, build, new_sample_seed, send_request
from ...store.pages import paged
from ..infra import failure_text
from ..infra.languages import arg, number
from ..infra.tasks import TaskContext, TaskHandle, TaskRunner
from ..transcript.frames import after_next_paint
from .connection import Endpoint, NotConnected, Reach
from .edit_mode import EditedTurn
from .tool_gate import ToolGate

if TYPE_CHECKING:
    from ...service.chat import ChatStore

log = logging.getLogger(__name__)

# How core names the wait before another attempt (`Sender`): seconds, attempt, attempts.
RETRY_DETAIL = re.compile(r"in (\d+) s \(attempt (\d+) of (\d+)\)")
# The store's parts a send reads and writes (each made, with its module, on first use).
SEND_PARTS = ("conversations", "turns", "records", "memory", "attachments", "usage")
STREAM_INTERVAL_MS = 33  # streamed text reaches the screen at most ~30 times a second

STAGE_WORDS = {
    Stage.PREPARING: QT_TRANSLATE_NOOP("SendSession", "Preparing"),
    Stage.ORGANIZING: QT_TRANSLATE_NOOP("SendSession", "Organizing turns"),
    Stage.COMPACTING: QT_TRANSLATE_NOOP("SendSession", "Compacting"),
    Stage.STARTING_LOCAL_MODEL: QT_TRANSLATE_NOOP("SendSession", "Starting local model"),
    Stage.ANSWERING: QT_TRANSLATE_NOOP("SendSession", "Answering"),
    Stage.RETRYING: QT_TRANSLATE_NOOP("SendSession", "Retrying"),
}


class StreamBuffer:
    """Answer text handed over from the network thread; the GUI drains it on a timer."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._lock = threading.Lock()
        self.received = 0

    def append(self, text: str) -> None:
        with self._lock:
            self._parts.append(text)
            self.received += len(text)

    def drain(self) -> str:
        with self._lock:
            parts, self._parts = self._parts, []
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Sent:
    """What the network worker hands back: the outcome and the conversation's newest
    summary after it (a send may have made one), read on the worker."""

    outcome: Outcome
    summary: StoredSummary | None
    summary_read: bool = True


@dataclass(frozen=True, slots=True)
class SendResult:
    """How a send ended, with the draft it took (text, cursor) to give back on failure."""

    outcome: Outcome
    conversation_id: int
    draft: tuple[str, int]
    endpoint: Endpoint
    duration_s: float
    summary: StoredSummary | None
    summary_read: bool
    replaces: str | None = None  # the turn this send was a new version of
    continued: PartialAnswer | None = None  # the partial answer this send asked the rest of
    attachments: tuple[Attachment, ...] = ()  # the question's files it sent


def send_on_worker(context: TaskContext, store: ChatStore, connector: Reach,
                   conversation: Conversation, question: str, endpoint: Endpoint,
                   costs: CostIndex, stream: StreamBuffer, replaces: str | None = None,
                   thought: StreamBuffer | None = None,
                   partial: PartialAnswer | None = None,
                   attachments: tuple[Attachment, ...] = (),
                   gate: ToolGate | None = None, seed: int | None = None) -> Sent:
    """The network worker's part: build the request (the one body builder), connect, run
    the core send path, read the summary. The send path reports the body it plans; a
    wait before that (the built-in model's server starting, tool servers starting, a
    summary being made) has the body built from the log as it is reported first
    (`BodyBeforeWait`). With `replaces`, the answer is a new version of that (last)
    turn; a reasoning model's thought streams into `thought`. With `partial`, it asks for
    the rest of that answer (as the connected server can: `Route.prefill`). With `gate`,
    the tools switched on in the conversation are offered (their servers start here).
    `seed`: the body's sampling seed (Regenerate's fresh one)."""
    store = paged(store)  # one paged log for the body reported first and the send
    try:
        memory = store.memory(conversation.id)
    except StoreError as err:
        return Sent(Failed(err.failure(), question), None, summary_read=False)
    ask = Ask(conversation, question, endpoint.route, attachments=attachments,
              memory=memory, replaces=replaces, partial=partial, costs=costs, seed=seed)
    early = BodyBeforeWait(context, store, ask, gate)
    try:  # starts the built-in model's server first, if that is the provider
        link = connector.connect(conversation, cancel=context.cancel, on_stage=early.stage)
    except (NotConnected, ProviderFailure) as err:
        return Sent(Failed(err.failure, question), None, summary_read=False)
    if gate is not None and gate.on_in(conversation):
        early.report()  # their servers may have to start
    tools = gate.tools_for(conversation) if gate is not None else None
    if tools is not None and tools.problems:  # offered without them; the window says why
        context.report(ToolProblems(tuple(
            (p.server.name, p.status.describe()) for p in tools.problems)))
    request = send_request(replace(ask, route=link.route, tools=tools))
    from ...service.chat import sender_for  # loaded by the warm-up (`prepare`), or here

    outcome = sender_for(store, link.provider, link.costs or costs, link.retry).send(
        request, cancel=context.cancel, on_stage=early.stage, on_delta=stream.append,
        on_projection=early.planned,
        on_reasoning=thought.append if thought is not None else None)
    try:
        return Sent(outcome, store.records.latest_summary(conversation.id))
    except Exception as err:
        if not hasattr(err, "kind"):  # not a named storage fault: a bug
            raise
        log.warning("could not read the summary after a send: %s", err)
        return Sent(outcome, None, summary_read=False)


FIRST_PAINT_WAIT_S = 0.1  # the longest a send waits for the window's paint to begin


def _after(painted: threading.Event, work: Callable[[TaskContext], Sent]
           ) -> Callable[[TaskContext], Sent]:
    """`work`, begun once `painted` is set (or FIRST_PAINT_WAIT_S passed)."""

    def waiting(context: TaskContext) -> Sent:
        painted.wait(FIRST_PAINT_WAIT_S)
        return work(context)

    return waiting


class BodyBeforeWait:
    """Reports, once, the body a send builds from the log as it is, when the send waits
    before its path plans the body (a model or a tool server starting, a summary being
    made): what is in flight meanwhile. A send that waits for none of them reports only
    the body its path plans, so the body is built once (on the worker, while the window
    paints the question being answered)."""

    WAITS = frozenset({Stage.STARTING_LOCAL_MODEL, Stage.COMPACTING})

    def __init__(self, context: TaskContext, store: ChatStore, ask: Ask,
                 gate: ToolGate | None) -> None:
        self._context = context
        self._store = store
        self._ask = ask
        self._gate = gate
        self._reported = False

    def stage(self, stage: Stage, detail: str) -> None:
        """A stage of the send begins (reported after the body, when it waits)."""
        if stage in self.WAITS:
            self.report()
        self._context.report((stage, detail))

    def planned(self, projection: Projection) -> None:
        """The send path planned the body it sends: it replaces the one reported first."""
        self._reported = True
        self._context.report(projection)

    def report(self) -> None:
        if self._reported:
            return
        self._reported = True
        ask, store = self._ask, self._store
        specs = self._gate.specs_now(ask.conversation) if self._gate is not None else ()
        try:
            built = build(replace(ask, turns=store.turns(ask.conversation.id),
                                  summary=store.records.latest_summary(ask.conversation.id),
                                  tool_specs=specs))
        except StoreError as err:  # the send path meets the fault and says so
            log.warning("could not build the body in flight: %s", err)
            return
        if built.projection is not None:
            self._context.report(built.projection)


@dataclass(frozen=True, slots=True)
class ToolProblems:
    """Tool servers of the conversation that could not start: (name, what happened)."""

    servers: tuple[tuple[str, str], ...]


class SendSession(QObject):
    """At most one send at a time; `running` while it is on its way."""

    running_changed = Signal(bool)
    stage_entered = Signal(object, str)  # (Stage, the stage line's words), once per stage
    status = Signal(str)  # the stage line: stage, seconds so far, characters received
    streamed = Signal(str)  # answer text received since the last report
    streamed_reasoning = Signal(str)  # a reasoning model's thought since the last report
    projected = Signal(object)  # the Projection the request carries, once planned
    finished = Signal(object)  # SendResult
    crashed = Signal(object)  # the draft (text, cursor): a bug ended the send
    discarded = Signal()  # the send's conversation was deleted: show nothing more of it
    tool_problems = Signal(object)  # ToolProblems: servers whose tools this send lacks

    def __init__(self, store: ChatStore, connector: Reach, runner: TaskRunner,
                 parent: QObject | None = None, *, edit_mode: EditedTurn | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._connector = connector
        self._runner = runner
        self._task: TaskHandle[Sent] | None = None
        self._draft: tuple[str, int] = ("", 0)
        self._endpoint: Endpoint | None = None
        self._conversation: Conversation | None = None
        self.conversation_id: int | None = None
        self._discard = False  # the running send's conversation is being deleted
        # Asked at each send: while a turn is edited, a send there is a new version of it
        # (a session nobody edits through, such as a side question's, has its own, idle).
        self._edit_mode = edit_mode
        self._replaces: str | None = None
        self._continued: PartialAnswer | None = None
        self._attachments: tuple[Attachment, ...] = ()
        self._stream = StreamBuffer()
        self._thought = StreamBuffer()
        self._stage = ""
        # While waiting to try again: when the next attempt goes out, and which it is.
        self._retry_at: tuple[float, str, str] | None = None
        self._stage_entered: tuple[float, str] = (0.0, "")
        self._started = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(STREAM_INTERVAL_MS)
        self._timer.timeout.connect(self._flush)
        self.tools: ToolGate | None = None  # the window's tool servers, when it has them
        self._painted: threading.Event | None = None  # see `start`

    def prepare(self) -> None:
        """While nothing is sent yet: load, on the network worker, what the first send
        would load on first use (the HTTP stack, the TLS context, the store's parts a send
        reads and writes, each made on first use)."""
        store, connector = self._store, self._connector

        def prepare(_context: TaskContext) -> None:
            # the sender, with its tool loop and retries, and what offers and runs tools
            from ...service import chat, tool_use  # noqa: F401

            connector.prepare()
            for part in SEND_PARTS:
                getattr(store, part)

        self._runner.run(TaskRunner.NETWORK, "prepare the connection", prepare,
                         on_success=lambda _result: None,
                         on_failure=lambda err: log.debug("preparing the connection: %s", err))

    @property
    def connector(self) -> Reach:
        """Where this session's requests go (Settings shows the window in effect there)."""
        return self._connector

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, conversation: Conversation, question: str, draft: tuple[str, int],
              endpoint: Endpoint, costs: CostIndex, *, replaces: str | None = None,
              partial: PartialAnswer | None = None,
              attachments: tuple[Attachment, ...] = (), new_sample: bool = False,
              painted_by: QWidget | None = None) -> None:
        """Send `question` in `conversation`; `draft` is given back if it fails. With
        `replaces` (or the turn edited in this conversation, `EditedTurn`) the answer is
        committed as a new version of that turn. With `partial`, ask for the rest of that
        answer to `question` (Continue): committed complete, as one turn. `attachments`:
        the question's files, committed with it. `new_sample` (Regenerate): the body asks
        with a fresh seed where the server takes one. `painted_by`: the list that shows the
        question being answered; the worker builds the body once it has painted that (for
        at most FIRST_PAINT_WAIT_S), so the frame is not drawn while the worker's body
        building holds the interpreter."""
        if self.running:
            raise RuntimeError("a send is already running")
        if replaces is None and partial is None:
            edited = self._edit_mode
            replaces = edited.turn_for(conversation.id) if edited is not None else None
        self._replaces, self._continued = replaces, partial
        self._draft, self._endpoint, self._conversation = draft, endpoint, conversation
        self._attachments = attachments
        self.conversation_id = conversation.id
        self._stream = stream = StreamBuffer()
        self._thought = StreamBuffer()
        self._started = time.monotonic()
        self.running_changed.emit(True)
        self._enter(Stage.PREPARING, "")
        work = self._work(conversation, question, endpoint, costs, stream, replaces, partial,
                          attachments, new_sample_seed(endpoint.route) if new_sample else None)
        self._painted = None
        if painted_by is not None:
            self._painted = painted = threading.Event()
            work = _after(painted, work)
            after_next_paint(painted_by, painted.set)
        self._task = self._runner.run(TaskRunner.NETWORK, "send", work,
                                      on_success=self._succeeded, on_failure=self._failed,
                                      on_progress=self._progress)
        self._timer.start()

    def _work(self, conversation: Conversation, question: str, endpoint: Endpoint,
              costs: CostIndex, stream: StreamBuffer, replaces: str | None,
              partial: PartialAnswer | None = None, attachments: tuple[Attachment, ...] = (),
              seed: int | None = None) -> Callable[[TaskContext], Sent]:
        """What the network worker runs for this send."""
        store, connector, thought, gate = self._store, self._connector, self._thought, \
            self.tools

        def work(context: TaskContext) -> Sent:
            return send_on_worker(context, store, connector, conversation, question,
                                  endpoint, costs, stream, replaces, thought, partial,
                                  attachments, gate, seed)

        return work

    def stop(self) -> None:
        """Cancel the running send (Esc / Stop); it ends as a failure with the draft back."""
        if self._task is not None and not self._task.cancelled:
            self._task.cancel()
            self._release()
            self.status.emit(QCoreApplication.translate("SendSession", "Stopping…"))

    def discard(self, conversation_ids: set[int] | None) -> None:
        """The conversations `conversation_ids` (None: all) are about to be deleted: stop
        a send into one of them and show nothing more of it; the store refuses its late
        writes by generation."""
        if self._task is None or self.conversation_id is None:
            return
        if conversation_ids is not None and self.conversation_id not in conversation_ids:
            return
        self._discard = True
        self._task.cancel()
        self._release()
        self.status.emit(QCoreApplication.translate("SendSession", "Stopping…"))

    def cancel(self) -> None:
        """The window closes: stop without waiting."""
        if self._task is not None:
            self._task.cancel()
            self._release()

    def _release(self) -> None:
        """A stopped send does not wait for the window's paint to begin ending."""
        if self._painted is not None:
            self._painted.set()

    # ---------------------------------------------------------------- progress
    def _progress(self, item: object) -> None:
        if self._discard:
            return  # its conversation is being deleted: show nothing more of it
        if isinstance(item, Projection):
            self.projected.emit(item)
        elif isinstance(item, ToolProblems):
            self.tool_problems.emit(item)
        elif isinstance(item, tuple):
            self._enter(*item)

    def _enter(self, stage: Stage, detail: str) -> None:
        waiting = RETRY_DETAIL.fullmatch(detail) if stage is Stage.RETRYING else None
        self._retry_at = None if waiting is None else (
            time.monotonic() + int(waiting[1]), waiting[2], waiting[3])
        words = QCoreApplication.translate("SendSession", STAGE_WORDS.get(stage, stage.value))
        detail = failure_text.stage(detail)
        self._stage = arg(QCoreApplication.translate(
            "SendSession", "%1 (%2)"), words, detail) if detail else words
        if stage is Stage.RETRYING:  # "Retrying in 3 s (attempt 2 of 3)"
            self._stage = arg(QCoreApplication.translate("SendSession", "%1 %2"), words, detail)
        self._report()
        # The session enters "preparing" before the send path reports it too: one stage.
        entered = (self._started, self._stage)
        if entered != self._stage_entered:
            self._stage_entered = entered
            self.stage_entered.emit(stage, self._stage)

    def _report(self) -> None:
        now = time.monotonic()
        text = arg(QCoreApplication.translate("SendSession", "%1… %2 s"), self._stage,
                   number(now - self._started, 1))
        if self._retry_at is not None:  # one number, counting down to the next attempt
            at, attempt, attempts = self._retry_at
            text = arg(QCoreApplication.translate(
                "SendSession", "Retrying in %1 s (attempt %2 of %3)…"),
                max(0, math.ceil(at - now)), attempt, attempts)
        if self._thought.received:
            text += arg(QCoreApplication.translate(
                "SendSession", " · %1 characters of reasoning"), self._thought.received)
        if self._stream.received:
            text += arg(QCoreApplication.translate(
                "SendSession", " · %1 characters"), self._stream.received)
        if self._task is not None and self._task.cancelled:
            text = QCoreApplication.translate("SendSession", "Stopping…")
        self.status.emit(text)

    def _flush(self) -> None:
        thought = self._thought.drain()
        if thought:
            self.streamed_reasoning.emit(thought)
        text = self._stream.drain()
        if text:
            self.streamed.emit(text)
        self._report()

    # ------------------------------------------------------------------ ending
    def _end(self) -> bool:
        """Stop reporting; True when the send is to be discarded."""
        self._timer.stop()
        self._flush()
        self._task = None
        discard, self._discard = self._discard, False
        self.running_changed.emit(False)
        return discard

    def _succeeded(self, sent: Sent) -> None:
        if self._end():
            self.conversation_id = None
            self.discarded.emit()
            return
        assert self.conversation_id is not None and self._endpoint is not None
        result = SendResult(sent.outcome, self.conversation_id, self._draft, self._where(),
                            time.monotonic() - self._started, sent.summary, sent.summary_read,
                            self._replaces, self._continued, self._attachments)
        self.conversation_id = None
        self.finished.emit(result)

    def _where(self) -> Endpoint:
        """The endpoint the request went to: one the built-in model's server was still to
        start for is asked again, so the last request names where it now runs."""
        endpoint = self._endpoint
        assert endpoint is not None and self._conversation is not None
        if not endpoint.route.pending:
            return endpoint
        try:
            return self._connector.endpoint(self._conversation)
        except NotConnected:  # the provider changed meanwhile: what the send was shown
            return endpoint

    def _failed(self, error: BaseException) -> None:
        """A bug in the send path: the window gives the draft back, then it is reported."""
        discard = self._end()
        self.conversation_id = None
        if discard:
            self.discarded.emit()
        else:
            self.crashed.emit(self._draft)
        sys.excepthook(type(error), error, error.__traceback__)
