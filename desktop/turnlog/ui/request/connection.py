"""Where a conversation's requests go: the model, the endpoint, and the provider to send
through. The window asks a `Connector`; `ProviderConnector` connects the profile in use
through `turnlog.service.connect.connect_profile`, the same function `turnlog-cli ask` uses (the key
looked up, or the built-in model's server started, on the network worker).

`ProfileSignals` turns the profiles' change notification into a Qt signal for the window."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal

from ...config.model_counts import ModelCounts
from ...config.profiles import Profile, ProfileStore
from ...core.failures import FailureKind
from ...core.model import Conversation
from ...core.outcome import Stage
from ...core.projection import CostIndex
from ...core.provider import CancelToken
from ...localmodel import BUILTIN
from ...service.connect import (
    Connection,
    KeyLookup,
    LocalModels,
    NotConnected,
    Providers,
    connect_profile,
    key_for,
    network_checks,
    prepare_profile,
)
from ...service.route import (
    ProviderConfig,
    Route,
    local_route,
    pending_local_route,
    profile_route,
    window_warning,
)
from ..infra.languages import arg
from ..infra.tasks import TaskRunner

if TYPE_CHECKING:  # the HTTP client: loaded by the first list of models or send
    from ...providers import ModelInfo

log = logging.getLogger(__name__)

__all__ = [
    "Connector",
    "Endpoint",
    "NotConnected",
    "ProfileSignals",
    "ProviderConfig",
    "ProviderConnector",
]

# Where the window tells a person to add a missing key.
ADD_KEY = "add it in Settings (Ctrl+,)."
# Names Turnlog gives (a preset's, the built-in model's profile): shown in the interface
# language; a name the person typed is shown as typed.
GIVEN_NAMES = (QT_TRANSLATE_NOOP("ProviderConnector", "Custom"),
               QT_TRANSLATE_NOOP("ProviderConnector", "Built-in (SmolLM2-135M, offline)"),
               QT_TRANSLATE_NOOP("ProviderConnector", "llama.cpp server"))


def shown_name(name: str) -> str:
    """A profile or preset name as the interface shows it."""
    return QCoreApplication.translate("ProviderConnector", name) if name in GIVEN_NAMES \
        else name


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What the window shows and projects with, known without touching the keyring.
    `route` is what `turnlog.service.chat` builds requests from, as the CLI does."""

    label: str
    route: Route

    @property
    def model(self) -> str:
        return self.route.model


class Reach(Protocol):
    """What a request needs of the connector: the endpoint a conversation's requests go
    to, connecting there, its exact token counts, and the window it learned."""

    def endpoint(self, conversation: Conversation) -> Endpoint:
        """Cheap, on the GUI thread. Raises `NotConnected` when nothing is set up."""
        ...

    def connect(self, conversation: Conversation, *, cancel: CancelToken,
                on_stage: Callable[[Stage, str], None]) -> Connection:
        """Off the GUI thread: the provider and the route to send with (starting the
        built-in model if that is the provider). Raises `NotConnected` or
        `ProviderFailure`."""
        ...

    def prepare(self) -> None:
        """Off the GUI thread, once: load what the first send would load on first use (the
        HTTP transport, a TLS context), so it is not the first send that waits for it.
        Reads no key, sends nothing."""
        ...

    def exact_costs(self, conversation: Conversation) -> CostIndex | None:
        """Cheap, on the GUI thread: the cost index of an endpoint that counts tokens
        exactly and is up now, or of the estimate calibrated from its replies, else None
        (the plain estimate)."""
        ...

    def forget_learned_window(self, conversation: Conversation) -> None:
        """Cheap, on the GUI thread: forget the context window an overflow error taught
        for the conversation's profile and model (the person asked)."""
        ...


class ModelSource(Protocol):
    """Where the header picker finds the endpoint in use and the models it lists."""

    def endpoint(self, conversation: Conversation) -> Endpoint:
        """Cheap, on the GUI thread. Raises `NotConnected` when nothing is set up."""
        ...

    def list_models(self, *, cancel: CancelToken) -> list[ModelInfo]:
        """Off the GUI thread: the models the provider in use lists. Raises
        `NotConnected` or `ProviderFailure`."""
        ...


class Connector(Reach, ModelSource, Protocol):
    """The window's connector: what requests and the picker need, and what only the
    window does with it (redacting its keys, releasing and closing what it started)."""

    def secrets(self) -> Iterable[str]:
        """Keys handed out so far, for redacting reports."""
        ...

    def release_unused(self) -> Callable[[], None] | None:
        """Cheap, on the GUI thread, after the provider in use changed: what stops the
        built-in model's server now that nothing uses it (to run off the GUI thread), or
        None when there is nothing to stop."""
        ...

    def close(self) -> None:
        """Stop what the connector started (the built-in model's server)."""
        ...


class ProviderConnector:
    """Connects conversations to the provider `config()` names.

    A conversation's own model wins over the provider's default model. The key is read
    from `keys` only when a request is about to be sent, never on the GUI thread. The
    built-in preset needs `local`, the app's local model servers. `counts` remembers what
    each profile's server said about its window and token counts.
    """

    def __init__(
        self,
        config: Callable[[], ProviderConfig | None],
        keys: Callable[[], KeyLookup | None],
        *,
        read_timeout_s: float | None = None,
        deadline_s: float | None = None,
        local: LocalModels | None = None,
        counts: ModelCounts | None = None,
        removed: Callable[[], Profile | None] | None = None,
    ) -> None:
        self._config = config
        self._removed = removed  # the profile in use that was removed elsewhere, if any
        self._keys = keys
        self.local = local
        self.counts = counts
        self._timeouts: dict[str, float] = {}
        if read_timeout_s is not None:
            self._timeouts["read_timeout_s"] = read_timeout_s
        if deadline_s is not None:
            self._timeouts["deadline_s"] = deadline_s
        self._seen: set[str] = set()
        self._providers = Providers()  # one per profile, reused from send to send

    def _current(self) -> ProviderConfig:
        config = self._config()
        gone = self._removed() if self._removed is not None and config is None else None
        if gone is not None:
            raise NotConnected(
                QCoreApplication.translate("ProviderConnector", "The provider was removed"),
                arg(QCoreApplication.translate(
                    "ProviderConnector", "“%1” was removed elsewhere. Choose the provider to "
                    "send to in the header or in Settings (Ctrl+,)."), shown_name(gone.name)),
                kind=FailureKind.NETWORK,
            )
        if config is None:
            raise NotConnected(
                QCoreApplication.translate("ProviderConnector", "No provider set up"),
                QCoreApplication.translate(
                    "ProviderConnector", "Choose a provider, its address and a model in "
                    "Settings (Ctrl+,) to send."),
                kind=FailureKind.NETWORK,
            )
        return config

    def _local(self, config: ProviderConfig) -> LocalModels:
        if self.local is None:
            raise NotConnected(
                QCoreApplication.translate(
                    "ProviderConnector", "The built-in model is not available here"),
                arg(QCoreApplication.translate(
                    "ProviderConnector", "“%1” runs inside Turnlog, which was started without "
                    "it. Choose another provider in Settings (Ctrl+,)."), shown_name(config.name)),
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
                return Endpoint(arg(QCoreApplication.translate(
                    "ProviderConnector", "%1 · running on %2"), shown_name(config.name), where),
                                local_route(running))
            return Endpoint(
                arg(
                    QCoreApplication.translate(
                        "ProviderConnector", "%1 · starts with the first question"
                    ),
                    shown_name(config.name),
                ),
                pending_local_route(config.model or BUILTIN.alias, local.n_ctx),
            )
        model = conversation.model or config.model
        if not model:
            raise NotConnected(
                QCoreApplication.translate("ProviderConnector", "No model chosen"),
                arg(QCoreApplication.translate(
                    "ProviderConnector", "Pick a model for “%1” in Settings (Ctrl+,) to send."),
                    shown_name(config.name)),
                kind=FailureKind.MODEL_NOT_FOUND,
            )
        route = profile_route(config, model, self.counts)
        label = f"{shown_name(config.name)} · {config.base_url}"
        warned = window_warning(conversation, route)
        if warned is not None:  # the window set by you is larger than the server's
            label += " · " + arg(QCoreApplication.translate(
                "ProviderConnector", "⚠ the server’s window is %1 tokens, smaller than "
                "yours: requests may overflow"), f"{warned[0]:,}")
        return Endpoint(label, route)

    def connect(self, conversation: Conversation, *, cancel: CancelToken,
                on_stage: Callable[[Stage, str], None]) -> Connection:
        config = self._current()
        model = ""
        if not config.preset.builtin:
            model = self.endpoint(conversation).model  # refuses a send with no model
        return connect_profile(config, self._keys, local=self.local, add_key=ADD_KEY,
                               counts=self.counts, model=model, cancel=cancel,
                               on_stage=on_stage,
                               on_key=self._seen.add, providers=self._providers,
                               **self._timeouts)

    def prepare(self) -> None:
        config = self._config()
        if config is not None:
            prepare_profile(config)

    def exact_costs(self, conversation: Conversation) -> CostIndex | None:
        config = self._config()
        if config is not None and not config.preset.builtin and self.counts is not None:
            # The server's exact counts once found out, or the calibrated estimate.
            return self.counts.costs(config.profile_id, conversation.model or config.model)
        if config is None or not config.preset.builtin or self.local is None:
            return None
        running = self.local.running(config.model_path)
        if running is None or not running.counter.exact:
            return None
        return self.local.costs(running)

    def secrets(self) -> Iterable[str]:
        return tuple(self._seen)

    def forget_learned_window(self, conversation: Conversation) -> None:
        config = self._config()
        if config is not None and not config.preset.builtin and self.counts is not None:
            self.counts.forget_learned_window(config.profile_id,
                                              conversation.model or config.model)

    def list_models(self, *, cancel: CancelToken) -> list[ModelInfo]:
        """The server's `GET /models`, with the profile's key; the built-in model lists
        the one it runs."""
        from ...providers import ChatCompletionsProvider, ModelInfo

        config = self._current()
        if config.preset.builtin:
            return [ModelInfo(config.model or BUILTIN.alias)]
        key = key_for(config, self._keys, ADD_KEY)
        verify = network_checks(config, key)  # the profile's CA file, as a send uses
        if key:
            self._seen.add(key)
        provider = ChatCompletionsProvider(
            config.base_url, api_key=key, preset=config.preset, verify=verify,
            allow_insecure_key=config.network.allow_insecure_key)
        return provider.list_models(cancel=cancel)

    def release_unused(self) -> Callable[[], None] | None:
        local = self.local
        if local is None or not local.pids:
            return None
        config = self._config()
        keep: Path | None | bool = False
        if config is not None and config.preset.builtin:
            keep = config.model_path
        return lambda: local.release(keep)

    def close(self) -> None:
        if self.local is not None:
            self.local.stop()
        if self.counts is not None:
            self.counts.close()


def release_unused_local_model(connector: Connector, runner: TaskRunner) -> None:
    """The provider in use changed: the built-in model's server stops once no open
    conversation uses it (it starts again with the next question to it), off the GUI
    thread."""
    release = connector.release_unused()
    if release is None or runner.closed:
        return
    runner.run(TaskRunner.NETWORK, "stop the unused local model", lambda _context: release(),
               on_success=lambda _result: None,
               on_failure=lambda err: log.warning("stopping the local model: %s", err))


class ProfileSignals(QObject):
    """`changed` carries the profiles each time they are saved, on the GUI thread (queued
    there when a save happens elsewhere), so the window can show a new profile at once
    without reading profiles.json again."""

    changed = Signal(list)

    def __init__(self, profiles: ProfileStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe = profiles.subscribe(self._saved)
        self.destroyed.connect(lambda *args: self._unsubscribe())

    def _saved(self, profiles: list[Profile]) -> None:
        self.changed.emit(profiles)
