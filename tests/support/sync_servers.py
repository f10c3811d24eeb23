"""Real sync servers on 127.0.0.1, each in a thread of the test process: a WebDAV server
(wsgidav on cheroot, a user and a password, files in a temporary folder) and an S3 API
(moto's server application on cheroot, a bucket made first).

Both sit behind `Faults`, a WSGI layer that counts the requests and can answer the next
ones with a status of its choosing (507, 401, 403) or late (a slow server), or hold every
upload until the test lets it go (`hold_uploads`); and `Cutting`,
a TCP proxy in front that can cut an upload's connection after a number of bytes."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cheroot import wsgi

from tlscerts import Certs

USER, PASSWORD = "gardener", "tulip bulbs in autumn 🌷"
BUCKET = "turnlog-test"
S3_KEY, S3_SECRET = "AKIATURNLOGTEST00001", "secret/key+for+the+tests"


@dataclass
class Faults:
    """Between the server and its app: counts requests; answers the next `status_times`
    requests of `status_methods` with `status`; waits `delay_s` before answering."""

    app: Callable[..., Any]
    seen: list[tuple[str, str]] = field(default_factory=list)
    status: int = 0
    status_body: bytes = b""
    status_methods: tuple[str, ...] = ()
    status_times: int = 0
    delay_s: float = 0.0
    finite_depth: bool = False  # refuse PROPFIND of depth infinity, as Nextcloud may
    lock: threading.Lock = field(default_factory=threading.Lock)
    held: threading.Event | None = None  # uploads wait until it is set
    upload_waits: threading.Event = field(default_factory=threading.Event)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        method = environ["REQUEST_METHOD"]
        with self.lock:
            self.seen.append((method, environ.get("PATH_INFO", "")))
            fail = (self.status_times > 0 and (not self.status_methods
                                               or method in self.status_methods))
            if fail:
                self.status_times -= 1
        if (self.finite_depth and method == "PROPFIND"
                and environ.get("HTTP_DEPTH", "infinity") == "infinity"):
            body = (b'<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:">'
                    b"<d:propfind-finite-depth/></d:error>")
            start_response("403 Forbidden", [("Content-Type", "application/xml"),
                                              ("Content-Length", str(len(body)))])
            return [body]
        if self.delay_s:
            time.sleep(self.delay_s)
        if self.held is not None and method == "PUT":
            self.upload_waits.set()
            self.held.wait(30)
        if fail:
            environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            start_response(f"{self.status} Refused", [
                ("Content-Type", "application/xml"),
                ("Content-Length", str(len(self.status_body)))])
            return [self.status_body]
        return self.app(environ, start_response)

    def count(self) -> int:
        with self.lock:
            return len(self.seen)

    def hold_uploads(self) -> threading.Event:
        """Every upload from now on waits (mid-request, its body sent) until the event
        returned is set; `upload_waits` is set once one does."""
        self.upload_waits.clear()
        self.held = threading.Event()
        return self.held

    def fail_next(self, status: int, times: int = 1, methods: tuple[str, ...] = (),
                  body: bytes = b"") -> None:
        with self.lock:
            self.status, self.status_times, self.status_methods = status, times, methods
            self.status_body = body


class Cutting:
    """A TCP proxy on 127.0.0.1 in front of `port`: with `cuts` > 0, the next `cuts`
    uploads (PUT) are cut after `after` bytes — both sides of the connection closed."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.cuts, self.after = 0, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_next(self, uploads: int, after: int) -> None:
        with self._lock:
            self.cuts, self.after = uploads, after

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            for sock in (client, server):  # passed on as it comes: no Nagle wait of its own
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._open += [client, server]
            threading.Thread(target=self._up, args=(client, server), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client), daemon=True).start()

    def _take_cut(self) -> int:
        with self._lock:
            if self.cuts <= 0:
                return 0
            self.cuts -= 1
            return self.after

    def _up(self, source: socket.socket, target: socket.socket) -> None:
        budget = 0  # bytes of this upload still let through; 0: not cutting
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if data.startswith(b"PUT "):
                    budget = self._take_cut()
                if budget:
                    if len(data) >= budget:
                        target.sendall(data[:budget])
                        time.sleep(0.05)  # the server reads the part, then the cut
                        _close(source, target)
                        return
                    budget -= len(data)
                target.sendall(data)
        _close(source, target)

    @staticmethod
    def _down(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        _close(source, target)

    def close(self) -> None:
        self.listener.close()
        for sock in self._open:
            _close(sock)


def _close(*socks: socket.socket) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()


@dataclass
class Served:
    """A server running: its URL (through the cutting proxy), its faults and proxy."""

    kind: str
    url: str
    faults: Faults
    cutting: Cutting
    root: Path | None = None  # where the WebDAV server keeps its files
    users: dict[str, Any] = field(default_factory=dict)  # WebDAV: user → {"password": …}

    def set_password(self, password: str) -> None:
        """The password changed on the server (WebDAV)."""
        self.users[USER]["password"] = password


@contextlib.contextmanager
def _serving(app: Any, tls: Certs | None = None) -> Iterator[tuple[Faults, Cutting]]:
    faults = Faults(app)
    server = wsgi.Server(("127.0.0.1", 0), faults, numthreads=8, timeout=5)
    if tls is not None:
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        server.ssl_adapter = BuiltinSSLAdapter(str(tls.cert), str(tls.key))
    server.prepare()
    port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    cutting = Cutting(port)
    try:
        yield faults, cutting
    finally:
        cutting.close()
        server.stop()
        thread.join(timeout=5)


@contextlib.contextmanager
def webdav_server(root: Path, tls: Certs | None = None) -> Iterator[Served]:
    """A WebDAV server: its files in `root`, the user `USER` with `PASSWORD`; its URL is
    the folder `/dav/Turnlog/` (made); https with `tls`'s certificate."""
    from wsgidav.wsgidav_app import WsgiDAVApp

    (root / "Turnlog").mkdir(parents=True, exist_ok=True)
    users = {USER: {"password": PASSWORD}}
    app = WsgiDAVApp({
        "provider_mapping": {"/dav": str(root)},
        "simple_dc": {"user_mapping": {"*": users}},
        "http_authenticator": {"domain_controller": None, "accept_basic": True,
                               "accept_digest": False, "default_to_digest": False},
        "lock_storage": True,
        "dir_browser": {"enable": False},
        "logging": {"enable": False},
        "verbose": 1,
    })
    scheme = "https" if tls else "http"
    with _serving(app, tls) as (faults, cutting):
        yield Served("webdav", f"{scheme}://127.0.0.1:{cutting.port}/dav/Turnlog", faults,
                     cutting, root=root / "Turnlog", users=users)


@contextlib.contextmanager
def s3_server(tls: Certs | None = None) -> Iterator[Served]:
    """An S3 API (moto's server application) with the bucket `BUCKET`; https with `tls`'s
    certificate."""
    import boto3
    import httpx
    from moto.server import DomainDispatcherApplication, create_backend_app

    app = DomainDispatcherApplication(create_backend_app)
    with _serving(app, tls) as (faults, cutting):
        url = f"{'https' if tls else 'http'}://127.0.0.1:{cutting.port}"
        verify = str(tls.ca) if tls else True
        # moto keeps its buckets in the process, not in the app: start from none
        httpx.post(f"{url}/moto-api/reset", timeout=10, verify=ssl_for(verify)
                   ).raise_for_status()
        client = boto3.client("s3", endpoint_url=url, region_name="us-east-1", verify=verify,
                              aws_access_key_id=S3_KEY, aws_secret_access_key=S3_SECRET)
        client.create_bucket(Bucket=BUCKET)
        client.close()
        faults.seen.clear()
        yield Served("s3", url, faults, cutting)


def ssl_for(verify: str | bool) -> Any:
    import ssl

    return ssl.create_default_context(cafile=verify) if isinstance(verify, str) else verify


def s3_error(code: str, message: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
            f"<Message>{message}</Message></Error>").encode()
