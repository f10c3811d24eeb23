"""Where a key may travel, and which certificates a server may show.

A key sent over plain `http://` can be read by anyone on the way. Only this machine
(a loopback address or `localhost`) is safe without TLS; any other `http://` address
gets the key only when the person allowed it for that profile. A LAN server with a
certificate of its own is trusted through its CA file, never by turning checks off.
"""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from turnlog.user_files import FileRefused, read_limited

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
    """What to verify a server's certificate with: the system's CAs, or with `ca_file`
    (PEM) the system's and that file's. Raises `CaFileUnusable` in plain words."""
    if not ca_file:
        return True
    try:
        pem = read_limited(Path(ca_file), MAX_CA_FILE_BYTES, what="CA certificate file")
    except FileNotFoundError as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} does not exist") from err
    except FileRefused as err:
        raise CaFileUnusable(f"the CA certificate file {ca_file} cannot be read "
                             f"({err.reason})") from err
    context = httpx.create_ssl_context()
    try:
        context.load_verify_locations(cadata=pem.decode("ascii"))
    except (ssl.SSLError, UnicodeDecodeError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        raise CaFileUnusable(f"the CA certificate file {ca_file} holds no PEM certificate "
                             f"({reason})") from err
    return context
