"""The sync tree on a WebDAV server (Nextcloud, ownCloud, Nutstore, Synology, Apache,
rclone), through `webdav4`'s client — httpx underneath, as the providers use, so timeouts,
TLS and a CA file behave the same.

The tree sits in `turnlog-sync/` below the URL the user gave (a folder that must exist).
It is listed with one PROPFIND of depth infinity; a server that refuses that (Nextcloud
may, with 403) is walked with depth-1 PROPFINDs instead, remembered for the session.
"""

from __future__ import annotations

import contextlib
import io
import ssl
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, TypeVar

import httpx
from webdav4.client import (
    BadGatewayError,
    Client,
    ClientError,
    ForbiddenOperation,
    HTTPError,
    InsufficientStorage,
    ResourceAlreadyExists,
    ResourceConflict,
    ResourceNotFound,
)
from webdav4.multistatus import MultiStatusResponse

from ..providers.security import CaFileUnusable, context_for, tls_context
from .errors import (
    AuthenticationFailed,
    Offline,
    StorageFull,
    StorageMissing,
    StorageRefused,
    TlsFailed,
)
from .layout import KEYS, ROOT, StorageConfig
from .remote import Network, Transient

T = TypeVar("T")
# Only what the listing needs: is it a folder, and how large.
PROPS = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>'
         '<d:resourcetype/><d:getcontentlength/></d:prop></d:propfind>')
PASSING = {HTTPStatus.TOO_MANY_REQUESTS, HTTPStatus.INTERNAL_SERVER_ERROR,
           HTTPStatus.BAD_GATEWAY, HTTPStatus.SERVICE_UNAVAILABLE, HTTPStatus.GATEWAY_TIMEOUT}


class WebDavTransport:
    def __init__(self, config: StorageConfig, secret: str | None, network: Network) -> None:
        self.config = config
        self.requests = 0
        self._infinite = True
        base = config.address.rstrip("/") + "/"
        try:
            verify: Any = context_for(base, tls_context(config.ca_file or None))
        except CaFileUnusable as err:
            raise TlsFailed(str(err)) from None
        auth = (config.user, secret or "") if config.user else None
        # Tries and back-off are the storage's (remote.ObjectTree), not the library's.
        self._client = Client(
            base, auth=auth, retry=False, verify=verify, follow_redirects=False,
            timeout=httpx.Timeout(connect=network.connect_s, read=network.read_s,
                                  write=network.read_s, pool=network.connect_s),
            headers={"User-Agent": "Turnlog"},
            event_hooks={"request": [self._count]})

    def _count(self, _request: httpx.Request) -> None:
        self.requests += 1

    # ----------------------------------------------------------------- requests
    def _named(self, request: Callable[[], T]) -> T:
        """One request through the library, its failure named (`Transient` for what may
        pass)."""
        where = self._where()
        try:
            return request()
        except ResourceNotFound:
            raise StorageMissing(f"{where}: not there (HTTP 404)") from None
        except ResourceConflict:
            raise StorageMissing(f"{where}: its folder is not there (HTTP 409)") from None
        except InsufficientStorage:
            raise StorageFull(f"{where} has no room left (HTTP 507 Insufficient Storage)"
                              ) from None
        except BadGatewayError:
            raise Transient(StorageRefused(f"{where} answered HTTP 502")) from None
        except HTTPError as err:
            raise _status_error(err.status_code, where) from None
        except ForbiddenOperation:
            raise AuthenticationFailed(f"{where} does not let this account make folders "
                                       "there (HTTP 403)") from None
        except httpx.ConnectError as err:
            cause = _certificate_problem(err)
            if cause is not None:
                raise TlsFailed(f"the certificate of {where} was not accepted ({cause}); "
                                "give its CA file") from None
            raise Transient(Offline(f"{where} cannot be reached ({err})")) from None
        except httpx.TimeoutException:
            raise Transient(Offline(f"{where} did not answer in time")) from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as err:
            raise Transient(Offline(f"the connection to {where} was cut ({err})")) from None
        except ResourceAlreadyExists:
            raise
        except ClientError as err:
            raise StorageRefused(f"{where}: {err}") from None

    def _where(self) -> str:
        return self.config.describe().split(" · ", 1)[-1]

    def _propfind(self, path: str, depth: str) -> MultiStatusResponse | None:
        try:
            return self._named(lambda: self._client.propfind(
                path, data=PROPS, headers={"Depth": depth, "Content-Type": "application/xml"}))
        except StorageMissing:
            return None

    def list_tree(self) -> dict[str, int] | None:
        if self._infinite:
            try:
                found = self._propfind(ROOT, "infinity")
            except AuthenticationFailed:
                if not self._refuses_infinity():
                    raise
                self._infinite = False
            else:
                return None if found is None else self._files(found)[0]
        return self._walk()

    def _refuses_infinity(self) -> bool:
        """Whether a 403 was the server refusing depth infinity (and not the user): the
        same folder listed at depth 1 answers."""
        try:
            self._propfind(ROOT, "1")
        except AuthenticationFailed:
            return False
        return True

    def _walk(self) -> dict[str, int] | None:
        """The tree through depth-1 listings, folder by folder."""
        files: dict[str, int] = {}
        todo = [ROOT]
        while todo:
            folder = todo.pop()
            found = self._propfind(folder, "1")
            if found is None:
                if folder == ROOT:
                    return None
                continue
            more, folders = self._files(found, skip=folder)
            files.update(more)
            todo += folders
        return files

    def _files(self, found: MultiStatusResponse, skip: str = "") -> tuple[dict[str, int],
                                                                         list[str]]:
        """(path below the base → size of each file, the folders) of a listing."""
        base = self._client.base_url.path.rstrip("/") + "/"
        files: dict[str, int] = {}
        folders: list[str] = []
        for response in found.responses.values():
            path = httpx.URL(response.href).path
            if not path.startswith(base):
                continue
            relative = path[len(base):].strip("/")
            if response.properties.collection:
                if relative and relative != skip.strip("/"):
                    folders.append(relative)
            elif relative.startswith(f"{ROOT}/"):
                files[relative[len(ROOT) + 1:]] = response.properties.content_length or 0
        return files, folders

    def get(self, path: str, limit: int) -> bytes | None:
        """Read as it arrives, never more than `limit` bytes (a server cannot make this
        machine hold more)."""
        def read() -> bytes | None:
            url = self._client.join_url(f"{ROOT}/{path}")
            with self._client.http.stream("GET", url) as response:
                if response.status_code == HTTPStatus.NOT_FOUND:
                    return None
                if response.status_code >= 400:
                    raise _status_error(response.status_code, self._where())
                data = bytearray()
                for chunk in response.iter_bytes():
                    data += chunk
                    if len(data) > limit:
                        raise StorageRefused(f"an object on {self._where()} is larger than "
                                             "any Turnlog writes")
                return bytes(data)

        return self._named(read)

    def put(self, path: str, data: bytes) -> None:
        def upload() -> None:
            self._client.upload_fileobj(io.BytesIO(data), f"{ROOT}/{path}", overwrite=True,
                                        size=len(data))
        try:
            self._named(upload)
        except StorageMissing:  # its folder is not there yet (409): made, once
            self._mkdirs(path)
            self._named(upload)

    def _mkdirs(self, path: str) -> None:
        parts = [ROOT, *path.split("/")[:-1]]
        for depth in range(1, len(parts) + 1):
            self._mkcol("/".join(parts[:depth]))

    def _mkcol(self, path: str) -> None:
        with contextlib.suppress(ResourceAlreadyExists):
            self._named(lambda: self._client.mkdir(path))

    def delete(self, path: str) -> None:
        with contextlib.suppress(StorageMissing):
            self._named(lambda: self._client.remove(f"{ROOT}/{path}"))

    def make_root(self) -> None:
        try:
            self._mkcol(ROOT)
        except StorageMissing:
            raise StorageMissing(f"the WebDAV folder {self.config.address} is not there: "
                                 "make it first (in the web page of the server)") from None
        self._mkcol(f"{ROOT}/{KEYS}")

    def close(self) -> None:
        self._client.http.close()


def _status_error(status: int, where: str) -> Exception:
    if status in (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN):
        return AuthenticationFailed(f"{where} refused the user name or password "
                                    f"(HTTP {status})")
    if status == HTTPStatus.INSUFFICIENT_STORAGE:
        return StorageFull(f"{where} has no room left (HTTP 507 Insufficient Storage)")
    if status in (HTTPStatus.NOT_FOUND, HTTPStatus.CONFLICT):
        return StorageMissing(f"{where}: not there (HTTP {status})")
    if status in PASSING:
        return Transient(StorageRefused(f"{where} answered HTTP {status}"))
    return StorageRefused(f"{where} answered HTTP {status}")


def _certificate_problem(err: BaseException) -> str | None:
    cause: BaseException | None = err
    while cause is not None:
        if isinstance(cause, ssl.SSLCertVerificationError):
            return str(cause.verify_message)
        cause = cause.__context__ or cause.__cause__
    return None
