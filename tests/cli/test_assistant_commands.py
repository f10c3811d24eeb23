"""turnlog-cli assistant and ask --new --assistant against the real loopback server: the first
request body carries the assistant's setup, filled; later edits leave the conversation."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

from cli_runs import add_profile, cli
from loopback import Behaviour
from privacy_scan import scan

PROMPT = "You edit for {{audience}}. Today is {{date}}; model {{model}}; {{{{literal}}; {{who}}"
STYLE = "STYLE-GUIDE-MARK-7f3a: write short sentences. 短句。"


def _files(tmp_path: Path) -> tuple[Path, Path]:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT, encoding="utf-8")
    style = tmp_path / "style.md"
    style.write_text(STYLE, encoding="utf-8")
    return prompt, style


def _add_editor(tmp_path: Path, *extra: str) -> None:
    prompt, style = _files(tmp_path)
    made = cli("assistant", "add", "Editor", "--system-file", str(prompt), "--icon", "📝",
               "--model", "editor-model", "--temperature", "0.3",
               "--pin", "Never use passive voice.", "--note", "The reader is busy.",
               "--attach", str(style), *extra)
    assert made.returncode == 0, made.stderr


def _listed() -> list[dict]:
    listed = cli("assistant", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


def test_ask_from_an_assistant_sends_its_setup_filled(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.answer("Done."))
    asked = cli("ask", "--new", "--assistant", "Editor", "--var", "audience=engineers",
                "--title", "Edits ✍️", "Check my text.")
    assert asked.returncode == 0, asked.stderr
    assert "Edits ✍️" in cli("list").stdout
    assert "{{who}} has no value and stays as typed" in asked.stderr
    body = loopback.requests[-1].json()
    system = body["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith("You edit for engineers. Today is 20")
    assert "model editor-model; {{literal}}; {{who}}" in system["content"]
    assert body["model"] == "editor-model" and body["temperature"] == 0.3
    wire = loopback.requests[-1].body.decode("utf-8")
    assert "Never use passive voice." in wire and "The reader is busy." in wire
    assert "STYLE-GUIDE-MARK-7f3a" in json.dumps(body["messages"][-1], ensure_ascii=False)


def test_editing_the_assistant_leaves_its_conversation(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.answer("Done."), Behaviour.answer("Again."))
    assert cli("ask", "--new", "--assistant", "Editor", "--var", "audience=engineers",
               "Check.").returncode == 0
    other = tmp_path / "other.txt"
    other.write_text("A completely different prompt.", encoding="utf-8")
    edited = cli("assistant", "edit", "Editor", "--system-file", str(other), "--model", "m2",
                 "--pin", "Another pin.", "--no-files")
    assert edited.returncode == 0, edited.stderr
    asked = cli("ask", "--conversation", "1", "And now?")
    assert asked.returncode == 0, asked.stderr
    body = loopback.requests[-1].json()
    assert body["messages"][0]["content"].startswith("You edit for engineers.")
    assert body["model"] == "editor-model"
    wire = loopback.requests[-1].body.decode("utf-8")
    assert "Never use passive voice." in wire and "Another pin." not in wire
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert con.execute("SELECT assistant_id, name FROM conversation_assistants").fetchall() == [
        (1, "Editor")]
    con.close()


def test_a_failed_first_question_leaves_no_conversation(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.server_error())
    asked = cli("ask", "--no-retry", "--new", "--assistant", "Editor", "Check.")
    assert asked.returncode == 4
    assert "Check." in asked.stderr
    listed = cli("list")
    assert listed.returncode == 0 and listed.stdout.strip() in ("", "no conversations yet"), \
        listed.stdout


def test_an_assistant_s_files_go_with_it(loopback, turnlog_home, tmp_path):
    _add_editor(tmp_path)
    assert _listed()[0]["files"] == ["style.md"]
    assert scan(turnlog_home, ["STYLE-GUIDE-MARK-7f3a"]), "the file is kept while it is"
    removed = cli("assistant", "remove", "Editor")
    assert removed.returncode == 0, removed.stderr
    assert _listed() == []
    assert scan(turnlog_home, ["STYLE-GUIDE-MARK-7f3a"]) == []


def test_a_turn_keeps_the_file_after_the_assistant_goes(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.answer("Done."))
    assert cli("ask", "--new", "--assistant", "Editor", "Check.").returncode == 0
    assert cli("assistant", "remove", "Editor").returncode == 0
    shown = cli("export", "1")
    assert shown.returncode == 0
    assert scan(turnlog_home, ["STYLE-GUIDE-MARK-7f3a"]), "the turn still has its file"
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert con.execute("SELECT assistant_id, name FROM conversation_assistants").fetchall() == [
        (None, "Editor")]
    con.close()


def test_add_list_edit_and_bad_input_are_named(turnlog_home, tmp_path):
    _add_editor(tmp_path)
    again = cli("assistant", "add", "Editor", "--system-file", str(tmp_path / "prompt.txt"))
    assert again.returncode == 2 and "failure: name_taken" in again.stderr
    missing = cli("assistant", "add", "X", "--system-file", str(tmp_path / "nope.txt"))
    assert missing.returncode == 2 and "failure: system_file" in missing.stderr
    tools = cli("assistant", "add", "Y", "--system-file", str(tmp_path / "prompt.txt"),
                "--tools", "nowhere")
    assert tools.returncode == 2 and "no tool server “nowhere”" in tools.stderr
    hot = cli("assistant", "add", "Z", "--system-file", str(tmp_path / "prompt.txt"),
              "--temperature", "9")
    assert hot.returncode == 2 and "failure: bad_sampling" in hot.stderr
    [editor] = _listed()
    assert (editor["name"], editor["icon"], editor["model"], editor["temperature"],
            editor["pins"], editor["system_prompt"]) == (
        "Editor", "📝", "editor-model", 0.3, ["Never use passive voice."], PROMPT)
    renamed = cli("assistant", "edit", "Editor", "--rename", "编辑", "--temperature", "0.7")
    assert renamed.returncode == 0, renamed.stderr
    [edited] = _listed()
    assert (edited["name"], edited["temperature"], edited["files"]) == ("编辑", 0.7, ["style.md"])
    novar = cli("ask", "--new", "--assistant", "编辑", "--var", "model=x", "hi")
    assert novar.returncode == 2 and "filled by Turnlog" in novar.stderr
    unknown = cli("ask", "--new", "--assistant", "Nobody", "hi")
    assert unknown.returncode == 2 and "no assistant “Nobody”" in unknown.stderr
    alone = cli("ask", "--conversation", "1", "--assistant", "编辑", "hi")
    assert alone.returncode == 2 and "goes with --new" in alone.stderr


def test_export_then_import_keeps_the_setup_and_drops_unknown_tools(turnlog_home, tmp_path):
    _add_editor(tmp_path)
    out = tmp_path / "assistants.json"
    exported = cli("assistant", "export", str(out))
    assert exported.returncode == 0, exported.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "turnlog-assistants" and data["version"] == 1
    [one] = data["assistants"]
    assert base64.b64decode(one["files"][0]["data"]).decode("utf-8") == STYLE
    one["tools"] = ["a-server-that-is-not-here"]
    out.write_text(json.dumps(data), encoding="utf-8")
    assert cli("assistant", "export", str(out)).returncode == 2  # never replaces a file
    imported = cli("assistant", "import", str(out))
    assert imported.returncode == 0, imported.stderr
    assert "not set up here, left off: a-server-that-is-not-here" in imported.stdout
    assert "{{audience}}" in imported.stdout  # the prompt as written, shown first
    names = [(a["name"], a["tools"], a["files"], a["system_prompt"]) for a in _listed()]
    assert names == [("Editor", [], ["style.md"], PROMPT),
                     ("Editor (2)", [], ["style.md"], PROMPT)]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "turnlog-assistants", "version": 9}', encoding="utf-8")
    refused = cli("assistant", "import", str(bad))
    assert refused.returncode == 2 and "version 9" in refused.stderr


def test_delete_all_keeps_the_assistants_unless_asked(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.answer("Done."))
    assert cli("ask", "--new", "--assistant", "Editor", "Check.").returncode == 0
    kept = cli("delete", "--all", "--yes")
    assert kept.returncode == 0, kept.stderr
    assert [a["name"] for a in _listed()] == ["Editor"]
    assert scan(turnlog_home, ["STYLE-GUIDE-MARK-7f3a"]), "its file stays with it"
    # Delete all? yes; forget the usage totals too? no; the assistants too? yes.
    asked = cli("delete", "--all", input="y\nn\ny\n")
    assert asked.returncode == 0, asked.stderr
    assert "Also delete the 1 assistant(s)" in asked.stderr
    assert _listed() == []
    assert scan(turnlog_home, ["STYLE-GUIDE-MARK-7f3a"]) == []


def test_update_from_assistant_is_explicit(loopback, turnlog_home, tmp_path):
    add_profile(loopback)
    _add_editor(tmp_path)
    loopback.script(Behaviour.answer("Done."), Behaviour.answer("Again."))
    assert cli("ask", "--new", "--assistant", "Editor", "--var", "audience=engineers",
               "Check.").returncode == 0
    other = tmp_path / "other.txt"
    other.write_text("Now for {{audience}}.", encoding="utf-8")
    assert cli("assistant", "edit", "Editor", "--system-file", str(other), "--pin",
               "Another pin.").returncode == 0
    updated = cli("assistant", "update-conversation", "1", "--var", "audience=managers")
    assert updated.returncode == 0, updated.stderr
    assert cli("ask", "--conversation", "1", "And now?").returncode == 0
    body = loopback.requests[-1].json()
    assert body["messages"][0]["content"] == "Now for managers."
    wire = loopback.requests[-1].body.decode("utf-8")
    assert "Another pin." in wire and "Never use passive voice." in wire
    assert [t["question"] for t in map(json.loads, cli("export", "1").stdout.splitlines()[1:])
            ] == ["Check.", "And now?"]
    none = cli("assistant", "update-conversation", "42")
    assert none.returncode == 1 and "did not start from an assistant" in none.stderr


def _folder_of_conversations(turnlog_home: Path) -> list[str | None]:
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    try:
        return [name for (name,) in con.execute(
            'SELECT f."name" FROM "conversations" c LEFT JOIN "folders" f '
            'ON f."id" = c."folder_id" ORDER BY c."id"')]
    finally:
        con.close()


def test_an_assistant_s_folder_is_where_its_conversations_start(loopback, turnlog_home,
                                                                 tmp_path):
    add_profile(loopback)
    refused = cli("assistant", "add", "Lost", "--system-file", str(_files(tmp_path)[0]),
                  "--folder", "Nowhere")
    assert refused.returncode == 2 and "failure: no_folder" in refused.stderr
    assert "no folder “Nowhere”" in refused.stderr and _listed() == []
    assert cli("folder", "add", "工作 Work").returncode == 0
    _add_editor(tmp_path, "--folder", "工作 Work")
    assert [a["folder"] for a in _listed()] == ["工作 Work"]
    loopback.script(Behaviour.answer("Done."), Behaviour.answer("Plain."))
    asked = cli("ask", "--new", "--assistant", "Editor", "--var", "audience=engineers",
                "Check my text.")
    assert asked.returncode == 0, asked.stderr
    assert cli("ask", "--new", "Not from an assistant.").returncode == 0
    assert _folder_of_conversations(turnlog_home) == ["工作 Work", None]

    # Export carries the folder's name; an import makes a folder of that name if missing.
    out = tmp_path / "assistants.json"
    assert cli("assistant", "export", str(out)).returncode == 0
    [one] = json.loads(out.read_text(encoding="utf-8"))["assistants"]
    assert one["folder"] == "工作 Work"
    one["folder"] = "新 New"
    out.write_text(json.dumps({"format": "turnlog-assistants", "version": 1,
                               "assistants": [one]}), encoding="utf-8")
    imported = cli("assistant", "import", str(out))
    assert imported.returncode == 0, imported.stderr
    assert "folder: 新 New (made if there is none)" in imported.stdout
    assert [(a["name"], a["folder"]) for a in _listed()] == [
        ("Editor", "工作 Work"), ("Editor (2)", "新 New")]
    assert "新 New" in cli("folder", "list").stdout
    # Edited to none: its next conversation starts in no folder.
    assert cli("assistant", "edit", "Editor", "--folder", "").returncode == 0
    assert [a["folder"] for a in _listed()] == ["", "新 New"]
