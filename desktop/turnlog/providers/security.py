"""Where a key may travel, and which certificates a server may show.

A key sent over plain `http://` can be read by anyone on the way. Only this machine
(a loopback address or `localhost`) is safe without TLS; any other `http://` address
gets the key only when the person allowed it for that profile. A LAN server with a
certificate of its own is trusted through its CA file, never by turning checks off.

Loading a CA bundle takes tens of milliseconds, so a process makes one TLS context per
verify setting (`shared_tls_context`) and every provider shares it; a request to a plain
`http://` address loads none (`context_for`).
"""

from __future__ import annotations

import ipaddress
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from turnlog.system.lazy import LazyModule
from turnlog.system.user_files import FileRefused, read_limited

if TYPE_CHECKING:
    import ssl
    import urllib.request as urllib_request

    import httpx
else:
    httpx = LazyModule("httpx")  # loaded by the first request
    # Loaded by the first client made: a start that only names a provider or counts its
    # tokens offline makes none (urllib.request brings http.client and email with it).
    ssl = LazyModule("ssl")
    urllib_request = LazyModule("urllib.request")

MAX_CA_FILE_BYTES = 16 << 20  # a bundle of every public CA is 0.2 MB

INSECURE_KEY_HINT = ("Use an https:// address, or allow sending the key unencrypted for "
                     "this profile (Settings, or turnlog-cli profile add "
                     "--allow-insecure-key) if the network between you is your own")


def is_loopback_host(host: str) -> bool:
    """Whether `host` is this machine: `localhost` (and names under it) or a loopback
    address. Other names are not resolved: what they point at can change."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def key_in_clear(base_url: str) -> bool:
    """Whether a key sent to `base_url` would cross a network unencrypted."""
    parts = urlsplit(base_url.strip())
    return parts.scheme.lower() == "http" and not is_loopback_host(parts.hostname or "")


def insecure_key_detail(base_url: str) -> str:
    host = urlsplit(base_url.strip()).hostname or base_url
    return (f"the address {base_url} is plain http:// to {host}, another machine, so the "
            "API key would be readable by anyone on the network in between; nothing was sent")


class CaFileUnusable(ValueError):
    """The CA certificate file named for a profile cannot be used; the text says why."""


def tls_context(ca_file: str | None) -> ssl.SSLContext | bool:
    """What to verify a server's certificate with: the system's CAs (True), or with
    `ca_file` (PEM) the system's and that file's, as the process's one context for that
    file. Raises `CaFileUnusable` in plain words."""
    if not ca_file:
        return True
    return shared_tls_context(ca_file)


# (None: the system's CAs | a CA file's path) -> (the file's stat signature, its context)
_SHARED: dict[str | None, tuple[tuple[int, int] | None, ssl.SSLContext]] = {}
_SHARED_LOCK = threading.Lock()
_PLAIN: list[ssl.SSLContext] = []


def shared_tls_context(ca_file: str | None = None) -> ssl.SSLContext:
    """The process's one context that checks certificates against the system's CAs, and
    with `ca_file` against that file's too. A CA file replaced or changed in place is read
    again at the next call; one that cannot be used raises `CaFileUnusable` (each call:
    a failure is not kept). Contexts are safe to share between threads and connections."""
    signature = _signature(ca_file) if ca_file else None
    with _SHARED_LOCK:
        known = _SHARED.get(ca_file)
        if known is not None and known[0] == signature:
            return known[1]
        context = httpx.create_ssl_context()
        if ca_file:
            _load_ca_file(context, ca_file)
        _SHARED[ca_file] = (signature, context)
        return context


def context_for(base_url: str, verify: ssl.SSLContext | bool) -> ssl.SSLContext:
    """The TLS context a client for `base_url` takes. A plain `http://` address (reached
    directly, or through a plain-http proxy) makes no TLS connection, so it gets a context
    with no CAs loaded — one that refuses any certificate, should TLS ever be tried."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if not verify:
        return httpx.create_ssl_context(verify=False)
    plain = urlsplit(base_url.strip()).scheme.lower() == "http"
    if plain and not any(url.lower().startswith("https:")
                         for url in urllib_request.getproxies().values()):
        with _SHARED_LOCK:
            if not _PLAIN:
                _PLAIN.append(ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
            return _PLAIN[0]
    return shared_tls_context()


def _signature(ca_file: str) -> tuple[int, int]:
    try:
        stat = os.stat(ca_file)
    except FileNotFoundError as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} does not exist") from err
    except OSError as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} cannot be read "
                             f"({err.strerror})") from err
    return stat.st_mtime_ns, stat.st_size


def _load_ca_file(context: ssl.SSLContext, ca_file: str) -> None:
    try:
        pem = read_limited(Path(ca_file), MAX_CA_FILE_BYTES, what="CA certificate file")
    except FileNotFoundError as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} does not exist") from err
    except FileRefused as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} cannot be read "
                             f"({err.reason})") from err
    try:
        context.load_verify_locations(cadata=pem.decode("ascii"))
    except (ssl.SSLError, UnicodeDecodeError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        raise CaFileUnusable(f"the CA certificate file {ca_file} holds no PEM certificate "
                             f"({reason})") from err
