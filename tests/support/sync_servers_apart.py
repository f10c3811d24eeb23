"""The sync servers of `sync_servers` in a child process of their own, as a real server
runs beside a client: the client's and the server's Python do not take turns on one
interpreter lock, so what a client does while an upload is on the wire (the next object
sealed) is measured as it would be against a real server. The child counts the requests
it serves (`count()`), the same count `Faults` keeps in the test process.

    with served_apart("s3", tmp) as served: ... served.url, served.faults.count()
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass
class _Counter:
    child: subprocess.Popen[str]

    def count(self) -> int:
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write("count\n")
        self.child.stdin.flush()
        return int(self.child.stdout.readline())


@dataclass
class ServedApart:
    kind: str
    url: str
    faults: _Counter
    root: Path | None


@contextlib.contextmanager
def served_apart(kind: str, tmp: Path) -> Iterator[ServedApart]:
    """A WebDAV (`kind` "webdav", its files under `tmp`) or S3 server in a child process."""
    child = subprocess.Popen([sys.executable, __file__, kind, str(tmp)], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        ready = json.loads(child.stdout.readline())
        yield ServedApart(kind, ready["url"], _Counter(child),
                          Path(ready["root"]) if ready["root"] else None)
    finally:
        if child.stdin is not None:
            child.stdin.close()  # the child stops its server and ends
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _serve(kind: str, tmp: Path) -> None:
    from sync_servers import s3_server, webdav_server

    serving = webdav_server(tmp / "dav") if kind == "webdav" else s3_server()
    with serving as served:
        print(json.dumps({"url": served.url, "root": str(served.root or "")}), flush=True)
        for line in sys.stdin:
            if line.strip() == "count":
                print(served.faults.count(), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    _serve(sys.argv[1], Path(sys.argv[2]))
