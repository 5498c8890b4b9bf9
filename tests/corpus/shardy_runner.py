"""Run jaxlib's Shardy passes on module texts, in this process or (safer: a bad module can abort) in a subprocess.

`python tests/corpus/shardy_runner.py < jobs.json` reads `[[text, pipeline], ...]` and writes `[[ok, text_or_error], ...]`:
with a pipeline, the module after it; with pipeline "", jaxlib's canonical re-print of the module."""
import json
import subprocess
import sys


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

def run_in_subprocess(jobs, timeout=600):
    "Run `jobs` in a subprocess that reports each result as it goes; a job that kills it is marked aborted and the rest resume."
    out = []
    while len(out) < len(jobs):
        rest = jobs[len(out):]
        p = subprocess.run([sys.executable, __file__], input=json.dumps(rest), capture_output=True, text=True, timeout=timeout)
        done = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        out += done
        if p.returncode != 0 and len(out) < len(jobs): out.append([False, ABORTED])
    return out


if __name__ == "__main__":
    run_jobs(json.load(sys.stdin), stream=sys.stdout)
