"""shardnb's reshard vs DTensor's redistribute, 8 gloo processes on this machine.

    python bench/distributed.py [--sizes 64 4096] [--reps-small 20] [--reps-large 5] [--check once|always|off]
    python bench/distributed.py --gather-sizes 16 256 1024 4096 65536   # gloo's ring all_gather vs one all_to_all_single round

For each case and size: median wall time of one reshard (barrier before and after, rank 0's clock;
shardnb's and DTensor's default runs take turns, so passing load hits both alike) and the most bytes
any rank receives (shardnb: from its log; DTensor: counted from the collectives it issues, with the
same ring model for all_reduce). DTensor runs with its default planner and, where
this torch has it, its min-cost planner. Every result is checked equal between the two.

With `--gather-sizes` it times instead what `shardnb.runtime.distributed` chooses between for a gather on gloo
(up to 1 MiB gathered, one all_to_all_single round; beyond, gloo's ring all_gather): both primitives, per
gathered size in KiB, each result checked."""
from __future__ import annotations

import argparse
import contextlib
import statistics
import time

import numpy as np
import torch
import torch.distributed as dist

from shardnb.runtime.distributed import ShardedTensor
from shardnb.runtime.dtensor import dtensor_to_sharded, sharded_to_dtensor
from shardnb.runtime.processes import launch
from shardnb.layout.mesh import AxisRef, Mesh
from shardnb.layout.sharding import DimSharding, TensorSharding


def _s(mesh, *dims, unreduced=()):
    "A sharding on `mesh` from one string of axis names per dim ('xy': x then y) and the unreduced axes."
    return TensorSharding(mesh, tuple(DimSharding(tuple(d)) for d in dims), unreduced=tuple(AxisRef(a) for a in unreduced))


def cases(n: int):
    "(name, global shape, src, dst) for square size `n`."
    m24 = Mesh([("x", 2), ("y", 4)])
    m222 = Mesh([("x", 2), ("y", 2), ("z", 2)])
    return [
        ("[S0,S1]->[S1,S0] 2x4", (n, n), _s(m24, "x", "y"), _s(m24, "y", "x")),
        ("[S0,S0,S1]->[S0,S1,S1] 2x2x2", (n, n), _s(m222, "xy", "z"), _s(m222, "x", "yz")),
        ("[S0,S0,S1]->[S1,S1,S0] 2x2x2", (n, n), _s(m222, "xy", "z"), _s(m222, "z", "xy")),
        ("uneven [S0,S1]->[S1,S0] 2x4", (n - 1, n + 3), _s(m24, "x", "y"), _s(m24, "y", "x")),
        ("[S0,R]->[R,R] 2x4 (gather)", (n, n), _s(m24, "xy", ""), _s(m24, "", "")),
        ("[P,S0]->[R,S0] 2x4 (all_reduce)", (n, n), _s(m24, "y", "", unreduced="x"), _s(m24, "y", "")),
    ]


class _CountComms(torch.utils._python_dispatch.TorchDispatchMode):
    "Counts the bytes this rank receives through DTensor's functional collectives."

    def __init__(self):
        super().__init__()
        self.received, self.calls = 0, []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func.__name__ if hasattr(func, "__name__") else str(func)
        pkt = str(func.overloadpacket) if hasattr(func, "overloadpacket") else name
        if "_c10d_functional" in pkt and "wait_tensor" not in pkt:
            x = args[0]
            b = x.numel() * x.element_size() if isinstance(x, torch.Tensor) else 0
            group = args[-1]
            n = dist.distributed_c10d._resolve_process_group(group).size() if isinstance(group, str) else 1
            if "all_gather" in pkt: self.received += b * (n - 1)
            elif "reduce_scatter" in pkt: self.received += b * (n - 1) // n
            elif "all_reduce" in pkt: self.received += 2 * b * (n - 1) // n
            elif "all_to_all" in pkt:
                out_splits = args[1]
                row = b // max(1, x.shape[0]) if x.ndim else b
                me = dist.get_rank(dist.distributed_c10d._resolve_process_group(group))
                self.received += row * (sum(out_splits) - out_splits[me])
            if "wrap" not in pkt: self.calls.append(pkt.split(".")[-1])
        return func(*args, **kwargs)


def _timed(fns, reps: int) -> list[float]:
    """Median seconds of each of `fns` over `reps` runs, each between barriers (rank 0's clock). The runs take turns
    (a, b, a, b, ...), so load from elsewhere on the machine that comes and goes hits every contender alike."""
    for fn in fns: fn()   # warm up: sub-groups, DeviceMesh, caches, the agreement on the key
    dist.barrier()
    times = [[] for _ in fns]
    for _ in range(reps):
        for fn, ts in zip(fns, times):
            dist.barrier()
            t0 = time.perf_counter()
            fn()
            dist.barrier()
            ts.append(time.perf_counter() - t0)
    return [statistics.median(ts) for ts in times]


def _max_over_ranks(v: int) -> int:
    "The largest `v` over all ranks (an all_reduce with MAX)."
    t = torch.tensor([v], dtype=torch.int64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return int(t)


def bench_worker(rank: int, world: int, sizes, reps_small: int, reps_large: int, check=True):
    "Every case at every size on this rank: shardnb's and DTensor's times, bytes and collectives (rows on rank 0, None elsewhere)."
    import logging
    from torch.distributed.tensor import _redistribute
    logging.getLogger("torch.distributed.tensor").setLevel(logging.ERROR)  # its 'sequential all_gather' advice, once per call
    min_cost = getattr(_redistribute, "use_min_cost_redistribution_plan", None)
    rows = []
    for n in sizes:
        reps = reps_small if n <= 512 else reps_large
        for name, shape, src, dst in cases(n):
            x = torch.arange(np.prod(shape), dtype=torch.float32).reshape(shape)
            st = ShardedTensor.from_global(x, src)
            log = []
            ours = st.reshard(dst, log=log)
            our_bytes = _max_over_ranks(sum(r.received_bytes for r in log))
            run_ours = lambda: st.reshard(dst, check=check)
            dt = sharded_to_dtensor(st)
            target = sharded_to_dtensor(ours).placements
            row = dict(case=name, shape=shape, shardnb_B=our_bytes,
                       primitive=" + ".join(f"{r.collective}:{r.primitive}" for r in log) or "(nothing to move)",
                       fallbacks=[r.note for r in log if "fallback" in r.note])
            for label, ctx in (("default", None), ("min_cost", min_cost)):
                if label == "min_cost" and ctx is None: continue
                _redistribute._gen_transform_infos.cache_clear()
                with (ctx(True) if ctx else contextlib.nullcontext()):
                    counter = _CountComms()
                    with counter:
                        theirs = dt.redistribute(dt.device_mesh, target)
                    ok = np.array_equal(dtensor_to_sharded(theirs).local.numpy(), ours.local.numpy())
                    row[f"{label}_ok"] = bool(_max_over_ranks(0 if ok else 1) == 0)
                    row[f"{label}_B"] = _max_over_ranks(counter.received)
                    row[f"{label}_calls"] = "+".join(counter.calls)
                    run_theirs = lambda: dt.redistribute(dt.device_mesh, target).to_local()
                    if label == "default": row["shardnb_s"], row["default_s"] = _timed([run_ours, run_theirs], reps)   # side by side
                    else: (row[f"{label}_s"],) = _timed([run_theirs], reps)   # alone: its planner's cache must not mix with the default's
            rows.append(row)
    return rows if rank == 0 else None


def gather_worker(rank: int, world: int, sizes_kib, reps: int):
    """Per gathered size (KiB, float32): median seconds of gloo's ring all_gather and of one all_to_all_single round of
    this rank's piece repeated `world` times, and whether both gave the gathered tensor (rows on rank 0, None elsewhere)."""
    all_gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
    rows = []
    for kib in sizes_kib:
        n = max(1, kib * 1024 // 4 // world)   # float32 elements in each rank's piece
        piece, want = torch.full((n,), float(rank)), torch.arange(world, dtype=torch.float32).repeat_interleave(n)
        ring_out, round_out = torch.empty(n * world), torch.empty(n * world)
        ring = lambda: all_gather(ring_out, piece)
        one_round = lambda: dist.all_to_all_single(round_out, piece.repeat(world))
        t_ring, t_round = _timed([ring, one_round], reps)
        ok = _max_over_ranks(0 if torch.equal(ring_out, want) and torch.equal(round_out, want) else 1) == 0
        rows.append((n * world * 4, t_ring, t_round, ok))
    return rows if rank == 0 else None


def _fmt_bytes(b: int) -> str:
    "`b` bytes in B, KiB or MiB."
    return f"{b / 2**20:.2f} MiB" if b >= 2**20 else f"{b / 1024:.1f} KiB" if b >= 1024 else f"{b} B"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[64, 4096])
    ap.add_argument("--reps-small", type=int, default=20)
    ap.add_argument("--reps-large", type=int, default=5)
    ap.add_argument("--procs", type=int, default=8)
    ap.add_argument("--check", choices=["once", "always", "off"], default="once",
                    help="shardnb's agreement check: once per distinct reshard and group (the default), on every call, or never")
    ap.add_argument("--gather-sizes", type=int, nargs="+", metavar="KIB",
                    help="instead of the reshards: time gloo's ring all_gather against one all_to_all_single round, per gathered KiB")
    a = ap.parse_args()
    t0 = time.time()
    if a.gather_sizes:
        rows = launch(gather_worker, a.procs, a.gather_sizes, a.reps_small, timeout=580, collective_timeout=300)[0]
        print("| gathered | ring all_gather | one all_to_all_single round | faster | exact |")
        print("|---|---|---|---|---|")
        for b, ring, one, ok in rows:
            print(f"| {_fmt_bytes(b)} | {ring * 1e3:.2f} ms | {one * 1e3:.2f} ms | {'ring' if ring < one else 'one round'} | {ok} |")
        print(f"\n{a.procs} gloo processes, float32, median of {a.reps_small} runs each, total {time.time() - t0:.0f} s")
        return
    rows = launch(bench_worker, a.procs, a.sizes, a.reps_small, a.reps_large, {"once": True, "always": "always", "off": False}[a.check], timeout=580, collective_timeout=300)[0]
    print(f"| case | shape | shardnb time | shardnb max recv/rank | DTensor time | DTensor max recv/rank | DTensor min-cost time | min-cost max recv/rank | equal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        mc = (f"{r['min_cost_s'] * 1e3:.2f} ms | {_fmt_bytes(r['min_cost_B'])}" if "min_cost_s" in r else "- | -")
        ok = r["default_ok"] and r.get("min_cost_ok", True)
        print(f"| {r['case']} | {r['shape'][0]}x{r['shape'][1]} | {r['shardnb_s'] * 1e3:.2f} ms | {_fmt_bytes(r['shardnb_B'])} | "
              f"{r['default_s'] * 1e3:.2f} ms | {_fmt_bytes(r['default_B'])} | {mc} | {ok} |")
    print("\nCollectives per case (shardnb: plan step:primitive that ran it):")
    for r in rows:
        print(f"  {r['case']} {r['shape'][0]}x{r['shape'][1]}: DTensor {r['default_calls'] or '(none)'} ; min-cost {r.get('min_cost_calls', '-')} ; "
              f"shardnb {r['primitive']}" + (f" ; FALLBACKS: {r['fallbacks']}" if r["fallbacks"] else ""))
    print(f"\n{a.procs} gloo processes, float32, agreement check {a.check}, total {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
