"""Reshard planning benchmark: shardnb's planner against Shardy's `sdy-reshard-to-collectives` and two baselines.

    python bench/reshard.py [--cases 1000] [--seed 0] [--max-devices 64] [--no-shardy] [--list 20]
    python bench/reshard.py --scale [--timeout 60]    # [{"x"}, {}] -> [{}, {"x"}] on 1,024-65,536 devices: time and memory
    python bench/reshard.py --cases 300 --write-tables nbs/01_reshard/search_tables    # every table, as CSV files

On a seeded random corpus (meshes of up to 4 axes of sizes 1-8, non-iota device ids, sub-axes,
non-divisible dims, unreduced axes, two meshes over the same devices) it reports, per planner, the
distribution of (busiest device's received bytes) / (lower bound) and of modelled time, shardnb's
planning time per case (median, p99: each objective as a first call, every process-wide cache cleared before
it, and "bytes" again right after "time" on the same tensor, where it reuses the steps "time" costed), and the
cases Shardy rejects or can't express.

With `--write-tables DIR` it also runs the search's experiments on the same corpus -- where plans are settled,
what each search budget costs and changes, and variants of the search that were tried and not kept, each against
the planner as it is -- and the large-mesh table, and writes every table as a CSV file into DIR: the explanation
page `nbs/01_reshard/06_search_notes.ipynb` reads and shows them.

Shardy's plan is read back op by op (`sdy.all_gather`, `sdy.all_slice`, `sdy.all_to_all`,
`sdy.collective_permute`, `sdy.all_reduce`, `sdy.reduce_scatter`): each op's `out_sharding` is
parsed with shardnb's parser and the step is costed by shardnb's cost model as the exact transfers
from the previous sharding to that one, confined to the op's communicator (the devices that agree on
every mesh coordinate outside the op's axes; every device for `collective_permute`).
"""
from __future__ import annotations
import argparse, gc, math, re, sys, time
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from shardnb.layout.mesh import Mesh, AxisRef, ShardingError
from shardnb.layout.sharding import TensorSharding, _flat_layout
from shardnb.layout.syntax import parse_sharding
from shardnb.reshard.transfers import box_layout, transfers_between, reduction_transfers, step_cost, mesh_positions
from shardnb.reshard.moves import Planner, merge_run
from shardnb.reshard.planner import (plan_reshard, plan_reshard_basis, plan_gather_slice, CostModel, itemsize, clear_caches,
                                     _reduce_sizes)


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
        return TensorSharding(m, [merge_run(d, m) for d in dims], unreduced=merge_run(un, m), mesh_name=name)

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


def _group_key(p: Planner, mesh: Mesh, refs) -> np.ndarray:
    "Devices that agree on every coordinate outside `refs` share a key."
    pos, _ = mesh_positions(mesh, p.devkey)
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


# ---------------------------------------------------------------------------------------------- padded run
# Where a dim is ragged, Shardy's collectives act on padded local buffers (each device's tile padded to the ceil
# shard size). Such a plan is only a reshard if, run literally on those buffers, every device ends with its tile of
# dst; many do not (an all_gather of ceil-sized tiles covers other elements than the target's ceil-sized tile). So
# the plan is run here on numbers: NaN padding, partial sums for unreduced axes; and costed by what it really sends,
# padding included, message by message, with the model shardnb's plans are costed with.
_PARAM = re.compile(r'\{([^{}]*)\}(?::\s*(\d+)->(\d+))?')


def _refs_of(text): return [AxisRef(a, int(pre), int(sz)) if pre else AxisRef(a) for a, pre, sz in _AXES.findall(text)]


def _coord(mesh: Mesh, refs) -> dict:
    "Each device id's mixed-radix coordinate along `refs` (major first) in `mesh`."
    c = np.zeros(mesh.shape, np.int64)
    for r in refs: c = c * r.size_in(mesh) + r.coords(mesh)
    return dict(zip(np.asarray(mesh.devices).reshape(-1).tolist(), c.reshape(-1).tolist()))


def _groups(mesh: Mesh, refs) -> list[list[int]]:
    "A collective's communicators over `refs`: devices equal on every other coordinate, each ordered by its coordinate along `refs`."
    inside, outside = _coord(mesh, refs), _coord(mesh, [AxisRef(n) for n, _ in mesh.axes])
    groups = {}
    for d in inside:   # outside the refs: the full coordinate with the refs' part removed
        k = [int(v) for v in np.unravel_index(outside[d], mesh.shape)]
        for r in refs:
            i, n = mesh.axis_index(r.name), mesh.axis_size(r.name)
            st = n // ((r.pre_size or 1) * r.size_in(mesh))
            k[i] -= ((k[i] // st) % r.size_in(mesh)) * st
        groups.setdefault(tuple(k), []).append(d)
    return [sorted(g, key=inside.__getitem__) for g in groups.values()]


def _padded_buffers(s: TensorSharding, shape, x: np.ndarray) -> dict:
    "Each device's padded local buffer of `x` under `s`: NaN past the tensor's edge; a share of a partial sum along `s.unreduced`."
    local, w = s.local_shape(shape), _coord(s.mesh, s.unreduced)
    n = math.prod(r.size_in(s.mesh) for r in s.unreduced)
    out = {}
    for d, sl in s.devices_indices_map(shape).items():
        b, piece = np.full(local, np.nan), x[sl]
        b[tuple(slice(0, k) for k in piece.shape)] = piece * ((w[d] + 1) / (n * (n + 1) / 2))   # shares summing to 1
        out[d] = b
    return out


def _split(b: np.ndarray, dim: int, g: int) -> list[np.ndarray]:
    "`b` cut in `g` equal pieces along `dim`, NaN-padded at the end when the length does not divide."
    n = b.shape[dim]; k = -(-n // g)
    pad = [(0, 0)] * b.ndim; pad[dim] = (0, k * g - n)
    return np.split(np.pad(b, pad, constant_values=np.nan), g, axis=dim)


class _Wire:
    "Per-device bytes and messages of one step, and its modelled seconds (shardnb's model: α per message + bytes/β)."
    def __init__(self, p: Planner, itemsz: int):
        self.p, self.itemsz, self.at = p, itemsz, {int(d): i for i, d in enumerate(p.devices)}
        self.src, self.dst, self.nbytes = [], [], []

    def send(self, a: int, b: int, arr: np.ndarray):
        if a != b and arr.size: self.src.append(self.at[a]); self.dst.append(self.at[b]); self.nbytes.append(arr.size * self.itemsz)

    def cost(self, model: CostModel):
        n = len(self.p.devices)
        if not self.src: return np.zeros(n, np.int64), 0.0
        s, d, b = np.array(self.src), np.array(self.dst), np.array(self.nbytes, np.int64)
        secs = b / self.p.beta[d, s]
        msgs = np.maximum(np.bincount(d, minlength=n), np.bincount(s, minlength=n))
        t = np.maximum(np.bincount(d, weights=secs, minlength=n), np.bincount(s, weights=secs, minlength=n))
        return np.bincount(d, weights=b, minlength=n).astype(np.int64), float(np.max(model.alpha * msgs + t))


def run_padded(ops, meshes, src, dst, shape, model: CostModel, itemsz: int, seed: int = 0):
    """Shardy's op list run literally on padded local buffers: (None, busiest device's received bytes, seconds) if
    every device ends holding its tile of `dst` (trailing padding past dst's local shape is a free local slice), else
    (what is wrong, None, None). Reductions run as a ring (reduce-scatter then all-gather of padded pieces)."""
    x = np.random.default_rng(seed).integers(1, 1000, size=shape).astype(np.float64)
    p = Planner(src, dst, shape, itemsz, model, "time", not (src.unreduced or dst.unreduced))
    buf, prev, recv, secs = _padded_buffers(src, shape, x), src, np.zeros(len(p.devices), np.int64), 0.0
    for kind, args, sh in ops:
        cur, w = parse_sharding(sh, meshes), _Wire(p, itemsz)
        m, head = cur.mesh, args.split("%")[0]
        if kind in ("all_reduce", "reduce_scatter"):
            refs = _refs_of(head)
            for g in _groups(m, refs):
                tot = sum(buf[d] for d in g)
                for a in g:   # ring: each device sends a 1/g share twice to each of g - 1 steps' neighbours
                    share = _split(buf[a].reshape(-1), 0, len(g))[0]
                    for b in g: w.send(a, b, share); w.send(a, b, share)
                for d in g: buf[d] = tot
            if kind == "reduce_scatter":
                for dim, rs in enumerate(_refs_of(p_) for p_, _, _ in _PARAM.findall(head)):
                    for g in (_groups(m, rs) if rs else []):
                        for j, d in enumerate(g): buf[d] = _split(buf[d], dim, len(g))[j]
        elif kind in ("all_gather", "all_slice"):
            per_dim = [_refs_of(p_) for p_, _, _ in _PARAM.findall(head)]
            if kind == "all_gather":   # one collective over all its axes: each device gets every other member's buffer
                for g in _groups(m, [r for rs in per_dim for r in rs]):
                    for a in g:
                        for b in g: w.send(a, b, buf[a])
            for dim, refs in enumerate(per_dim):
                for g in (_groups(m, refs) if refs else []):
                    if kind == "all_gather":
                        cat = np.concatenate([buf[d] for d in g], axis=dim)
                        for d in g: buf[d] = cat
                    else:
                        for j, d in enumerate(g): buf[d] = _split(buf[d], dim, len(g))[j]
        elif kind == "all_to_all":
            for p_, a_, b_ in _PARAM.findall(head):
                sd, td = int(a_), int(b_)
                for g in _groups(m, _refs_of(p_)):
                    pieces = {d: _split(buf[d], td, len(g)) for d in g}
                    for i, a in enumerate(g):
                        for j, b in enumerate(g): w.send(a, b, pieces[a][j])
                    for j, d in enumerate(g): buf[d] = np.concatenate([pieces[a][j] for a in g], axis=sd)
        elif kind == "collective_permute":   # each device gets the buffer of a device holding the same tile (and partial share) before
            pids, _, before = _flat_layout(prev)
            ids, _, after = _flat_layout(cur)
            ub, ua = _coord(prev.mesh, prev.unreduced), _coord(m, cur.unreduced)
            holder = {}
            for i, d in enumerate(pids): holder.setdefault((tuple(t[i] for t in before), ub[d]), d)
            new = {}
            for i, d in enumerate(ids):
                k = (tuple(t[i] for t in after), ua[d])
                if k not in holder: return f"collective_permute to {sh}: no device holds the tile device {d} needs", None, None
                new[d] = buf[holder[k]]; w.send(holder[k], d, new[d])
            buf = new
        else: return f"unknown op sdy.{kind}", None, None
        r, s = w.cost(model)
        recv, secs, prev = recv + r, secs + s, cur
        local = cur.local_shape(shape)   # each op's result has its out_sharding's local shape: trailing padding dropped
        for d, b in buf.items():
            if b.ndim == len(local): buf[d] = np.pad(b, [(0, max(k - n, 0)) for n, k in zip(b.shape, local)],
                                                     constant_values=np.nan)[tuple(slice(0, k) for k in local)]
    want = _padded_buffers(TensorSharding(dst.mesh, dst.dims, mesh_name=dst.mesh_name), shape, x)
    for g in _groups(dst.mesh, dst.unreduced):
        tot = sum(buf[d] for d in g)
        for d in g:
            t = want[d]
            if tot.ndim != t.ndim or any(a < b for a, b in zip(tot.shape, t.shape)):
                return f"device {d} ends with a local buffer of shape {tot.shape}, smaller than dst's {t.shape}", None, None
            inside = ~np.isnan(t)
            if not np.allclose(tot[tuple(slice(0, k) for k in t.shape)][inside], t[inside]):
                return f"device {d} ends holding other elements than its tile of dst", None, None
    return None, int(recv.max(initial=0)), secs


def cost_shardy_plan(ops, meshes, src, dst, shape, model, itemsz):
    """Per-device received bytes and modelled seconds of Shardy's op list, and whether it needed padded buffers.

    Each op is costed as the exact transfers it makes inside its communicator. Where some op can't be done exactly
    (a ragged dim puts a piece outside the group), the whole list is run on padded buffers (`run_padded`) and costed by
    what it really sends; raises ShardingError if it doesn't reach `dst` either way."""
    if set(src.unreduced) != set(dst.unreduced) and not any(k in ("all_reduce", "reduce_scatter") for k, _, _ in ops):
        raise ShardingError("unreduced axes dropped without a reduction: shardy's reshard emits no all_reduce")
    p = Planner(src, dst, shape, itemsz, model, "time", not (src.unreduced or dst.unreduced))
    prev, recv, secs = src, np.zeros(len(p.devices), np.int64), 0.0
    for kind, args, sh in ops:
        cur = parse_sharding(sh, meshes)
        refs = _refs_of(args.split("%")[0])
        la, lb = box_layout(prev, shape, p.devkey), box_layout(cur, shape, p.devkey)
        zeros = np.zeros(len(p.devices), np.int64)
        if kind == "collective_permute" or cur.mesh != prev.mesh: group = zeros
        elif kind == "all_slice": group = np.arange(len(p.devices))
        else: group = _group_key(p, prev.mesh, refs)
        if kind in ("all_reduce", "reduce_scatter"): t = reduction_transfers(la, lb, p.devices, group)
        else:
            klass = p.coords([r for r in prev.unreduced if r in cur.unreduced]) if cur.mesh == prev.mesh else zeros
            t = transfers_between(la, lb, p.devices, group, klass, p.beta)
        if t is None:   # a ragged dim: Shardy's collectives act on padded local buffers; run them so, or reject
            why, b, s = run_padded(ops, meshes, src, dst, shape, model, itemsz)
            if why is not None: raise RaggedMiss(f"shardy's ops on padded buffers don't reach dst: {why}")
            return b, s, True
        c = step_cost(t, p.devices, itemsz, p.beta, model.alpha)
        recv, secs, prev = recv + c.bytes_received, secs + c.seconds, cur
    if set(prev.unreduced) != set(dst.unreduced):
        raise ShardingError(f"shardy's plan ends unreduced={{{', '.join(map(str, prev.unreduced))}}}, not dst's: emits no reduction")
    lp, ld = box_layout(prev, shape, p.devkey), box_layout(dst, shape, p.devkey)
    if not (np.array_equal(lp.lo, ld.lo) and np.array_equal(lp.hi, ld.hi)):
        raise ShardingError("shardy's plan doesn't end at dst")
    return int(recv.max(initial=0)), secs, False


class RaggedMiss(ShardingError):
    "Shardy's op list, run on padded buffers with each op's declared local shape, leaves some device other elements than its dst tile."


def compare(seed: int, cases: int, max_devices: int = 64) -> list[dict]:
    """Each case of a seeded corpus planned by shardnb (both objectives) and by Shardy, costed alike.

    `kind`: "exact" (Shardy's steps are exact transfers), "ragged" (some step only works on padded buffers: the list,
    run on padded buffers, reaches dst and is costed so), "ragged-miss" (run on padded buffers it leaves some device
    other elements than its tile of dst: `why`) or "rejected" (Shardy can't express it or its plan doesn't reach dst)."""
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
            # the padded run checked on the plans costed exactly too: it must agree that they reach dst
            row["padded_run"] = run_padded(ops, meshes, src, dst, shape, model, itemsz)[0] if not rg else None
        except RaggedMiss as e:
            row.update(kind="ragged-miss", why=str(e), shardy=[k for k, _, _ in ops])
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
SCALE_MESHES = list(dict.fromkeys([((n,), False) for n in (1024, 4096, 16384, 65536)]
                                  + [(s, True) for n in (4096, 16384, 65536) for s in ((64, n // 64), (16, 16, n // 256), (8, 8, 8, n // 512))]
                                  + [((64, 64), True), ((2, 2, 2, 16), False)]))


def scale(timeout: float) -> list[tuple]:
    """Planning time and memory of [{x}, {}] -> [{}, {x}] (shape (2n, 2n)) on meshes of n devices: 1-4 axes, iota or
    permuted ids. Printed, and returned as rows (devices, mesh, ids, seconds, peak MiB, steps or what went wrong)."""
    import subprocess
    print(f"{'devices':>8} {'mesh':<16} {'ids':<8} {'plan s':>8} {'peak MiB':>9}  steps")
    rows = []
    for sizes, permuted in SCALE_MESHES:
        n, name, ids = math.prod(sizes), "x".join(map(str, sizes)), "permuted" if permuted else "iota"
        try:
            r = subprocess.run([sys.executable, "-c", _SCALE_CHILD, name, str(int(permuted))], capture_output=True, text=True,
                               timeout=timeout, cwd=Path(__file__).resolve().parents[1])
            if r.returncode == 0:
                dt, mem, steps = r.stdout.split()
                print(f"{n:8d} {name:<16} {ids:<8} {float(dt):8.2f} {float(mem):9.0f}  {steps}")
                rows.append((n, name, ids, f"{float(dt):.3f}", f"{float(mem):.0f}", steps))
            else:
                why = r.stderr.strip().splitlines()[-1][:110]
                print(f"{n:8d} {name:<16} {ids:<8} {'-':>8} {'-':>9}  {why}"); rows.append((n, name, ids, "", "", why))
        except subprocess.TimeoutExpired:
            print(f"{n:8d} {name:<16} {ids:<8} {'>' + str(int(timeout)):>8} {'':>9}  (timed out)")
            rows.append((n, name, ids, f">{int(timeout)}", "", "timed out"))
    return rows


# ---------------------------------------------------------------------------------------------- the search's experiments
# What keeps the search small, and what was tried and not kept, measured on the corpus: each stage's share of the
# cases, what each budget costs and changes, and variants of the search (a module's function swapped for another
# for the length of a run) against the planner as it is. Every call is a first call: caches cleared before it.
def _weight(plan, objective: str) -> tuple:
    "What `objective` minimises: seconds, then the busiest device's bytes; or bytes, then seconds."
    c = plan.cost
    return (c.seconds, c.max_bytes_received) if objective == "time" else (c.max_bytes_received, c.seconds)


def _order(a, b, objective: str) -> int:
    "-1 where plan `b` is cheaper than `a` under `objective`, 1 where dearer, 0 where as cheap (within a relative 1e-12)."
    for x, y in zip(_weight(a, objective), _weight(b, objective)):
        if abs(x - y) > 1e-12 * max(abs(x), abs(y)): return -1 if y < x else 1
    return 0


def _first_call(src, dst, shape, **kw):
    "`plan_reshard` as a first call (every process-wide cache cleared before it), and the seconds it took."
    clear_caches()
    t0 = time.perf_counter(); plan = plan_reshard(src, dst, shape, **kw)
    return plan, time.perf_counter() - t0


class _Swap:
    "Within `with`: the attribute `name` of `owner` (a module or a class) replaced by `new`, restored after."
    def __init__(self, owner, name, new): self.owner, self.name, self.new = owner, name, new
    def __enter__(self): self.old = getattr(self.owner, self.name); setattr(self.owner, self.name, self.new)
    def __exit__(self, *exc): setattr(self.owner, self.name, self.old)


class _Probe:
    "Counts what one plan call does: A* runs, finer-atom searches (the peel), states expanded, steps costed, reruns."
    def __init__(self):
        import shardnb.reshard.search as S, shardnb.reshard.planner as P
        self.n, self.objective = {}, None
        def counting(owner, name, key, when=lambda *a: True):
            f = getattr(owner, name)
            def wrapped(*args, **kw):
                if when(*args): self.n[key] = self.n.get(key, 0) + 1
                return f(*args, **kw)
            return _Swap(owner, name, wrapped)
        self.swaps = [counting(S, "_astar", "astar"), counting(S, "_peel_prime_factors", "peel"), counting(S, "_expand", "states"),
                      counting(Planner, "_cost_step", "steps"),
                      counting(P, "search_steps", "rerun", lambda p, *a: p.objective != self.objective)]
    def __enter__(self):
        for s in self.swaps: s.__enter__()
        return self
    def __exit__(self, *exc):
        for s in reversed(self.swaps): s.__exit__()
    def plan(self, src, dst, shape, objective):
        "A first call under `objective`, its seconds, and the counts it made."
        self.n, self.objective = {}, objective
        plan, dt = _first_call(src, dst, shape, objective=objective)
        return plan, dt, dict(self.n)


def stages(corpus) -> list[tuple]:
    """Where plans are settled, per objective: with no search (nothing to move, one step on the floor, or the direct
    exchange), by A* on the axes' atoms, or with the finer atoms too; planning time and work in each."""
    rows = []
    with _Probe() as probe:
        for objective in ("time", "bytes"):
            runs = [probe.plan(*case, objective) for case in corpus]
            groups = [("no search", lambda n: not n.get("astar")), ("A* on the axes' atoms", lambda n: n.get("astar") and not n.get("peel")),
                      ("A* and the finer atoms", lambda n: n.get("peel"))]
            if objective == "time": groups.append(("... with the 'bytes' search too", lambda n: n.get("rerun")))
            for name, test in groups:
                sel = [(dt, n) for _, dt, n in runs if test(n)]
                ms = np.asarray([dt for dt, _ in sel]) * 1e3
                states, steps = [n.get("states", 0) for _, n in sel], [n.get("steps", 0) for _, n in sel]
                rows.append((objective, name, len(sel), f"{len(sel) / len(runs):.1%}",
                             *(f"{x:.2f}" if len(sel) else "" for x in (np.median(ms) if len(sel) else 0, pct(ms, 99), ms.max() if len(sel) else 0)),
                             int(np.median(states)) if sel else "", max(states, default=""), int(np.median(steps)) if sel else "", max(steps, default="")))
    return rows


BUDGETS = (60, 100, 200, 4000)


def budgets(corpus) -> list[tuple]:
    """Each `max_states` budget under both objectives, against the largest: plans dearer and cheaper, the most states
    any search expanded, and the planning time summed over the corpus."""
    rows = []
    with _Probe() as probe:
        for objective in ("time", "bytes"):
            runs = {b: [] for b in BUDGETS}
            for case in corpus:   # each case under every budget in turn (the default through plan_reshard's own default)
                for b in BUDGETS:
                    probe.n, probe.objective = {}, objective
                    plan, dt = _first_call(*case, objective=objective, **({} if b == 200 else {"max_states": b}))
                    runs[b].append((plan, dt, dict(probe.n)))
            full = runs[max(BUDGETS)]
            for b in BUDGETS:
                order = [_order(f[0], r[0], objective) for f, r in zip(full, runs[b])]
                rows.append((objective, b, len(corpus), order.count(1), order.count(-1), max(n.get("states", 0) for _, _, n in runs[b]),
                             f"{sum(dt for _, dt, _ in runs[b]) * 1e3:.0f}"))
    return rows


def _variant_list():
    """(name, in the planner?, what it changes, owner, attribute, replacement): variants of the search. Each takes out a
    part the planner keeps (to show what it buys), or puts in one that was tried and not kept."""
    import shardnb.reshard.transfers as T, shardnb.reshard.search as S, shardnb.reshard.bounds as B
    from shardnb.reshard.bounds import AtomSpace
    candidates, atoms = AtomSpace.candidates, S.axis_atoms
    return [
        ("nearest holder only", "kept: taken out here", "each piece from the nearest holder after the device; busy holders' pieces not re-dealt round-robin",
         T, "_balance_senders", lambda a, d, e, group, klass: e),
        ("receivers' floor only", "kept: taken out here", "the time floor without the senders' rounds and without one step against two",
         B, "_time_floor", lambda alpha, beta_max, nb, hops, cap, one, senders: (hops, max(alpha * hops, alpha + nb / beta_max))),
        ("no slice-then-permute", "kept: taken out here", "no local slice by unnamed sub-axes followed by one permute",
         S, "_slice_then_permute", lambda p: None),
        ("no greedy peel", "kept: taken out here", "the finer-atom search without the peel of prime factors before it",
         S, "_peel_prime_factors", lambda p, sp, found, floor0, depth=6: found),
        ("smallest-first prime cuts only", "kept: taken out here", "a 6 cut 2x3 only, never 3x2",
         S, "axis_atoms", lambda mesh, shardings, refine=False, largest_first=False: atoms(mesh, shardings, refine)),
        ("swaps and reorders in the finer search", "not kept: put in here", "the finer-atom search offers every move the first search does",
         AtomSpace, "candidates", lambda self, side, st, fine=False, direct=True: candidates(self, side, st, False, direct)),
        ("finer atoms wherever off the floor", "not kept: put in here", "the peel and the finer search run wherever the best plan is off its floor, not only where it shows the need",
         S, "_needs_finer_atoms", lambda steps: True),
    ]


def variants(corpus) -> list[tuple]:
    """Each variant against the planner as it is, case by case in turns (both as first calls): plans cheaper and dearer
    under each objective, and the planning time summed over the corpus, variant over as is."""
    rows = []
    for name, kept, what, owner, attr, new in _variant_list():
        for objective in ("time", "bytes"):
            order, t_as_is, t_variant = [], 0.0, 0.0
            for case in corpus:
                base, dt0 = _first_call(*case, objective=objective)
                with _Swap(owner, attr, new): other, dt1 = _first_call(*case, objective=objective)
                order.append(_order(base, other, objective)); t_as_is += dt0; t_variant += dt1
            rows.append((name, kept, what, objective, len(corpus), order.count(-1), order.count(1), f"{t_variant / t_as_is:.2f}"))
    clear_caches()
    return rows


def write_csv(path: Path, header: tuple, rows) -> None:
    "One table as a CSV file."
    import csv
    with open(path, "w", newline="") as f:
        w = csv.writer(f); w.writerow(header); w.writerows(rows)
    print(f"wrote {path}")


# ---------------------------------------------------------------------------------------------- main
def pct(x, q): return float(np.percentile(x, q, method="higher")) if len(x) else float("nan")


def summary(name, ratios, secs):
    r = np.asarray(ratios)
    return (f"{name:<26} {len(r):5d}  {pct(r, 50):6.3f} {pct(r, 90):6.3f} {r.max():7.3f} "
            f"{np.mean(np.isclose(r, 1.0)):7.1%}  {np.median(secs) * 1e6:9.2f} {pct(secs, 90) * 1e6:9.2f}")


class _Collections:
    "Seconds the process spends in full collections of Python's cyclic garbage collector (`gc.callbacks`), and how many."
    def __init__(self):
        self.full, self.count, self._t0 = 0.0, 0, None
        gc.callbacks.append(self._cb)
    def _cb(self, phase, info):
        if info["generation"] != 2: return
        if phase == "start": self._t0 = time.perf_counter()
        else: self.full += time.perf_counter() - self._t0; self.count += 1


def _reference_loop() -> float:
    "Seconds a fixed pure-Python loop (10**6 additions) takes here, best of 3: the machine's speed, to compare runs."
    best = math.inf
    for _ in range(3):
        t0, s = time.perf_counter(), 0
        for i in range(10**6): s += i
        best = min(best, time.perf_counter() - t0)
    return best


def _numpy_reference() -> float:
    """Microseconds one small numpy operation takes here (an elementwise minimum of two (8, 64) int64 arrays), best
    of 3 x 20,000: the planner's search is mostly such operations, so its times are read against this as well as
    against the pure-Python loop (the same code's planning times were 1.7x apart on two machines whose pure-Python
    loops were 1.3x apart)."""
    a = np.arange(512, dtype=np.int64).reshape(8, 64); b = a[::-1].copy()
    best = math.inf
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(20_000): np.minimum(a, b)
        best = min(best, time.perf_counter() - t0)
    return best / 20_000 * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-devices", type=int, default=64)
    ap.add_argument("--no-shardy", action="store_true")
    ap.add_argument("--list", type=int, default=10, help="how many failing/rejected cases to print")
    ap.add_argument("--scale", action="store_true", help="the large-mesh table instead of the corpus")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per large-mesh case")
    ap.add_argument("--no-freeze", action="store_true", help="leave the heap jax and Shardy leave behind to the collector's full passes")
    ap.add_argument("--budget-cases", type=int, default=2000, help="cases of the budgets table (drawn from seed + 1): long searches are rare")
    ap.add_argument("--write-tables", metavar="DIR", help="also run the search's experiments and the large-mesh table, and write "
                    "every table as a CSV file into DIR (read by nbs/01_reshard/06_search_notes.ipynb)")
    a = ap.parse_args(argv)
    if a.scale: scale(a.timeout); return 0
    rng = np.random.default_rng(a.seed)
    corpus = [random_case(rng, a.max_devices) for _ in range(a.cases)]
    model, itemsz = CostModel(), itemsize("f32")
    shardy = None
    if not a.no_shardy:
        try: shardy = Shardy()
        except Exception as e: print(f"shardy unavailable: {e}")
    res = {k: ([], []) for k in ("shardnb time", "shardnb bytes", "gather+slice", "basis (MLIR)", "shardy (all it plans)", "shardy (ragged, padded)")}
    # each objective timed as a first call (every process-wide cache of the reshard stage cleared before it), and "bytes"
    # once more right after "time" on the same tensor, as a caller asking for both gets it (steps are shared)
    plan_t = {"time": [], "bytes": [], "bytes after time": []}
    plan_gc = {k: [] for k in plan_t}   # of which: full collections of the process's heap (Shardy's and jax's included)
    frozen = 0
    if not a.no_freeze:   # the heap alive before the run (jax and Shardy loaded) is walked by every full collection
        gc.collect(); gc.freeze(); frozen = gc.get_freeze_count()   # (50-100 ms each, inside whichever plan call it lands)
    ref, ref_np, gcs = _reference_loop(), _numpy_reference(), _Collections()
    ratios = []   # shardnb's modelled time / Shardy's, on every case Shardy plans
    rejected, worse, misses, n_ragged, ragged_worse, ragged_miss, cache_diff = [], [], [], 0, 0, [], []
    for i, (src, dst, shape) in enumerate(corpus):
        plans = {}
        for key, obj in (("time", "time"), ("bytes after time", "bytes"), ("bytes", "bytes")):
            if key != "bytes after time": clear_caches()
            t0, g0 = time.perf_counter(), gcs.full
            plans[key] = plan_reshard(src, dst, shape, objective=obj)
            plan_t[key].append(time.perf_counter() - t0); plan_gc[key].append(gcs.full - g0)
        # the caches are transparent: the same plan with or without the steps the other objective costed
        a_, b_ = plans["bytes"], plans["bytes after time"]
        if [str(s) for s in a_.steps] != [str(s) for s in b_.steps] or a_.cost != b_.cost: cache_diff.append(i)
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
        except RaggedMiss as e:
            ragged_miss.append((i, f"{src} -> {dst.body()} {shape}", str(e))); continue
        except Exception as e:
            rejected.append((i, f"{src} -> {dst.body()} {shape}", str(e).strip().splitlines()[0][:140])); continue
        res["shardy (all it plans)"][0].append(ratio(b)); res["shardy (all it plans)"][1].append(s)
        if rg: res["shardy (ragged, padded)"][0].append(ratio(b)); res["shardy (ragged, padded)"][1].append(s)
        if plans["bytes"].cost.max_bytes_received > b or plans["time"].cost.seconds > s * (1 + 1e-9):
            ragged_worse += rg
            worse.append((i, src, dst, shape, plans["bytes"].cost.max_bytes_received, b, plans["time"].cost.seconds, s))
        ratios.append(plans["time"].cost.seconds / s if s else (1.0 if plans["time"].cost.seconds == 0 else math.inf))
    print(f"corpus: {a.cases} cases, seed {a.seed}, meshes up to 4 axes of 1-8 (<= {a.max_devices} devices), f32, dims 1-16")
    print(f"{'planner':<26} {'cases':>5}  {'ratio: median':>6} {'p90':>6} {'max':>7} {'at 1.00':>7}  {'time us: med':>9} {'p90':>9}")
    for k, (r, s) in res.items():
        if r: print(summary(k, r, s))
    quality = [(k, len(r), f"{pct(r, 50):.3f}", f"{pct(r, 90):.3f}", f"{np.max(r):.3f}", f"{np.mean(np.isclose(r, 1.0)):.1%}",
                f"{np.median(s) * 1e6:.2f}", f"{pct(s, 90) * 1e6:.2f}") for k, (r, s) in res.items() if r]
    print(f"machine: 10**6 pure-Python additions take {ref * 1e3:.0f} ms here, a small numpy operation {ref_np:.2f} µs (planning times scale with both); "
          f"{gcs.count} full garbage collections of the process's heap during the run, {gcs.full * 1e3:.0f} ms in all"
          + (f" ({frozen} objects alive before the run frozen out of them: gc.freeze)" if frozen else ""))
    labels = {"time": "objective='time' (first call)", "bytes": "objective='bytes' (first call)", "bytes after time": "'bytes after time' (steps shared)"}
    latency = [(labels[obj], len(ts), *(f"{x:.3f}" for x in (np.median(ts) * 1e3, pct(ts, 90) * 1e3, pct(ts, 99) * 1e3, np.max(ts) * 1e3)))
               for obj, ts in plan_t.items()]
    for obj, ts in plan_t.items():
        ts, gt = np.asarray(ts) * 1e3, np.asarray(plan_gc[obj]) * 1e3
        net = ts - gt
        print(f"planning time {labels[obj]}: median {np.median(ts):.3f} ms, p90 {pct(ts, 90):.3f} ms, p99 {pct(ts, 99):.3f} ms, max {ts.max():.1f} ms"
              f" ({int(np.sum(gt > 0))} calls held a full collection, {gt.sum():.0f} ms; without them: p99 {pct(net, 99):.3f} ms, max {net.max():.1f} ms)")
    print(f"objective='bytes' planned first, or after 'time' with its steps: {len(cache_diff)} plans differ {cache_diff[:a.list]}")
    sums = sum(bool(m[1].unreduced) for m in misses)
    print(f"objective='bytes' off the lower bound: {len(misses)} cases ({sums} with a partial sum to reduce, {len(misses) - sums} without)")
    summed = [r for r, (src, dst, _) in zip(res["shardnb bytes"][0], corpus) if set(src.unreduced) != set(dst.unreduced)]
    if summed:   # the bound assumes an evenly spread summing tree; sharding steps can't always spread it (see the lower bound in 00_transfers)
        r = np.asarray(summed)
        print(f"objective='bytes' on the {len(r)} cases that sum partials: ratio median {pct(r, 50):.3f}, p90 {pct(r, 90):.3f}, "
              f"max {r.max():.3f}, {np.mean(np.isclose(r, 1.0)):.1%} at 1.00")
    for i, src, dst, shape in misses[: a.list]: print(f"   #{i} {src} -> {dst.body()} {shape}")
    if shardy is not None:
        planned = len(res['shardy (all it plans)'][0])
        print(f"shardnb worse than shardy (bytes under 'bytes' or time under 'time'): {len(worse)} of {planned} cases "
              f"({planned - n_ragged} exact, {n_ragged} on padded buffers; {ragged_worse} of the worse ones padded)")
        for i, src, dst, shape, b1, b2, t1, t2 in worse[: a.list]:
            print(f"   #{i} {src} -> {dst.body()} {shape}: bytes {b1} vs {b2}, time {t1 * 1e6:.4f} vs {t2 * 1e6:.4f} us")
        r = np.asarray(ratios)
        pos = r[(r > 0) & np.isfinite(r)]   # shardnb's plan free (no data moves) where Shardy's isn't: counted apart
        if len(pos):
            g = math.exp(np.mean(np.log(pos)))
            print(f"modelled time shardnb/shardy on the {len(pos)} cases where both move data: geometric mean {g:.3f} "
                  f"(shardy's plans {1 / g:.2f}x slower), median {pct(pos, 50):.3f}, best {pos.min():.3f}, worst {pos.max():.3f}; "
                  f"{int(np.sum(r == 0))} more where shardnb moves nothing and shardy does")
        print(f"shardy's ops on ragged dims that, run on padded buffers, leave other elements than dst's tiles: {len(ragged_miss)} cases "
              f"(not a reshard: not compared)")
        for m in ragged_miss[: min(a.list, 3)]: print("  ", m)
        print(f"shardy rejected or can't express: {len(rejected)} cases")
        kinds = {}
        for _, _, e in rejected: kinds[re.sub(r"\d+|\".*?\"|<.*>", "#", e)[:80]] = kinds.get(re.sub(r"\d+|\".*?\"|<.*>", "#", e)[:80], 0) + 1
        for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]): print(f"  {v:4d}  {k}")
        for r in rejected[: a.list]: print("  ", r)
    if a.write_tables:
        out = Path(a.write_tables); out.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(a.seed + 1)
        budget_corpus = [random_case(rng, a.max_devices) for _ in range(a.budget_cases)]
        vs = []
        if shardy is not None:
            r = np.asarray(ratios); pos = r[(r > 0) & np.isfinite(r)]
            g = math.exp(np.mean(np.log(pos))) if len(pos) else float("nan")
            vs = [("cases Shardy plans (exact or on padded buffers)", len(res["shardy (all it plans)"][0])), ("of which on padded buffers", n_ragged),
                  ("shardnb slower ('time') or heavier ('bytes')", len(worse)),
                  ("modelled time shardnb / Shardy, geometric mean", f"{g:.3f}"), ("... worst case", f"{pos.max():.3f}" if len(pos) else ""),
                  ("Shardy's ragged lists that leave other elements than the target's tiles", len(ragged_miss)),
                  ("cases Shardy rejects or can't express", len(rejected))]
        write_csv(out / "run.csv", ("what", "value"),
                  [("cases", a.cases), ("seed", a.seed), ("devices, at most", a.max_devices),
                   ("cases of the budgets table", f"{a.budget_cases}, seed {a.seed + 1}"),
                   ("10**6 pure-Python additions, ms", f"{ref * 1e3:.0f}"), ("a small numpy operation, µs", f"{ref_np:.2f}"),
                   ("command", "python bench/reshard.py " + " ".join(argv if argv is not None else sys.argv[1:]))])
        write_csv(out / "quality.csv", ("planner", "cases", "bytes / bound: median", "p90", "max", "at the bound", "modelled µs: median", "p90"), quality)
        write_csv(out / "latency.csv", ("call", "cases", "ms: median", "p90", "p99", "max"), latency)
        if vs: write_csv(out / "shardy.csv", ("against Shardy", "value"), vs)
        write_csv(out / "stages.csv", ("objective", "settled by", "cases", "share", "ms: median", "p99", "max",
                                       "states expanded: median", "max", "steps costed: median", "max"), stages(corpus))
        write_csv(out / "budgets.csv", ("objective", "max_states", "cases", "plans dearer than with 4000", "cheaper",
                                        "most states expanded", "planning ms, summed"), budgets(budget_corpus))
        write_csv(out / "variants.csv", ("variant", "in the planner", "what it changes", "objective", "cases", "plans cheaper", "plans dearer",
                                         "planning time, variant / as is"), variants(corpus))
        write_csv(out / "scale.csv", ("devices", "mesh", "ids", "plan s", "peak MiB", "steps"), scale(a.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
