"""Compile the JAX corpus with XLA on 8 host CPU devices: each program's partitioned HLO (`compiled.as_text()`) and
`compiled.memory_analysis()`, the references of shardnb.shardy.predict (tests/shardy/test_predict_xla.py,
tests/shardy/test_memory.py, bench/predict.py).

Compiling happens in a subprocess that asks XLA for 8 host devices (the flag must be set before jax is imported), one
program at a time, each result written as it finishes, and the results are cached on disk beside the corpus's
lowered texts, keyed like them (the corpus sources and jax's version): `load_compiled()` returns
{name: {"hlo": text, "memory": {...}}} or {name: {"error": message}} for a program XLA refuses.

`PYTHONPATH=. python tests/shardy/xla_compile.py OUT_DIR [NAME ...]` compiles into OUT_DIR.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

from tests.corpus.programs import CORPUS, CORPUS_NAMES, X64, corpus_key  # noqa: E402

FORMAT = 2   # bumped when what is kept per program changes
MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes", "temp_size_in_bytes",
                 "generated_code_size_in_bytes")


def _compile(name) -> dict:
    import jax
    with jax.enable_x64(name in X64):
        fn, args, jit_kwargs, opts = CORPUS[name]()
        if "mesh" in opts:
            with jax.set_mesh(opts["mesh"]): compiled = jax.jit(fn, **jit_kwargs).lower(*args).compile()
        else: compiled = jax.jit(fn, **jit_kwargs).lower(*args).compile()
        m = compiled.memory_analysis()
        return {"hlo": compiled.as_text(), "memory": {k: int(getattr(m, k)) for k in MEMORY_FIELDS},
                "output_shardings": [str(getattr(s, "spec", s)) for s in jax.tree.leaves(compiled.output_shardings)]}


def write_compiled(out_dir, names=()) -> None:
    "Compile every program (or those `names`) into `out_dir/NAME.json` (only in a process that sees 8 devices)."
    import jax
    if len(jax.devices()) < 8: raise RuntimeError("compiling the corpus needs 8 devices: XLA_FLAGS=--xla_force_host_platform_device_count=8")
    out = Path(out_dir); out.mkdir(parents=True, exist_ok=True)
    for name in names or CORPUS_NAMES:
        if (out / f"{name}.json").exists(): continue
        try: res = _compile(name)
        except Exception as e: res = {"error": f"{type(e).__name__}: {e}"[:2000]}
        (out / f"{name}.json").write_text(json.dumps(res))
    if not names: (out / "DONE").write_text(json.dumps(CORPUS_NAMES))


def compile_in_subprocess(out_dir, names=(), timeout=3000) -> None:
    "Compile the corpus (or `names`) into `out_dir` in a fresh Python that sees 8 host devices."
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu",
               PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    r = subprocess.run([sys.executable, __file__, str(out_dir), *names], env=env, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0: raise RuntimeError(f"compiling the JAX corpus failed:\n{r.stderr[-4000:]}")


def default_cache_root() -> Path:
    return ROOT / ".pytest_cache" / "d" / "xla_compiled"


def load_compiled(cache_root=None) -> dict[str, dict]:
    "Every corpus program's compiled HLO and memory analysis, {name: {...}}; compiles them (in a subprocess) when the cache is cold."
    from filelock import FileLock
    root = Path(cache_root) if cache_root is not None else default_cache_root()
    root.mkdir(parents=True, exist_ok=True)
    key = f"{corpus_key()}-{FORMAT}"; d = root / key
    with FileLock(str(root / f"{key}.lock")):
        if not (d / "DONE").exists(): compile_in_subprocess(d)   # resumes where an interrupted run stopped
    return {n: json.loads((d / f"{n}.json").read_text()) for n in CORPUS_NAMES}


try:
    import pytest

    @pytest.fixture(scope="session")
    def xla_compiled(request) -> dict[str, dict]:
        "{name: compiled HLO and memory analysis} of every corpus program, compiled once per cache (pytest's, else the default)."
        pytest.importorskip("jax")
        cache = getattr(request.config, "cache", None)
        return load_compiled(cache.mkdir("xla_compiled") if cache is not None else None)
except ImportError:   # pragma: no cover - usable without pytest
    pass


if __name__ == "__main__":
    if len(sys.argv) < 2: sys.exit("usage: PYTHONPATH=. python tests/shardy/xla_compile.py OUT_DIR [NAME ...]")
    write_compiled(sys.argv[1], sys.argv[2:])
