"""Where a conversation's requests go and what each one is: the route (model, window,
options a profile or the built-in model fixes) and the candidate a send, a preview and
`turnlog-cli project` build over it — known without connecting, reading the keyring or
loading the sender (`service.chat` connects and sends; it names these too).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..config.profiles import NetworkSettings, Profile
from ..core.attachments import Attachment
from ..core.body import RequestOptions
from ..core.budget import (
    WINDOW_ASSUMED,
    WINDOW_FROM_SERVER,
    WINDOW_SET_BY_YOU,
    Budget,
    default_output_reserve,
    reserve_in,
)
from ..core.cost import NO_PRICING, Prices, Pricing
from ..core.memory import NO_MEMORY, Memory
from ..core.model import (
    DEFAULT_OUTPUT_RESERVE,
    UNKNOWN_CONTEXT_WINDOW,
    Conversation,
    ConversationSettings,
)
from ..core.send_request import PartialAnswer, SendRequest

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from ..config.model_counts import ModelCounts
    from ..core.side import SideRequest
    from ..core.tool_loop import ToolRunner
    from ..localmodel import LocalEndpoint
    from ..providers.presets import Preset


@dataclass(frozen=True, slots=True)
class Route:
    """Where a conversation's requests go, known without reading the keyring.

    `context_window`: the profile's window (set by you), or for `server_facts` the
    server's. `server_facts`: the model and window come from a server Turnlog runs itself
    (the built-in model): they win over the conversation's model and any larger window it
    names. `output_reserve`: the endpoint's reserve, used while the conversation keeps
    the default one (a 4,096-token local window has no room for core's 8,192).
    `server_window`: the window another server stated, or an overflow error taught
    (`server_window_source` says which): an upper bound, like the built-in server's.
    `count_label`: how token counts are made for this endpoint, when not plainly
    "estimated" ("estimated, calibrated from 3 replies", "exact"). `images`: the model
    takes images (a question with one is refused before sending where it does not).
    `prefill`: the server
    continues a final assistant message (the preset's flag), so a partial answer is
    continued as the start of the reply rather than by a follow-up request.
    """

    model: str
    include_usage: bool = False
    context_window: int | None = None
    server_facts: bool = False
    output_reserve: int | None = None
    server_window: int | None = None
    server_window_source: str = ""
    server_window_learned_on: str = ""  # the date an overflow taught `server_window`
    count_label: str = ""
    prefill: bool = False
    images: bool = True  # the model takes images (the profile's setting)
    seed: bool = False  # the server takes a `seed` (`Preset.seed`): Regenerate sends a fresh one
    # The built-in model's server is not up yet: its model and window are the ones it
    # will be launched with, which the server confirms or lowers when it starts.
    pending: bool = False
    # The profile requests go through and its prices: what their records are costed at.
    pricing: Pricing = NO_PRICING


def settings_for(conversation: Conversation, route: Route | None = None) -> ConversationSettings:
    """The conversation's settings with what the endpoint fixes applied: the built-in
    model's own output reserve while the conversation keeps the default one. (Otherwise
    a default reserve is sized to the window in effect by `Budget.from_settings`.)"""
    settings = conversation.settings
    if route is None:
        return settings
    if route.output_reserve is not None and settings.reserve_is_default:
        settings = replace(settings, output_reserve=route.output_reserve)
    return settings


def side_reserve_for(conversation: Conversation, route: Route) -> int:
    """The side questions' output reserve: the one set by you, else the endpoint's own,
    else sized to the window in effect, as the main reserve is."""
    reserve = conversation.settings.side_output_reserve
    if reserve != DEFAULT_OUTPUT_RESERVE:
        return reserve
    if route.output_reserve is not None:
        return route.output_reserve
    return default_output_reserve(window_for(conversation, route)[0] or UNKNOWN_CONTEXT_WINDOW)


def model_for(conversation: Conversation, route: Route) -> str:
    """The conversation's model wins, except over a server Turnlog runs (it has one)."""
    if route.server_facts:
        return route.model
    return conversation.model or route.model


def options_for(conversation: Conversation, *, include_usage: bool = False,
                route: Route | None = None) -> RequestOptions:
    """The request options a send for this conversation uses (`max_tokens`: the output
    reserve in effect, the default one sized to the window)."""
    settings = settings_for(conversation, route)
    window = (window_for(conversation, route)[0] if route is not None
              else settings.context_window) or UNKNOWN_CONTEXT_WINDOW
    return RequestOptions(
        stream=settings.stream,
        include_usage=route.include_usage if route is not None else include_usage,
        max_tokens=reserve_in(window, settings.output_reserve, set_by_you=settings.reserve_set)
        if settings.send_max_tokens else None,
        temperature=settings.temperature,
        top_p=settings.top_p,
        images=route.images if route is not None else True,
    )


def window_for(conversation: Conversation, route: Route) -> tuple[int | None, str]:
    """The context window a request uses and where it came from. A window set by you
    (the conversation's, else the profile's) wins over one another server stated or an
    overflow error taught (`window_warning` says when that one is smaller); else that
    one; else none (assumed). The built-in model's window is its server's, launched by
    Turnlog: only a smaller one set by you wins over it."""
    settings = conversation.settings
    if route.server_facts:
        server, yours = route.context_window, settings.context_window
        if yours is not None and (server is None or yours <= server):
            return yours, WINDOW_SET_BY_YOU
        return server, WINDOW_FROM_SERVER if server is not None else WINDOW_ASSUMED
    yours = settings.context_window or route.context_window
    if yours is not None:
        return yours, WINDOW_SET_BY_YOU
    if route.server_window is not None:
        return route.server_window, route.server_window_source or WINDOW_FROM_SERVER
    return None, WINDOW_ASSUMED


def window_warning(conversation: Conversation, route: Route) -> tuple[int, str] | None:
    """(the window, its source) when the server stated or an overflow taught a window
    smaller than the one set by you that is in effect: requests may overflow."""
    window, source = window_for(conversation, route)
    stated = route.server_window
    if route.server_facts or source != WINDOW_SET_BY_YOU or stated is None or window is None:
        return None
    if stated >= window:
        return None
    return stated, route.server_window_source or WINDOW_FROM_SERVER


def budget_for(conversation: Conversation, route: Route) -> Budget:
    """The budget of a request: the conversation's limits, in the window `window_for`
    picks (200,000 tokens, assumed, when nothing says)."""
    window, source = window_for(conversation, route)
    return Budget.from_settings(settings_for(conversation, route), context_window=window,
                                window_source=source)


def request_for(
    conversation: Conversation, question: str, route: Route, *, turn_id: str | None = None,
    replaces: str | None = None, memory: Memory = NO_MEMORY,
    partial: PartialAnswer | None = None, attachments: Sequence[Attachment] = (),
    tools: ToolRunner | None = None,
) -> SendRequest:
    """The candidate for `question` (with its `attachments`); with `replaces`, a new
    version of that (last) turn. With `tools` (`tool_use.SendTools`), the request offers
    them and runs their calls.
    `memory` is the conversation's (`store.memory(id)`): its pins are sent always, its
    preferences and notes as the memory share allows. With `partial`, a request for the
    rest of that answer to `question`, asked as `route` can (`Route.prefill`)."""
    return SendRequest(
        conversation,
        question,
        model_for(conversation, route),
        budget_for(conversation, route),
        options_for(conversation, route=route),
        pinned=memory,
        turn_id=turn_id or uuid.uuid4().hex,
        replaces=replaces,
        continuation=partial.continuation(prefill=route.prefill) if partial else None,
        attachments=tuple(attachments),
        tools=tools,
        pricing=route.pricing,
    )


def side_request_for(conversation: Conversation, question: str, route: Route, *,
                     memory: Memory = NO_MEMORY) -> SideRequest:
    """A side question about `conversation`: what its next request would carry (model,
    window, byte limit, the pinned facts of `memory`), with the side questions' own output
    reserve. Raises `InvalidBudget` for a reserve outside 256–32,768."""
    from ..core.side import SideRequest, side_budget, side_options

    main = request_for(conversation, question, route)
    reserve = side_reserve_for(conversation, route)
    return SideRequest(
        conversation.id, question, main.model, side_budget(main.budget, reserve),
        side_options(main.options, reserve), system_prompt=conversation.system_prompt,
        pinned=tuple(pin.text for pin in memory.pins),
        compaction=conversation.settings.compaction, pricing=route.pricing,
    )


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """One provider as a send uses it: a profile's id, name, preset, URL and model."""

    profile_id: str
    name: str
    preset: Preset
    base_url: str
    model: str = ""
    context_window: int | None = None
    model_path: Path | None = None  # built-in preset: a chosen GGUF instead of the shipped one
    network: NetworkSettings = NetworkSettings()
    images: bool = True
    prices: Prices | None = None  # per million tokens (None: not priced)

    @classmethod
    def of(cls, profile: Profile) -> ProviderConfig:
        return cls(profile.id, profile.name, profile.server, profile.base_url, profile.model,
                   profile.context_window,
                   Path(profile.model_path) if profile.model_path else None,
                   profile.network, profile.takes_images, profile.prices)

    @property
    def pricing(self) -> Pricing:
        """What requests through this profile are costed at (the built-in model: free,
        so never priced)."""
        return Pricing(self.name, None if self.preset.builtin else self.prices)


def profile_route(config: ProviderConfig, model: str,
                  counts: ModelCounts | None = None) -> Route:
    """The route to `model` through a (not built-in) profile: the profile's window, and
    what `counts` knows of the server's window and of how tokens are counted there."""
    if counts is None:
        return Route(model, config.preset.include_usage, config.context_window,
                     prefill=config.preset.prefill, images=config.images,
                     seed=config.preset.seed, pricing=config.pricing)
    window, source = counts.window(config.profile_id, model)
    # The default output reserve is sized to whichever window is in effect (`settings_for`).
    return Route(model, config.preset.include_usage, config.context_window,
                 server_window=window, server_window_source=source,
                 server_window_learned_on=counts.learned_on(config.profile_id, model),
                 count_label=counts.label(config.profile_id, model),
                 prefill=config.preset.prefill, images=config.images,
                 seed=config.preset.seed, pricing=config.pricing)


# ----------------------------------------------------------------- the built-in model
def local_route(endpoint: LocalEndpoint) -> Route:
    """The route of a running local server: its model alias, its own window (`n_ctx`),
    and an output reserve sized to that window."""
    from .. import localmodel
    from ..providers.presets import BUILTIN_LOCAL

    return Route(endpoint.model, include_usage=False, context_window=endpoint.context_window,
                 server_facts=True,
                 output_reserve=localmodel.output_reserve_for(endpoint.context_window),
                 images=BUILTIN_LOCAL.images, seed=BUILTIN_LOCAL.seed)


def pending_local_route(model: str, n_ctx: int) -> Route:
    """The route before the server is up: the window it will be launched with (the server
    confirms or lowers it when it starts), labelled by the estimate counter."""
    from .. import localmodel
    from ..providers.presets import BUILTIN_LOCAL

    return Route(model, include_usage=False, context_window=n_ctx, server_facts=True,
                 output_reserve=localmodel.output_reserve_for(n_ctx),
                 images=BUILTIN_LOCAL.images, seed=BUILTIN_LOCAL.seed, pending=True)
