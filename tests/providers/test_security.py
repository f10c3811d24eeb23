"""No key in clear text on the network (finding 14): a key bound for plain http:// on
another machine is refused unless the profile allows it; a redirect never carries the
key anywhere; a profile trusts its own CA file instead of turning verification off."""

from __future__ import annotations

import json
import ssl

import pytest

from loopback import MODELS_PATH, PROPS_PATH, Behaviour, LoopbackServer
from tlscerts import make_certs
from turnlog.config.model_counts import ModelCounts
from turnlog.config.model_facts import FactStore
from turnlog.config.profiles import NetworkSettings
from turnlog.config.secrets import SessionKeys
from turnlog.core.failures import FailureKind, ProviderFailure
from turnlog.core.provider import CancelToken
from turnlog.providers import CUSTOM, LLAMA_CPP, ChatCompletionsProvider
from turnlog.providers.discovery import server_window
from turnlog.providers.security import is_loopback_host, key_in_clear, tls_context
from turnlog.service.chat import NotConnected, ProviderConfig, connect_profile

KEY = "sk-test-CLEARTEXT-0123456789"
LAN = "http://10.0.0.5:8000/v1"
BODY = json.dumps({"model": "m", "stream": False,
                   "messages": [{"role": "user", "content": "hi"}]}).encode()


def keys_with(key: str = KEY) -> SessionKeys:
    keys = SessionKeys()
    keys.set("p1", key)
    return keys


def complete(provider: ChatCompletionsProvider):
    return provider.complete(BODY, on_delta=lambda text: None, cancel=CancelToken())


@pytest.fixture
def proxy(loopback, monkeypatch):
    """Every plain-http request goes through the loopback server as an HTTP proxy, so a
    request to 10.0.0.5 arrives there (recorded) instead of on a network."""
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "HTTPS_PROXY",
                 "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{loopback.port}")
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{loopback.port}")
    return loopback


@pytest.mark.parametrize(("url", "clear"), [
    ("http://10.0.0.5:8000/v1", True),
    ("http://gpu-box:9000/v1", True),
    ("http://localhost.example.com/v1", True),
    ("HTTP://192.168.1.20/v1", True),
    ("https://10.0.0.5:8000/v1", False),
    ("http://localhost:8080/v1", False),
    ("http://127.0.0.1:1234/v1", False),
    ("http://127.8.9.10/v1", False),
    ("http://[::1]:8000/v1", False),
    ("http://ollama.localhost/v1", False),
])
def test_which_addresses_would_carry_a_key_in_clear(url, clear):
    assert key_in_clear(url) is clear


def test_loopback_hosts():
    assert is_loopback_host("LOCALHOST") and is_loopback_host("::1")
    assert not is_loopback_host("10.0.0.5") and not is_loopback_host("")


def test_a_key_for_plain_http_on_another_machine_is_refused_before_anything_goes_out(
        proxy, tmp_path):
    config = ProviderConfig("p1", "LAN box", LLAMA_CPP, LAN, "m")
    counts = ModelCounts(FactStore.in_dir(tmp_path))
    with pytest.raises(NotConnected) as caught:
        connect_profile(config, keys_with, local=None, add_key="", counts=counts)
    err = caught.value
    assert err.kind is FailureKind.INSECURE_KEY
    assert err.title == "The key would travel unencrypted"
    assert "http://10.0.0.5:8000/v1" in err.message and "nothing was sent" in err.message
    assert "--allow-insecure-key" in err.message and "https://" in err.message
    assert KEY not in err.message
    assert proxy.requests == []  # not the chat, not the window or token questions either
    counts.close()


def test_the_provider_refuses_it_too(proxy):
    provider = ChatCompletionsProvider(LAN, api_key=KEY)
    for call in (lambda: complete(provider), provider.list_models):
        with pytest.raises(ProviderFailure) as caught:
            call()
        assert caught.value.failure.kind is FailureKind.INSECURE_KEY
    assert proxy.requests == []


def test_allowed_for_the_profile_it_goes(proxy):
    config = ProviderConfig("p1", "LAN box", CUSTOM, LAN, "m",
                            network=NetworkSettings(allow_insecure_key=True))
    connection = connect_profile(config, keys_with, local=None, add_key="")
    with pytest.raises(ProviderFailure):  # the proxy has no such route: 404
        complete(connection.provider)
    assert [r.headers["authorization"] for r in proxy.requests] == [f"Bearer {KEY}"]


def test_without_a_key_plain_http_is_fine(proxy):
    config = ProviderConfig("p1", "LAN box", CUSTOM, LAN, "m")
    connection = connect_profile(config, lambda: None, local=None, add_key="")
    with pytest.raises(ProviderFailure):
        complete(connection.provider)
    assert len(proxy.requests) == 1 and "authorization" not in proxy.requests[0].headers


# -- redirects --------------------------------------------------------------------------


@pytest.fixture
def elsewhere():
    """A second server on another port: another origin."""
    with LoopbackServer() as other:
        yield other


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_never_carries_the_key_to_another_origin(loopback, elsewhere, status):
    target = elsewhere.base_url + "/chat/completions"
    loopback.script(Behaviour.raw(status, b"", headers=[("Location", target)]))
    loopback.script(Behaviour.raw(status, b"", headers=[("Location", elsewhere.base_url
                                                         + "/models")]), path=MODELS_PATH)
    provider = ChatCompletionsProvider(loopback.base_url, api_key=KEY)
    with pytest.raises(ProviderFailure) as caught:
        complete(provider)
    failure = caught.value.failure
    assert failure.kind is FailureKind.HTTP_STATUS and failure.status == status
    assert "redirected" in failure.detail and "base URL" in failure.hint
    with pytest.raises(ProviderFailure):
        provider.list_models()
    assert elsewhere.requests == []
    assert [r.headers["authorization"] for r in loopback.requests] == [f"Bearer {KEY}"] * 2


def test_the_window_question_does_not_follow_a_redirect_either(loopback, elsewhere):
    loopback.script(Behaviour.raw(307, b"", headers=[("Location", elsewhere.base_url)]),
                    path=PROPS_PATH)
    assert server_window(LLAMA_CPP, loopback.base_url, "m", api_key=KEY) is None
    assert elsewhere.requests == []


# -- a CA file of the profile's own ----------------------------------------------------


@pytest.fixture
def https_loopback(loopback, tmp_path):
    """The loopback server speaking TLS with a certificate from a throwaway CA."""
    certs = make_certs(tmp_path / "certs")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certs.cert, certs.key)
    httpd = loopback._httpd
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    return f"https://127.0.0.1:{loopback.port}/v1", certs


def test_a_server_with_its_own_certificate_is_refused_without_its_ca(https_loopback):
    url, _certs = https_loopback
    config = ProviderConfig("p1", "LAN TLS", CUSTOM, url, "m")
    connection = connect_profile(config, lambda: None, local=None, add_key="")
    with pytest.raises(ProviderFailure) as caught:
        complete(connection.provider)
    assert caught.value.failure.kind is FailureKind.NETWORK
    assert "certificate was not accepted" in caught.value.failure.detail


def test_trusting_its_ca_file_lets_the_profile_talk_to_it(https_loopback, loopback):
    url, certs = https_loopback
    loopback.script(Behaviour.answer("Over TLS", stream=False))
    config = ProviderConfig("p1", "LAN TLS", CUSTOM, url, "m",
                            network=NetworkSettings(ca_file=str(certs.ca)))
    connection = connect_profile(config, keys_with, local=None, add_key="")
    assert complete(connection.provider).content == "Over TLS"
    assert loopback.requests[-1].headers["authorization"] == f"Bearer {KEY}"


def test_an_unusable_ca_file_is_named(tmp_path):
    missing = tmp_path / "nope.pem"
    not_pem = tmp_path / "junk.pem"
    not_pem.write_text("not a certificate\n")
    for path, words in ((missing, "does not exist"), (not_pem, "no PEM certificate")):
        config = ProviderConfig("p1", "LAN TLS", CUSTOM, "https://127.0.0.1:9/v1", "m",
                                network=NetworkSettings(ca_file=str(path)))
        with pytest.raises(NotConnected) as caught:
            connect_profile(config, lambda: None, local=None, add_key="")
        assert caught.value.title == "The CA certificate file cannot be used"
        assert words in caught.value.message
    assert tls_context(None) is True


def test_the_model_list_trusts_the_profiles_ca_file_too(https_loopback):
    """Settings' model list goes through the profile's own CA like a send does."""
    from turnlog.ui.request.connection import ProviderConnector
    url, certs = https_loopback
    config = ProviderConfig("p1", "LAN TLS", CUSTOM, url, "m",
                            network=NetworkSettings(ca_file=str(certs.ca)))
    connector = ProviderConnector(lambda: config, keys_with)
    assert [model.id for model in connector.list_models(cancel=CancelToken())]


def test_the_window_and_count_questions_trust_the_profiles_ca_file(https_loopback, loopback,
                                                                   tmp_path):
    """What the server says about its window is asked through the profile's CA too, so a
    self-signed server's window is learned, not silently skipped."""
    url, certs = https_loopback
    loopback.props = {"default_generation_settings": {"n_ctx": 2048}}
    config = ProviderConfig("p1", "LAN TLS", LLAMA_CPP, url, "m",
                            network=NetworkSettings(ca_file=str(certs.ca)))
    counts = ModelCounts(FactStore.in_dir(tmp_path))
    try:
        connect_profile(config, keys_with, local=None, add_key="", counts=counts)
        assert counts.facts.get("p1", "m").window == 2048
    finally:
        counts.close()
