"""Wiring a send for a conversation: which model, which options, which budget, which sender.

The window and `turnlog-cli` both build requests here, so a preview, a CLI
projection and a real send of the same question produce the same bytes.

`connect_profile` is the one way from a provider profile to a ready route, for the
window's connector and `turnlog-cli ask` alike: the key looked up (and refused with
plain words when the server needs one and there is none), or the built-in local model
started. `LocalModels` starts that server on first use (on the caller's worker thread,
cancellable, reporting the *starting local model* stage), and `connect_local` hands
back the ordinary HTTP provider for it, a route whose model and window are the
server's own, and a cost index that counts tokens exactly with the server's tokenizer.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .. import localmodel
from ..core.budget import (
    TokenCounter,
    reply_priming,
)
from ..core.compaction_plan import SummaryStore
from ..core.failures import Failure, FailureKind
from ..core.memory import NO_MEMORY, Memory
from ..core.model import (
    Conversation,
    ConversationSettings,
    Turn,
)
from ..core.projection import CostIndex
from ..core.provider import CancelToken, ChatProvider
from ..core.retry import RetryPolicy
from ..core.send import (
    LogStore,
    PendingTurn,
    RequestLog,
    RequestRecord,
    Room,
    Sender,
    Stage,
)
from ..core.title_sources import QUESTION, USER
from ..providers.presets import BUILTIN_LOCAL, Preset
from ..store.pages import paged

# The route and the candidate, named here too for who connects and sends.
from .route import ProviderConfig as ProviderConfig
from .route import Route as Route
from .route import budget_for as budget_for
from .route import local_route as local_route
from .route import model_for as model_for
from .route import options_for as options_for
from .route import pending_local_route as pending_local_route
from .route import profile_route as profile_route
from .route import request_for as request_for
from .route import settings_for as settings_for
from .route import side_reserve_for as side_reserve_for
from .route import window_for as window_for
from .route import window_warning as window_warning

if TYPE_CHECKING:
    import ssl

    from ..config.model_counts import ModelCounts
    from ..core.side import SideAsker, SideLog, SideRequest, SideStore
    from ..localmodel import LocalEndpoint, LocalServer
    from ..providers import ChatCompletionsProvider

# What only some requests need loads with the first of them: the side questions' budget,
# the built-in model's server, the keyring's errors, the certificate checks, the server's
# counts (`localmodel` loads a name's module when it is first read).

log = logging.getLogger(__name__)


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


def side_asker_for(store: SideStore, provider: ChatProvider, costs: CostIndex) -> SideAsker:
    """An asker that reads the log as a send does (a page at a time)."""
    from ..core.side import SideAsker

    return SideAsker(paged(store), provider, costs=costs)


class ChatRecords(RequestLog, SummaryStore, Protocol):
    """The records part of a store (`store.records`), as a send that compacts uses it."""


class MemoryOf(Protocol):
    """The memory part of a store (`store.memory`), as a request reads it."""

    def __call__(self, conversation_id: int) -> Memory: ...


class ChatStore(LogStore, Protocol):
    """The log, its summaries, side questions and memory, part by part (`TurnlogStore`
    is one)."""

    @property
    def records(self) -> ChatRecords: ...

    @property
    def side(self) -> SideLog: ...

    @property
    def memory(self) -> MemoryOf: ...


def sender_for(store: ChatStore, provider: ChatProvider, costs: CostIndex,
               retry: RetryPolicy | None = None) -> Sender:
    """A sender that compacts through the same provider as it answers, and tries an
    answer again within `retry`'s budget (None: never)."""
    from ..core.compaction import Compactor  # the summary maker: a send's, not a preview's

    return Sender(paged(store), provider, costs=costs,
                  compactor=Compactor(store.records, provider, costs=costs), retry=retry)


class FirstTurns(Protocol):
    """The turns part of a store (`store.turns`), as a first send writes it."""

    def start_with_turn(self, title: str, pending: PendingTurn, *, model: str = "",
                        settings: ConversationSettings | None = None,
                        title_source: str = USER) -> tuple[Conversation, Turn]: ...


class FirstTurnStore(Protocol):
    """A store that can start a conversation with its first turn, part by part
    (`TurnlogStore` is one)."""

    @property
    def turns(self) -> FirstTurns: ...

    @property
    def records(self) -> RequestLog: ...

    @property
    def database(self) -> Room: ...


class _NoTurnsYet:
    """The turns of a conversation that does not exist yet: none, until the first commit
    creates it (`NewConversation.turns`)."""

    def __init__(self, new: NewConversation) -> None:
        self._new = new

    def __call__(self, conversation_id: int) -> tuple[Turn, ...]:
        return ()

    def commit(self, conversation_id: int, pending: PendingTurn) -> Turn:
        return self._new.commit_first(pending)


class _FirstGeneration:
    """A conversation that does not exist yet has had nothing deleted."""

    def generation(self, conversation_id: int) -> int:
        return 0


class _HeldRecords:
    """Request records of a conversation that does not exist yet: held until its first
    commit, then written with it (`NewConversation.records`)."""

    def __init__(self, new: NewConversation) -> None:
        self._new = new

    def add(self, record: RequestRecord) -> None:
        self._new.record(record)


class NewConversation:
    """The log of a conversation that does not exist yet: empty until its first answer
    is committed, which creates it in the same transaction (`turns.start_with_turn`). Nothing
    is written before: a failed or killed first send leaves no empty conversation. The
    request records of attempts before the commit are kept here and written with it;
    after a failure they go with the conversation that never was. With no `title`, it is
    titled after its first question (`core.titles`). It has the parts a send uses
    (`turns`, `conversations`, `records`, `database`), as a store has."""

    def __init__(self, store: FirstTurnStore, title: str | None = None, *,
                 model: str = "") -> None:
        self.store = store
        self.draft = Conversation(0, title or "", model=model,
                                  title_source=USER if title else QUESTION)
        self.created: Conversation | None = None
        self._records: list[RequestRecord] = []
        self.turns = _NoTurnsYet(self)
        self.conversations = _FirstGeneration()
        self.records = _HeldRecords(self)
        self.database = store.database

    def commit_first(self, pending: PendingTurn) -> Turn:
        """Create the conversation with `pending` as its first turn, then write the
        request records held until now."""
        self.created, turn = self.store.turns.start_with_turn(
            self.draft.title, pending, model=self.draft.model, settings=self.draft.settings,
            title_source=self.draft.title_source)
        records, self._records = self._records, []
        for record in records:
            self.record(record)
        return turn

    def record(self, record: RequestRecord) -> None:
        """Keep a request record: held while the conversation does not exist yet."""
        if self.created is None:
            self._records.append(record)
        else:
            self.store.records.add(replace(record, conversation_id=self.created.id))

    def sender(self, provider: ChatProvider, costs: CostIndex,
               retry: RetryPolicy | None = None) -> Sender:
        """A sender into this conversation (no compaction: it has no turns to fold)."""
        return Sender(self, provider, costs=costs, retry=retry)


# ------------------------------------------------------------ counting without waiting
class CountNotKnown(Exception):
    """A count that only the server could give, asked for where nothing may wait on it."""


@runtime_checkable
class KnowingCounter(Protocol):
    """A counter that can say what it already knows without asking anyone
    (`ServerTokenCounter` is one)."""

    @property
    def exact(self) -> bool: ...

    def message_tokens(self, role: str, content: str) -> int: ...

    def reply_priming_tokens(self) -> int: ...

    def known_message_tokens(self, role: str, content: str) -> int | None: ...


class KnownCounts:
    """`counter` limited to the counts it already has: a missing one raises
    `CountNotKnown` instead of a request to the server. For the GUI thread."""

    def __init__(self, counter: KnowingCounter) -> None:
        self._counter = counter

    @property
    def exact(self) -> bool:
        return self._counter.exact

    def message_tokens(self, role: str, content: str) -> int:
        tokens = self._counter.known_message_tokens(role, content)
        if tokens is None:
            raise CountNotKnown(role)
        return tokens

    def reply_priming_tokens(self) -> int:
        return self._counter.reply_priming_tokens()

    def reply_priming_tokens_for(self, first_role: str) -> int:
        return reply_priming(self._counter, first_role)


class CancellableCounts:
    """`counter`, checking `cancel` before each count (each may be a request to the
    server): a cancelled warm-up stops between two requests."""

    def __init__(self, counter: TokenCounter, cancel: CancelToken) -> None:
        self._counter = counter
        self._cancel = cancel

    @property
    def exact(self) -> bool:
        return self._counter.exact

    def message_tokens(self, role: str, content: str) -> int:
        if self._cancel.cancelled:
            raise CountNotKnown("counting was cancelled")
        return self._counter.message_tokens(role, content)

    def reply_priming_tokens(self) -> int:
        return self._counter.reply_priming_tokens()

    def reply_priming_tokens_for(self, first_role: str) -> int:
        return reply_priming(self._counter, first_role)


def known_costs(costs: CostIndex) -> CostIndex | None:
    """A view of `costs` that answers only from counts already made (raising
    `CountNotKnown` for the rest), or None when its counter cannot say what it knows."""
    counter = costs.counter
    if not isinstance(counter, KnowingCounter):
        return None
    return costs.sharing(KnownCounts(counter))



class LocalModels:
    """The built-in model's server for one app (window or CLI run): started on first use,
    once, from whichever worker thread asks first; stopped by `stop` (and at exit in any
    case, see `turnlog.localmodel.server`). Thread-safe.

    One server at a time: choosing another GGUF file stops the previous server when the
    new one is started. A server is stopped too when nothing uses the built-in model any
    more (`release`) and after `idle_timeout` seconds with no request; the next send
    starts it again. Each running server gets one `CostIndex` over its exact counter,
    shared by previews and sends so every text is tokenized once.
    """

    def __init__(self, *, n_ctx: int | None = None, log_dir: Path | None = None,
                 idle_timeout: float | None = None) -> None:
        """`n_ctx` and `idle_timeout`: the server's defaults when None (read when the
        first server starts, with the module that runs it)."""
        self._n_ctx = n_ctx
        self.log_dir = log_dir
        self._idle_timeout = idle_timeout
        self._lock = threading.Lock()
        self._servers: dict[Path | None, LocalServer] = {}
        self._costs: dict[int, tuple[LocalEndpoint, CostIndex]] = {}
        self._closed = False
        self._reaper: threading.Thread | None = None
        self._wake = threading.Event()
        self._providers = Providers()  # one per model file (a restarted server: a new one)

    @property
    def n_ctx(self) -> int:
        """The context window the server is started with."""
        return localmodel.DEFAULT_N_CTX if self._n_ctx is None else self._n_ctx

    @property
    def idle_timeout(self) -> float:
        """Seconds with no request after which the server is stopped."""
        return localmodel.IDLE_TIMEOUT_S if self._idle_timeout is None else self._idle_timeout

    def _server(self, model_path: Path | None) -> LocalServer:
        with self._lock:
            if self._closed:
                raise RuntimeError("the local model servers were stopped for good")
            server = self._servers.get(model_path)
            if server is None:
                server = localmodel.LocalServer(model_path, n_ctx=self.n_ctx,
                                                log_dir=self.log_dir)
                self._servers[model_path] = server
            others = [s for path, s in self._servers.items() if path != model_path]
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._reap_idle, daemon=True,
                                                name="turnlog-local-model-idle")
                self._reaper.start()
        for other in others:
            other.stop(why="another model file was chosen")
        return server

    def running(self, model_path: Path | None) -> LocalEndpoint | None:
        """The endpoint of the running server for `model_path`, without starting anything."""
        with self._lock:
            server = self._servers.get(model_path)
        return server.endpoint if server is not None else None

    def start(self, model_path: Path | None, *,
              on_progress: Callable[[str], None] = lambda message: None,
              cancel: CancelToken | None = None) -> LocalEndpoint:
        """The running server's endpoint, starting it first if needed (blocks; call it off
        the GUI thread). Raises `LocalModelFailure`."""
        return self._server(model_path).start(on_progress=on_progress, cancel=cancel)

    def provider(self, model_path: Path | None, endpoint: LocalEndpoint,
                 **provider_options: Any) -> ChatProvider:
        """A provider to the running server that names a crash of it as such and keeps
        it from being stopped as idle while it answers (the one made for this model file
        and address last time, when they are the same)."""
        inner = self._providers.provider(str(model_path), endpoint.base_url, api_key=None,
                                         preset=BUILTIN_LOCAL, **provider_options)
        return localmodel.WatchedProvider(inner, self._server(model_path))

    def costs(self, endpoint: LocalEndpoint) -> CostIndex:
        """The cost index over `endpoint`'s exact counter (one per running server)."""
        with self._lock:
            known = self._costs.get(id(endpoint.counter))
            if known is None or known[0] is not endpoint:
                known = (endpoint, CostIndex(endpoint.counter))
                self._costs[id(endpoint.counter)] = known
            return known[1]

    @property
    def pids(self) -> list[int]:
        with self._lock:
            servers = list(self._servers.values())
        return [pid for pid in (s.pid for s in servers) if pid is not None]

    def release(self, keep: Path | None | bool = False) -> None:
        """Stop the servers nothing uses any more: all of them, or all but the one for the
        model file `keep` (None: the shipped model). Later starts work as before. Blocks
        up to the stop timeout: call it off the GUI thread."""
        with self._lock:
            servers = [s for path, s in self._servers.items()
                       if keep is False or path != keep]
        for server in servers:
            if server.running:
                server.stop(why="no open conversation uses it")

    def _reap_idle(self) -> None:
        """Stop a server that has been idle for `idle_timeout` (checked every few seconds)."""
        check_every = max(0.05, min(30.0, self.idle_timeout / 10))
        while not self._wake.wait(check_every):
            with self._lock:
                servers = list(self._servers.values())
            for server in servers:
                if server.idle_for() >= self.idle_timeout:
                    server.stop(why=f"idle for {self.idle_timeout:.0f} s")

    def stop(self) -> None:
        """Stop every server this app started; later starts are refused."""
        with self._lock:
            self._closed = True
            servers = list(self._servers.values())
            self._servers.clear()
            self._costs.clear()
        self._wake.set()
        for server in servers:
            server.stop()


@dataclass(frozen=True, slots=True)
class Connection:
    """What a send goes through: the provider, the route to build the request from,
    when the endpoint counts tokens exactly, the cost index to project with, and the
    retry budget of an answer (None: the profile turned automatic retries off)."""

    provider: ChatProvider
    route: Route
    costs: CostIndex | None = None
    retry: RetryPolicy | None = None


def connect_local(
    models: LocalModels,
    model_path: Path | None,
    *,
    cancel: CancelToken | None = None,
    on_stage: Callable[[Stage, str], None] = lambda stage, detail: None,
    **provider_options: Any,
) -> Connection:
    """Start (if needed) the local server and connect to it like to any endpoint.

    Raises `LocalModelFailure` (a `ProviderFailure`) when it cannot start or the start
    was cancelled; the caller turns it into a failed send with the draft given back.
    """
    endpoint = models.running(model_path)
    if endpoint is None:
        def progress(message: str) -> None:
            # "Starting <model>… 3 s": the stage line shows its own elapsed time.
            on_stage(Stage.STARTING_LOCAL_MODEL, message.removeprefix("Starting ")
                     .split("…")[0])

        on_stage(Stage.STARTING_LOCAL_MODEL, "")
        endpoint = models.start(model_path, on_progress=progress, cancel=cancel)
    provider = models.provider(model_path, endpoint, **provider_options)
    costs = models.costs(endpoint) if endpoint.counter.exact else None
    return Connection(provider, local_route(endpoint), costs)


# ------------------------------------------------------------- from a profile to a route
class NotConnected(Exception):
    """No usable provider for the conversation: `title` names the problem, `message`
    says it in plain words with the next step."""

    def __init__(self, title: str, message: str, *, kind: FailureKind = FailureKind.NO_KEY):
        super().__init__(message)
        self.title = title
        self.message = message
        self.kind = kind

    @property
    def failure(self) -> Failure:
        return Failure(self.kind, detail=self.message)


class KeyLookup(Protocol):
    """Where a profile's API key can be read (`turnlog.config.secrets.KeyStore` is one)."""

    def get(self, profile_id: str) -> str | None: ...


def key_for(config: ProviderConfig, keys: Callable[[], KeyLookup | None],
            add_key: str) -> str | None:
    """The profile's API key, or None where the server needs none. Raises `NotConnected`
    when the server needs a key and there is none, or the keyring cannot be read to find
    it; `add_key` tells the person where to add one."""
    from ..config.secrets import KeyringUnavailable

    try:
        store = keys()
        key = store.get(config.profile_id) if store is not None else None
    except KeyringUnavailable as err:
        if config.preset.needs_key:
            raise NotConnected("The keyring could not be read", str(err)) from err
        log.warning("sending to “%s” without a key: %s", config.name, err)
        return None
    if not key and config.preset.needs_key:
        raise NotConnected("No API key", f"“{config.name}” needs an API key: {add_key}")
    return key or None


class Providers:
    """The providers of one window (or of the built-in model's servers): one per profile,
    made again only when something it was made from — address, key, preset, certificate
    check, options — changed, so a send goes through the provider the last one used and
    a changed profile takes effect at the next send. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, tuple[tuple[Any, ...], ChatCompletionsProvider]] = {}

    def provider(self, profile_id: str, base_url: str, *, api_key: str | None,
                 preset: Preset, verify: ssl.SSLContext | bool = True,
                 allow_insecure_key: bool = False,
                 **provider_options: Any) -> ChatCompletionsProvider:
        """The profile's provider for these settings: the one made last if they are the
        same (the same CA context object: `providers.security` keeps one per file)."""
        from ..providers import ChatCompletionsProvider  # the HTTP client: a request's

        made_from = (base_url, api_key, preset, verify, allow_insecure_key,
                     tuple(sorted(provider_options.items())))
        with self._lock:
            known = self._made.get(profile_id)
            if known is not None and known[0] == made_from:
                return known[1]
            provider = ChatCompletionsProvider(base_url, api_key=api_key, preset=preset,
                                               verify=verify,
                                               allow_insecure_key=allow_insecure_key,
                                               **provider_options)
            self._made[profile_id] = (made_from, provider)  # the older one is let go
            return provider


def connect_profile(
    config: ProviderConfig,
    keys: Callable[[], KeyLookup | None],
    *,
    local: LocalModels | None,
    add_key: str,
    counts: ModelCounts | None = None,
    model: str = "",
    cancel: CancelToken | None = None,
    on_stage: Callable[[Stage, str], None] = lambda stage, detail: None,
    on_key: Callable[[str], None] = lambda key: None,
    providers: Providers | None = None,
    **provider_options: Any,
) -> Connection:
    """The provider and route a send goes through for the profile `config` (off the GUI
    thread: it may read the keyring and start the built-in model's server). With
    `providers`, the provider of the last send through this profile is used again while
    nothing it was made from changed.

    The route carries `model` (a conversation's own), else the profile's; either way a
    conversation's own model wins when the request is built (`request_for`). With
    `counts`, the server is asked (once per profile and model) for its window and
    whether it counts tokens, and what replies report calibrates the estimate. `on_key`
    sees the key handed out, so reports can be redacted of it. Raises `NotConnected`, or
    `LocalModelFailure` (a `ProviderFailure`) when the built-in model cannot start or its
    start was cancelled.
    """
    network = config.network
    retry = RetryPolicy() if network.retry else None
    if network.first_token_timeout_s:
        provider_options.setdefault("first_token_timeout_s", network.first_token_timeout_s)
    if config.preset.builtin:
        if local is None:
            raise NotConnected(
                "The built-in model is not available here",
                f"“{config.name}” runs inside Turnlog, which was started without it. Choose "
                "another provider in Settings (Ctrl+,).",
                kind=FailureKind.LOCAL_MODEL,
            )
        connection = connect_local(local, config.model_path, cancel=cancel,
                                   on_stage=on_stage, **provider_options)
        return replace(connection, retry=retry,
                       route=replace(connection.route, pricing=config.pricing))
    key = key_for(config, keys, add_key)
    verify = network_checks(config, key)
    if key:
        on_key(key)
    made = providers or Providers()
    provider = made.provider(config.profile_id, config.base_url, api_key=key,
                             preset=config.preset, verify=verify,
                             allow_insecure_key=network.allow_insecure_key, **provider_options)
    chosen = model or config.model
    if counts is None:
        return Connection(provider, profile_route(config, chosen), retry=retry)
    from ..config.model_counts import ObservingProvider

    counts.find_out(config.profile_id, config.preset, config.base_url, chosen, key,
                    verify=verify)
    return Connection(ObservingProvider(provider, counts, config.profile_id),
                      profile_route(config, chosen, counts),
                      counts.costs(config.profile_id, chosen), retry=retry)


def prepare_profile(config: ProviderConfig) -> None:
    """Off the GUI thread, before the first send: load what a send through `config` would
    load on first use (the summary maker `sender_for` makes, the HTTP transport, the TLS
    context of its certificate check). Reads no key and sends nothing; a CA file that
    cannot be used is named by the send. The built-in model needs no more: its server
    starts with the first question."""
    from ..core import compaction  # noqa: F401 - the summary maker, made by every send
    from ..providers.security import CaFileUnusable, tls_context

    if config.preset.builtin:
        return
    try:
        verify = tls_context(config.network.ca_file)
    except CaFileUnusable:
        return
    from ..providers import load_transport

    load_transport(config.base_url, verify)


def network_checks(config: ProviderConfig, key: str | None) -> ssl.SSLContext | bool:
    """Before anything goes out (a window or token count asks the server too): refuse a
    key bound for plain http:// on another machine unless the profile allows it, and
    make the certificate check with the profile's CA file. Raises `NotConnected`."""
    from ..providers.security import (
        INSECURE_KEY_HINT,
        CaFileUnusable,
        insecure_key_detail,
        key_in_clear,
        tls_context,
    )

    if key and key_in_clear(config.base_url) and not config.network.allow_insecure_key:
        raise NotConnected(
            "The key would travel unencrypted",
            f"“{config.name}”: {insecure_key_detail(config.base_url)}. {INSECURE_KEY_HINT}.",
            kind=FailureKind.INSECURE_KEY)
    try:
        return tls_context(config.network.ca_file)
    except CaFileUnusable as err:
        raise NotConnected("The CA certificate file cannot be used",
                           f"“{config.name}”: {err}. Choose another file in Settings.",
                           kind=FailureKind.NETWORK) from err
