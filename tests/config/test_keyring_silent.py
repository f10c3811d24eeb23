"""A keyring that does not answer is a named failure within seconds, and the key is then in
no file.

A private D-Bus session bus with a "Secret Service" that owns the service's name and never
replies (as a gnome-keyring that could not create its folder leaves it): the real keyring
library, the real secretstorage and jeepney talk to it over a real bus.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("dbus-daemon") is None,
                                reason="needs dbus-daemon (package dbus)")

SILENT_SERVICE = textwrap.dedent("""
    import sys, time
    from jeepney import new_method_call
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection
    connection = open_dbus_connection(bus=sys.argv[1])
    reply = connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.secrets"))
    print("owned", reply.body[0], flush=True)
    while True:  # receives every call and answers none
        connection.receive()
""")
KEY = "sk-silent-keyring-test-0123456789abcdef"


@pytest.fixture
def silent_bus(tmp_path):
    """The address of a private session bus on which the Secret Service never answers."""
    config = tmp_path / "bus.conf"
    config.write_text(textwrap.dedent(f"""\
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path={tmp_path / "bus.socket"}</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """))
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork",
                               "--print-address"], stdout=subprocess.PIPE, text=True)
    address = daemon.stdout.readline().strip()
    service = subprocess.Popen([sys.executable, "-c", SILENT_SERVICE, address],
                               stdout=subprocess.PIPE, text=True)

    class Bus(str):
        def stop(self) -> None:
            for process in (service, daemon):
                if process.poll() is None:
                    process.kill()
                process.wait()
                process.stdout.close()

    bus = Bus(address)
    try:
        assert service.stdout.readline().startswith("owned 1")
        yield bus
    finally:
        bus.stop()


def files_holding(folder: Path, needle: bytes) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file() and needle in path.read_bytes()]


def test_profile_add_with_a_silent_keyring_is_named_within_seconds(
        silent_bus, turnlog_home, tmp_path):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=silent_bus, HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "turnlog.cli", "profile", "add", "work", "--preset", "openai",
         "--model", "gpt-4o-mini", "--key-stdin"],
        input=KEY + "\n", capture_output=True, text=True, env=env, timeout=110)
    took = time.monotonic() - started
    assert took < 20, f"waited {took:.0f} s for the keyring"
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "error: the key was not stored" in done.stderr
    assert "did not answer" in done.stderr
    assert KEY not in done.stdout + done.stderr
    assert files_holding(tmp_path, KEY.encode()) == []


def test_the_key_store_names_a_silent_keyring_for_every_call(silent_bus, monkeypatch):
    from turnlog.config import secrets

    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", silent_bus)
    monkeypatch.setattr(secrets, "KEYRING_TIMEOUT_S", 1.0)
    from keyring.backends import SecretService

    store = secrets.SystemKeyring(SecretService.Keyring())
    for call in (lambda: store.get("p"), lambda: store.set("p", KEY),
                 lambda: store.delete("p")):
        started = time.monotonic()
        with pytest.raises(secrets.KeyringUnavailable, match="did not answer within 1 s"):
            call()
        assert time.monotonic() - started < 5
    # The calls left behind end once the bus goes; secretstorage then drops its sockets
    # unclosed, which is its own affair, not this test's.
    silent_bus.stop()
    for thread in threading.enumerate():
        if thread.name == "turnlog-keyring":
            thread.join(10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
