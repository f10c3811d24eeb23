"""Where a conversation's requests go: the model, the endpoint, and the provider to send
through. The window asks a `Connector`; `ProviderConnector` builds the real httpx provider
from a provider configuration and the key store; for the built-in profile it starts the
local model's server (through `turnlog.chat.LocalModels`) on the network worker."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..chat import Connection, LocalModels, Route, connect_local, local_route, pending_local_route
from ..core.failures import Failure, FailureKind
from ..core.model import Conversation
from ..core.projection import CostIndex
from ..core.provider import CancelToken, ChatProvider
from ..core.send import Stage
from ..localmodel import BUILTIN
from ..providers import ChatCompletionsProvider, Preset
from ..secrets import KeyringUnavailable, KeyStore


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What the window shows and projects with, known without touching the keyring.
    `route` is what `turnlog.chat` builds requests from, as the CLI does."""

    label: str
    route: Route

    @property
    def model(self) -> str:
        return self.route.model


class NotConnected(Exception):
    """No usable provider for the conversation, in plain words with the next step."""

    def __init__(self, title: str, message: str, *, kind: FailureKind = FailureKind.NO_KEY):
        super().__init__(message)
        self.title = title
        self.message = message
        self.kind = kind

    @property
    def failure(self) -> Failure:
        return Failure(self.kind, detail=self.message)


class Connector(Protocol):
    def endpoint(self, conversation: Conversation) -> Endpoint:
        """Cheap, on the GUI thread. Raises `NotConnected` when nothing is set up."""
        ...

    def provider(self, conversation: Conversation) -> ChatProvider:
        """May read the keyring: called off the GUI thread. Raises `NotConnected`."""
        ...

    def connect(self, conversation: Conversation, *, cancel: CancelToken,
                on_stage: Callable[[Stage, str], None]) -> Connection:
        """Off the GUI thread: the provider and the route to send with (starting the
        built-in model if that is the provider). Raises `NotConnected` or
        `ProviderFailure`."""
        ...

    def exact_costs(self, conversation: Conversation) -> CostIndex | None:
        """Cheap, on the GUI thread: the cost index of an endpoint that counts tokens
        exactly and is up now, else None (estimate)."""
        ...

    def secrets(self) -> Iterable[str]:
        """Keys handed out so far, for redacting reports."""
        ...

    def close(self) -> None:
        """Stop what the connector started (the built-in model's server)."""
        ...


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """One provider as the window uses it: a profile's id, name, preset, URL and model."""

    profile_id: str
    name: str
    preset: Preset
    base_url: str
    model: str = ""
    context_window: int | None = None
    model_path: Path | None = None  # built-in preset: a chosen GGUF instead of the shipped one


class ProviderConnector:
    """Connects conversations to the provider `config()` names.

    A conversation's own model wins over the provider's default model. The key is read
    from `keys` only when a request is about to be sent, never on the GUI thread. The
    built-in preset needs `local`, the app's local model servers.
    """

    def __init__(
        self,
        config: Callable[[], ProviderConfig | None],
        keys: Callable[[], KeyStore | None],
        *,
        read_timeout_s: float | None = None,
        deadline_s: float | None = None,
        local: LocalModels | None = None,
    ) -> None:
        self._config = config
        self._keys = keys
        self.local = local
        self._timeouts: dict[str, float] = {}
        if read_timeout_s is not None:
            self._timeouts["read_timeout_s"] = read_timeout_s
        if deadline_s is not None:
            self._timeouts["deadline_s"] = deadline_s
        self._seen: set[str] = set()

    def _current(self) -> ProviderConfig:
        config = self._config()
        if config is None:
            raise NotConnected(
                "No provider set up",
                "Choose a provider, its address and a model in Settings (Ctrl+,) to send.",
                kind=FailureKind.NETWORK,
            )
        return config

    def _local(self, config: ProviderConfig) -> LocalModels:
        if self.local is None:
            raise NotConnected(
                "The built-in model is not available here",
                f"“{config.name}” runs inside Turnlog, which was started without it. Choose "
                "another provider in Settings (Ctrl+,).",
                kind=FailureKind.LOCAL_MODEL,
            )
        return self.local

    def endpoint(self, conversation: Conversation) -> Endpoint:
        config = self._current()
        if config.preset.builtin:
            local = self._local(config)
            running = local.running(config.model_path)
            if running is not None:
                where = running.base_url.removesuffix("/v1").removeprefix("http://")
                return Endpoint(f"{config.name} · running on {where}", local_route(running))
            return Endpoint(f"{config.name} · starts with the first question",
                            pending_local_route(config.model or BUILTIN.alias, local.n_ctx))
        model = conversation.model or config.model
        if not model:
            raise NotConnected(
                "No model chosen",
                f"Pick a model for “{config.name}” in Settings (Ctrl+,) to send.",
                kind=FailureKind.MODEL_NOT_FOUND,
            )
        return Endpoint(f"{config.name} · {config.base_url}",
                        Route(model, config.preset.include_usage, config.context_window))

    def provider(self, conversation: Conversation) -> ChatProvider:
        config = self._current()
        key: str | None = None
        store = self._keys()
        if store is not None:
            try:
                key = store.get(config.profile_id)
            except KeyringUnavailable as err:
                raise NotConnected("The keyring could not be read", str(err)) from err
        if key:
            self._seen.add(key)
        elif config.preset.needs_key:
            raise NotConnected(
                "No API key",
                f"“{config.name}” needs an API key: add it in Settings (Ctrl+,).",
            )
        return ChatCompletionsProvider(config.base_url, api_key=key, preset=config.preset,
                                       **self._timeouts)

    def connect(self, conversation: Conversation, *, cancel: CancelToken,
                on_stage: Callable[[Stage, str], None]) -> Connection:
        config = self._current()
        if config.preset.builtin:
            return connect_local(self._local(config), config.model_path, cancel=cancel,
                                 on_stage=on_stage, **self._timeouts)
        route = self.endpoint(conversation).route
        return Connection(self.provider(conversation), route)

    def exact_costs(self, conversation: Conversation) -> CostIndex | None:
        config = self._config()
        if config is None or not config.preset.builtin or self.local is None:
            return None
        running = self.local.running(config.model_path)
        if running is None or not running.counter.exact:
            return None
        return self.local.costs(running)

    def secrets(self) -> Iterable[str]:
        return tuple(self._seen)

    def close(self) -> None:
        if self.local is not None:
            self.local.stop()
