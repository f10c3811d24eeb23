"""The llama.cpp under the built-in model runs on any x86-64 CPU, and says so.

A library compiled for the build machine's CPU (llama.cpp's default, -march=native) uses
what that CPU has (AVX-512, AMX) and crashes the built-in model on another. The check
reads the compiler options each library recorded (-frecord-gcc-switches); fixture
libraries compiled here with native, portable and no recorded options show that it tells
them apart, so a native build cannot pass on any machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from places import ROOT
from turnlog.localmodel.build import (
    CPU_LIBRARY,
    NoBuildFlags,
    cpu_features,
    elf_section_strings,
    installed_build,
    judge_flags,
    judge_library_dir,
)

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def compile_library(folder: Path, *flags: str, name: str = CPU_LIBRARY) -> Path:
    """A small shared library with a matrix-multiply-like loop, built with `flags`."""
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "kernel.c"
    source.write_text(
        "void dot(const float *a, const float *b, float *out, int n) {\n"
        "  float sum = 0; for (int i = 0; i < n; i++) sum += a[i] * b[i]; *out = sum;\n"
        "}\n")
    library = folder / name
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", *flags, "-o", str(library),
                    str(source)], check=True, capture_output=True)
    source.unlink()
    return library


def fake_llama_package(site: Path, *flags: str) -> Path:
    """A `llama_cpp` package (as pip installs it) whose libraries carry `flags`."""
    package = site / "llama_cpp"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in (CPU_LIBRARY, "libllama.so", "libggml-base.so"):
        compile_library(package / "lib", *flags, name=name)
    return package


# ----------------------------------------------------------------- the installed build
def test_the_installed_llama_library_is_the_portable_build():
    build = installed_build()
    if build.library_dir is None:
        pytest.skip("llama-cpp-python is not installed (the local extra)")
    assert build.portable, build.summary()
    # GGML_NATIVE=OFF names the baseline it builds for; nothing beyond it.
    assert "avx2" in build.features
    assert "portable build" in build.summary()
    assert not build.missing_on_this_cpu(), "this CPU cannot run the installed build"


def test_turnlog_version_says_which_llama_build_is_in_use(tmp_path):
    build = installed_build()
    env = dict(os.environ, TURNLOG_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-m", "turnlog", "--version"], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("llama.cpp:"))
    if build.library_dir is None:
        assert line == "llama.cpp: not installed"
    else:
        assert f"llama-cpp-python {build.version}, portable build" in line
        assert "AVX2" in line


# ------------------------------------------------------------------- fixture libraries
@needs_gcc
def test_a_library_built_for_this_cpu_is_refused(tmp_path):
    library = compile_library(tmp_path / "native", "-march=native", "-frecord-gcc-switches")
    problem, _features = judge_flags(elf_section_strings(library))
    assert problem.startswith("built for one CPU (-march=")
    build = judge_library_dir(library.parent)
    assert not build.portable
    assert "libggml-cpu.so is built for one CPU" in build.summary()


@needs_gcc
def test_a_library_with_no_recorded_options_is_refused(tmp_path):
    library = compile_library(tmp_path / "silent")  # no -frecord-gcc-switches
    with pytest.raises(NoBuildFlags, match="records no compiler options"):
        elf_section_strings(library)
    build = judge_library_dir(library.parent)
    assert not build.portable
    assert "cannot tell whether it runs on other CPUs" in build.problem


@needs_gcc
@pytest.mark.parametrize("flags", [("-march=x86-64-v4",), ("-mavx2", "-mavx512f"),
                                   ("-mavx2", "-mamx-tile")])
def test_instruction_sets_beyond_avx2_are_refused(tmp_path, flags):
    library = compile_library(tmp_path / "beyond", *flags, "-frecord-gcc-switches")
    assert not judge_library_dir(library.parent).portable


@needs_gcc
def test_the_portable_baseline_passes_and_names_what_it_needs(tmp_path):
    library = compile_library(tmp_path / "portable", "-mavx2", "-mfma", "-mf16c",
                              "-frecord-gcc-switches")
    build = judge_library_dir(library.parent, "0.3.0")
    assert build.portable, build.problem
    assert build.features == ("avx2", "fma", "f16c")
    assert build.summary() == ("llama.cpp (llama-cpp-python 0.3.0): portable build "
                               "(any x86-64 CPU with AVX2, FMA, F16C)")
    # A CPU without AVX2 is named: the built-in model would die of SIGILL there.
    assert build.missing_on_this_cpu({"sse2", "fma", "f16c"}) == ["AVX2"]


def test_files_that_are_no_elf_library_are_named(tmp_path):
    text = tmp_path / CPU_LIBRARY
    text.write_text("not a library")
    with pytest.raises(NoBuildFlags, match="not a 64-bit ELF library"):
        elf_section_strings(text)
    with pytest.raises(NoBuildFlags, match="cannot be read"):
        elf_section_strings(tmp_path / "missing.so")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert judge_library_dir(empty).problem == "libggml-cpu.so is missing"


def test_this_cpu_reports_its_features():
    features = cpu_features()
    if not Path("/proc/cpuinfo").exists():
        pytest.skip("no /proc/cpuinfo")
    assert "sse2" in features  # every x86-64 CPU has it


# --------------------------------------------------------- the check the installs run
@needs_gcc
@pytest.mark.parametrize(("flags", "code"), [
    (("-march=native", "-frecord-gcc-switches"), 1),
    ((), 1),
    (("-mavx2", "-mfma", "-frecord-gcc-switches"), 0),
])
def test_the_install_check_fails_on_a_native_or_silent_build(tmp_path, flags, code):
    """`python -m turnlog.localmodel`, as packaging/pip-install and build-bundle.sh
    run it after installing, over a llama_cpp package of fixture libraries."""
    site = tmp_path / "site"
    fake_llama_package(site, *flags)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT / "desktop")]))
    result = subprocess.run([sys.executable, "-m", "turnlog.localmodel"], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == code, result.stdout + result.stderr
    if code:
        assert "would crash on CPUs unlike this one's" in result.stderr
    else:
        assert "portable build (any x86-64 CPU with AVX2, FMA)" in result.stdout


def test_the_readme_lines_and_the_bundle_install_through_the_portable_script():
    """One place sets the llama.cpp flags: both Quick start lines and the bundle script
    install through packaging/pip-install, which never uses pip's shared wheel cache."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("```sh quickstart\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(block) == 2
    for line in block:
        assert "packaging/pip-install .venv -e '.[" in line
        assert "pip install -e" not in line.replace("packaging/pip-install .venv -e", "")
    bundle = (ROOT / "packaging" / "build-bundle.sh").read_text()
    assert "packaging/pip-install\" \"$venv\"" in bundle
    script = (ROOT / "packaging" / "pip-install").read_text()
    assert "-DGGML_NATIVE=OFF" in script and "-frecord-gcc-switches" in script
    assert "PIP_CACHE_DIR=" in script and "--no-binary llama-cpp-python" in script


def test_a_cpu_without_the_builds_instructions_is_refused_before_starting(tmp_path):
    from turnlog.core.failures import FailureKind
    from turnlog.localmodel.build import LlamaBuild
    from turnlog.localmodel.server import cpu_refusal

    build = LlamaBuild(tmp_path, True, features=("avx", "avx2", "fma", "f16c"))
    refused = cpu_refusal(build, {"sse2", "avx"})
    assert refused is not None
    assert refused.failure.kind is FailureKind.LOCAL_MODEL
    assert refused.failure.detail == "this computer's processor lacks AVX2, FMA, F16C"
    assert cpu_refusal(build, {"sse2", "avx", "avx2", "fma", "f16c"}) is None
    assert cpu_refusal(build, set()) is None  # unknown: let it try
