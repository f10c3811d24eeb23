"""Folders and stars go out with Export all and come back with its import; a hand-edited
folder that no folder can be is refused by name, nothing written."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from turnlog.core.imports import ImportProblem
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.service.transfer import export_all, import_file
from turnlog.store import TurnlogStore


def answered(store: TurnlogStore, title: str) -> int:
    cid = store.conversations.create(title).id
    store.turns.commit(cid, PendingTurn(f"{title}-1", f"about {title}", "answer", "m", "stop",
                                        Usage(), datetime.now(UTC)))
    return cid


@pytest.mark.parametrize("name", ["all", "all.zip"])
def test_export_all_and_import_bring_back_folders_and_stars(tmp_path, name):
    with TurnlogStore.open(tmp_path / "a") as source:
        garden, taxes, loose = (answered(source, t) for t in ("orchids", "receipts", "misc"))
        work = source.folders.add("花园 Garden")
        source.folders.add("Empty folder")
        papers = source.folders.add("Taxes")
        source.folders.move([garden], work.id)
        source.folders.move([taxes], papers.id)
        source.folders.star([taxes, loose])
        done = export_all(source, tmp_path / name)
    with TurnlogStore.open(tmp_path / "b") as target:
        target.folders.add("taxes")  # already there, in another case: used, not doubled
        import_file(target, done.path)
        by_title = {c.title: c for c in target.conversations()}
        names = {f.id: f.name for f in target.folders()}
        assert sorted(names.values()) == ["Empty folder", "taxes", "花园 Garden"]
        assert names[by_title["orchids"].folder_id] == "花园 Garden"
        assert names[by_title["receipts"].folder_id] == "taxes"
        assert by_title["misc"].folder_id is None
        assert [c.title for c in target.conversations() if c.starred] == ["misc", "receipts"]
        assert not by_title["orchids"].starred


@pytest.mark.parametrize("folder", [7, "a\nb", "x" * 101])
def test_a_folder_no_folder_can_be_is_refused_by_name(tmp_path, folder):
    header = {"turnlog": 2, "title": "t", "system": "", "model": "m", "settings": {},
              "created_at": "2026-01-01T00:00:00+00:00",
              "updated_at": "2026-01-01T00:00:00+00:00", "folder": folder}
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(header) + "\n")
    with TurnlogStore.open(tmp_path / "b") as target:
        with pytest.raises(ImportProblem, match="line 1: the header's folder"):
            import_file(target, path)
        assert target.conversations() == [] and target.folders() == []
