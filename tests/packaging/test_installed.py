"""What an installed Turnlog carries: one version number, its icon, license and translations
inside the wheel (not only in a source checkout), and a fault log for hard crashes."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
import venv
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

import turnlog
from places import ROOT


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def test_one_version_number_read_from_the_package_metadata():
    assert turnlog.__version__ == version("turnlog") == pyproject_version()
    shown = subprocess.run([sys.executable, "-m", "turnlog.cli", "--version"],
                           capture_output=True, text=True, check=True, timeout=60)
    assert shown.stdout.strip() == f"turnlog {pyproject_version()}"


def test_the_source_tree_keeps_no_second_version_number():
    pattern = pyproject_version()
    literal = [str(path.relative_to(ROOT)) for path in (ROOT / "desktop").rglob("*.py")
               if f'"{pattern}"' in path.read_text(encoding="utf-8")]
    assert literal == []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Offline: no build isolation, so no download of build requirements.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "--wheel-dir", str(out), str(ROOT)],
                   check=True, timeout=600, env={**os.environ, "PIP_NO_INDEX": "1"})
    (built,) = out.glob("turnlog-*.whl")
    return built


def test_the_wheel_carries_icon_license_and_translations(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        icon = archive.read(f"turnlog/resources/{turnlog.APP_ID}.svg")
        translations = {language: archive.read(f"turnlog/resources/translations/turnlog_"
                                               f"{language}.qm") for language in ("zh_CN", "zh_TW")}
    assert b"<svg" in icon
    for language, qm in translations.items():
        assert qm == (ROOT / "desktop" / "turnlog" / "resources" / "translations"
                      / f"turnlog_{language}.qm").read_bytes()
    assert any(name.endswith("LICENSE") and ".dist-info/" in name for name in names)
    assert f"turnlog-{pyproject_version()}-" in wheel.name


def test_an_installed_wheel_loads_its_icon(wheel, tmp_path):
    """Installed with --no-deps into a scratch venv, away from the source tree, the app's
    icon comes from the installed package."""
    # Only the scratch venv decides what `import turnlog` finds: no source tree on the path.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    scratch = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(scratch)
    python = scratch / "bin" / "python"
    here = sysconfig.get_paths()["purelib"]
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--no-index", "--quiet", str(wheel)],
                   check=True, timeout=300, env=env)
    # PySide6 and the other dependencies come from the test's own environment, after the
    # scratch venv's own site-packages (a .pth line only appends to sys.path).
    scratch_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, timeout=60, env=env).stdout.strip()
    Path(scratch_site, "zz-test-dependencies.pth").write_text(here + "\n", encoding="utf-8")
    script = textwrap.dedent("""
        import turnlog
        from PySide6.QtGui import QGuiApplication
        app = QGuiApplication(["turnlog-wheel-check"])
        from turnlog.app import packaged_icon
        icon = packaged_icon()
        sizes = sorted(size.width() for size in icon.availableSizes())
        print(turnlog.__file__)
        print(turnlog.__version__)
        print(sizes)
        print(icon.pixmap(64, 64).toImage().pixelColor(32, 32).alpha())
        from PySide6.QtCore import QCoreApplication
        from turnlog.ui.infra.languages import install
        install("zh_CN")
        print(QCoreApplication.translate("Failure", "Stopped"))
    """)
    env["QT_QPA_PLATFORM"] = "offscreen"
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    location, shown_version, sizes, alpha, stopped = done.stdout.splitlines()
    assert Path(location).is_relative_to(scratch)
    assert shown_version == pyproject_version()
    assert sizes == "[16, 24, 32, 48, 64, 128, 256]"
    assert int(alpha) > 0  # the icon's centre is painted, not an empty pixmap
    assert stopped == "已停止"  # the Chinese translation came from the installed package


def test_a_hard_crash_leaves_a_traceback_in_the_fault_log(tmp_path):
    script = textwrap.dedent("""
        import faulthandler, sys
        from pathlib import Path
        from turnlog.app import enable_fault_log
        enable_fault_log(Path(sys.argv[1]))
        faulthandler._sigsegv()
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    report = (tmp_path / "logs" / "faults.log").read_text(encoding="utf-8")
    assert "Fatal Python error: Segmentation fault" in report
    assert 'File "<string>", line 6' in report  # where it crashed, not only that it did


def test_an_unreadable_icon_never_stops_the_app(monkeypatch, qapp):
    """An installation whose icon file cannot be read (permissions, a broken package)
    starts without an icon instead of failing."""
    import turnlog.resources as resources
    from turnlog.app import packaged_icon

    class Unreadable:
        def read_bytes(self) -> bytes:
            raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(resources, "resource", lambda name: Unreadable())
    assert packaged_icon().isNull()
