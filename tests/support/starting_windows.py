"""A window whose built-in model is still starting, and the body it shows."""

from __future__ import annotations

import threading

from loopback import Behaviour
from turnlog.config.profiles import NetworkSettings
from turnlog.core.model import ConversationSettings
from turnlog.core.send import Stage
from turnlog.localmodel import output_reserve_for
from turnlog.providers import CUSTOM
from turnlog.service.chat import Connection, Route, pending_local_route
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import Endpoint, ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow

ROOMY = ConversationSettings(max_bytes=64_000, context_window=32_000)


def shown_body(window) -> bytes:
    projection = window.shown.projection
    assert projection is not None
    return projection.body


class StartingModelConnector(ProviderConnector):
    """A fake of the built-in model (its server cannot run here): a route that is still
    starting until `ready` is set, then the loopback server under the running model's
    route (its own window and output reserve)."""

    N_CTX = 8192

    def __init__(self, base_url: str) -> None:
        config = ProviderConfig("builtin", "Built-in", CUSTOM, base_url, "loopback-model",
                                network=NetworkSettings(retry=False))
        super().__init__(lambda: config, lambda: None)
        self.ready = threading.Event()
        self.started = False

    def endpoint(self, conversation):
        if not self.started:
            return Endpoint("Built-in · starts with the first question",
                            pending_local_route("loopback-model", self.N_CTX))
        return Endpoint("Built-in · running", self.running_route())

    def running_route(self) -> Route:
        return Route("loopback-model", context_window=self.N_CTX, server_facts=True,
                     output_reserve=output_reserve_for(self.N_CTX), images=False)

    def connect(self, conversation, *, cancel, on_stage):
        on_stage(Stage.STARTING_LOCAL_MODEL, "")
        while not self.ready.wait(0.05):
            if cancel.cancelled:
                break
        self.started = True
        link = super().connect(conversation, cancel=cancel, on_stage=on_stage)
        return Connection(link.provider, self.running_route())


def starting_window(qtbot, store, loopback):  # noqa: ANN001, ANN201
    """A window on the built-in model still starting (`StartingModelConnector`), with the
    stages its sends enter; the loopback server answers once the model is ready."""
    loopback.script(Behaviour.answer("Dogs are loyal."))
    connector = StartingModelConnector(loopback.base_url)
    window = MainWindow(store, TaskRunner(), connector)
    qtbot.addWidget(window)
    window.show()
    stages: list[Stage] = []
    window.session.stage_entered.connect(lambda stage, words: stages.append(stage))
    return window, connector, stages
