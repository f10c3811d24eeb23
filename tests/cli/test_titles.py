"""turnlog-cli and titles (the real loopback server, the real database): `ask --new`
without `--title` names the conversation after its first question as the window does, a
`--title` is the user's; export and import keep a title (an imported one is the user's)."""

from __future__ import annotations

from cli_runs import add_profile, cli
from loopback import Behaviour
from turnlog.core.titles import QUESTION, USER
from turnlog.store import TurnlogStore

CHINESE = ("请帮我解释一下为什么在分布式系统中一致性、可用性和分区容错性"
           "三者不能同时满足，并举一个例子\n第二行")


def test_ask_new_without_a_title_is_named_after_its_question(loopback, turnlog_home,
                                                             tmp_path):
    add_profile(loopback)
    loopback.script(Behaviour.answer("CAP 定理。"), Behaviour.answer("Typed one."))
    asked = cli("ask", "--new", CHINESE)
    assert asked.returncode == 0, asked.stderr
    typed = cli("ask", "--new", "--title", "My own", "Why does my Kubernetes pod restart?")
    assert typed.returncode == 0, typed.stderr
    listed = cli("list")
    assert listed.returncode == 0, listed.stderr
    assert CHINESE[:40] + "…" in listed.stdout and "My own" in listed.stdout
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        derived, own = sorted(store.conversations(), key=lambda c: c.id)
    assert (derived.title, derived.title_source) == (CHINESE[:40] + "…", QUESTION)
    assert (own.title, own.title_source) == ("My own", USER)

    exported = cli("export", str(derived.id))
    assert exported.returncode == 0, exported.stderr
    path = tmp_path / "derived.jsonl"
    path.write_text(exported.stdout, encoding="utf-8")
    imported = cli("import", "--as-copies", str(path))  # here already: a copy on purpose
    assert imported.returncode == 0, imported.stderr
    with TurnlogStore.open(turnlog_home, readonly=True) as store:
        newest = max(store.conversations(), key=lambda c: c.id)
    assert (newest.title, newest.title_source) == (CHINESE[:40] + "…", USER)
