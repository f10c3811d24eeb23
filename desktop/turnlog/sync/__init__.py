"""Sync: this data directory's change records exchanged with other machines through storage
the user already has (a plain folder another program syncs), end-to-end encrypted.

The store side (`store.sync_feed`) says what changed here and applies what came from
elsewhere; this package keeps everything about the wire: the key (`crypto`), the objects in
the storage (`folder`), this machine's numbers (`state`) and the loop (`engine`)."""
