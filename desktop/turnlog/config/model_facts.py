"""What Turnlog has found out about each profile's model, remembered across starts.

Per profile and model (asked again when either changes):

- the context window the server states (`window_source` "server"), or the one an
  overflow error stated ("learned"), and whether the server was asked at all;
- the calibration of the token estimate from replies' reported usage (the largest
  ratio of reported to estimated tokens, and how many replies it rests on);
- whether the server counts tokens exactly (`tokenize`: None until found out).

Stored as JSON in `<data dir>/model_facts.json`: numbers and names only, never text.
A file that cannot be read is set aside and the facts are found out again.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from ..core.calibration import raised_ratio
from ..system.user_files import read_json

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

log = logging.getLogger(__name__)

FILE_NAME = "model_facts.json"
MAX_FILE_BYTES = 16 << 20  # facts of thousands of models; more is not this file
FORMAT_VERSION = 1
SERVER = "server"
LEARNED = "learned"


@dataclass(frozen=True, slots=True)
class ModelFacts:
    window: int | None = None
    window_source: str = ""  # SERVER or LEARNED, with `window`
    window_asked: bool = False
    ratio: float = 1.0
    replies: int = 0
    tokenize: bool | None = None
    learned_on: str = ""  # the date (YYYY-MM-DD, UTC) an overflow taught `window`

    @classmethod
    def from_json(cls, data: Any) -> ModelFacts:
        if not isinstance(data, dict):
            raise ValueError("not an object")
        window = data.get("window")
        if window is not None and (not isinstance(window, int) or window <= 0):
            raise ValueError("a bad window")
        facts = cls(window, str(data.get("window_source", "")),
                    bool(data.get("window_asked", False)),
                    float(data.get("ratio", 1.0)), int(data.get("replies", 0)),
                    data.get("tokenize") if isinstance(data.get("tokenize"), bool) else None,
                    str(data.get("learned_on", "")))
        if facts.window is None and facts.window_source:
            raise ValueError("a window source without a window")
        return facts


def _key(profile_id: str, model: str) -> str:
    return f"{profile_id}\n{model}"


class FactStore:
    """The facts of every profile and model; `path` None keeps them in memory only.
    Thread-safe: sends on the network worker write, the GUI thread reads."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._save_lock = threading.Lock()
        self._facts: dict[str, ModelFacts] = {}
        if path is not None:
            self._load(path)

    @classmethod
    def in_dir(cls, directory: Path) -> FactStore:
        return cls(directory / FILE_NAME)

    def _load(self, path: Path) -> None:
        try:
            data = read_json(path, MAX_FILE_BYTES, what="model facts file")
            entries = data["facts"] if data.get("version") == FORMAT_VERSION else {}
            self._facts = {str(k): ModelFacts.from_json(v) for k, v in entries.items()}
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            # FileRefused (a ValueError) included: a FIFO or a link here is not read
            log.warning("model facts unreadable, found out again: %s", err)
            self._facts = {}

    def get(self, profile_id: str, model: str) -> ModelFacts:
        with self._lock:
            return self._facts.get(_key(profile_id, model), ModelFacts())

    def _update(self, profile_id: str, model: str, **changes: Any) -> ModelFacts:
        with self._lock:
            key = _key(profile_id, model)
            facts = replace(self._facts.get(key, ModelFacts()), **changes)
            self._facts[key] = facts
        self._save()
        return facts

    def server_window(self, profile_id: str, model: str, window: int | None) -> ModelFacts:
        """The server was asked; `window` is what it said (None: nothing). A window
        learned from an overflow stays until the server states one."""
        if window is None:
            return self._update(profile_id, model, window_asked=True)
        return self._update(profile_id, model, window=window, window_source=SERVER,
                            window_asked=True, learned_on="")

    def learn_window(self, profile_id: str, model: str, window: int) -> ModelFacts:
        """An overflow error stated the window: it bounds whatever was known before."""
        known = self.get(profile_id, model)
        if known.window is not None and known.window <= window:
            return known
        return self._update(profile_id, model, window=window, window_source=LEARNED,
                            learned_on=datetime.now(UTC).date().isoformat())

    def forget_learned_window(self, profile_id: str, model: str) -> ModelFacts:
        """Forget a window an overflow taught (the person said so): the server is asked
        again on the next send, as if nothing were known."""
        known = self.get(profile_id, model)
        if known.window_source != LEARNED:
            return known
        return self._update(profile_id, model, window=None, window_source="",
                            window_asked=False, learned_on="")

    def calibrate(self, profile_id: str, model: str, estimated: int,
                  reported: int) -> ModelFacts:
        """A reply reported `reported` prompt tokens for a request estimated at
        `estimated`: raise the calibration if it says so, count the reply."""
        known = self.get(profile_id, model)
        return self._update(profile_id, model, replies=known.replies + 1,
                            ratio=raised_ratio(known.ratio, estimated, reported))

    def tokenize(self, profile_id: str, model: str, exact: bool) -> ModelFacts:
        return self._update(profile_id, model, tokenize=exact)

    def _save(self) -> None:
        if self.path is None:
            return
        with self._save_lock:  # the newest facts are written last
            with self._lock:
                snapshot = dict(self._facts)
            self._write(self.path, snapshot)

    @staticmethod
    def _write(path: Path, snapshot: dict[str, ModelFacts]) -> None:
        import tempfile  # written when a server taught something: read far more often

        data = {"version": FORMAT_VERSION,
                "facts": {k: asdict(v) for k, v in sorted(snapshot.items())}}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".model_facts.", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1)
            os.replace(tmp, path)
        except OSError as err:
            log.warning("model facts not saved: %s", err)
