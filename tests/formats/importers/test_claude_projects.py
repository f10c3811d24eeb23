"""A Claude export's projects (`projects.json`) come in as a folder of the conversations
that name them and an assistant whose system prompt is the project's instructions, as
written, with its documents as the assistant's files; the report lists each assistant
with its prompt; a second import adds no second folder or assistant."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

import claude_export as claude
from turnlog.service.assistant_start import start_from
from turnlog.service.transfer import import_file
from turnlog.store import TurnlogStore


def template_project() -> dict:
    return {"uuid": "p-2", "name": "Letters", "description": "Formal letters",
            "is_private": True, "prompt_template": "Sign every letter as {{sender}}.\n"
            "Write in the tone of a 写信 expert.", "created_at": claude.stamp(0),
            "updated_at": claude.stamp(0), "docs": []}


def export_with(path: Path, projects: list[dict], conversations: list[dict]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("conversations.json", json.dumps(conversations, ensure_ascii=False))
        archive.writestr("projects.json", json.dumps(projects, ensure_ascii=False))
    return path


@pytest.fixture
def export_zip(tmp_path) -> Path:
    return claude.write_zip(tmp_path / "claude-export.zip", claude.conversations())


def unpacked(tmp_path: Path) -> Path:
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(claude.write_zip(tmp_path / "e.zip", claude.conversations())) as z:
        z.extractall(folder)
    return folder


@pytest.mark.parametrize("form", ["zip", "folder"])
def test_a_project_becomes_a_folder_of_its_conversations_and_an_assistant(export_zip,
                                                                          tmp_path, form):
    if form == "folder":
        export_zip = unpacked(tmp_path)
    with TurnlogStore.open(tmp_path / "home") as store:
        report = import_file(store, export_zip)
        by_title = {c.title: c for c in store.conversations()}
        [folder] = store.folders()
        assert folder.name == "Travel"
        assert by_title["Trip budget"].folder_id == folder.id
        assert by_title["写一首诗"].folder_id is None  # names no project
        [assistant] = store.assistants.list()
        assert assistant.name == "Travel"
        assert assistant.setup.system_prompt == "Answer in EUR."
        [rules] = store.assistants.files(assistant.id)
        assert (rules.name, rules.text) == ("rules.md", "Max 500 EUR.")
    [project] = report.projects
    assert (project.folder, project.assistant, project.prompt, project.added) == \
        ("Travel", "Travel", "Answer in EUR.", True)
    assert "Claude project “Travel”: folder Travel, assistant Travel added, files: " \
           "rules.md; its system prompt, as written:\n    Answer in EUR." in report.summary()
    assert "projects (folders and assistants come later)" not in report.summary()


def test_importing_the_same_export_twice_adds_no_second_folder_or_assistant(export_zip,
                                                                            tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        import_file(store, export_zip)
        again = import_file(store, export_zip)
        assert [f.name for f in store.folders()] == ["Travel"]
        assert [a.name for a in store.assistants.list()] == ["Travel"]
        assert store.folders()[0].conversations == 1
    [project] = again.projects
    assert not project.added
    assert "assistant Travel already there" in again.summary()


def test_a_project_no_conversation_names_is_an_empty_folder(tmp_path):
    plain = [dict(c) for c in claude.conversations()]
    for conversation in plain:
        conversation.pop("project_uuid", None)
    path = export_with(tmp_path / "export.zip", claude.projects(), plain)
    with TurnlogStore.open(tmp_path / "home") as store:
        import_file(store, path)
        [folder] = store.folders()
        assert (folder.name, folder.conversations) == ("Travel", 0)


def test_the_template_is_shown_as_written_and_starting_from_it_warns(tmp_path):
    path = export_with(tmp_path / "export.zip", [template_project()],
                       [claude.conversations()[1]])
    with TurnlogStore.open(tmp_path / "home") as store:
        report = import_file(store, path)
        assert "Sign every letter as {{sender}}.\n    Write in the tone of a 写信 expert." \
            in report.summary()
        assistant = store.assistants.find("Letters")
        assert assistant.setup.system_prompt == template_project()["prompt_template"]
        started = start_from(store, assistant, profile_model="m", language="en", values={},
                             servers=())
        assert started.warnings == ("{{sender}} has no value and stays as typed",)
        assert store.conversations.get(started.conversation.id).system_prompt.startswith(
            "Sign every letter as {{sender}}.")


def test_an_assistant_of_the_same_name_the_person_made_is_left_alone(export_zip, tmp_path):
    from turnlog.core.assistants import AssistantSetup

    with TurnlogStore.open(tmp_path / "home") as store:
        store.assistants.add(AssistantSetup("Travel", system_prompt="My own."))
        import_file(store, export_zip)
        import_file(store, export_zip)
        prompts = {a.name: a.setup.system_prompt for a in store.assistants.list()}
    assert prompts == {"Travel": "My own.", "Travel (Claude project)": "Answer in EUR."}
