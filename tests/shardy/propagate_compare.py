"""Compare shardnb's propagation with jaxlib's pass on module texts: jaxlib re-prints shardnb's output, then the
two texts are compared line by line (each op line carries the shardings of its values).

jaxlib 0.10.2 has one known crash on generated programs, which `known_crash` finds from jaxlib's side: its
user-priority propagation reads an op that its own dead-code erasure has freed (the process ends with SIGSEGV, or
goes on with whatever the freed memory holds) when an op it erases as dead carries a sharding with a priority above
0. Tests leave those programs out of that pass before running it, so the set left out is the same on every run of a
seed, and any abort of the programs that do run is a failure."""
import hashlib
import json
import os
import re
import signal
import subprocess
import sys

from shardnb.ir.program import parse_module, print_module

from tests.corpus import shardy_runner
from tests.corpus.shardy_runner import run_in_subprocess, run_dir_cache, job_key


def pass_name(strategy, conservative):
    return f"sdy-{strategy}-propagate{{conservative-propagation={'true' if conservative else 'false'}}}"


def _lines(text):
    return [l.strip() for l in text.splitlines() if l.strip()]


def compare(texts, fn, pipeline):
    """Run `fn(module) -> Module` and jaxlib's `pipeline` on each text; returns one record per text:
    (ok_ref, identical, n_lines, n_diff_lines, diffs, ref, ours)."""
    ref = run_in_subprocess([[t, pipeline] for t in texts])
    ours = []
    for t in texts:
        try: ours.append([True, print_module(fn(parse_module(t)))])
        except Exception as e: ours.append([False, f"{type(e).__name__}: {e}"])
    canon = run_in_subprocess([[o[1], ""] if o[0] else ["", ""] for o in ours])
    out = []
    for t, (rok, r), (ook, o), (cok, c) in zip(texts, ref, ours, canon):
        if not rok:
            out.append(dict(ref_ok=False, identical=not ook, lines=0, diff=0, diffs=[r[:300]], ref=r, ours=o)); continue
        if not ook or not cok:
            out.append(dict(ref_ok=True, identical=False, lines=len(_lines(r)), diff=len(_lines(r)), diffs=[o[:300] if not ook else c[:300]], ref=r, ours=o)); continue
        a, b = _lines(r), _lines(c)
        diffs = [(x, y) for x, y in zip(a, b) if x != y]
        n = max(len(a), len(b))
        nd = len(diffs) + abs(len(a) - len(b))
        out.append(dict(ref_ok=True, identical=(a == b), lines=n, diff=nd, diffs=diffs, ref=r, ours=c))
    return out


# For each [text, pipeline] read from stdin: one line of JSON, the shardings (attribute texts) of the ops of `text` that
# `pipeline` erases -- the ops whose locations (line and column in `text`) no op has after the pass -- or null if
# jaxlib refuses the program.
_ERASED = """
import json, sys
from jax._src.interpreters import mlir as jm
from jaxlib.mlir import ir, passmanager
ctx = jm.make_ir_context()
def ops(op):
    for r in op.regions:
        for b in r.blocks:
            for o in b.operations:
                yield o; yield from ops(o.operation)
for text, pipeline in json.load(sys.stdin):
    try:
        with ctx:
            m = ir.Module.parse(text)
            before = {str(o.location): [str(o.attributes[n]) for n in ("sdy.sharding", "sharding") if n in o.attributes]
                      for o in ops(m.operation)}
            passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation)
            kept = {str(o.location) for o in ops(m.operation)}
        out = [s for loc, ss in before.items() if loc not in kept for s in ss]
    except Exception:
        out = None
    print(json.dumps(out), flush=True)
"""


def _erased_fresh(jobs, timeout):
    p = subprocess.run([sys.executable, "-c", _ERASED], input=json.dumps(jobs), capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"jaxlib ended with {exit_status(p.returncode)}: {p.stderr[-2000:]}"
    return [json.loads(l) for l in p.stdout.splitlines()]


def erased_by_jaxlib(jobs, timeout=600):
    """For each [text, pipeline]: the shardings of the ops jaxlib's `pipeline` erases from `text` (None if jaxlib refuses
    it), run in a subprocess and kept in the test run's directory as `run_in_subprocess` keeps its results."""
    jobs = [[t, p] for t, p in jobs]
    cache = run_dir_cache()
    if cache is None: return _erased_fresh(jobs, timeout)
    from filelock import FileLock
    keys = [job_key(t, "erased-ops:" + p) for t, p in jobs]
    path = lambda k: cache / k[:2] / f"{k}.json"
    cache.mkdir(parents=True, exist_ok=True)
    with FileLock(str(cache / f"{hashlib.sha256(''.join(keys).encode()).hexdigest()}.lock")):
        todo = sorted({k: i for i, k in enumerate(keys) if not path(k).exists()}.values())
        for i, r in zip(todo, _erased_fresh([jobs[i] for i in todo], timeout) if todo else []):
            f = path(keys[i]); f.parent.mkdir(exist_ok=True)
            tmp = f.with_suffix(f".tmp{os.getpid()}"); tmp.write_text(json.dumps(r)); os.replace(tmp, f)
    return [json.loads(path(k).read_text()) for k in keys]


_PRIORITY = re.compile(r"\}p[1-9]")   # a dim sharding's priority above 0, as jaxlib prints it


def known_crash(jobs) -> list:
    """For each [text, prefix]: whether jaxlib 0.10.2's user-priority propagation (after the passes of `prefix`, which
    ends with a comma) meets its known crash on `text`: jaxlib's own `sdy-basic-propagate` erases an op whose sharding
    has a priority above 0."""
    erased = erased_by_jaxlib([[t, prefix + "sdy-basic-propagate"] for t, prefix in jobs])
    return [bool(e) and any(_PRIORITY.search(s) for s in e) for e in erased]


def exit_status(code: int) -> str:
    "A process's exit status in words: the signal that killed it, or its exit code."
    if code < 0:
        try: return f"signal {signal.Signals(-code).name}"
        except ValueError: return f"signal {-code}"
    return f"exit code {code}"


def run_alone(jobs, timeout=600, env=None):
    """Run `jobs` ([[text, pipeline], ...]) in one fresh jaxlib process (tests/corpus/shardy_runner.py), uncached:
    (its exit code, the results it wrote before it ended, its stderr)."""
    p = subprocess.run([sys.executable, "-X", "faulthandler", shardy_runner.__file__], input=json.dumps(jobs),
                       capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, [json.loads(l) for l in p.stdout.splitlines() if l.strip()], p.stderr


def abort_cause(text, pipeline) -> str:
    "How jaxlib ends on `pipeline` over `text` run alone in a fresh process: its exit status and the tail of its stderr."
    code, out, err = run_alone([[text, pipeline]])
    return f"run alone: {exit_status(code)}" + (f"; stderr: {err[-1500:]}" if err else "") + (f"; result: {out[0][1][:300]}" if out else "")
