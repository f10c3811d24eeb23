"""The installable Turnlog: `packaging/build-bundle.sh` builds the one-folder bundle and the
.deb; the package is unpacked into a scratch root (`dpkg -x`), and what it installed is
checked the way a person would meet it: `/usr/bin/turnlog --version`, `turnlog --smoke-test`
under a virtual X server (one question to the built-in model, one turn committed),
`turnlog-cli`, the desktop entry, the AppStream metainfo and the icons, validated by the
desktop's own tools.

The build compiles llama.cpp and takes minutes, so these tests run where
TURNLOG_BUNDLE_TEST=1 (CI's bundle step in .ci/run sets it and installs the tools). A
finished build can be reused with TURNLOG_BUNDLE_OUT=DIR (its output folder): the build
script then reuses its virtual environment and pip cache there.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import turnlog
from places import ROOT, SUPPORT

APP_ID = "io.github.turnlog.Turnlog"
ICON_SIZES = (48, 128, 256)
BUILD_TIMEOUT_S = 40 * 60
SMOKE_TIMEOUT_S = 600

pytestmark = [
    pytest.mark.bundle,
    pytest.mark.skipif(os.environ.get("TURNLOG_BUNDLE_TEST") != "1",
                       reason="builds the bundle for minutes: set TURNLOG_BUNDLE_TEST=1"),
]


@dataclass(frozen=True)
class Build:
    out: Path
    deb: Path
    log: str
    seconds: float


@dataclass(frozen=True)
class Installed:
    root: Path  # the scratch root the package was unpacked into
    build: Build

    def bin(self, name: str) -> Path:
        return self.root / "usr" / "bin" / name


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a person's session: none of the test run's Python or Qt
    settings (no PYTHONPATH, no offscreen platform), a data directory of its own."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "QT_", "VIRTUAL_ENV"))}
    env["TURNLOG_HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Build:
    out = Path(os.environ.get("TURNLOG_BUNDLE_OUT") or tmp_path_factory.mktemp("bundle"))
    started = time.monotonic()
    result = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build-bundle.sh"), str(out)],
        capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False,
    )
    seconds = time.monotonic() - started
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-8000:]
    debs = sorted(out.glob("turnlog_*.deb"))
    assert len(debs) == 1, debs
    return Build(out, debs[0], log, seconds)


@pytest.fixture(scope="module")
def installed(build, tmp_path_factory) -> Installed:
    root = tmp_path_factory.mktemp("scratch-root")
    subprocess.run(["dpkg-deb", "-x", str(build.deb), str(root)], check=True)
    return Installed(root, build)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_build_reports_the_bundle_and_package_sizes_and_its_time(build, capsys):
    bundle = re.search(r"^build-bundle: bundle (\S+): (\d+) MiB \((\d+) KiB\)$", build.log, re.M)
    package = re.search(r"^build-bundle: package (\S+): (\d+) MiB \((\d+) KiB\)$", build.log,
                        re.M)
    took = re.search(r"^build-bundle: built in (\d+) s$", build.log, re.M)
    assert bundle and package and took, build.log[-3000:]
    measured_kib = int(subprocess.run(["du", "-sk", bundle.group(1)], capture_output=True,
                                      text=True, check=True).stdout.split()[0])
    assert int(bundle.group(3)) == measured_kib
    assert Path(package.group(1)) == build.deb
    assert int(package.group(3)) == build.deb.stat().st_size // 1024
    # The bundle carries the model file (about 94 MiB) and Qt; the package compresses it.
    assert int(bundle.group(2)) > 150
    assert 0 < int(package.group(3)) < int(bundle.group(3))
    with capsys.disabled():
        print(f"\n{bundle.group(0)}\n{package.group(0)}\n{took.group(0)} "
              f"(measured by the test: {build.seconds:.0f} s)")


def test_the_package_installs_the_program_its_links_and_the_desktop_files(installed):
    root = installed.root
    program = root / "opt" / "turnlog" / "turnlog"
    assert program.is_file() and os.access(program, os.X_OK)
    for name in ("turnlog", "turnlog-cli"):
        link = installed.bin(name)
        assert link.is_symlink(), name
        assert os.readlink(link) == f"../../opt/turnlog/{name}"  # also right under /
        assert link.resolve() == program.resolve()
    share = root / "usr" / "share"
    assert (share / "applications" / f"{APP_ID}.desktop").is_file()
    assert (share / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    svg = share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    assert svg.read_bytes() == (ROOT / "desktop" / "turnlog" / "resources" / svg.name
                                ).read_bytes()
    for size in ICON_SIZES:
        png = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png_size(png) == (size, size)
    fields = {field: subprocess.run(["dpkg-deb", "-f", str(installed.build.deb), field],
                                    capture_output=True, text=True, check=True).stdout.strip()
              for field in ("Package", "Version", "Architecture", "Depends")}
    assert fields["Package"] == "turnlog"
    assert fields["Version"] == turnlog.__version__
    assert "libegl1" in fields["Depends"]


# Libraries that only Qt's optional Wayland plugin links to; a machine without them (a
# build machine with no desktop) reports them "not found", and Qt then uses X11.
OPTIONAL_ELSEWHERE = ("libwayland-",)


def owning_package(library: Path) -> str:
    """The Debian package that installed `library` (merged /usr: try both spellings)."""
    real = library.resolve()
    for path in {str(library), str(real), str(real).replace("/usr/lib/", "/lib/", 1)}:
        found = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True,
                               check=False)
        if found.returncode == 0:
            return found.stdout.split(":")[0]
    raise AssertionError(f"no package owns {library}")


def test_the_depends_name_every_library_the_bundle_leaves_to_the_system(installed):
    """What the bundled programs and libraries link to but the bundle does not carry must
    come from a package the .deb depends on."""
    bundle = installed.root / "opt" / "turnlog"
    internal = bundle / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))
    outside: dict[str, set[str]] = {}
    missing: set[str] = set()
    for elf in [bundle / "turnlog", *internal.rglob("*.so*")]:
        if elf.is_symlink() or not elf.is_file():
            continue
        listing = subprocess.run(["ldd", str(elf)], capture_output=True, text=True,
                                 env=env, check=False).stdout
        for name, target in re.findall(r"^\s*(\S+) => (.+?)(?: \(0x[0-9a-f]+\))?$",
                                       listing, re.M):
            if target == "not found":
                if not name.startswith(OPTIONAL_ELSEWHERE):
                    missing.add(f"{name} (for {elf.relative_to(bundle)})")
            elif not Path(target).resolve().is_relative_to(bundle.resolve()):
                outside.setdefault(target, set()).add(elf.name)
    assert not missing, sorted(missing)
    depends = subprocess.run(["dpkg-deb", "-f", str(installed.build.deb), "Depends"],
                             capture_output=True, text=True, check=True).stdout
    named = {part.strip().split(" ")[0] for part in depends.split(",")}
    owners = {target: owning_package(Path(target)) for target in outside}
    unnamed = {target: owner for target, owner in owners.items() if owner not in named}
    assert not unnamed, unnamed


def test_the_packaged_desktop_entry_and_metainfo_validate(installed):
    share = installed.root / "usr" / "share"
    desktop = subprocess.run(
        ["desktop-file-validate", str(share / "applications" / f"{APP_ID}.desktop")],
        capture_output=True, text=True, check=False)
    assert desktop.returncode == 0 and not desktop.stdout.strip(), desktop.stdout
    metainfo = share / "metainfo" / f"{APP_ID}.metainfo.xml"
    appstream = subprocess.run(["appstreamcli", "validate", "--no-net", str(metainfo)],
                               capture_output=True, text=True, check=False)
    assert appstream.returncode == 0, appstream.stdout + appstream.stderr
    text = metainfo.read_text(encoding="utf-8")
    for part in ('<release version="' + turnlog.__version__, "<content_rating",
                 '<name xml:lang="zh_CN">', '<name xml:lang="zh_TW">',
                 '<summary xml:lang="zh_CN">', '<summary xml:lang="zh_TW">'):
        assert part in text, part


def test_the_installed_turnlog_names_its_version_and_places(installed, tmp_path):
    home = tmp_path / "home"
    result = subprocess.run([str(installed.bin("turnlog")), "--version"],
                            capture_output=True, text=True, timeout=120,
                            env=clean_env(home), check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Turnlog {turnlog.__version__}"
    assert re.fullmatch(r"Qt: 6\.\d+\.\d+ \(PySide6 6\.\d+\.\d+\)", lines[1]), lines
    assert lines[2].startswith(f"Python: {sys.version_info.major}.{sys.version_info.minor}.")
    assert lines[3] == f"Data directory: {home}"
    assert lines[4] == f"Log file: {home / 'logs' / 'turnlog.log'}"


def test_the_installed_turnlog_cli_runs_from_the_same_bundle(installed, tmp_path):
    env = clean_env(tmp_path / "home")
    result = subprocess.run([str(installed.bin("turnlog-cli")), "profile", "list"],
                            capture_output=True, text=True, timeout=120, env=env, check=False)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([str(installed.bin("turnlog-cli")), "list"],
                            capture_output=True, text=True, timeout=120, env=env, check=False)
    assert result.returncode == 0, result.stderr


def test_the_bundled_turnlog_cli_reads_every_kind_of_attachment(installed, tmp_path):
    """pypdf, charset-normalizer and Pillow are in the bundle: each file is read (the ask
    then stops at the missing provider, named, never at a missing module)."""
    from attachfiles import jpeg_bytes, pdf_bytes, png_bytes, write

    files = [write(tmp_path, "a.pdf", pdf_bytes(["text"])),
             write(tmp_path, "b.txt", "中文的文件内容，用国标编码。".encode("gbk")),
             write(tmp_path, "c.png", png_bytes(3000, 20)), write(tmp_path, "d.jpg",
                                                                 jpeg_bytes(40, 30))]
    attach = [arg for f in files for arg in ("--attach", str(f))]
    result = subprocess.run([str(installed.bin("turnlog-cli")), "ask", "--new", "Read",
                             *attach], capture_output=True, text=True, timeout=120,
                            env=clean_env(tmp_path / "home"), check=False)
    assert result.stderr.startswith("failure: no_key\nNo provider set up."), result.stderr
    assert "Traceback" not in result.stderr


def test_the_installed_turnlog_cli_talks_to_an_mcp_server(installed, tmp_path):
    """The bundle ships the MCP SDK: its CLI starts a stdio server and lists its tools."""
    env = clean_env(tmp_path / "home")
    peer = SUPPORT / "mcp_peers.py"
    added = subprocess.run([str(installed.bin("turnlog-cli")), "tools", "add", "peer", "--",
                            sys.executable, str(peer)], capture_output=True, text=True,
                           timeout=120, env=env, check=False)
    assert added.returncode == 0, added.stderr
    listed = subprocess.run([str(installed.bin("turnlog-cli")), "tools", "list"],
                            capture_output=True, text=True, timeout=120, env=env, check=False)
    assert listed.returncode == 0, listed.stderr
    assert "peer\tready with 6 tools" in listed.stdout, listed.stdout


@pytest.mark.parametrize("kind", ["webdav", "s3"])
def test_the_installed_turnlog_cli_syncs_through_a_webdav_server_and_an_s3_api(
        installed, tmp_path, kind):
    """The package carries the sync backends: set up through a real server on 127.0.0.1
    (its password in a Secret Service keyring of the child's own session), then a sync."""
    from sync_cli_runs import server_options
    from sync_servers import s3_server, webdav_server

    env = clean_env(tmp_path / "home")
    (tmp_path / "pass").write_text("tulips in autumn\n")
    script = ('export XDG_DATA_HOME="$(mktemp -d)"; printf %s pw | '
              "gnome-keyring-daemon --unlock --components=secrets >/dev/null; "
              '"$0" sync setup "$@" && "$0" sync now')
    with (webdav_server(tmp_path / "dav") if kind == "webdav" else s3_server()) as served:
        synced = subprocess.run(
            ["dbus-run-session", "--", "sh", "-c", script, str(installed.bin("turnlog-cli")),
             *server_options(served, tmp_path), "--passphrase-file", str(tmp_path / "pass"),
             "--machine", "laptop"],
            capture_output=True, text=True, timeout=300, env=env, check=False)
    assert synced.returncode == 0, synced.stdout + synced.stderr
    assert "started a new sync storage: " in synced.stdout, synced.stdout


def test_the_bundled_llama_cpp_is_the_portable_build(installed):
    libs = list((installed.root / "opt" / "turnlog").rglob("libggml-cpu.so*"))
    assert libs
    for lib in libs:
        flags = subprocess.run(["readelf", "-p", ".GCC.command.line", str(lib)],
                               capture_output=True, text=True, check=True).stdout
        assert "-mavx2" in flags, lib  # GGML_NATIVE=OFF names its instruction sets
        assert "-march=native" not in flags, lib


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (package xvfb)")
def test_the_installed_turnlog_answers_one_question_under_x(installed, tmp_path):
    env = clean_env(tmp_path / "unused-home")  # the smoke test makes its own
    result = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", str(installed.bin("turnlog")),
         "--smoke-test"],
        capture_output=True, text=True, timeout=SMOKE_TIMEOUT_S, env=env, check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "smoke test: stage: Answering" in output
    assert "smoke test: maths typeset: " in output  # the typesetter's process, frozen too
    assert "answer committed as turn 1" in output
    assert "smoke test: passed" in output
    assert not (tmp_path / "unused-home").exists()



def keep_methods_step():
    """packaging/keep_methods.py, the build's step that starts the bundle to keep its
    methods: its data directory and its way of starting the window are the tests' too."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("keep_methods",
                                                  ROOT / "packaging" / "keep_methods.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

def kept_methods(bundle: Path) -> dict[str, bytes]:
    return {str(path.relative_to(bundle)): path.read_bytes()
            for path in bundle.rglob(f"*dataclass_methods.{sys.implementation.cache_tag}.marshal")}


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(root)): (path.lstat().st_size, path.lstat().st_mtime_ns)
            for path in root.rglob("*")}


STARTED_COMMANDS = ("list", "show", "search", "project")


def test_the_installed_read_only_bundle_starts_compiling_no_dataclass_methods(installed,
                                                                               tmp_path):
    """The build kept the code of the dataclass methods the window and each command
    compile, inside the bundle: a start of the installed program (its tree read-only)
    compiles none of them. Told to keep what it compiled (as its build is), a start would
    write it there: the tree stays exactly as installed, so nothing was compiled."""
    from turnlog.system.compiled_methods import CompiledMethods

    step = keep_methods_step()
    bundle = installed.root / "opt" / "turnlog"
    kept = kept_methods(bundle)
    names = {Path(name).name.split(".")[0] for name in kept}
    assert {"dataclass_methods", *(f"cli-{c}" for c in STARTED_COMMANDS)} <= names, names
    window_file = next(bundle / name for name in kept
                       if Path(name).name.startswith("dataclass_methods."))
    assert len(CompiledMethods(window_file)) > 500
    home = tmp_path / "home"
    home.mkdir()
    c = str(step.seed(home))
    env = step.environment(home)  # offscreen, told to keep what it compiles
    before = tree_state(bundle)
    subprocess.run(["chmod", "-R", "a-w", str(bundle)], check=True)
    try:
        step.start_window(bundle, home)
        for line in (["list"], ["show", c], ["search", "item"],
                     ["project", "--conversation", c, "--question", "next?",
                      "--profile", step.PROFILE]):
            ran = subprocess.run([str(installed.bin("turnlog-cli")), *line],
                                 capture_output=True, text=True, timeout=120, env=env,
                                 check=False)
            assert ran.returncode == 0, ran.stderr
        assert tree_state(bundle) == before
        assert kept_methods(bundle) == kept
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(bundle)], check=True)


def test_a_damaged_kept_file_in_the_bundle_is_compiled_over(installed, tmp_path):
    """The bundle trusts no kept file it cannot read: the window compiles what it needs
    and starts as always (and, told to keep it, writes a whole file again)."""
    from turnlog.system.compiled_methods import CompiledMethods

    step = keep_methods_step()
    bundle = tmp_path / "turnlog"
    subprocess.run(["cp", "-al", str(installed.root / "opt" / "turnlog"), str(bundle)],
                   check=True)  # linked, not copied: the damaged file is a new one
    window_file = next(bundle / name for name in kept_methods(bundle)
                       if Path(name).name.startswith("dataclass_methods."))
    window_file.unlink()
    window_file.write_bytes(b"\xe3not marshal" * 100)
    home = tmp_path / "home"
    home.mkdir()
    step.seed(home)
    step.start_window(bundle, home)
    assert len(CompiledMethods(window_file)) > 500
