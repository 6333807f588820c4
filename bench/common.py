"""Shared helpers for the benchmarks: timing, percentiles, memory, child processes, the machine.

Run as `python -m bench.common MODULE:FUNCTION JSON_KWARGS` it is the child-process entry point
used by run_child(): it calls the function in a fresh interpreter and prints its result, with the
child's peak resident memory, as one JSON line.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The shared corpus: ../shared/corpus beside the checkout, or FOOTNOTE_CORPUS (a git worktree elsewhere).
CORPUS = Path(os.environ.get("FOOTNOTE_CORPUS") or ROOT.parent / "shared" / "corpus")
MB = 1024 * 1024
LIBRARIES = (
    "numpy",
    "faiss-cpu",
    "langchain-core",
    "langchain-community",
    "langchain-text-splitters",
    "onnxruntime",
    "onnx",
    "tokenizers",
    "pypdf",
    "pypdfium2",
    "bm25s",
    "streamlit",
    "playwright",
)


def median(values: Sequence[float]) -> float:
    """The median of values."""
    return float(statistics.median(values))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) of values, linearly interpolated like numpy's default."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def time_call(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds one call of fn took, and what it returned."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def rss_mb() -> float:
    """Current resident memory of this process, in MiB (from /proc/self/status)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line in /proc/self/status")


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_child(
    target: str, kwargs: dict[str, Any], timeout: float = 900, exact_rss: bool = False
) -> dict[str, Any]:
    """Call MODULE:FUNCTION(**kwargs) in a fresh interpreter, so its memory is measured alone.

    Returns the function's dict plus `child_peak_rss_mb`; raises RuntimeError with the child's
    last stderr lines when it fails. exact_rss: make resident-size deltas trustworthy (below)."""
    cmd = [sys.executable, "-m", "bench.common", target, json.dumps(kwargs)]
    env = dict(os.environ)
    if exact_rss:
        # A fixed mmap threshold makes glibc return large freed blocks to the OS at once; otherwise
        # freed temporaries stay resident and are reused, and resident-size deltas undercount.
        env["MALLOC_MMAP_THRESHOLD_"] = "131072"
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env, check=False
    )
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-8:])
        raise RuntimeError(f"child {target} exited with {proc.returncode}:\n{tail}")
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"child {target} printed no result")
    return json.loads(lines[-1])


def _read_first(path: str, key: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_commit() -> str:
    """HEAD, plus the tracked files that differ from it: benchmarks run the working tree."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, cwd=ROOT, check=False).stdout

    head = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    changed = git("diff", "--name-only", "HEAD").split()
    if not changed:
        return head
    shown = ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
    return f"{head} + uncommitted changes to {shown}"


def machine_info() -> dict[str, Any]:
    """What the figures were measured on: cores, memory, CPU, load, Python and library versions."""
    mem_kib = _read_first("/proc/meminfo", "MemTotal").split()[0]
    return {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu_model": _read_first("/proc/cpuinfo", "model name"),
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "memory_gib": round(int(mem_kib) / MB, 1) if mem_kib.isdigit() else "unknown",
        "load_average_1m": round(os.getloadavg()[0], 2),
        "os": platform.platform(),
        "python": platform.python_version(),
        "libraries": {name: _version(name) for name in LIBRARIES},
        "openblas_env": {k: v for k, v in os.environ.items() if k.startswith("OPENBLAS_")},
        "git_commit": git_commit(),
    }


def _child_main(argv: list[str]) -> None:
    target, kwargs = argv[0], json.loads(argv[1])
    module_name, func_name = target.split(":")
    result = getattr(importlib.import_module(module_name), func_name)(**kwargs)
    result["child_peak_rss_mb"] = round(peak_rss_mb(), 1)
    print(json.dumps(result))


if __name__ == "__main__":
    _child_main(sys.argv[1:])
