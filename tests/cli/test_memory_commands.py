"""Memory over real HTTP through turnlog-cli: pins, preferences and notes in the body in
their order, exactly once; isolation between conversations; deleting a pin's source turn."""

from __future__ import annotations

import json
from pathlib import Path

from cli_runs import add_profile, cli
from loopback import Behaviour


def start(loopback, title: str, question: str) -> int:
    loopback.script(Behaviour.answer("Noted."))
    result = cli("ask", "--new", "--title", title, question)
    assert result.returncode == 0, result.stderr
    return int(result.stderr.split("conversation ")[1].split()[0])


def turn_ids(cid: int) -> list[str]:
    out = cli("export", str(cid))
    assert out.returncode == 0, out.stderr
    return [json.loads(line)["id"] for line in out.stdout.splitlines()[1:]
            if "question" in json.loads(line)]


def added(*args: str) -> int:
    result = cli(*args)
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


def test_layers_reach_the_wire_in_order_exactly_once_and_stay_in_their_conversation(loopback):
    add_profile(loopback)
    one = start(loopback, "one", "Backups live on NAS-ONE-7.")
    two = start(loopback, "two", "Something else entirely.")
    (source,) = turn_ids(one)
    pin = added("pin", "add", "--conversation", str(one), "--turn", source,
                "PIN-ONE: never delete the backups")
    added("pin", "add", "--conversation", str(two), "PIN-TWO: ticket OPS-22")
    added("note", "add", "--conversation", str(one), "--priority", "4", "NOTE-ONE: on-call is Ada")
    added("note", "add", "--conversation", str(two), "NOTE-TWO: staging only")
    added("pref", "add", "--priority", "5", "PREF: answer briefly")

    listed = json.loads(cli("pin", "list", "--conversation", str(one), "--json").stdout)
    assert [(p["id"], p["sources"]) for p in listed] == [(pin, [source])]

    loopback.script(Behaviour.answer("Done."))
    result = cli("ask", "--conversation", str(one), "QUESTION-ONE")
    assert result.returncode == 0, result.stderr
    body = loopback.requests[-1].body.decode()
    order = ["PREF: answer briefly", "PIN-ONE", "NOTE-ONE", "Backups live on NAS-ONE-7.",
             "QUESTION-ONE"]
    positions = [body.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert all(body.count(marker) == 1 for marker in order)
    assert "PIN-TWO" not in body and "NOTE-TWO" not in body

    loopback.script(Behaviour.answer("Done."))
    assert cli("ask", "--conversation", str(two), "QUESTION-TWO").returncode == 0
    body = loopback.requests[-1].body.decode()
    assert "PIN-TWO" in body and "NOTE-TWO" in body and "PREF: answer briefly" in body
    assert "PIN-ONE" not in body and "NOTE-ONE" not in body


def test_project_json_reports_the_memory_and_matches_the_wire(loopback):
    add_profile(loopback)
    cid = start(loopback, "proj", "Hello")
    pin = added("pin", "add", "--conversation", str(cid), "keep ORCHID-17")
    note = added("note", "add", "--conversation", str(cid), "--priority", "2", "small note")
    big = added("note", "add", "--conversation", str(cid), "x" * 3_000)
    projected = cli("project", "--conversation", str(cid), "--question", "Q?", "--json")
    assert projected.returncode == 0, projected.stderr
    out = json.loads(projected.stdout)
    memory = out["memory"]
    assert memory["budget"] == {"bytes": 1_600, "tokens": memory["budget"]["tokens"]}
    assert [p["id"] for p in memory["pinned"]] == [pin]
    kept = {(o["id"], o["kind"]): o["kept"] for o in memory["optional"]}
    assert kept == {(note, "note"): True, (big, "note"): False}
    assert memory["approximate"] is False
    loopback.script(Behaviour.answer("ok"))
    assert cli("ask", "--conversation", str(cid), "Q?").returncode == 0
    assert loopback.requests[-1].body == out["body"].encode("utf-8")


def test_deleting_a_pins_source_turn_deletes_the_pin_and_no_byte_remains(loopback,
                                                                        turnlog_home: Path):
    add_profile(loopback)
    cid = start(loopback, "del", "The vault code is ZEBRA-5521.")
    (source,) = turn_ids(cid)
    added("pin", "add", "--conversation", str(cid), "--turn", source, "PINNED-ZEBRA-5521")
    kept = added("pin", "add", "--conversation", str(cid), "TYPED-KEEPS-9")
    preview = cli("delete", "--turn", source, input="n\n")
    assert "1 pinned fact" in preview.stderr
    result = cli("delete", "--turn", source, "--yes")
    assert result.returncode == 0, result.stderr
    listed = json.loads(cli("pin", "list", "--conversation", str(cid), "--json").stdout)
    assert [p["id"] for p in listed] == [kept]
    for path in turnlog_home.rglob("*"):
        if path.is_file():
            assert b"PINNED-ZEBRA-5521" not in path.read_bytes(), path


def test_a_pin_kept_as_typed_loses_its_source(loopback):
    add_profile(loopback)
    cid = start(loopback, "keep", "Port is 8443.")
    (source,) = turn_ids(cid)
    pin = added("pin", "add", "--conversation", str(cid), "--turn", source, "port 8443")
    assert cli("delete", "--turn", source, "--yes", "--keep-pins").returncode == 0
    (listed,) = json.loads(cli("pin", "list", "--conversation", str(cid), "--json").stdout)
    assert (listed["id"], listed["sources"]) == (pin, [])


def test_delete_all_offers_the_preferences(loopback):
    add_profile(loopback)
    start(loopback, "a", "hi")
    added("pref", "add", "use metric units")
    assert cli("delete", "--all", "--yes").returncode == 0
    assert json.loads(cli("pref", "list", "--json").stdout) != []
    answered = cli("delete", "--all", input="y\ny\n")
    assert answered.returncode == 0, answered.stderr
    assert json.loads(cli("pref", "list", "--json").stdout) == []


def test_bad_input_is_named():
    assert cli("pref", "add", "--priority", "9", "x").returncode == 2
    result = cli("pin", "add", "--conversation", "42", "x")
    assert result.returncode == 2 and "no conversation 42" in result.stderr
    assert cli("note", "remove", "7").returncode == 2


def test_export_and_import_carry_pins_notes_and_preferences(loopback, tmp_path):
    add_profile(loopback)
    cid = start(loopback, "round", "Server is 主机-7 😀")
    (source,) = turn_ids(cid)
    added("pin", "add", "--conversation", str(cid), "--turn", source, "--kind", "identifier",
          "host 主机-7")
    added("pin", "add", "--conversation", str(cid), "typed: never reboot on Friday")
    added("note", "add", "--conversation", str(cid), "--priority", "5", "备注 note")
    added("pref", "add", "--priority", "2", "answer in English")
    exported = cli("export", str(cid)).stdout
    header = json.loads(exported.splitlines()[0])
    assert [p["sources"] for p in header["memory"]["pins"]] == [[source], []]
    path = tmp_path / "round.jsonl"
    path.write_text(exported, encoding="utf-8")
    same = cli("import", str(path))  # the conversation is here already: nothing is added
    assert same.returncode == 0 and int(same.stdout) == cid, same.stderr
    assert "already imported: 1" in same.stderr
    imported = cli("import", "--as-copies", str(path))
    assert imported.returncode == 0, imported.stderr
    new = int(imported.stdout)
    (new_source,) = turn_ids(new)
    assert new_source != source  # ids are global: a copy gets fresh ones
    pins = json.loads(cli("pin", "list", "--conversation", str(new), "--json").stdout)
    assert [(p["text"], p["kind"], p["sources"]) for p in pins] == [
        ("host 主机-7", "identifier", [new_source]), ("typed: never reboot on Friday", "", [])]
    notes = json.loads(cli("note", "list", "--conversation", str(new), "--json").stdout)
    assert [(n["text"], n["priority"]) for n in notes] == [("备注 note", 5)]
    prefs = json.loads(cli("pref", "list", "--json").stdout)
    assert [p["text"] for p in prefs] == ["answer in English"]  # not added twice
    again = json.loads(cli("export", str(new)).stdout.splitlines()[0])["memory"]
    assert [(p["text"], p["kind"]) for p in again["pins"]] == [
        (p["text"], p["kind"]) for p in header["memory"]["pins"]]


def test_an_import_with_a_bad_memory_section_is_refused_whole(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"turnlog": 1, "title": "t", "memory": {"notes": [{"text": "n", '
                    '"priority": 9}]}}\n{"question": "q", "answer": "a"}\n', encoding="utf-8")
    result = cli("import", str(path))
    assert result.returncode == 1 and "priority" in result.stderr
    assert cli("list").stdout.strip() in ("", "no conversations yet")
