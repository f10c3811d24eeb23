#!/usr/bin/env bash
# Build Turnlog's one-folder bundle (PyInstaller), with the built-in model's server and
# model file, and a Debian package made from it.
#
#   packaging/build-bundle.sh [OUT]          OUT defaults to build/bundle
#
# Leaves OUT/dist/turnlog/ (the bundle; OUT/dist/turnlog/turnlog starts it) and
# OUT/turnlog_<version>_<arch>.deb, which installs the bundle to /opt/turnlog with
# /usr/bin/turnlog, /usr/bin/turnlog-cli, the desktop entry, the AppStream metainfo and the
# hicolor icons. The bundle carries the code of the dataclass methods its window and each
# turnlog-cli command compile (packaging/keep_methods.py starts them once to keep it).
# Prints the sizes and the build time last.
#
# Needs python3 with its shared library (Debian's has it), gcc/g++, cmake, binutils,
# dpkg-deb and PyPI. Everything is installed into OUT/venv, with packaging/pip-install's cache.
set -euo pipefail

start=$(date +%s)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/build/bundle}
mkdir -p "$out"
out=$(cd "$out" && pwd)
venv=$out/venv
app_id=io.github.turnlog.Turnlog

# llama.cpp for any x86-64 CPU with AVX2, not only for this one, with the flags and the pip
# cache of packaging/pip-install (which the README's Quick start lines use too, and which
# checks the compiler options recorded in the libraries afterwards).
export PIP_DISABLE_PIP_VERSION_CHECK=1
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
# The compiler and PyInstaller yield to whatever else the machine runs.
quiet() { nice -n 10 "$@"; }

step() { printf '\n== build-bundle: %s (%d s)\n' "$*" $(( $(date +%s) - start )); }

step "virtual environment $venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py=$venv/bin/python

step "install Turnlog with the local and sync extras (llama.cpp compiles here, portable) and PyInstaller"
quiet "$root/packaging/pip-install" "$venv" --quiet "$root[local,sync,bundle]"
quiet "$py" -m pip install --quiet --no-deps --force-reinstall "$root"

step "check that llama.cpp is the portable build"
"$py" -m turnlog.localmodel
model=$("$py" -c 'from turnlog.localmodel import builtin_model_path as p; print(p() or "")')
[ -n "$model" ] || { echo "build-bundle: the built-in model file is not installed" >&2; exit 1; }

step "render the icons"
rm -rf "$out/icons"
quiet "$py" "$root/packaging/render_icons.py" \
    "$root/desktop/turnlog/resources/$app_id.svg" "$out/icons" 48 128 256

step "PyInstaller bundle"
TURNLOG_MODEL_FILE=$model quiet "$py" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$out/dist" --workpath "$out/work" "$root/packaging/turnlog.spec"
ln -sfn turnlog "$out/dist/turnlog/turnlog-cli"

step "keep the dataclass methods the window and each turnlog-cli command compile, in the bundle"
quiet "$py" "$root/packaging/keep_methods.py" "$out/dist/turnlog"

step "Debian package"
"$root/packaging/build-deb.sh" "$out/dist/turnlog" "$out/icons" "$out"

bundle_kib=$(du -sk "$out/dist/turnlog" | cut -f1)
deb=$(ls -t "$out"/turnlog_*.deb | head -n1)
deb_kib=$(( $(stat -c %s "$deb") / 1024 ))
printf '\nbuild-bundle: bundle %s: %d MiB (%d KiB)\n' "$out/dist/turnlog" \
    $(( bundle_kib / 1024 )) "$bundle_kib"
printf 'build-bundle: package %s: %d MiB (%d KiB)\n' "$deb" $(( deb_kib / 1024 )) "$deb_kib"
printf 'build-bundle: built in %d s\n' $(( $(date +%s) - start ))
