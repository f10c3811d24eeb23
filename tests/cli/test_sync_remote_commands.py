"""`turnlog-cli sync setup --webdav … | --s3 …` in child processes against a real WebDAV
server and a real S3 API on 127.0.0.1, the secrets in a real Secret Service keyring: two data
directories syncing through each, the password read once and kept in the keyring only."""

from __future__ import annotations

import json
import os
import random

import pytest

from sync_cli_runs import KillRuns, feed_of, run, server_options, setup
from sync_servers import PASSWORD, S3_SECRET, s3_server, webdav_server

pytestmark = pytest.mark.keyring
KILL_RUNS = int(os.environ.get("TURNLOG_SYNC_REMOTE_KILL_RUNS", "16"))


def _setup(home, served, name, tmp_path, passphrase=b"tulips in autumn\n"):
    return setup(home, server_options(served, tmp_path), name, passphrase)


@pytest.fixture(params=["webdav", "s3"])
def served(request, tmp_path):
    with (webdav_server(tmp_path / "dav") if request.param == "webdav" else s3_server()
          ) as server:
        yield server


def test_two_machines_sync_through_a_server_from_the_command_line(
        tmp_path, secret_service, served):
    a, b = tmp_path / "a", tmp_path / "b"
    made = _setup(a, served, "laptop", tmp_path)
    assert made.returncode == 0, made.stderr
    assert "started a new sync storage: " in made.stdout and "127.0.0.1" in made.stdout
    refused = _setup(b, served, "office-pc", tmp_path, b"not it")
    assert refused.returncode == 1 and "error: wrong_passphrase:" in refused.stderr
    assert _setup(b, served, "office-pc", tmp_path).returncode == 0
    log = feed_of(a, "lists")
    log.add_turn(log.new_conversation("Garden"), "When?", "Autumn.")
    log.close()
    assert run(a, "sync", "now").returncode == 0
    down = run(b, "sync", "now")
    assert down.returncode == 0, down.stderr
    assert "down: 2 from laptop" in down.stdout
    status = json.loads(run(b, "sync", "status", "--json").stdout)
    assert status["storage"]["kind"] == served.kind and "127.0.0.1" in status["storage_words"]
    secret = PASSWORD if served.kind == "webdav" else S3_SECRET
    for home in (a, b):
        held = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
        assert secret.encode() not in held and b"tulips in autumn" not in held
    # The server refuses the password now: named, and nothing changes here.
    if served.kind == "webdav":
        served.set_password("changed on the server")
    else:
        from sync_servers import s3_error

        served.faults.fail_next(403, times=20, body=s3_error("SignatureDoesNotMatch", "no"))
    refused = run(a, "sync", "now")
    assert refused.returncode == 1 and "error: authentication_failed:" in refused.stderr


def test_setup_options_that_do_not_go_together_are_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    alone = run(home, "sync", "setup", "--webdav", "https://dav.example.com/", "--user", "me",
                "--passphrase-file", "-", input=b"x")
    assert alone.returncode == 1 and "--user and --password-file go together" in alone.stderr
    both = run(home, "sync", "setup", "--s3", "https://s3.example.com", "--bucket", "b",
               "--access-key", "K", "--secret-file", "-", "--passphrase-file", "-",
               input=b"x")
    assert both.returncode == 1 and "only one secret can come from standard input" in \
        both.stderr
    plain = tmp_path / "pw"
    plain.write_text("pw")
    clear = run(home, "sync", "setup", "--webdav", "http://192.0.2.7/dav", "--user", "me",
                "--password-file", str(plain), "--passphrase-file", "-", input=b"x")
    assert clear.returncode == 1 and "error: plain_http_refused:" in clear.stderr
    assert not (home / "sync.sqlite3").exists()


def test_kill_9_at_random_points_of_a_sync_through_a_server_loses_nothing(
        tmp_path, secret_service, served):
    runs = KillRuns(tmp_path, "lists", random.Random(45), served=served)
    for _ in range(KILL_RUNS):
        runs.one()
    assert runs.killed >= KILL_RUNS // 4
    runs.settle_and_check()
