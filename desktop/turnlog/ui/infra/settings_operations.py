"""The settings' storage work: API keys in the keyring and the tool servers' settings, one
named operation each, on the storage lane (`operations.StorageOp`): a keyring can keep
the caller waiting for seconds while it asks to be unlocked."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from ...config.secrets import KeyringUnavailable, KeyStore, open_key_store
from ...config.tool_servers import (
    Imported,
    ToolServer,
    ToolServerStore,
    remove_secrets,
    store_secrets,
)
from ...toolhost.host import ToolHost
from .operations import StorageOp


def check_stored_keys(keyring: KeyStore | None, profile_ids: Sequence[str]
                      ) -> StorageOp[dict[str, bool | None]]:
    """Whether the keyring holds a key for each profile (None: it could not be read)."""
    def work() -> dict[str, bool | None]:
        found: dict[str, bool | None] = {}
        for profile_id in profile_ids:
            try:
                found[profile_id] = keyring is not None and keyring.get(profile_id) is not None
            except KeyringUnavailable:
                found[profile_id] = None
        return found

    return StorageOp("check the stored keys", work)


def save_api_key(keys: KeyStore, profile_id: str, key: str) -> StorageOp[None]:
    return StorageOp("save the API key", lambda: keys.set(profile_id, key))


def remove_api_key(keys: KeyStore, profile_id: str) -> StorageOp[object]:
    return StorageOp("remove the API key", lambda: keys.delete(profile_id))


def store_tool_server_secrets(server: ToolServer, token: str | None,
                              env: dict[str, str]) -> StorageOp[None]:
    """Keep a tool server's token and secret variables in the keyring (none: nothing)."""
    def work() -> None:
        if token is not None or env:
            store_secrets(open_key_store(), server, token=token, env=env)

    return StorageOp("store tool server secrets", work)


def remove_tool_server(host: ToolHost, server: ToolServer) -> StorageOp[None]:
    """Stop the server and forget its secrets."""
    def work() -> None:
        host.stop(server.id)
        with contextlib.suppress(KeyringUnavailable):  # no keyring: no secret kept there
            remove_secrets(open_key_store(), server)

    return StorageOp("remove tool server", work)


def import_tool_servers(servers: ToolServerStore, imported: Sequence[Imported]
                        ) -> StorageOp[list[ToolServer]]:
    """Add `imported` (switched off), their secrets kept in the keyring."""
    def work() -> list[ToolServer]:
        keys = open_key_store() if any(i.token or i.env for i in imported) else None
        added = servers.add_imported(imported)
        for item, server in zip(imported, added, strict=True):
            if keys is not None and (item.token or item.env):
                store_secrets(keys, server, token=item.token, env=item.env)
        return added

    return StorageOp("import tool servers", work)
