"""Run jaxlib's Shardy passes on module texts, in this process or (safer: a bad module can abort) in a subprocess.

`python tests/corpus/shardy_runner.py < jobs.json` reads `[[text, pipeline], ...]` and writes `[[ok, text_or_error], ...]`:
with a pipeline, the module after it; with pipeline "", jaxlib's canonical re-print of the module.

Within a test run, `run_in_subprocess` keeps every finished job's result in the run's directory (SHARDNB_RUN_DIR, which
tests/conftest.py makes for each run and shares with pytest-xdist's workers), keyed by the text, the pipeline and
jaxlib's version: a reference that several tests or several workers ask for is run once."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path


def run_jobs(jobs, stream=None):
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    ctx.allow_unregistered_dialects = False
    out = []
    for text, pipeline in jobs:
        try:
            with ctx:
                m = ir.Module.parse(text)
                if pipeline: passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation)
                out.append([True, m.operation.get_asm(enable_debug_info=False)])
        except Exception as e:  # jaxlib reports a bad module or failed pass as an MLIRError
            out.append([False, str(e)])
        if stream is not None: stream.write(json.dumps(out[-1]) + "\n"); stream.flush()
    return out


ABORTED = "jaxlib aborted on this module"


def _run_fresh(jobs, timeout):
    "Run `jobs` in a subprocess that reports each result as it goes; a job that kills it is marked aborted and the rest resume."
    out = []
    while len(out) < len(jobs):
        rest = jobs[len(out):]
        p = subprocess.run([sys.executable, __file__], input=json.dumps(rest), capture_output=True, text=True, timeout=timeout)
        done = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        out += done
        if p.returncode != 0 and len(out) < len(jobs): out.append([False, ABORTED])
    return out


def job_key(text, pipeline) -> str:
    "A job's cache key: its text, its pipeline and jaxlib's version (read from its metadata, without importing jax)."
    from importlib.metadata import version
    h = hashlib.sha256(version("jaxlib").encode() + b"\0" + pipeline.encode() + b"\0" + text.encode())
    return h.hexdigest()


def run_in_subprocess(jobs, timeout=600, cache=None):
    """Run `jobs` ([[text, pipeline], ...]) in a subprocess, as `_run_fresh` does, reusing the results kept in `cache`
    (default: the test run's directory; none outside a test run).

    A file lock named after the whole batch makes a process that asks for the same batch as another wait for it
    and read its results; each result is written whole (renamed into place). Aborted jobs are not kept."""
    jobs = [[t, p] for t, p in jobs]
    cache = cache if cache is not None else run_dir_cache()
    if cache is None: return _run_fresh(jobs, timeout)
    from filelock import FileLock
    keys = [job_key(t, p) for t, p in jobs]
    cache = Path(cache); cache.mkdir(parents=True, exist_ok=True)
    path = lambda k: cache / k[:2] / f"{k}.json"
    batch = hashlib.sha256("".join(keys).encode()).hexdigest()
    with FileLock(str(cache / f"{batch}.lock")):
        todo = sorted({k: i for i, k in enumerate(keys) if not path(k).exists()}.values())
        for i, r in zip(todo, _run_fresh([jobs[i] for i in todo], timeout) if todo else []):
            if r == [False, ABORTED]: continue
            f = path(keys[i]); f.parent.mkdir(exist_ok=True)
            tmp = f.with_suffix(f".tmp{os.getpid()}"); tmp.write_text(json.dumps(r)); os.replace(tmp, f)
    return [json.loads(path(k).read_text()) if path(k).exists() else [False, ABORTED] for k in keys]


def run_dir_cache():
    "Where this test run keeps jaxlib's results (SHARDNB_RUN_DIR/jaxlib_runs), or None outside a test run."
    d = os.environ.get("SHARDNB_RUN_DIR")
    return Path(d) / "jaxlib_runs" if d else None


def cached(run, name: str):
    """`run(text, pipeline=None) -> str`, an in-process jaxlib runner, with its results kept in the test run's directory
    under `name` (the runner's way of printing): a module that several tests or pytest-xdist's workers run through the
    same pipeline is run once. A lock per job makes a worker wait for another that is running it; errors are not kept
    (the job runs again and raises again)."""
    cache = run_dir_cache()
    if cache is None: return run
    from filelock import FileLock
    def run_cached(text, pipeline=None):
        k = job_key(text, f"{name}:{pipeline or ''}")
        f = cache / k[:2] / f"{k}.json"
        if not f.exists():
            f.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(str(f.with_suffix(".lock"))):
                if not f.exists():
                    out = run(text, pipeline)
                    tmp = f.with_suffix(f".tmp{os.getpid()}"); tmp.write_text(json.dumps(out)); os.replace(tmp, f)
                    return out
        return json.loads(f.read_text())
    return run_cached


if __name__ == "__main__":
    run_jobs(json.load(sys.stdin), stream=sys.stdout)
