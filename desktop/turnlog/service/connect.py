"""From a provider profile to a ready route: connecting, apart from sending.

`connect_profile` is the one way from a provider profile to a ready route, for the
window's connector and `turnlog-cli ask` alike: the key looked up (and refused with
plain words when the server needs one and there is none), or the built-in local model
started. `LocalModels` starts that server on first use (on the caller's worker thread,
cancellable, reporting the *starting local model* stage), and `connect_local` hands
back the ordinary HTTP provider for it, a route whose model and window are the
server's own, and a cost index that counts tokens exactly with the server's tokenizer.

The window's first screen holds `LocalModels` and a connector over these; the sender
(`service.chat`), with its tool loop and retries, loads after that screen is up.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .. import localmodel
from ..core.failures import Failure, FailureKind
from ..core.outcome import Stage
from ..core.projection import CostIndex
from ..core.provider import CancelToken, ChatProvider
from ..core.retry import RetryPolicy
from ..providers.presets import BUILTIN_LOCAL, Preset
from .route import ProviderConfig, Route, local_route, profile_route

if TYPE_CHECKING:
    import ssl

    from ..config.model_counts import ModelCounts
    from ..localmodel import LocalEndpoint, LocalServer
    from ..providers import ChatCompletionsProvider

# What only some requests need loads with the first of them: the built-in model's server,
# the keyring's errors, the certificate checks, the server's counts (`localmodel` loads a
# name's module when it is first read).

log = logging.getLogger(__name__)


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
