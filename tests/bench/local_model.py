"""The built-in model's speed on the llama.cpp build Turnlog ships, beside the alternatives.

    .venv/bin/python tests/bench/local_model.py [--runs 5] [--install] [--native]

Starts the built-in model (SmolLM2 135M) on two threads, as Turnlog does, once per build,
and prints prompt and generation tokens/s, the median of `--runs` rounds (the builds'
rounds alternate):
- prompt: a fresh ~600-token prompt (a nonce in front, so no cached prefix helps) answered
  with one token; prompt tokens ÷ the request's time;
- generation: the same prompt again (its prefix now cached) with up to 128 tokens out;
  completion tokens ÷ the request's time.

Builds measured side by side in the same run:
- `portable`: this environment's llama.cpp, as packaging/pip-install builds it
  (GGML_NATIVE=OFF, AVX2); its recorded compiler options are checked first;
- with `--native`: llama-cpp-python of the same version built for this machine's CPU
  (-march=native, llama.cpp's own default) in a scratch environment: what a plain
  `pip install` would make, and what crashes on a CPU unlike this one's.
With `--install`, the time packaging/pip-install takes to build llama-cpp-python[server]
from its source into a scratch environment with an empty cache (nproc parallel jobs),
and again with the cache it filled (what the README's second line and the bundle pay).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "desktop"))

from turnlog.localmodel import LocalServer, builtin_model_path, installed_build  # noqa: E402
from turnlog.localmodel.build import judge_library_dir  # noqa: E402

PROMPT = ("Here are some notes about lighthouses, their keepers and the sea. " * 45).strip()
GENERATE = 128
CMAKE_COMMON = ("-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF "
                "-DLLAMA_BUILD_SERVER=OFF -DLLAVA_BUILD=OFF "
                "-DCMAKE_C_FLAGS=-frecord-gcc-switches -DCMAKE_CXX_FLAGS=-frecord-gcc-switches")


def llama_version() -> str:
    build = installed_build()
    if not build.version:
        raise SystemExit("cannot run: llama-cpp-python is not installed (the local extra)")
    return build.version


def scratch_venv(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True)
    return folder / "bin" / "python"


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def install_times(scratch: Path, version: str) -> tuple[float, float]:
    """(cold, warm) seconds of packaging/pip-install for llama-cpp-python[server]."""
    env = dict(os.environ, TURNLOG_PIP_CACHE=str(scratch / "cache"))
    spec = f"llama-cpp-python[server]=={version}"
    cold_venv = scratch_venv(scratch / "cold").parent.parent
    cold = timed([str(ROOT / "packaging" / "pip-install"), str(cold_venv), "--quiet", spec],
                 env)
    warm_venv = scratch_venv(scratch / "warm").parent.parent
    warm = timed([str(ROOT / "packaging" / "pip-install"), str(warm_venv), "--quiet", spec],
                 env)
    return cold, warm


def native_python(folder: Path, version: str) -> tuple[Path, float]:
    """An environment in `folder` with llama-cpp-python built -march=native, and its build
    time (0 when `folder` already holds one)."""
    built = list(folder.glob("lib/python3*/site-packages/llama_cpp"))
    if (folder / "bin" / "python").exists() and built:
        return folder / "bin" / "python", 0.0
    python = scratch_venv(folder)
    env = dict(os.environ, CMAKE_ARGS=f"-DGGML_NATIVE=ON {CMAKE_COMMON}",
               CMAKE_BUILD_PARALLEL_LEVEL=str(os.cpu_count() or 2),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    took = timed([str(python), "-m", "pip", "install", "--quiet", "--no-cache-dir",
                  "--no-binary", "llama-cpp-python", f"llama-cpp-python[server]=={version}"],
                 env)
    return python, took


class Measured:
    """One build's server, measured a round at a time (rounds of all builds alternate, so
    the machine's load weighs on each alike)."""

    def __init__(self, python: str, model: Path, logs: Path) -> None:
        self.server = LocalServer(model, n_ctx=2048, log_dir=logs, python=python)
        self.endpoint = self.server.start()
        self.client = httpx.Client(timeout=300, trust_env=False)
        self.prompt_rates: list[float] = []
        self.generation_rates: list[float] = []
        self.ask("Warm up.", 4)

    def ask(self, content: str, max_tokens: int) -> tuple[dict, float]:
        started = time.monotonic()
        response = self.client.post(self.endpoint.base_url + "/chat/completions", json={
            "model": self.endpoint.model, "temperature": 0, "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": content}]})
        took = time.monotonic() - started
        response.raise_for_status()
        return response.json()["usage"], took

    def round(self) -> None:
        content = f"{uuid.uuid4().hex} {PROMPT}\nWrite a long story about them."
        usage, took = self.ask(content, 1)
        self.prompt_rates.append(usage["prompt_tokens"] / took)
        usage, took = self.ask(content, GENERATE)
        self.generation_rates.append(usage["completion_tokens"] / took)

    def medians(self) -> tuple[float, float]:
        return statistics.median(self.prompt_rates), statistics.median(self.generation_rates)

    def close(self) -> None:
        self.client.close()
        self.server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--install", action="store_true",
                        help="also time packaging/pip-install, cold and warm")
    parser.add_argument("--native", action="store_true",
                        help="also measure a -march=native build of the same version")
    parser.add_argument("--native-venv", metavar="DIR",
                        help="keep the native build in DIR (and reuse one built there)")
    args = parser.parse_args()
    version = llama_version()
    model = builtin_model_path()
    if model is None:
        raise SystemExit("cannot run: the built-in model file is not installed")
    shipped = installed_build()
    print(f"cpus: {os.cpu_count()}, model: {model.name}, n_threads: 2, runs: {args.runs}")
    print(f"shipped: {shipped.summary()}")
    if not shipped.portable:
        print("the shipped build is not portable: reinstall with packaging/pip-install")
        return 1
    rows: list[tuple[str, float, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as scratch_name:
        scratch = Path(scratch_name)
        install = ""
        if args.install:
            cold, warm = install_times(scratch, version)
            install = f"{cold:.0f} s cold, {warm:.0f} s cached"
        builds = [("portable (shipped)", sys.executable, install)]
        if args.native:
            python, built = native_python(Path(args.native_venv) if args.native_venv
                                          else scratch / "native", version)
            lib = next((python.parent.parent / "lib").glob("python3*/site-packages/llama_cpp/lib"))
            print(f"native: {judge_library_dir(lib, version).summary()}")
            builds.append(("native (-march=native)", str(python),
                           f"{built:.0f} s cold" if built else "(built before)"))
        servers = [Measured(python, model, scratch / f"logs-{n}")
                   for n, (_, python, _) in enumerate(builds)]
        try:
            for _ in range(args.runs):
                for server in servers:
                    server.round()
        finally:
            for server in servers:
                server.close()
        for (name, _, note), server in zip(builds, servers, strict=True):
            rows.append((name, *server.medians(), note))
    print()
    print(f"{'build':<24} {'prompt tok/s':>12} {'gen tok/s':>10}  install")
    for name, prompt, generation, install in rows:
        print(f"{name:<24} {prompt:>12.0f} {generation:>10.1f}  {install}")
    if len(rows) == 2:
        base = rows[0]
        print(f"{'native ÷ portable':<24} {rows[1][1] / base[1]:>12.2f} "
              f"{rows[1][2] / base[2]:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
