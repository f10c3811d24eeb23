"""A simulated folder-sync program that lags: each machine has a folder of its own, and the
"program" copies files between them late, in any order, each first as a partial temporary
file (as Syncthing's `.syncthing.NAME.tmp`) and only later whole under its name; a file its
writer removed is removed from the other folders late too; now and then it leaves a conflict
copy (`NAME.sync-conflict-….tlo`, its bytes changed) beside a file it copied.

`step(rng)` takes one random action of the program; `flush()` finishes all of them (the
program has caught up)."""

from __future__ import annotations

import random
from pathlib import Path


class LaggingSync:
    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
        self.copied: list[set[str]] = [set() for _ in folders]  # names the program brought
        self.partial: dict[tuple[int, str], Path] = {}  # a transfer begun, not finished
        self.conflicts: set[tuple[int, str]] = set()

    @staticmethod
    def _files(folder: Path) -> set[str]:
        return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
                if p.is_file() and not p.name.startswith(".syncthing.")}

    def _originals(self) -> dict[str, int]:
        """Every file a machine wrote itself → the folder it lives in."""
        found: dict[str, int] = {}
        for index, folder in enumerate(self.folders):
            for name in self._files(folder) - self.copied[index]:
                found.setdefault(name, index)
        return found

    def actions(self) -> list[tuple[str, int, int, str]]:
        originals = self._originals()
        todo: list[tuple[str, int, int, str]] = []
        for index, folder in enumerate(self.folders):
            present = self._files(folder)
            for name, source in originals.items():
                if source != index and name not in present:
                    step = "finish" if (index, name) in self.partial else "begin"
                    todo.append((step, source, index, name))
            for name in sorted(self.copied[index]):
                if name not in originals:
                    todo.append(("remove", -1, index, name))
                elif (index, name) not in self.conflicts and name.endswith(".tlo"):
                    todo.append(("conflict", -1, index, name))
        return sorted(todo)

    def step(self, rng: random.Random) -> bool:
        todo = self.actions()
        if not todo:
            return False
        self._do(*rng.choice(todo))
        return True

    def flush(self) -> None:
        while True:
            todo = self.actions()
            if not todo:
                break
            for action in todo:
                if action[0] == "conflict":
                    self.conflicts.add(action[2:])
                    continue
                self._do(*action)
                if action[0] == "begin":
                    self._do("finish", *action[1:])

    def _do(self, step: str, source: int, target: int, name: str) -> None:
        destination = self.folders[target] / name
        if step == "conflict":
            self.conflicts.add((target, name))
            if destination.exists():
                copy = destination.with_name(destination.stem + ".sync-conflict-1-ABC.tlo")
                copy.write_bytes(destination.read_bytes()[::-1])
                self.copied[target].add(copy.relative_to(self.folders[target]).as_posix())
            return
        if step == "remove":
            destination.unlink(missing_ok=True)
            self.copied[target].discard(name)
            return
        origin = self.folders[source] / name
        if not origin.exists():
            return
        data = origin.read_bytes()
        destination.parent.mkdir(parents=True, exist_ok=True)
        temp = destination.with_name(f".syncthing.{destination.name}.tmp")
        if step == "begin":
            temp.write_bytes(data[: len(data) // 2])
            self.partial[(target, name)] = temp
            return
        temp.write_bytes(data)
        temp.rename(destination)
        self.partial.pop((target, name), None)
        self.copied[target].add(name)
