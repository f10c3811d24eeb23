"""Keys out of any text that might be shown or logged: pure text work, no keyring.

`providers` redact what a server echoes, `ui` redacts crash reports, and neither needs to
know where keys are kept to do it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import quote

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
