"""A send goes through the provider the last send used: Send in the window builds no new
provider and loads no certificates again while the profile is unchanged (loading a CA
bundle per send made Send → request take tens of milliseconds, with nothing else
waiting), none at all for plain http://; and a profile changed in between — its key, its
address, its network settings, its CA file — takes effect at the very next send."""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field, replace

import pytest

from loopback import Behaviour, LoopbackServer
from tlscerts import make_certs
from turnlog.config.model_counts import ModelCounts
from turnlog.config.model_facts import FactStore
from turnlog.config.profiles import NetworkSettings
from turnlog.config.secrets import SessionKeys
from turnlog.providers import CUSTOM, LLAMA_CPP, ChatCompletionsProvider, security
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from uihelpers import numbered, seed
from window_sending import type_draft, wait_done

pytest_plugins = ["uiwindow"]

KEY, OTHER_KEY = "sk-test-first-0123456789", "sk-test-second-9876543210"


@dataclass
class Made:
    """What the sends built: providers, and TLS contexts that loaded certificates."""

    providers: list[ChatCompletionsProvider] = field(default_factory=list)
    loaded: list[ssl.SSLContext] = field(default_factory=list)

    @property
    def contexts(self) -> int:
        return len({id(context) for context in self.loaded})


def noting(counted: Made, load):  # noqa: ANN001, ANN201
    def loading(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        counted.loaded.append(self)
        return load(self, *args, **kwargs)

    return loading


@pytest.fixture
def made(monkeypatch) -> Made:
    counted = Made()
    init = ChatCompletionsProvider.__init__

    def counting_init(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        counted.providers.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(ChatCompletionsProvider, "__init__", counting_init)
    for name in ("load_verify_locations", "load_default_certs"):
        monkeypatch.setattr(ssl.SSLContext, name, noting(counted, getattr(ssl.SSLContext, name)))
    # As in a process that has sent nothing yet.
    monkeypatch.setattr(security, "_SHARED", {}, raising=False)
    return counted


class Profile:
    """The profile in use, changed between sends as Settings would change it."""

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config
        self.keys = SessionKeys()
        self.counts: ModelCounts | None = None

    def connector(self) -> ProviderConnector:
        return ProviderConnector(lambda: self.config, lambda: self.keys, counts=self.counts)


@pytest.fixture
def window_for(qtbot, store):
    made: list[MainWindow] = []

    def make(profile: Profile) -> MainWindow:
        seed(store, "chat", numbered(2))
        window = MainWindow(store, TaskRunner(), profile.connector())
        qtbot.addWidget(window)
        window.show()
        made.append(window)
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
        return window

    yield make
    for window in made:
        window.shutdown()


def send(qtbot, window: MainWindow, server: LoopbackServer, text: str) -> None:
    """Send `text` from the composer; the answer is committed."""
    before = len(window.transcript.turns)
    server.script(Behaviour.answer(f"Answer to {text}"))
    type_draft(window, text, len(text))
    window.send()
    wait_done(qtbot, window)
    assert window.transcript.turns[-1].answer == f"Answer to {text}", window.banner.message.text()
    assert len(window.transcript.turns) == before + 1


@pytest.fixture
def https_loopback(loopback, tmp_path):
    """The loopback server speaking TLS with a certificate from a throwaway CA."""
    certs = make_certs(tmp_path / "certs")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certs.cert, certs.key)
    httpd = loopback._httpd
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    return f"https://127.0.0.1:{loopback.port}/v1", certs


def test_sends_to_plain_http_share_one_provider_and_load_no_certificates(
        qtbot, window_for, loopback, made):
    profile = Profile(ProviderConfig("p1", "Loopback", CUSTOM, loopback.base_url,
                                     "loopback-model", network=NetworkSettings(retry=False)))
    window = window_for(profile)
    for text in ("First question", "Second question", "Third question"):
        send(qtbot, window, loopback, text)
    assert len(loopback.requests) == 3
    assert len(made.providers) == 1
    assert made.contexts == 0  # plain http:// makes no TLS connection


def test_asking_a_local_server_for_its_window_and_counts_loads_no_certificates(
        qtbot, window_for, loopback, made, tmp_path):
    # llama.cpp's server is asked for its window and whether it counts tokens as the
    # first send connects: plain http:// there too.
    loopback.props = {"default_generation_settings": {"n_ctx": 8192}}
    profile = Profile(ProviderConfig("p1", "llama.cpp", LLAMA_CPP, loopback.base_url,
                                     "loopback-model", network=NetworkSettings(retry=False)))
    profile.counts = ModelCounts(FactStore.in_dir(tmp_path))
    window = window_for(profile)
    send(qtbot, window, loopback, "First question")
    send(qtbot, window, loopback, "Second question")
    assert any(r.path.endswith("/props") for r in loopback.requests)  # it was asked
    assert len(made.providers) == 1
    assert made.contexts == 0
    profile.counts.close()


def test_sends_over_tls_share_one_provider_and_one_context(
        qtbot, window_for, https_loopback, loopback, made):
    url, certs = https_loopback
    profile = Profile(ProviderConfig(
        "p1", "LAN TLS", CUSTOM, url, "loopback-model",
        network=NetworkSettings(retry=False, ca_file=str(certs.ca))))
    window = window_for(profile)
    send(qtbot, window, loopback, "First question")
    send(qtbot, window, loopback, "Second question")
    assert len(made.providers) == 1
    assert made.contexts == 1

    # A network setting changed in Settings: a new provider, the same certificates.
    profile.config = replace(profile.config, network=replace(
        profile.config.network, first_token_timeout_s=90.0))
    send(qtbot, window, loopback, "Third question")
    assert len(made.providers) == 2
    assert made.providers[-1].first_token_timeout_s == 90.0
    assert made.contexts == 1

    # The CA file replaced by another one: read again, at the next send.
    other = make_certs(certs.ca.parent.parent / "other")
    certs.ca.write_bytes(other.ca.read_bytes())
    loopback.script(Behaviour.answer("never"))
    type_draft(window, "Fourth question", 15)
    window.send()
    wait_done(qtbot, window)
    assert "certificate" in window.banner.message.text()
    assert made.contexts == 2


class CountedKeys(SessionKeys):
    """This session's keys, counting reads (a keyring read may ask to unlock it)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get(self, profile_id: str) -> str | None:
        self.reads += 1
        return super().get(profile_id)


def test_the_certificates_are_loaded_before_the_first_send_and_no_key_is_read(
        qtbot, window_for, https_loopback, loopback, made):
    url, certs = https_loopback
    profile = Profile(ProviderConfig(
        "p1", "LAN TLS", CUSTOM, url, "loopback-model",
        network=NetworkSettings(retry=False, ca_file=str(certs.ca))))
    profile.keys = CountedKeys()
    profile.keys.set("p1", KEY)
    window = window_for(profile)
    window.warm_up()  # as Turnlog does once its first screen is painted (`app.main`)
    # While the person types the first question: nothing sent, no key read.
    qtbot.waitUntil(lambda: made.contexts == 1, timeout=5000)
    assert loopback.requests == [] and profile.keys.reads == 0
    send(qtbot, window, loopback, "First question")
    assert made.contexts == 1 and profile.keys.reads == 1
    assert loopback.requests[-1].headers["authorization"] == f"Bearer {KEY}"


def test_a_changed_key_or_address_takes_effect_at_the_next_send(qtbot, window_for, loopback,
                                                                 made):
    profile = Profile(ProviderConfig("p1", "Work", CUSTOM, loopback.base_url, "loopback-model",
                                     network=NetworkSettings(retry=False)))
    profile.keys.set("p1", KEY)
    window = window_for(profile)
    send(qtbot, window, loopback, "First question")
    send(qtbot, window, loopback, "Second question")
    assert [r.headers["authorization"] for r in loopback.requests] == [f"Bearer {KEY}"] * 2
    assert len(made.providers) == 1

    profile.keys.set("p1", OTHER_KEY)  # the key replaced in Settings
    send(qtbot, window, loopback, "Third question")
    assert loopback.requests[-1].headers["authorization"] == f"Bearer {OTHER_KEY}"
    assert len(made.providers) == 2

    with LoopbackServer() as elsewhere:  # the address changed
        profile.config = replace(profile.config, base_url=elsewhere.base_url)
        send(qtbot, window, elsewhere, "Fourth question")
        assert len(loopback.requests) == 3
        assert [r.json()["messages"][-1]["content"] for r in elsewhere.requests] == [
            "Fourth question"]
        assert elsewhere.requests[0].headers["authorization"] == f"Bearer {OTHER_KEY}"
        send(qtbot, window, elsewhere, "Fifth question")
        assert len(made.providers) == 3
