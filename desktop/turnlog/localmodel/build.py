"""Which llama.cpp build is installed, and whether it runs on any x86-64 CPU.

llama.cpp compiles for the build machine's own CPU unless told not to (its
`GGML_NATIVE` default): such a library uses whatever that CPU has (AVX-512,
AMX) and dies with an illegal instruction or a protection fault on another.
Turnlog installs it portable (`packaging/pip-install`: `GGML_NATIVE=OFF`, the
AVX2 baseline) with `-frecord-gcc-switches`, so the compiler's own options are
kept in each library's `.GCC.command.line` section; this module reads them
(plain ELF parsing, no `readelf` and no import of `llama_cpp`, which would load
the library) and says what they show.

`python -m turnlog.localmodel` prints the verdict and exits 1 unless the
installed build is portable (the install script and the bundle script run it).
"""

from __future__ import annotations

import importlib.util
import re
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

SECTION = ".GCC.command.line"
# The library that holds the matrix kernels: the one a CPU-specific build breaks.
CPU_LIBRARY = "libggml-cpu.so"
# `-march` values that name no particular CPU: the x86-64 psABI levels.
PORTABLE_MARCH = frozenset({"x86-64", "x86-64-v2", "x86-64-v3"})
# Instruction sets the portable build may use, which the CPU must then have
# (/proc/cpuinfo names, keyed by gcc's option).
BASELINE_FEATURES = {"-mavx": "avx", "-mavx2": "avx2", "-mfma": "fma", "-mf16c": "f16c"}
_MARCH = re.compile(r"(?:^|\s)-march=(\S+)")
# Options a portable build never has: instruction sets beyond the baseline, and the
# cache sizes gcc writes for the machine it runs on when told -march=native.
_CPU_SPECIFIC = re.compile(
    r"(?:^|\s)(-mavx512\w*|-mamx[\w-]*|-mavx10\S*|--param=l1-cache-size=\d+)")


class NoBuildFlags(ValueError):
    """A library carries no recorded compiler options (or is not an ELF file)."""


@dataclass(frozen=True, slots=True)
class LlamaBuild:
    """What the recorded options of the installed llama.cpp libraries show.

    `portable` is true only when every library recorded its options and none of them
    targets a particular CPU. `problem` says in plain words why not; `features` names the
    instruction sets the build needs beyond plain x86-64 (AVX2, FMA …)."""

    library_dir: Path | None
    portable: bool
    problem: str = ""
    features: tuple[str, ...] = ()
    version: str = ""

    def summary(self) -> str:
        """One line for `turnlog --version` and Help → About."""
        version = f"llama.cpp (llama-cpp-python {self.version})" if self.version else "llama.cpp"
        if self.library_dir is None:
            return f"{version}: not installed"
        if self.portable:
            needs = ", ".join(name.upper() for name in self.features) or "plain x86-64"
            return f"{version}: portable build (any x86-64 CPU with {needs})"
        return f"{version}: {self.problem}"

    def missing_on_this_cpu(self, cpu_flags: set[str] | None = None) -> list[str]:
        """The instruction sets the build needs that this CPU lacks ([] when unknown)."""
        flags = cpu_flags if cpu_flags is not None else cpu_features()
        if not flags:
            return []
        return [name.upper() for name in self.features if name not in flags]


def elf_section_strings(path: Path, section: str = SECTION) -> list[str]:
    """The NUL-separated strings of one section of a 64-bit little-endian ELF file.

    Raises `NoBuildFlags` when the file is no such ELF file or lacks the section."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise NoBuildFlags(f"{path.name} cannot be read ({err.strerror or err})") from err
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NoBuildFlags(f"{path.name} is not a 64-bit ELF library")
    try:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

        def header(index: int) -> tuple[int, int, int]:
            name, _type, _flags, _addr, offset, size = struct.unpack_from(
                "<IIQQQQ", data, shoff + index * shentsize)
            return name, offset, size

        _, names_at, names_size = header(shstrndx)
        names = data[names_at:names_at + names_size]
        wanted = section.encode()
        for index in range(shnum):
            name_at, offset, size = header(index)
            end = names.find(b"\0", name_at)
            if names[name_at:end] == wanted:
                body = data[offset:offset + size]
                return [part.decode("utf-8", "replace") for part in body.split(b"\0") if part]
    except struct.error as err:
        raise NoBuildFlags(f"{path.name} is a damaged ELF file") from err
    raise NoBuildFlags(f"{path.name} records no compiler options")


def judge_flags(lines: list[str]) -> tuple[str, tuple[str, ...]]:
    """(problem, features) for one library's recorded option lines; problem "" = portable."""
    features: set[str] = set()
    for line in lines:
        for march in _MARCH.findall(line):
            if march not in PORTABLE_MARCH:
                return f"built for one CPU (-march={march})", ()
        specific = _CPU_SPECIFIC.search(line)
        if specific:
            return f"built for one CPU ({specific.group(1)})", ()
        for option, name in BASELINE_FEATURES.items():
            if re.search(rf"(?:^|\s){re.escape(option)}(?:\s|$)", line):
                features.add(name)
    order = list(BASELINE_FEATURES.values())
    return "", tuple(sorted(features, key=order.index))


def judge_library_dir(library_dir: Path, version: str = "") -> LlamaBuild:
    """The verdict on every `lib*.so` in `library_dir` (llama-cpp-python's `lib/`)."""
    libraries = sorted(library_dir.glob("lib*.so"))
    if not any(path.name == CPU_LIBRARY for path in libraries):
        return LlamaBuild(library_dir, False, f"{CPU_LIBRARY} is missing", version=version)
    features: set[str] = set()
    for path in libraries:
        try:
            problem, needs = judge_flags(elf_section_strings(path))
        except NoBuildFlags as err:
            return LlamaBuild(library_dir, False,
                              f"{err}: cannot tell whether it runs on other CPUs",
                              version=version)
        if problem:
            return LlamaBuild(library_dir, False, f"{path.name} is {problem}", version=version)
        features.update(needs)
    order = list(BASELINE_FEATURES.values())
    return LlamaBuild(library_dir, True, features=tuple(sorted(features, key=order.index)),
                      version=version)


def installed_library_dir() -> Path | None:
    """llama-cpp-python's `lib/` folder, found without importing the package."""
    try:
        spec = importlib.util.find_spec("llama_cpp")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / "lib"
        if (candidate / CPU_LIBRARY).is_file():
            return candidate
    return None


def _installed_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("llama_cpp_python")
    except metadata.PackageNotFoundError:
        return ""


def installed_build() -> LlamaBuild:
    """The verdict on the installed llama.cpp (`library_dir` None when there is none)."""
    library_dir = installed_library_dir()
    if library_dir is None:
        return LlamaBuild(None, False, "llama-cpp-python is not installed")
    return judge_library_dir(library_dir, _installed_version())


def cpu_features(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The CPU's feature flags as Linux names them (empty where unknown)."""
    try:
        with cpuinfo.open(encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def main() -> int:
    build = installed_build()
    print(build.summary())
    if build.library_dir is not None:
        print(f"  libraries: {build.library_dir}")
    if not build.portable:
        print("The built-in model would crash on CPUs unlike this one's. Reinstall with "
              "packaging/pip-install, which builds llama.cpp portable.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # run as a file by packaging/pip-install: needs only the stdlib
    raise SystemExit(main())
