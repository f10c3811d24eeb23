"""The sync tree in an S3 bucket (AWS, Cloudflare R2, Backblaze B2, MinIO, Wasabi),
through boto3 — the SDK every one of them documents, synchronous, with its timeouts and TLS
settings; its own retries are off (the storage's tries and back-off are used, as for
WebDAV).

The tree sits under `PREFIX/turnlog-sync/` in a bucket that must exist. It is listed with
ListObjectsV2 over that prefix (one request per 1,000 objects); an object is written with
one PutObject, which S3 stores whole or not at all.
"""

from __future__ import annotations

from typing import Any

import boto3
import botocore.exceptions as boto_errors
from botocore.config import Config

from ..providers.security import CaFileUnusable, shared_tls_context
from .errors import (
    AuthenticationFailed,
    Offline,
    StorageFull,
    StorageMissing,
    StorageRefused,
    TlsFailed,
)
from .layout import ROOT, StorageConfig
from .remote import Network, Transient

DENIED = {"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken",
          "ExpiredToken", "AuthorizationHeaderMalformed", "Unauthorized", "Forbidden",
          "InvalidClientTokenId", "401", "403"}
FULL = {"QuotaExceeded", "XMinioStorageFull", "StorageCapExceeded", "InsufficientStorage",
        "EntityTooLarge", "507"}
PASSING = {"InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout",
           "ThrottlingException", "500", "502", "503", "504", "429"}


class S3Transport:
    def __init__(self, config: StorageConfig, secret: str | None, network: Network) -> None:
        self.config = config
        self.requests = 0
        self.bucket = config.bucket
        prefix = config.prefix.strip("/")
        self.root = f"{prefix}/{ROOT}/" if prefix else f"{ROOT}/"
        verify: Any = True
        if config.ca_file:
            try:
                shared_tls_context(config.ca_file)  # refuses an unusable file in words
            except CaFileUnusable as err:
                raise TlsFailed(str(err)) from None
            verify = config.ca_file
        session = boto3.session.Session(
            aws_access_key_id=config.user or None, aws_secret_access_key=secret or None,
            region_name="us-east-1")
        self._client = session.client(
            "s3", endpoint_url=config.address, verify=verify,
            config=Config(connect_timeout=network.connect_s, read_timeout=network.read_s,
                          retries={"total_max_attempts": 1, "mode": "standard"},
                          s3={"addressing_style": "path"},
                          request_checksum_calculation="when_required",
                          response_checksum_validation="when_required",
                          user_agent_extra="Turnlog"))
        if not config.user:
            self._client.meta.events.register("choose-signer.s3.*", _unsigned)
        self._client.meta.events.register("before-send.s3.*", self._count)

    def _count(self, **_: Any) -> None:
        self.requests += 1

    def _where(self) -> str:
        return self.config.describe().split(" · ", 1)[-1]

    def _named(self, request: Any) -> Any:
        where = self._where()
        try:
            return request()
        except boto_errors.SSLError as err:
            raise TlsFailed(f"the certificate of {where} was not accepted ({err}); give "
                            "its CA file") from None
        except (boto_errors.ConnectTimeoutError, boto_errors.ReadTimeoutError):
            raise Transient(Offline(f"{where} did not answer in time")) from None
        except boto_errors.EndpointConnectionError as err:
            raise Transient(Offline(f"{where} cannot be reached ({err})")) from None
        except (boto_errors.ConnectionClosedError, boto_errors.ResponseStreamingError,
                boto_errors.IncompleteReadError) as err:
            raise Transient(Offline(f"the connection to {where} was cut ({err})")) from None
        except boto_errors.NoCredentialsError:
            raise AuthenticationFailed(f"{where}: no access key given") from None
        except boto_errors.ClientError as err:
            raise _client_error(err, where) from None
        except boto_errors.HTTPClientError as err:
            raise Transient(Offline(f"the connection to {where} was cut ({err})")) from None

    def list_tree(self) -> dict[str, int] | None:
        files: dict[str, int] = {}
        token: str | None = None
        while True:
            extra = {"ContinuationToken": token} if token else {}
            page = self._named(lambda: self._client.list_objects_v2(
                Bucket=self.bucket, Prefix=self.root, **extra))  # noqa: B023
            for item in page.get("Contents", ()):
                files[item["Key"][len(self.root):]] = int(item["Size"])
            token = page.get("NextContinuationToken")
            if not page.get("IsTruncated") or not token:
                return files

    def get(self, path: str, limit: int) -> bytes | None:
        def read() -> bytes:
            response = self._client.get_object(Bucket=self.bucket, Key=self.root + path)
            body = response["Body"]
            try:
                data: bytes = body.read(limit + 1)
            finally:
                body.close()
            return data

        try:
            data = self._named(read)
        except StorageMissing:
            return None
        if len(data) > limit:
            raise StorageRefused(f"an object on {self._where()} is larger than any Turnlog "
                                 "writes")
        return data

    def put(self, path: str, data: bytes) -> None:
        self._named(lambda: self._client.put_object(Bucket=self.bucket, Key=self.root + path,
                                                    Body=data))

    def delete(self, path: str) -> None:
        self._named(lambda: self._client.delete_object(Bucket=self.bucket,
                                                       Key=self.root + path))

    def make_root(self) -> None:
        """Nothing to make: a bucket has no folders (it must exist: listing it said so)."""

    def close(self) -> None:
        self._client.close()


def _unsigned(**_: Any) -> Any:
    from botocore import UNSIGNED

    return UNSIGNED


def _client_error(err: boto_errors.ClientError, where: str) -> Exception:
    error = err.response.get("Error", {})
    code = str(error.get("Code", ""))
    status = str(err.response.get("ResponseMetadata", {}).get("HTTPStatusCode", ""))
    if code in ("NoSuchKey", "404") and status == "404" and code != "NoSuchBucket":
        return StorageMissing(f"{where}: no such object")
    if code == "NoSuchBucket":
        return StorageMissing(f"{where}: the bucket is not there (make it first)")
    if code in DENIED or status in ("401", "403"):
        return AuthenticationFailed(f"{where} refused the access key ({code or status})")
    if code in FULL or status == "507":
        return StorageFull(f"{where} has no room left ({code or status})")
    if code in PASSING or status in PASSING:
        return Transient(StorageRefused(f"{where} answered {code or status}"))
    return StorageRefused(f"{where} answered {code or status}")
