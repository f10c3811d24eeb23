"""Keys out of any text that might be shown or logged: pure text work, no keyring.

`providers` redact what a server echoes, `ui` redacts crash reports, and neither needs to
know where keys are kept to do it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

T = TypeVar("T")

REDACTED = "[redacted]"

_BEARER = re.compile(r"(?i)\bBearer\s+(?!\[redacted\])[^\s\"',;}\]]+")


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret, and every `Bearer …` credential, replaced by [redacted].

    Also catches a secret as it appears escaped inside JSON or a URL, since servers echo
    request headers in either form.
    """
    for secret in secrets:
        secret = secret.strip()
        if not secret:
            continue
        for form in {secret, json.dumps(secret)[1:-1], quote(secret, safe="")}:
            text = text.replace(form, REDACTED)
    return _BEARER.sub(f"Bearer {REDACTED}", text)


def secret_forms(secrets: Iterable[str]) -> list[str]:
    """Each secret as sent and as a server may echo it (JSON-escaped, URL-quoted), longest
    first, so a longer form is replaced before a shorter one inside it."""
    forms: set[str] = set()
    for secret in secrets:
        secret = secret.strip()
        if secret:
            forms |= {secret, json.dumps(secret)[1:-1], quote(secret, safe="")}
    return sorted(forms, key=len, reverse=True)


def redact_exact(text: str, forms: Iterable[str]) -> str:
    """`text` with every form of a known secret replaced by [redacted]. Unlike `redact`,
    it leaves other "Bearer …" text alone: a model explaining HTTP auth keeps its words."""
    for form in forms:
        text = text.replace(form, REDACTED)
    return text


def redact_fields(value: T, forms: Sequence[str]) -> T:
    """`value` (a dataclass) with `redact_exact` applied to every text it holds: each
    string field, each string in a tuple field, and the same inside nested dataclasses."""
    if not forms:
        return value
    return map_text_fields(value, lambda text: redact_exact(text, forms))


def map_text_fields(value: T, clean: Callable[[str], str]) -> T:
    """`value` (a dataclass) with `clean` applied to every text it holds: each string
    field, each string in a tuple field, and the same inside nested dataclasses.

    The one place a server's words pass before they are kept or shown, so a field added
    later (a model name, a finish reason, an error code) is covered without a new call.
    """
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes: dict[str, Any] = {}
    for item in dataclasses.fields(value):
        old = getattr(value, item.name)
        new = _cleaned(old, clean)
        if new is not old:
            changes[item.name] = new
    return dataclasses.replace(value, **changes) if changes else value


def _cleaned(value: Any, clean: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        new = clean(value)
        return value if new == value else new
    if isinstance(value, tuple):
        items = tuple(_cleaned(item, clean) for item in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return map_text_fields(value, clean)
    return value


class StreamRedaction:
    """The deltas of a streamed answer with the known secrets taken out, also when a
    server's echo of one arrives split across deltas: an end of the text that could be
    the start of a secret waits for the next delta (or for `finish`); any other text
    passes at once. Joined, the outputs equal `redact_exact` of the whole text."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._forms = secret_forms(secrets)
        self._tail = ""

    def feed(self, delta: str) -> str:
        """What of the text so far can be shown now."""
        if not self._forms:
            return delta
        text = redact_exact(self._tail + delta, self._forms)
        cut = len(text) - self._unfinished(text)
        self._tail = text[cut:]
        return text[:cut]

    def finish(self) -> str:
        """The held-back end, once the stream is complete."""
        rest, self._tail = self._tail, ""
        return rest

    def _unfinished(self, text: str) -> int:
        """The length of the longest end of `text` that begins some secret form (a form
        not complete in `text` can only start there)."""
        longest = min(len(text), max(len(form) for form in self._forms) - 1)
        for size in range(longest, 0, -1):
            end = text[-size:]
            if any(form.startswith(end) for form in self._forms if len(form) > size):
                return size
        return 0
