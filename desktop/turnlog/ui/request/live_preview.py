"""The live preview: the draft projected as the next request would carry it, before
anything is sent, shown on the size counter, the marks and the inspector.

`LivePreview` owns what is on show (`Shown`): the preview of the draft, a what-if under
another byte limit, the request in flight, or the last request's outcome. It never
waits on the network: with an endpoint that counts tokens exactly, it projects with the
counts already made and has the missing ones made on the network worker, then previews
again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from ...core.attachments import Attachment, has_images
from ...core.budget import Budget, InvalidBudget
from ...core.failures import Failure
from ...core.memory import Memory
from ...core.model import Conversation, Turn, Usage, without_last
from ...core.outcome import Committed, Outcome
from ...core.projection import CostIndex, Projection, ProjectionRefused
from ...core.request_record import RequestRecord
from ...core.summaries import StoredSummary
from ...service import request_body
from ...service.known_counts import CancellableCounts, CountNotKnown, known_costs
from ...service.request_body import Ask, Built
from ...service.route import Route, budget_for, model_for, options_for
from ..infra.changes import OpenState
from ..infra.languages import arg, number
from ..infra.preview_operations import build_preview
from ..infra.tasks import TaskContext, TaskHandle, TaskRunner
from ..transcript.frames import after_next_paint
from ..transcript.marks import MarkLegend, MarkMap
from ..transcript.model import TranscriptModel
from .connection import Endpoint, NotConnected, Reach
from .inspector import Inspector, InspectorState
from .inspector_text import count_kind, refusal_text, window_text
from .preview_plan import PreviewAsk, PreviewBodies, PreviewPlan, RequestParts, same_request
from .tool_gate import ToolGate

if TYPE_CHECKING:
    from ...service.tool_use import ToolPreview

PREVIEW_DELAY_MS = 120

HEADINGS = {
    "preview": QT_TRANSLATE_NOOP("LivePreview", "Preview of the next request — nothing is sent"),
    "what-if": QT_TRANSLATE_NOOP("LivePreview", "What-if preview — nothing is sent"),
    "running": QT_TRANSLATE_NOOP("LivePreview", "Request in flight"),
}
# Why a preview is not what Send would put on the wire now (`request_body.build`).
NOT_FINAL = {
    request_body.NO_IMAGES: QT_TRANSLATE_NOOP(
        "LivePreview", "Send is refused: the model takes no images"),
    request_body.TOO_LARGE: QT_TRANSLATE_NOOP(
        "LivePreview", "Send is refused: the request is too large"),
    request_body.BLANK: QT_TRANSLATE_NOOP("LivePreview", "Send is refused: the question is empty"),
    request_body.MODEL_STARTING: QT_TRANSLATE_NOOP(
        "LivePreview", "the built-in model is still starting: its window may change the body"),
}
TOOLS_STARTING = QT_TRANSLATE_NOOP(
    "LivePreview", "a tool server is still starting: its tools are not in this body yet")
COUNTING = QT_TRANSLATE_NOOP(
    "LivePreview", "the exact token counts are still being made")


@dataclass(frozen=True, slots=True)
class Shown:
    """What the marks (and the inspector) describe right now.

    `kind`: "preview" (the draft, nothing sent), "what-if" (the draft under another byte
    limit), "running" (the request in flight) or "last" (the last request's outcome).
    """

    kind: str
    projection: Projection | None
    refusal: ProjectionRefused | None = None
    record: RequestRecord | None = None
    failure: Failure | None = None
    usage: Usage | None = None
    asked: int | None = None
    endpoint: Endpoint | None = None
    duration_s: float | None = None
    # Previews: the turns a send would first summarize, as inclusive runs of ordinals.
    to_summarize: tuple[tuple[int, int], ...] = ()
    reasoning: str = ""  # what a reasoning model thought before the last answer
    # Previews: why the body is not what Send would put on the wire now ("" if it is).
    not_final: str = ""

    @classmethod
    def of(cls, kind: str, built: Built, endpoint: Endpoint | None) -> Shown:
        """A preview (or the request in flight) as the body builder made it."""
        return cls(kind, built.projection, built.refusal, endpoint=endpoint,
                   to_summarize=built.to_summarize_runs(), not_final=built.not_final)

    def marks(self, turns: Sequence[Turn]) -> MarkMap:
        return MarkMap(turns, self.projection, self.to_summarize, self.asked)

    @classmethod
    def outcome(cls, outcome: Outcome, endpoint: Endpoint, duration_s: float) -> Shown:
        """The last request as it ended: saved as a turn, or not saved and why."""
        if isinstance(outcome, Committed):
            return cls("last", outcome.projection, record=outcome.record,
                       usage=outcome.reply.usage, asked=outcome.turn.ordinal,
                       endpoint=endpoint, duration_s=duration_s,
                       reasoning=outcome.turn.reasoning)
        return cls("last", outcome.projection, outcome.refusal, record=outcome.record,
                   failure=outcome.failure, endpoint=endpoint, duration_s=duration_s,
                   usage=outcome.record.usage if outcome.record else None)

    def heading(self) -> str:
        if self.kind == "last":
            return (QCoreApplication.translate("LivePreview", "Last request — answered and saved")
                    if self.failure is None else QCoreApplication.translate(
                        "LivePreview", "Last request — not saved"))
        return QCoreApplication.translate(
            "LivePreview", HEADINGS.get(self.kind, HEADINGS["preview"]))

    def source_text(self, what_if_bytes: int | None) -> str:
        """The legend's first words: which request the marks describe."""
        if self.kind == "running":
            return QCoreApplication.translate(
                "LivePreview", "Marks show the request being answered:")
        if self.kind == "last":
            return QCoreApplication.translate("LivePreview", "Marks show the last request:")
        if self.kind == "what-if":
            return arg(QCoreApplication.translate(
                "LivePreview", "Marks show what would be sent if the limit were %1 bytes:"),
                       what_if_bytes)
        return QCoreApplication.translate(
            "LivePreview", "Marks show what the next request would carry:")


def counter_text(projection: Projection | None, refusal: ProjectionRefused | None,
                 budget: Budget | None, count_label: str = "") -> tuple[str, str]:
    """The size counter under the draft and its tooltip (which says where the context
    window came from)."""
    if budget is None:
        return "", ""
    if projection is not None:
        body, tokens = projection.body_bytes, projection.input_tokens
        exact = projection.tokens_exact
    elif refusal is not None:
        body, tokens, exact = refusal.mandatory_bytes, refusal.mandatory_tokens, \
            refusal.tokens_exact
    else:
        return "", ""
    kind = count_kind(exact, count_label)
    approx = "" if exact else "~"
    text = arg(QCoreApplication.translate(
        "LivePreview", "%1 / %2 bytes · %3%4 / %5 tokens (%6)"), body, budget.max_bytes,
               approx, number(tokens), budget.input_tokens, kind)
    tip = arg(QCoreApplication.translate(
        "LivePreview", "The request body if you sent now (exact bytes on the wire) and its "
        "input tokens "
        "(%1), each against its limit. Context window: %2."), kind, window_text(budget))
    return text, tip


class DraftBox(Protocol):
    """What the preview reads of the box the question is typed in (the composer), and
    what it shows there."""

    @property
    def busy(self) -> bool: ...

    def text(self) -> str: ...

    @property
    def attachments(self) -> tuple[Attachment, ...]: ...

    def take_images(self, images: bool) -> None: ...  # the model in use takes images

    def set_counter(self, text: str, tooltip: str = "") -> None: ...

    def set_blocked(self, reason: str) -> None: ...


class LivePreview(QObject):
    """Projects the draft of the open conversation (`current()`) over the transcript's
    turns, and shows that — or the request in flight, or the last outcome — on the
    composer's counter, the marks, the legend and the inspector."""

    shown_changed = Signal(object)  # the Shown now on display

    def __init__(self, current: Callable[[], Conversation | None], connector: Reach,
                 runner: TaskRunner, composer: DraftBox, transcript: TranscriptModel,
                 legend: MarkLegend, inspector: Inspector, state: OpenState,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._current = current
        self._connector = connector
        self._runner = runner
        self._composer = composer
        self._transcript = transcript
        self._legend = legend
        self._inspector = inspector
        # Estimated counts; an endpoint that counts exactly lends its own index once up.
        # Its counts may each be a request to the server: previews use only the ones
        # already made, and `_warm` makes the missing ones on the network worker.
        self.estimated_costs = self.costs = CostIndex()
        # The open conversation's newest summary, its memory and the turn edited: read
        # from their owner, never kept here.
        self._state = state
        self.shown = Shown("preview", None)
        self.last: Shown | None = None  # the last request's outcome
        self._show_last = False
        self.what_if_bytes: int | None = None
        self._generation = 0  # counts the previews asked for: the newest one shows
        self._warm: TaskHandle[None] | None = None
        self._warm_key: tuple[object, ...] | None = None  # what `_warm` counts for
        self._warmed_key: tuple[object, ...] | None = None  # the last warm-up that landed
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self._line_made: tuple[object, str, Sequence[Turn]] | None = None
        self.tools: ToolGate | None = None  # the window's tool servers, when it has them
        self._tools_starting: TaskHandle[object] | None = None

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Another conversation opened (or none): nothing of the last one stays."""
        self.what_if_bytes = None
        self.forget_last()

    @property
    def summary(self) -> StoredSummary | None:
        """The open conversation's newest stored summary (None: it has none)."""
        return self._state.summary

    @property
    def memory(self) -> Memory:
        """The open conversation's pins, notes and preferences, as a send carries them."""
        return self._state.memory

    def forget_last(self) -> None:
        """The last request no longer describes the log (a turn or the settings changed)."""
        self.last = None
        self._show_last = False

    def forget_turns(self, turn_ids: Iterable[str]) -> None:
        self.costs.forget(list(turn_ids))

    def draft_edited(self) -> None:
        """Preview again shortly after typing stops; the draft replaces the last outcome."""
        if self._composer.busy:
            return
        self._show_last = False
        self._timer.start()

    def choose_last(self, last: bool) -> None:
        """Show the last request (the body actually sent) or the draft's preview."""
        if self._composer.busy:
            return
        self._show_last = last and self.last is not None
        if self._show_last:
            self.what_if_bytes = None
        self.refresh()

    def set_what_if(self, max_bytes: int | None) -> None:
        """Preview the draft under another byte limit; nothing is sent or saved."""
        self.what_if_bytes = max_bytes
        self._show_last = False if max_bytes is not None else self._show_last
        self.refresh()

    def parts(self, conversation: Conversation) -> RequestParts:
        """Endpoint, model and budget of a request for `conversation` now."""
        problem: tuple[str, str] | None = None
        try:
            endpoint: Endpoint | None = self._connector.endpoint(conversation)
        except NotConnected as err:
            endpoint = None
            problem = (err.title, err.message)
        route = endpoint.route if endpoint else Route(conversation.model)
        model = model_for(conversation, route)
        # Exact counts once the built-in model's server is up; the estimate until then.
        costs = self._connector.exact_costs(conversation) or self.estimated_costs
        try:
            budget: Budget | None = budget_for(conversation, route)
        except InvalidBudget as err:
            budget = None
            problem = (QCoreApplication.translate(
                "LivePreview", "The conversation's limits are not valid"),
                       arg(QCoreApplication.translate(
                           "LivePreview", "%1 Fix it in Settings (Ctrl+,)."), err))
        return RequestParts(endpoint, model, budget, problem, costs)

    # ----------------------------------------------------------------- previewing
    def refresh(self) -> None:
        """Project the draft (nothing is sent): the counter, whether Send can go, and,
        unless the last request is still on show, the marks."""
        plan = self._plan()
        if plan is not None:
            self._apply(plan, plan.build())

    def refresh_in_background(self, painted_by: QWidget | None = None) -> None:
        """As `refresh`, the bodies built on the storage worker, after `painted_by`'s next
        frame (a send just ended: its row is painted first, the build holding the
        interpreter); shown unless the window previewed again or moved on since."""
        plan = self._plan()
        if plan is None:
            return
        if self._runner.closed or plan.what_if is not None or not self._show_last \
                or self.last is None:  # (the draft given back is previewed at once)
            self._apply(plan, plan.build())
            return
        self.show(self.last)  # the outcome at once; the counter follows

        def landed(bodies: PreviewBodies) -> None:
            if plan.generation != self._generation or self._composer.busy:
                return  # a newer preview replaced this one, or a send started
            current = self._current()
            if current is None or current.id != plan.conversation.id \
                    or self._composer.text() != plan.draft or self._line() is not plan.line:
                self.refresh()  # changed without asking for a preview: made again now
                return
            self._apply(plan, bodies, on_show=self.shown)

        def start() -> None:
            if plan.generation == self._generation and not self._runner.closed:
                build_preview(plan.build).run(
                    self._runner, on_success=landed,
                    on_failure=lambda error: sys.excepthook(type(error), error,
                                                            error.__traceback__))

        if painted_by is None:
            start()
        else:
            after_next_paint(painted_by, start)

    def _plan(self) -> PreviewPlan | None:
        """What a preview of the draft builds, as the window is now (None: nothing to
        build; what shows then is shown at once)."""
        self._timer.stop()
        self._generation += 1
        composer = self._composer
        if composer.busy:
            return None
        conversation = self._current()
        if conversation is None:
            composer.set_counter("")
            composer.set_blocked("")  # none open, nothing typed: Send waits for a question
            self.show(Shown("preview", None))
            return None
        parts = self.parts(conversation)
        self.costs = parts.costs or self.estimated_costs
        draft = composer.text()
        options = options_for(conversation, route=parts.route)
        composer.take_images(options.images)  # the chips count what this model is sent
        problem = parts.problem[1] if parts.problem else ""
        if not problem and not options.images and has_images(composer.attachments):
            problem = QCoreApplication.translate(
                "LivePreview", "This model does not take images: remove them, or turn on "
                "“Accepts images” for this connection in Settings.")
        budgeted = parts.budget is not None
        return PreviewPlan(
            conversation, parts, draft, self._line(), problem,
            self._preview_ask(conversation, parts, draft) if budgeted else None,
            self._preview_ask(conversation, parts, draft, self.what_if_bytes)
            if budgeted and self.what_if_bytes is not None else None, self._generation)

    def _apply(self, plan: PreviewPlan, bodies: PreviewBodies, *,
               on_show: Shown | None = None) -> None:
        """Show what `plan` built: the counter, whether Send can go, and the marks (unless
        they are `on_show` already)."""
        parts, composer = plan.parts, self._composer
        shown = Shown("preview", None, endpoint=parts.endpoint) if bodies.draft is None \
            else Shown.of("preview", bodies.draft, parts.endpoint)
        problem = plan.problem
        if shown.refusal is not None:
            problem = problem or arg(QCoreApplication.translate(
                "LivePreview", "Too large to send: %1"),
                                        refusal_text(shown.refusal))
        composer.set_blocked(problem)  # a blank draft keeps Send off too
        composer.set_counter(*counter_text(shown.projection, shown.refusal, parts.budget,
                                           parts.route.count_label if parts.route else ""))
        if bodies.what_if is not None:
            shown = Shown.of("what-if", bodies.what_if, parts.endpoint)
        elif self._show_last and self.last is not None:
            shown = self.last
        if shown is not on_show:
            self.show(shown)
        if bodies.counts_missing and parts.budget is not None:
            self._warm_counts(plan.conversation, parts, plan.draft)

    def ask(self, conversation: Conversation, parts: RequestParts, draft: str, *,
            costs: CostIndex | None = None, max_bytes: int | None = None,
            waiting: str = "") -> Ask:
        """Everything a send of `draft` in `conversation` depends on, as the window knows
        it now (nothing is started or read from disk)."""
        route = parts.route or Route(conversation.model)
        tools = self._tools_now(conversation)
        if not waiting and parts.problem is not None:
            waiting = arg(QCoreApplication.translate("LivePreview", "Send is refused: %1"),
                          parts.problem[0])
        if not waiting and tools.starting:
            waiting = QCoreApplication.translate("LivePreview", TOOLS_STARTING)
        return Ask(conversation, draft, route, self._transcript.turns,
                   attachments=self._composer.attachments, memory=self.memory,
                   summary=self.summary,
                   replaces=self._state.turn_for(conversation.id),
                   tool_specs=tools.specs, costs=costs or self.costs, max_bytes=max_bytes,
                   waiting=waiting)

    def _tools_now(self, conversation: Conversation) -> ToolPreview:
        """The tools a send would offer, from the servers as they are now; those not
        started yet are started on the network worker, and the preview made again."""
        from ...service.tool_use import ToolPreview, tool_preview  # loaded by the warm-up

        gate = self.tools
        if gate is None or not conversation.settings.tool_servers:
            return ToolPreview()  # tools off: tools.json is not even read
        found = tool_preview(gate.host, gate.on_in(conversation))
        if found.starting and not self._runner.closed and self._tools_starting is None:
            self._tools_starting = self._runner.run(
                TaskRunner.NETWORK, "start tool servers",
                lambda context: gate.tools_for(conversation),
                on_success=lambda tools: self._tools_started(),
                on_failure=lambda error: self._tools_started())
        return found

    def _tools_started(self) -> None:
        self._tools_starting = None
        if not self._composer.busy:
            self.refresh()

    def _preview_ask(self, conversation: Conversation, parts: RequestParts, draft: str,
                     max_bytes: int | None = None) -> PreviewAsk:
        """What the one body builder is asked for the request a send would make now: with
        the cached summary where the send would reuse it, naming the turns it would
        summarize first.

        With an endpoint that counts exactly, only counts already made are used; if one
        is missing, the whole preview is estimated (labelled so, and not final) and the
        missing counts are made in the background (`_warm_counts`).
        """
        costs = self.costs
        if costs is self.estimated_costs:
            return PreviewAsk(self.ask(conversation, parts, draft, costs=costs,
                                       max_bytes=max_bytes))
        known = known_costs(costs)
        if known is None:  # an exact counter that never asks anyone: use it as it is
            return PreviewAsk(self.ask(conversation, parts, draft, costs=costs,
                                       max_bytes=max_bytes))
        return PreviewAsk(
            self.ask(conversation, parts, draft, costs=known, max_bytes=max_bytes),
            self.ask(conversation, parts, draft, costs=self.estimated_costs,
                     max_bytes=max_bytes,
                     waiting=QCoreApplication.translate("LivePreview", COUNTING)))

    def _line(self) -> Sequence[Turn]:
        """The active line a send would follow: without its newest turn while the draft
        replaces it (made once per log and edit, so a paged log keeps its pages)."""
        conversation = self._current()
        turns = self._transcript.turns
        # Edit and resend: the preview is of the turns before the edited one.
        replacing = self._state.turn_for(conversation.id if conversation else None)
        if replacing is None or not turns or turns[-1].id != replacing:
            return turns
        made = self._line_made
        if made is None or made[0] is not turns or made[1] != replacing:
            made = self._line_made = (turns, replacing, without_last(turns))
        return made[2]

    # ------------------------------------------------------------- exact counts
    def _warm_counts(self, conversation: Conversation, parts: RequestParts, draft: str) -> None:
        """Make, on the network worker, the exact counts the preview lacked, then preview
        again. The newest warm-up wins: an older one is cancelled between two counts and
        what it reports is ignored."""
        costs, line = self.costs, self._line()
        asks = [self.ask(conversation, parts, draft, costs=costs)]
        if self.what_if_bytes is not None:
            asks.append(replace(asks[0], max_bytes=self.what_if_bytes))
        first = asks[0]
        key: tuple[object, ...] = (
            id(costs), conversation.id, conversation.system_prompt, len(line),
            line[-1].id if line else None, draft,
            tuple(a.digest for a in first.attachments), first.route, self.what_if_bytes,
            first.summary.id if first.summary is not None else None, first.memory,
            first.tool_specs)
        if key == self._warm_key or key == self._warmed_key or self._runner.closed:
            return  # already on its way, or made and still missing: do not loop
        self.cancel_warm()

        def work(context: TaskContext) -> None:
            counting = costs.sharing(CancellableCounts(costs.counter, context.cancel))
            for ask in asks:
                # A refusal needs only the mandatory part, which is counted all the same.
                request_body.build(replace(ask, costs=counting), line)

        def landed(_: None) -> None:
            if self._warm is not handle:
                return  # a newer warm-up replaced this one
            self._warm = self._warm_key = None
            self._warmed_key = key
            if not self._composer.busy:
                self.refresh()

        def failed(error: BaseException) -> None:
            if self._warm is handle:
                self._warm = self._warm_key = None
            if not isinstance(error, CountNotKnown):  # not just cancelled: a bug
                sys.excepthook(type(error), error, error.__traceback__)

        handle = self._runner.run(TaskRunner.NETWORK, "count tokens", work,
                                  on_success=landed, on_failure=failed)
        self._warm, self._warm_key = handle, key

    def cancel_warm(self) -> None:
        if self._warm is not None:
            self._warm.cancel()
        self._warm = self._warm_key = None

    # ------------------------------------------------------------------ showing
    def show_running(self, endpoint: Endpoint) -> None:
        """A send started: until its path reports the body it builds (`show_sent`, at
        once), nothing of the composer's preview stands for it."""
        self.show(Shown("running", None, endpoint=endpoint))

    def show_sent(self, projection: Projection) -> None:
        """The request in flight carries `projection` (as its send path built it): the
        inspector, the marks and the counter show that body, not the composer's. The send
        path plans the body reported at once again: when it is the same request, all that
        shows it stays as it is."""
        shown = self.shown
        if shown.kind == "running" and shown.projection is not None \
                and same_request(shown.projection, projection):
            self.shown = replace(shown, projection=projection)
            return
        endpoint = shown.endpoint
        self.show(Shown("running", projection, endpoint=endpoint))
        self._composer.set_counter(*counter_text(
            projection, None, projection.budget,
            endpoint.route.count_label if endpoint else ""))

    def show_outcome(self, outcome: Outcome, endpoint: Endpoint, duration_s: float) -> None:
        """Keep the last request's outcome on show until the draft is edited. A send that
        ended before its request was built (Stop while the built-in model started) made
        no request: the preview of the draft it gave back stays on show, with its marks."""
        self.last = Shown.outcome(outcome, endpoint, duration_s)
        self._show_last = isinstance(outcome, Committed) or outcome.projection is not None

    def _summary_of(self, projection: Projection | None) -> StoredSummary | None:
        """The stored summary `projection` carries, when it is the one loaded."""
        part = projection.summary if projection is not None else None
        summary = self.summary
        if part is None or summary is None or part.summary_id != summary.id:
            return None
        return summary

    @staticmethod
    def _not_final_text(shown: Shown) -> str:
        reason = shown.not_final
        if reason in NOT_FINAL:
            return QCoreApplication.translate("LivePreview", NOT_FINAL[reason])
        return reason  # translated where it was found, or the summary's own words

    def show(self, shown: Shown) -> None:
        self.shown = shown
        summary = self._summary_of(shown.projection)
        self._transcript.set_summary(summary)
        self._transcript.set_marks(shown.marks(self._transcript.turns))
        self._legend.set_source(shown.source_text(self.what_if_bytes))
        conversation = self._current()
        self._inspector.show_state(InspectorState(
            heading=shown.heading(),
            projection=shown.projection,
            refusal=shown.refusal,
            record=shown.record,
            failure=shown.failure,
            usage=shown.usage,
            duration_s=shown.duration_s,
            endpoint=(arg(QCoreApplication.translate(
                "LivePreview", "%1 · model %2"), shown.endpoint.label,
                          shown.endpoint.model) if shown.endpoint else ""),
            count_label=shown.endpoint.route.count_label if shown.endpoint else "",
            max_bytes=conversation.settings.max_bytes if conversation else None,
            what_if=self.what_if_bytes if shown.kind == "what-if" else None,
            asked=shown.asked,
            compaction=bool(conversation and conversation.settings.compaction),
            summary=summary,
            to_summarize=shown.to_summarize,
            reasoning=shown.reasoning,
            not_final=self._not_final_text(shown),
            last_available=self.last is not None and shown.kind != "running",
            showing_last=shown.kind == "last",
            in_flight=shown.kind == "running",
            prices=shown.endpoint.route.pricing.prices if shown.endpoint else None,
            numbers=self._transcript.numbers,
        ))
        self.shown_changed.emit(shown)
