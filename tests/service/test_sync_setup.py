"""Setting sync up on a real WebDAV server and a real S3 API on 127.0.0.1, the secrets in a
real Secret Service keyring: everything is checked before anything is written, a refusal is
named in plain words, and the password lives in the keyring only."""

from __future__ import annotations

import os
import socket

import pytest

from sync_servers import BUCKET, PASSWORD, S3_KEY, S3_SECRET, USER, s3_server, webdav_server
from tlscerts import make_certs
from turnlog.service.sync_setup import forget_setup, open_configured, replace_secret, set_up
from turnlog.sync.crypto import ENV_LIGHT_KDF, WrongPassphrase
from turnlog.sync.errors import AuthenticationFailed, Offline, PlainHttpRefused, TlsFailed
from turnlog.sync.keystore import load_keys, load_secret
from turnlog.sync.state import SyncState, is_sync_set_up
from turnlog.sync.storage import StorageConfig, open_storage

pytestmark = pytest.mark.keyring
os.environ.setdefault(ENV_LIGHT_KDF, "1")
PASSPHRASE = b"correct horse battery staple"
WRITES = {"PUT", "MKCOL", "DELETE", "MOVE", "COPY", "POST"}


@pytest.fixture(params=["webdav", "s3"])
def server(request, tmp_path):
    if request.param == "webdav":
        with webdav_server(tmp_path / "dav") as served:
            yield served, StorageConfig("webdav", served.url, user=USER), PASSWORD
    else:
        with s3_server() as served:
            yield served, StorageConfig("s3", served.url, bucket=BUCKET, prefix="sync",
                                        user=S3_KEY), S3_SECRET


def _files(home) -> bytes:
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())


def test_setup_keeps_the_password_in_the_keyring_and_joins_with_the_passphrase(
        tmp_path, secret_service, server):
    served, config, secret = server
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    done = set_up(a, config, secret, PASSPHRASE, "laptop")
    assert (done.machine_name, done.joined) == ("laptop", 0)
    assert done.storage == config.describe() and "127.0.0.1" in done.storage
    with SyncState.open(a) as state:
        assert state.storage == config
        assert load_secret(state.get("keyring_user")) == secret
        assert load_keys(state.get("keyring_user")).by_id
        storage = open_configured(state)
        storage.refresh()
        assert len(storage.headers()) == 1
        storage.close()
    assert secret.encode() not in _files(a) and PASSPHRASE not in _files(a)
    # A wrong passphrase on another machine: refused, and the server saw no write.
    served.faults.seen.clear()
    with pytest.raises(WrongPassphrase, match="nothing was written"):
        set_up(b, config, secret, b"not the passphrase", "office-pc")
    assert not {m for m, _ in served.faults.seen} & WRITES
    assert not is_sync_set_up(b) and list(b.iterdir()) in ([], [b / "sync.lock"])
    joined = set_up(b, config, secret, PASSPHRASE, "office-pc")
    assert joined.joined == 0  # a machine shows in the storage once it synced
    assert forget_setup(b) and not is_sync_set_up(b)
    with SyncState.open(a) as state:
        assert load_secret(state.get("keyring_user")) == secret  # a's kept


def test_a_refused_password_or_an_unreachable_server_writes_nothing(
        tmp_path, secret_service, server):
    served, config, secret = server
    home = tmp_path / "home"
    home.mkdir()
    if served.kind == "webdav":
        served.set_password("changed on the server")
    else:
        from sync_servers import s3_error

        served.faults.fail_next(403, times=10, body=s3_error(
            "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist"))
    with pytest.raises(AuthenticationFailed, match="refused"):
        set_up(home, config, secret, PASSPHRASE, "laptop")
    assert not {m for m, _ in served.faults.seen} & WRITES
    assert not is_sync_set_up(home)
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    nowhere = StorageConfig(config.kind, f"http://127.0.0.1:{port}/dav", bucket=config.bucket,
                            user=config.user)
    with pytest.raises(Offline, match="cannot be reached"):
        set_up(home, nowhere, secret, PASSPHRASE, "laptop")
    assert not is_sync_set_up(home) and not (home / "sync.sqlite3").exists()


def test_no_password_over_plain_http_to_another_machine_without_a_choice(tmp_path):
    for kind in ("webdav", "s3"):
        config = StorageConfig(kind, "http://dav.example.com/remote.php/dav/files/me",
                               bucket="b", user="me")
        with pytest.raises(PlainHttpRefused, match="plain http:// to dav.example.com"):
            open_storage(config, "secret")
        allowed = StorageConfig(kind, config.address, bucket="b", user="me",
                                allow_plain_http=True)
        open_storage(allowed, "secret").close()  # made; no request sent
    missing_ca = StorageConfig("webdav", "https://dav.example.com/", user="me",
                               ca_file=str(tmp_path / "no-such-ca.pem"))
    with pytest.raises(TlsFailed, match="does not exist"):
        open_storage(missing_ca, "secret")


def test_a_password_changed_on_the_server_is_replaced_once_the_server_takes_it(
        tmp_path, secret_service):
    home = tmp_path / "home"
    home.mkdir()
    with webdav_server(tmp_path / "dav") as served:
        config = StorageConfig("webdav", served.url, user=USER)
        set_up(home, config, PASSWORD, PASSPHRASE, "laptop")
        served.set_password("the new one")
        with pytest.raises(AuthenticationFailed):
            replace_secret(home, "a wrong guess")
        with SyncState.open(home) as state:
            assert load_secret(state.get("keyring_user")) == PASSWORD
        replace_secret(home, "the new one")
        with SyncState.open(home) as state:
            assert load_secret(state.get("keyring_user")) == "the new one"
            storage = open_configured(state)
            storage.refresh()
            assert storage.headers()
            storage.close()


@pytest.mark.parametrize("kind", ["webdav", "s3"])
def test_a_server_with_a_certificate_of_its_own_is_trusted_through_its_ca_file(
        tmp_path, kind):
    certs = make_certs(tmp_path / "certs")
    with (webdav_server(tmp_path / "dav", certs) if kind == "webdav" else s3_server(certs)
          ) as served:
        config = StorageConfig(kind, served.url, bucket=BUCKET, user=USER if kind == "webdav"
                               else S3_KEY)
        secret = PASSWORD if kind == "webdav" else S3_SECRET
        unknown = open_storage(config, secret)
        with pytest.raises(TlsFailed, match="certificate"):
            unknown.refresh()
        unknown.close()
        assert served.faults.count() == 0  # no request got through
        trusted = open_storage(StorageConfig(kind, served.url, bucket=BUCKET,
                                             user=config.user, ca_file=str(certs.ca)), secret)
        trusted.refresh()
        trusted.create()
        trusted.write_header("000001-" + "a" * 32, b"header")
        trusted.refresh()
        assert trusted.headers() == [(1, "000001-" + "a" * 32)]
        trusted.close()
