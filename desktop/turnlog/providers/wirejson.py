"""JSON from a server, read with a bound on how deep it nests.

`json.loads` gives up on deep nesting with a `RecursionError`, not a `ValueError`, and a
shallower but still absurd nesting would make any code walking the result recurse as
deep. A reply, a stream event or an error body that nests deeper than any real server's
is unreadable, the same as one that is not JSON.
"""

from __future__ import annotations

import json
from typing import Any

from turnlog.system.user_files import depth_exceeds

# Real replies nest five or six levels (choices → message → tool_calls → function).
MAX_DEPTH = 64


class UnreadableJson(ValueError):
    """The server's bytes are not JSON Turnlog will read; `reason` says why in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def server_json(raw: bytes | str) -> Any:
    """`raw` parsed, or `UnreadableJson` (a `ValueError`) when it is not JSON, not UTF-8,
    holds a number too long to read, or nests deeper than `MAX_DEPTH`."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise UnreadableJson("it is nested too deeply") from None
    except ValueError as err:
        raise UnreadableJson(f"it is not JSON ({err})") from None
    if depth_exceeds(data, MAX_DEPTH):
        raise UnreadableJson("it is nested too deeply")
    return data
