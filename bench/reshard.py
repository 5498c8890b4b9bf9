"""Reshard planning benchmark: shardnb's planner against Shardy's `sdy-reshard-to-collectives` and two baselines.

    python bench/reshard.py [--cases 1000] [--seed 0] [--max-devices 64] [--no-shardy] [--list 20]
    python bench/reshard.py --scale [--timeout 60]    # [{"x"}, {}] -> [{}, {"x"}] on 1,024-65,536 devices: time and memory

On a seeded random corpus (meshes of up to 4 axes of sizes 1-8, non-iota device ids, sub-axes,
non-divisible dims, unreduced axes, two meshes over the same devices) it reports, per planner, the
distribution of (busiest device's received bytes) / (lower bound) and of modelled time, shardnb's
planning time per case (median, p99), and the cases Shardy rejects or can't express.

Shardy's plan is read back op by op (`sdy.all_gather`, `sdy.all_slice`, `sdy.all_to_all`,
`sdy.collective_permute`, `sdy.all_reduce`, `sdy.reduce_scatter`): each op's `out_sharding` is
parsed with shardnb's parser and the step is costed by shardnb's cost model as the exact transfers
from the previous sharding to that one, confined to the op's communicator (the devices that agree on
every mesh coordinate outside the op's axes; every device for `collective_permute`).
"""
from __future__ import annotations
import argparse, math, re, sys, time
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from shardnb.mesh import Mesh, AxisRef, ShardingError
from shardnb.sharding import TensorSharding
from shardnb.syntax import parse_sharding
from shardnb.reshard import (plan_reshard, plan_reshard_basis, plan_gather_slice, CostModel, itemsize, _Planner,
                             _layout_cached, _transfers, _reductions, _step_cost, _lower_bound, _reduce_sizes, _merge_run)


# ---------------------------------------------------------------------------------------------- corpus
def _factor_splits(n):
    return [(a, n // a) for a in range(2, n) if n % a == 0]


def random_case(rng: np.random.Generator, max_devices: int):
    "One (src, dst, shape) like the property tests, with both shardings named `m0` / `m1`."
    while True:
        k = int(rng.integers(1, 5))
        sizes = [int(rng.integers(1, 9)) for _ in range(k)]
        if math.prod(sizes) <= max_devices: break
    n = math.prod(sizes)
    ids = None if rng.random() < 0.4 else [int(x) for x in rng.permutation(n)]
    mesh = Mesh({f"a{i}": s for i, s in enumerate(sizes)}, ids)
    kind = rng.random()
    other = mesh
    if kind < 0.1:   # same axes, another device order
        other = Mesh(dict(mesh.axes), [int(x) for x in rng.permutation(n)])
    elif kind < 0.15:   # other axes over the same devices
        flat = [s for s in sizes if s > 1] or [1]
        i = int(rng.integers(len(flat)))
        sp = _factor_splits(flat[i])
        if sp: flat = flat[:i] + list(sp[int(rng.integers(len(sp)))]) + flat[i + 1:]
        elif len(flat) > 1: flat = [flat[0] * flat[1]] + flat[2:]
        other = Mesh({f"b{i}": s for i, s in enumerate(flat)}, [int(x) for x in rng.permutation(n)] if rng.random() < .5 else None)
    rank = int(rng.integers(1, 4))
    shape = tuple(int(x) for x in rng.integers(1, 17, size=rank))
    unred = other is mesh and rng.random() < 0.15

    def refs(m, split):
        out = []
        for (name, size), s in zip(m.axes, split):
            if size == 1: continue
            if s and size in (4, 6, 8):
                a = 2; out += [AxisRef(name, 1, a), AxisRef(name, a, size // a)]
            else: out.append(AxisRef(name))
        return out

    def sharding(m, split, allow_unred, name):
        rs = refs(m, split)
        slots = rng.integers(-2 if allow_unred else -1, rank, size=len(rs))
        dims, un = [[] for _ in range(rank)], []
        for j in rng.permutation(len(rs)):
            if slots[j] >= 0: dims[slots[j]].append(rs[j])
            elif slots[j] == -2: un.append(rs[j])
        un.sort(key=lambda r: r.sort_key(m))
        return TensorSharding(m, [_merge_run(d, m) for d in dims], unreduced=_merge_run(un, m), mesh_name=name)

    split_a = list(rng.random(4) < 0.3)
    split_b = split_a if rng.random() < 0.5 else list(rng.random(4) < 0.3)
    try:
        src = sharding(mesh, split_a, unred, "m0")
        dst = sharding(other, split_b, unred, "m1" if other is not mesh else "m0")
        if unred and not set(dst.unreduced) <= set(src.unreduced):
            dst = TensorSharding(mesh, dst.dims, unreduced=[r for r in dst.unreduced if r in src.unreduced], mesh_name="m0")
        src.verify(shape); dst.verify(shape); _reduce_sizes(src, dst)
    except ShardingError:
        return random_case(rng, max_devices)
    return src, dst, shape


# ---------------------------------------------------------------------------------------------- Shardy
_OP = re.compile(r'= sdy\.(\w+)(.*?)out_sharding=(<@\w+, .*?>)(?: :| \{)', re.S)
_AXES = re.compile(r'"(\w+)"(?::\((\d+)\)(\d+))?')


def _module_text(src, dst, shape, dtype="f32"):
    meshes = {"m0": src.mesh}
    if dst.mesh_name != "m0": meshes["m1"] = dst.mesh
    t = "tensor<" + "x".join(map(str, shape)) + f"x{dtype}>"
    decls = "\n".join(f"sdy.mesh @{k} = {m}" for k, m in meshes.items())
    return meshes, f"""{decls}
func.func @main(%arg0: {t} {{sdy.sharding = {src}}}) -> {t} {{
  %0 = sdy.reshard %arg0 {dst.body()} : {t}
  return %0 : {t}
}}"""


class Shardy:
    def __init__(self):
        from jax._src.interpreters import mlir
        from jaxlib.mlir import ir
        from jaxlib.mlir.passmanager import PassManager
        self.ir, self.ctx = ir, mlir.make_ir_context()
        with self.ctx: self.pm = PassManager.parse("builtin.module(func.func(sdy-reshard-to-collectives))")

    def plan(self, src, dst, shape):
        "Shardy's ops as (kind, axes, out_sharding text), or raises with Shardy's message."
        meshes, text = _module_text(src, dst, shape)
        with self.ctx:
            m = self.ir.Module.parse(text)
            self.pm.run(m.operation)
            out = str(m)
        body = out[out.index("func.func"):]
        return meshes, [(k, args, sh) for k, args, sh in _OP.findall(body)]


def _group_key(p: _Planner, mesh: Mesh, refs) -> np.ndarray:
    "Devices that agree on every coordinate outside `refs` share a key."
    from shardnb.reshard import _positions
    pos, _ = _positions(mesh, p.devkey)
    key = np.zeros(len(p.devices), np.int64)
    for name, n in mesh.axes:
        c = np.unravel_index(pos, mesh.shape)[mesh.axis_index(name)].astype(np.int64) if mesh.axes else 0
        for r in refs:
            if r.name != name: continue
            stride = n // (r.pre_size * r.size) if r.is_sub_axis else 1
            size = r.size if r.is_sub_axis else n
            c = c - ((c // stride) % size) * stride
        key = key * n + c
    return key


def _padded_cost(kind, refs, prev, cur, shape, p, itemsz, model):
    "Per-device received bytes and seconds of a collective on padded local buffers over a group of `g` devices."
    m = prev.mesh
    g = math.prod(r.size_in(m) for r in refs) if refs else 1
    local_in, local_out = math.prod(prev.local_shape(shape)) * itemsz, math.prod(cur.local_shape(shape)) * itemsz
    present = _layout_cached(cur, shape, p.devkey).present
    b, msgs = {"all_gather": ((g - 1) * local_in, g - 1), "all_to_all": (local_in * (g - 1) // g, g - 1),
               "collective_permute": (local_out, 1), "all_slice": (0, 0), "all_reduce": (2 * (g - 1) * local_in // g, 2 * (g - 1)),
               "reduce_scatter": ((g - 1) * local_out, g - 1)}[kind]
    return present * b, (model.alpha * msgs + b / model.beta) if b or msgs else 0.0


def cost_shardy_plan(ops, meshes, src, dst, shape, model, itemsz):
    "Per-device received bytes and modelled seconds of Shardy's op list, or raises ShardingError if it doesn't reach `dst`."
    if set(src.unreduced) != set(dst.unreduced) and not any(k in ("all_reduce", "reduce_scatter") for k, _, _ in ops):
        raise ShardingError("unreduced axes dropped without a reduction: shardy's reshard emits no all_reduce")
    p = _Planner(src, dst, shape, itemsz, model, "time", not (src.unreduced or dst.unreduced))
    prev, recv, secs, ragged = src, np.zeros(len(p.devices), np.int64), 0.0, False
    for kind, args, sh in ops:
        cur = parse_sharding(sh, meshes)
        refs = [AxisRef(a, int(pre), int(sz)) if pre else AxisRef(a) for a, pre, sz in _AXES.findall(args)]
        la, lb = _layout_cached(prev, shape, p.devkey), _layout_cached(cur, shape, p.devkey)
        zeros = np.zeros(len(p.devices), np.int64)
        if kind == "collective_permute" or cur.mesh != prev.mesh: group = zeros
        elif kind == "all_slice": group = np.arange(len(p.devices))
        else: group = _group_key(p, prev.mesh, refs)
        if kind in ("all_reduce", "reduce_scatter"): t = _reductions(la, lb, p.devices, group)
        else:
            klass = p.coords([r for r in prev.unreduced if r in cur.unreduced]) if cur.mesh == prev.mesh else zeros
            t = _transfers(la, lb, p.devices, group, klass, p.beta)
            if t is None:   # ragged dims: shardy's collective runs on padded local buffers; cost it so
                c, ragged = _padded_cost(kind, refs, prev, cur, shape, p, itemsz, model), True
                recv, secs, prev = recv + c[0], secs + c[1], cur
                continue
        if t is None: raise ShardingError(f"shardy's {kind} to {sh} can't be done inside its group")
        c = _step_cost(t, p.devices, itemsz, p.beta, model.alpha)
        recv, secs, prev = recv + c.bytes_received, secs + c.seconds, cur
    if set(prev.unreduced) != set(dst.unreduced):
        raise ShardingError(f"shardy's plan ends unreduced={{{', '.join(map(str, prev.unreduced))}}}, not dst's: emits no reduction")
    lp, ld = _layout_cached(prev, shape, p.devkey), _layout_cached(dst, shape, p.devkey)
    if not (np.array_equal(lp.lo, ld.lo) and np.array_equal(lp.hi, ld.hi)):
        raise ShardingError("shardy's plan doesn't end at dst")
    return int(recv.max(initial=0)), secs, ragged


def compare(seed: int, cases: int, max_devices: int = 64) -> list[dict]:
    """Each case of a seeded corpus planned by shardnb (both objectives) and by Shardy, costed alike.

    `kind`: "exact" (Shardy's steps are exact transfers), "ragged" (some step only works on padded buffers, costed
    as a padded collective) or "rejected" (Shardy can't express it or its plan doesn't reach the target)."""
    rng = np.random.default_rng(seed)
    shardy, model, itemsz, out = Shardy(), CostModel(), itemsize("f32"), []
    for i in range(cases):
        src, dst, shape = random_case(rng, max_devices)
        by_time = plan_reshard(src, dst, shape, objective="time")
        by_bytes = plan_reshard(src, dst, shape, objective="bytes")
        row = dict(i=i, case=f"{src} -> {dst.body()} {shape}", time_s=by_time.cost.seconds, bytes=by_bytes.cost.max_bytes_received)
        try:
            meshes, ops = shardy.plan(src, dst, shape)
            b, t, rg = cost_shardy_plan(ops, meshes, src, dst, shape, model, itemsz)
            row.update(kind="ragged" if rg else "exact", shardy_time_s=t, shardy_bytes=b, shardy=[k for k, _, _ in ops])
        except Exception as e:
            row.update(kind="rejected", why=str(e).strip().splitlines()[0][:200])
        out.append(row)
    return out


# ---------------------------------------------------------------------------------------------- scale
_SCALE_CHILD = """
import resource, sys, time, numpy as np
from shardnb import Mesh, TensorSharding, plan_reshard
sizes, permuted = [int(x) for x in sys.argv[1].split("x")], sys.argv[2] == "1"
n = int(np.prod(sizes))
m = Mesh(dict(zip("xyzw", sizes)), [int(i) for i in np.random.default_rng(0).permutation(n)] if permuted else None)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter(); p = plan_reshard(TensorSharding(m, [["x"], []]), TensorSharding(m, [[], ["x"]]), (2 * n, 2 * n))
dt = time.perf_counter() - t
print(dt, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024, "+".join(s.kind for s in p.steps))
"""

# (mesh shape, permuted ids): the 1-D meshes, 2-4 axes of the same sizes, a 64x64 mesh with permuted ids, Shardy's lit mesh
SCALE_MESHES = ([((n,), False) for n in (1024, 4096, 16384, 65536)]
                + [(s, True) for n in (4096, 16384, 65536) for s in ((64, n // 64), (16, 16, n // 256), (8, 8, 8, n // 512))]
                + [((64, 64), True), ((2, 2, 2, 16), False)])


def scale(timeout: float):
    "Planning time and memory of [{x}, {}] -> [{}, {x}] (shape (2n, 2n)) on meshes of n devices: 1-4 axes, iota or permuted ids."
    import subprocess
    print(f"{'devices':>8} {'mesh':<16} {'ids':<8} {'plan s':>8} {'peak MiB':>9}  steps")
    for sizes, permuted in SCALE_MESHES:
        n, name, ids = math.prod(sizes), "x".join(map(str, sizes)), "permuted" if permuted else "iota"
        try:
            r = subprocess.run([sys.executable, "-c", _SCALE_CHILD, name, str(int(permuted))], capture_output=True, text=True,
                               timeout=timeout, cwd=Path(__file__).resolve().parents[1])
            if r.returncode == 0:
                dt, mem, steps = r.stdout.split()
                print(f"{n:8d} {name:<16} {ids:<8} {float(dt):8.2f} {float(mem):9.0f}  {steps}")
            else: print(f"{n:8d} {name:<16} {ids:<8} {'-':>8} {'-':>9}  {r.stderr.strip().splitlines()[-1][:110]}")
        except subprocess.TimeoutExpired:
            print(f"{n:8d} {name:<16} {ids:<8} {'>' + str(int(timeout)):>8} {'':>9}  (timed out)")


# ---------------------------------------------------------------------------------------------- main
def pct(x, q): return float(np.percentile(x, q, method="higher")) if len(x) else float("nan")


def summary(name, ratios, secs):
    r = np.asarray(ratios)
    return (f"{name:<26} {len(r):5d}  {pct(r, 50):6.3f} {pct(r, 90):6.3f} {r.max():7.3f} "
            f"{np.mean(np.isclose(r, 1.0)):7.1%}  {np.median(secs) * 1e6:9.2f} {pct(secs, 90) * 1e6:9.2f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-devices", type=int, default=64)
    ap.add_argument("--no-shardy", action="store_true")
    ap.add_argument("--list", type=int, default=10, help="how many failing/rejected cases to print")
    ap.add_argument("--scale", action="store_true", help="the large-mesh table instead of the corpus")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per large-mesh case")
    a = ap.parse_args(argv)
    if a.scale: return scale(a.timeout) or 0
    rng = np.random.default_rng(a.seed)
    corpus = [random_case(rng, a.max_devices) for _ in range(a.cases)]
    model, itemsz = CostModel(), itemsize("f32")
    shardy = None
    if not a.no_shardy:
        try: shardy = Shardy()
        except Exception as e: print(f"shardy unavailable: {e}")
    res = {k: ([], []) for k in ("shardnb time", "shardnb bytes", "gather+slice", "basis (MLIR)", "shardy (all it plans)", "shardy (ragged, padded)")}
    plan_t = {"time": [], "bytes": []}
    rejected, worse, misses, n_ragged, ragged_worse = [], [], [], 0, 0
    for i, (src, dst, shape) in enumerate(corpus):
        plans = {}
        for obj in ("time", "bytes"):
            t0 = time.perf_counter()
            plans[obj] = plan_reshard(src, dst, shape, objective=obj)
            plan_t[obj].append(time.perf_counter() - t0)
        lb = plans["time"].lower_bound_bytes
        ratio = lambda b: b / lb if lb else (1.0 if b == 0 else math.inf)
        for obj in ("time", "bytes"):
            res[f"shardnb {obj}"][0].append(ratio(plans[obj].cost.max_bytes_received)); res[f"shardnb {obj}"][1].append(plans[obj].cost.seconds)
        if plans["bytes"].cost.max_bytes_received != lb: misses.append((i, src, dst, shape))
        for name, fn in (("gather+slice", plan_gather_slice), ("basis (MLIR)", plan_reshard_basis)):
            try: q = fn(src, dst, shape)
            except ShardingError: continue
            res[name][0].append(ratio(q.cost.max_bytes_received)); res[name][1].append(q.cost.seconds)
        if shardy is None: continue
        try:
            meshes, ops = shardy.plan(src, dst, shape)
            b, s, rg = cost_shardy_plan(ops, meshes, src, dst, shape, model, itemsz)
            n_ragged += rg
        except Exception as e:
            rejected.append((i, f"{src} -> {dst.body()} {shape}", str(e).strip().splitlines()[0][:140])); continue
        res["shardy (all it plans)"][0].append(ratio(b)); res["shardy (all it plans)"][1].append(s)
        if rg:   # shardy's padded collectives don't produce the design's layout exactly: compared apart
            res["shardy (ragged, padded)"][0].append(ratio(b)); res["shardy (ragged, padded)"][1].append(s)
            ragged_worse += plans["bytes"].cost.max_bytes_received > b or plans["time"].cost.seconds > s * (1 + 1e-9)
        elif plans["bytes"].cost.max_bytes_received > b or plans["time"].cost.seconds > s * (1 + 1e-9):
            worse.append((i, src, dst, shape, plans["bytes"].cost.max_bytes_received, b, plans["time"].cost.seconds, s))
    print(f"corpus: {a.cases} cases, seed {a.seed}, meshes up to 4 axes of 1-8 (<= {a.max_devices} devices), f32, dims 1-16")
    print(f"{'planner':<26} {'cases':>5}  {'ratio: median':>6} {'p90':>6} {'max':>7} {'at 1.00':>7}  {'time us: med':>9} {'p90':>9}")
    for k, (r, s) in res.items():
        if r: print(summary(k, r, s))
    for obj, ts in plan_t.items():
        ts = np.asarray(ts) * 1e3
        print(f"planning time objective={obj!r}: median {np.median(ts):.3f} ms, p90 {pct(ts, 90):.3f} ms, p99 {pct(ts, 99):.3f} ms, max {ts.max():.1f} ms")
    sums = sum(bool(m[1].unreduced) for m in misses)
    print(f"objective='bytes' off the lower bound: {len(misses)} cases ({sums} with a partial sum to reduce, {len(misses) - sums} without)")
    summed = [r for r, (src, dst, _) in zip(res["shardnb bytes"][0], corpus) if set(src.unreduced) != set(dst.unreduced)]
    if summed:   # the bound assumes an evenly spread summing tree; sharding steps can't always spread it (see 05_reshard)
        r = np.asarray(summed)
        print(f"objective='bytes' on the {len(r)} cases that sum partials: ratio median {pct(r, 50):.3f}, p90 {pct(r, 90):.3f}, "
              f"max {r.max():.3f}, {np.mean(np.isclose(r, 1.0)):.1%} at 1.00")
    for i, src, dst, shape in misses[: a.list]: print(f"   #{i} {src} -> {dst.body()} {shape}")
    if shardy is not None:
        exact = len(res['shardy (all it plans)'][0]) - n_ragged
        print(f"shardnb worse than shardy (bytes under 'bytes' or time under 'time'): {len(worse)} of {exact} exactly comparable cases")
        for i, src, dst, shape, b1, b2, t1, t2 in worse[: a.list]:
            print(f"   #{i} {src} -> {dst.body()} {shape}: bytes {b1} vs {b2}, time {t1 * 1e6:.4f} vs {t2 * 1e6:.4f} us")
        print(f"shardy steps that only work on padded buffers (ragged dims), costed as padded collectives: {n_ragged} cases; "
              f"shardnb worse on {ragged_worse} of them")
        print(f"shardy rejected or can't express: {len(rejected)} cases")
        kinds = {}
        for _, _, e in rejected: kinds[re.sub(r"\d+|\".*?\"|<.*>", "#", e)[:80]] = kinds.get(re.sub(r"\d+|\".*?\"|<.*>", "#", e)[:80], 0) + 1
        for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]): print(f"  {v:4d}  {k}")
        for r in rejected[: a.list]: print("  ", r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
