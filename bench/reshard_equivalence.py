"""Same plans from two versions of the reshard planner: a reorganisation of the code must not change a single plan.

    python bench/reshard_equivalence.py [--old /tmp/old] [--cases 2000] [--wide 400] [--sums 400] [--seed 0]

Draws a seeded corpus with `bench/reshard.py`'s generator (meshes of up to four axes of sizes 1-8, permuted device
ids, sub-axes, ragged dims, partial sums, two meshes over the same devices): `--cases` on up to 64 devices, and
`--wide` more on up to 512 devices (where a step finds its holders box by box, not pair by pair), and `--sums` more
with partial sums added to the source (some kept by the target). Every fifth case is
planned with a slow first axis (`CostModel(axis_beta=...)`). Cases whose source and target are equal are drawn again.

Each case is written as text (meshes, shardings, shape, cost model) and planned in two subprocesses: one importing
the package at `--old` (the flat `shardnb.reshard` module of the code before the stages became subpackages), one
this checkout's `shardnb`. Both plan every case with `plan_reshard` under `objective="time"` and `"bytes"`, and
with `plan_gather_slice`, and record each plan's steps as text, each step's cost and a digest of its transfers,
the plan's cost and its lower bound (or the error it raised). The two records must be identical.
"""
from __future__ import annotations
import argparse, json, subprocess, sys, time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# Runs in each subprocess: argv[1] the package root to import, argv[2] the case file; prints one JSON record per case.
_CHILD = r'''
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from shardnb import Mesh, parse_sharding, plan_reshard, plan_gather_slice, CostModel

def digest(t):
    h = hashlib.sha1()
    for a in (t.src, t.dst, t.lo, t.hi): h.update(np.ascontiguousarray(a, np.int64).tobytes())
    h.update(b"r" if t.reduce else b"-")
    return h.hexdigest()[:16]

def record(fn):
    try: p = fn()
    except Exception as e: return {"error": f"{type(e).__name__}: {e}"}
    c = p.cost
    return {"steps": [str(s) for s in p.steps],
            "step_costs": [[s.cost.messages, repr(s.cost.seconds), s.cost.max_bytes_received, s.cost.total_bytes] for s in p.steps],
            "transfers": [digest(s.transfers) for s in p.steps],
            "cost": [c.max_bytes_received, c.total_bytes, c.num_steps, c.peak_bytes_per_device, repr(c.seconds)],
            "lower_bound": p.lower_bound_bytes, "text": str(p)}

for line in open(sys.argv[2]):
    case = json.loads(line)
    meshes = {k: Mesh({a: n for a, n in axes}, ids) for k, (axes, ids) in case["meshes"].items()}
    src, dst = parse_sharding(case["src"], meshes), parse_sharding(case["dst"], meshes)
    shape, model = tuple(case["shape"]), CostModel(axis_beta=dict(case["axis_beta"]))
    out = {o: record(lambda o=o: plan_reshard(src, dst, shape, objective=o, cost_model=model)) for o in ("time", "bytes")}
    out["gather_slice"] = record(lambda: plan_gather_slice(src, dst, shape, cost_model=model))
    print(json.dumps(out), flush=True)
'''


def with_sums(rng, case):
    """`case` with partial sums added: `src` unreduced over some of the axes its dims leave free, `dst` keeping some of
    those its own dims leave free (None where no axis is free)."""
    from shardnb import TensorSharding, ShardingError
    src, dst, shape = case
    if src.mesh != dst.mesh: return None
    m = src.mesh
    free = [n for n, k in m.axes if k > 1 and n not in {r.name for r in src.axis_refs()}]
    if not free: return None
    summed = [n for n in free if rng.random() < 0.6] or free[:1]
    kept = [n for n in summed if n not in {r.name for r in dst.axis_refs()} and rng.random() < 0.3]
    order = lambda names: [n for n, _ in m.axes if n in names]
    try:
        s = TensorSharding(m, src.dims, unreduced=order(summed), mesh_name=src.mesh_name)
        d = TensorSharding(m, dst.dims, unreduced=order(kept), mesh_name=dst.mesh_name)
        s.verify(shape); d.verify(shape)
    except ShardingError: return None
    return s, d, shape


def corpus(n: int, wide: int, sums: int, seed: int) -> list[dict]:
    """`n` cases on up to 64 devices, `wide` on up to 512 and `sums` more with partial sums added (`with_sums`), none
    with equal source and target, as JSON-ready dicts."""
    sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "bench"))
    import reshard as B
    out = []
    for count, most, s, add_sums in ((n, 64, seed, False), (wide, 512, seed + 1, False), (sums, 64, seed + 2, True)):
        rng, k = np.random.default_rng(s), 0
        while k < count:
            src, dst, shape = B.random_case(rng, most)
            if add_sums:
                case = with_sums(rng, (src, dst, shape))
                if case is None: continue
                src, dst, shape = case
            if src == dst: continue
            meshes = {src.mesh_name: src.mesh, dst.mesh_name: dst.mesh}
            slow = [(src.mesh.axes[0][0], 1e9)] if len(out) % 5 == 4 and src.mesh.axes else []
            out.append({"meshes": {name: (list(map(list, m.axes)), None if m.device_ids is None else [int(d) for d in m.device_ids])
                                   for name, m in meshes.items()},
                        "src": src.body(), "dst": dst.body(), "shape": list(shape), "axis_beta": slow,
                        "sums": bool(src.unreduced or dst.unreduced), "two_meshes": src.mesh != dst.mesh,
                        "ragged": any(n % d.size_in(x.mesh) for x in (src, dst) for n, d in zip(shape, x.dims)),
                        "devices": src.mesh.size})
            k += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="/tmp/old", help="root of the old checkout (its package: the flat shardnb.reshard)")
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--wide", type=int, default=400)
    ap.add_argument("--sums", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="folder for the case file and both records (default: a temporary one)")
    a = ap.parse_args(argv)
    import tempfile
    work = Path(a.out or tempfile.mkdtemp(prefix="reshard_equivalence_")); work.mkdir(parents=True, exist_ok=True)
    cases = corpus(a.cases, a.wide, a.sums, a.seed)
    (work / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    runs, t0 = {}, time.perf_counter()
    for name, root in (("old", a.old), ("new", str(ROOT))):   # both at once: one core each
        runs[name] = subprocess.Popen([sys.executable, "-c", _CHILD, root, str(work / "cases.jsonl")],
                                      stdout=open(work / f"{name}.jsonl", "w"), stderr=subprocess.PIPE, text=True, cwd=work)
    for name, r in runs.items():
        err = r.communicate()[1]
        if r.returncode: print(f"{name} failed:\n{err[-3000:]}"); return 1
    old = [json.loads(l) for l in open(work / "old.jsonl")]
    new = [json.loads(l) for l in open(work / "new.jsonl")]
    assert len(old) == len(new) == len(cases), (len(old), len(new), len(cases))
    keys = ("time", "bytes", "gather_slice")
    diff = [(i, k) for i, (o, n) in enumerate(zip(old, new)) for k in keys if o[k] != n[k]]
    plans = sum(1 for o in old for k in keys if "steps" in o[k])
    errors = sum(1 for o in old for k in keys if "error" in o[k])
    steps = sum(len(o[k]["steps"]) for o in old for k in keys if "steps" in o[k])
    print(f"{len(cases)} cases ({sum(c['devices'] > 64 for c in cases)} on more than 64 devices, {sum(c['sums'] for c in cases)} "
          f"with partial sums, {sum(c['ragged'] for c in cases)} with a ragged dim, {sum(c['two_meshes'] for c in cases)} "
          f"across two meshes, {sum(bool(c['axis_beta']) for c in cases)} with a slow axis), seed {a.seed}, "
          f"planned by both versions in {time.perf_counter() - t0:.0f} s")
    print(f"{len(cases) * len(keys)} plans compared (objective 'time', 'bytes', gather-then-slice): {plans} plans of {steps} "
          f"steps and {errors} refusals; identical: {len(cases) * len(keys) - len(diff)}, different: {len(diff)}")
    for i, k in diff[:10]:
        print(f"  case {i} {k}: {cases[i]['src']} -> {cases[i]['dst']} {cases[i]['shape']}\n    old: {old[i][k]}\n    new: {new[i][k]}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
