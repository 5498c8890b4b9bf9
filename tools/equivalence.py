#!/usr/bin/env python
"""Old against new: the same programs through two checkouts of shardnb must print the same results.

    git worktree add /tmp/old <commit>
    python tools/equivalence.py --old /tmp/old [--programs 300] [--seed S] [--corpus DIR]

For a refactoring that must not change behaviour. Each checkout runs in its own process (its package first on
`sys.path`, reached only through names `import shardnb` has given since before the stages became subpackages) on
the same inputs: programs from `tests/shardy/propagate_gen.py` of this checkout (every flavour the propagation tests
draw) and, with `--corpus`, a folder of lowered JAX programs (`NAME.mlir`). For each program it records the printed
module after the import passes and each of Shardy's four propagation strategies, after the explicit reshards, after
`propagation_pipeline`, and the communication report; an error counts as its type and message. Prints how many
results were compared and lists every one that differs.
"""
from __future__ import annotations
import argparse, json, os, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ("basic", "aggressive", "op-priority", "user-priority")


def _attempt(f):
    try: return f()
    except Exception as e: return f"{type(e).__name__}: {e}"  # noqa: BLE001 -- errors are results to compare too


def worker(root: str, inputs: str, out: str) -> None:
    "In a checkout at `root`: every result for every program of `inputs` (a JSON {name: text}) into `out`."
    sys.path.insert(0, root)
    import shardnb as S
    assert Path(S.__file__).resolve().is_relative_to(Path(root).resolve()), S.__file__
    pipeline = getattr(S, "propagation_pipeline", None)
    if pipeline is None: from shardnb.export import propagation_pipeline as pipeline  # before it was re-exported
    results = {}
    for name, text in json.loads(Path(inputs).read_text()).items():
        imported = _attempt(lambda: S.import_pipeline(S.parse_module(text)))
        results[f"{name}/import"] = imported if isinstance(imported, str) else S.print_module(imported)
        if isinstance(imported, str): continue
        for strategy in STRATEGIES:
            m = _attempt(lambda: S.propagate(imported, strategy=strategy))
            results[f"{name}/{strategy}"] = m if isinstance(m, str) else S.print_module(m)
            if strategy == "user-priority" and not isinstance(m, str):
                results[f"{name}/reshards"] = _attempt(lambda: S.print_module(S.insert_explicit_reshards(m)))
                results[f"{name}/cost"] = _attempt(lambda: str(S.communication_report(m)))
        results[f"{name}/pipeline"] = _attempt(lambda: S.print_module(pipeline(S.parse_module(text))))
    Path(out).write_text(json.dumps(results))


def programs(n: int, seed: int, corpus: Path | None) -> dict[str, str]:
    "The inputs: `n` generated programs in the propagation tests' flavours, and the corpus's texts."
    sys.path.insert(0, str(ROOT))
    from tests.shardy.propagate_gen import gen_program
    flavours = [{}, {"arg_rate": 0.9, "op_rate": 0.35}, {"edges": True}]  # those of tests/shardy/test_propagate_shardy.py
    out = {}
    for k in range(n):
        kw = flavours[k % len(flavours)]
        out[f"gen{seed}-{k}"] = gen_program(seed * 1000 + k, **kw)
    if corpus:
        for p in sorted(corpus.glob("*.mlir")): out[f"corpus/{p.stem}"] = p.read_text()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--old", help="a checkout of the code before the change (required)")
    p.add_argument("--programs", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--corpus", type=Path, help="a folder of NAME.mlir programs (e.g. the tests' lowered JAX corpus)")
    p.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker: worker(*args.worker); return 0
    if not args.old: p.error("--old is required")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs.json"
        inputs.write_text(json.dumps(programs(args.programs, args.seed, args.corpus)))
        env = dict(os.environ, PYTHONPATH="")
        runs = {}
        for label, root in (("old", args.old), ("new", str(ROOT))):
            out = Path(tmp) / f"{label}.json"
            subprocess.run([sys.executable, __file__, "--worker", root, str(inputs), str(out)], check=True, env=env,
                           cwd=tmp)
            runs[label] = json.loads(out.read_text())
    old, new = runs["old"], runs["new"]
    differ = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    errors = sum(1 for v in new.values() if v.split(":")[0].endswith(("Error", "Exception")))
    print(f"{len(new)} results compared ({errors} of them errors, compared as their messages); {len(differ)} differ")
    for k in differ[:20]: print("differs:", k)
    return 1 if differ else 0


if __name__ == "__main__": sys.exit(main())
