"""Worker functions for tests/runtime/test_distributed.py: each runs on one rank of a `launch`ed gloo group.

Many cases run per launch because starting processes is the expensive part. Every rank draws the
same cases from the same seed, so they agree without talking."""
from __future__ import annotations

import math
import os
import signal
import time

import numpy as np
import torch

from shardnb.layout.mesh import AxisRef, Mesh, ShardingError
from shardnb.layout.sharding import DimSharding, TensorSharding, shard_array
from shardnb.runtime.processes import DistributedReshardError
from shardnb.runtime.distributed import ShardedTensor
from shardnb.runtime.dtensor import dtensor_to_sharded, sharded_to_dtensor

FACTORS = {1: [[1]], 2: [[2]], 4: [[4], [2, 2]], 8: [[8], [2, 4], [4, 2], [2, 2, 2]]}


def random_mesh(rng, n: int) -> Mesh:
    "A mesh of `n` devices: a random factorisation into 1-3 axes, random non-iota ids half the time."
    sizes = [list(f) for f in FACTORS[n]][rng.integers(len(FACTORS[n]))]
    names = ["x", "y", "z"][:len(sizes)]
    ids = rng.permutation(n).tolist() if rng.random() < 0.5 else None
    return Mesh(list(zip(names, sizes)), ids)


def _pieces(rng, name: str, n: int) -> list[AxisRef]:
    "An axis cut into full-axis or sub-axis pieces."
    if n == 4 and rng.random() < 0.5: return [AxisRef(name, 1, 2), AxisRef(name, 2, 2)]
    if n == 8 and rng.random() < 0.5:
        return [AxisRef(name, 1, 2), AxisRef(name, 2, 4)] if rng.random() < 0.5 else [AxisRef(name, 1, 4), AxisRef(name, 4, 2)]
    return [AxisRef(name)]


def _merge(refs, mesh):
    "`refs` with each pair of neighbouring sub-axes that form one bigger axis merged."
    out = []
    for r in refs:
        if out and out[-1].can_merge(r): out[-1] = out[-1].merge(r, mesh)
        else: out.append(r)
    return out


def random_sharding(rng, mesh: Mesh, rank: int, unreduced: bool = True) -> TensorSharding:
    "A valid random sharding of a rank-`rank` tensor on `mesh`: sub-axes, any axis order, maybe unreduced."
    pieces = [p for name, n in mesh.axes for p in _pieces(rng, name, n)]
    dims, unred = [[] for _ in range(rank)], []
    for p in pieces:
        where = rng.integers(-1, rank + (1 if unreduced else 0))
        if where < 0: continue
        if where < rank: dims[where].append(p)
        elif rng.random() < 0.6: unred.append(p)
    dims = [_merge([axes[i] for i in rng.permutation(len(axes))], mesh) for axes in dims]
    unred = _merge(sorted(unred, key=lambda r: r.sort_key(mesh)), mesh)
    s = TensorSharding(mesh, tuple(DimSharding(tuple(a)) for a in dims), unreduced=tuple(unred))
    s.verify((1,) * rank)
    return s


def random_cases(seed: int, n: int, world: int):
    "`n` reproducible (x, src, dst) cases for `world` devices."
    rng = np.random.default_rng(seed)
    for _ in range(n):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(d) for d in rng.integers(1, 10, size=rank))
        dtype = [np.float32, np.float32, np.float64, np.int64][rng.integers(4)]
        x = (rng.standard_normal(shape) * 100).astype(dtype)
        src_mesh = random_mesh(rng, world)
        dst_mesh = src_mesh if rng.random() < 0.5 else random_mesh(rng, world)
        yield x, random_sharding(rng, src_mesh, rank), random_sharding(rng, dst_mesh, rank)


def check_random(rank: int, world: int, seed: int, n: int):
    "Reshard every case and compare with `shard_array(x, dst)` exactly; the list of mismatches (empty when all agree)."
    bad, stats = [], {"cases": 0, "unreduced": 0, "sub_axes": 0, "uneven": 0, "non_iota": 0, "messages": 0}
    ran, fallbacks = set(), set()
    for i, (x, src, dst) in enumerate(random_cases(seed, n, world)):
        st = ShardedTensor.from_global(x, src)
        log = []
        out = st.reshard(dst, log=log, timeout=20)
        want = shard_array(x, dst)[out.device]
        if out.sharding != dst or out.local.dtype != torch.from_numpy(want).dtype or not np.array_equal(out.local.numpy(), want):
            bad.append((i, str(src), str(dst), x.shape))
        stats["cases"] += 1
        stats["unreduced"] += bool(src.unreduced or dst.unreduced)
        stats["sub_axes"] += any(a.is_sub_axis for a in src.axis_refs() + dst.axis_refs())
        stats["uneven"] += any(d % s.size_in(src.mesh) for d, s in zip(x.shape, src.dims))
        stats["non_iota"] += src.mesh.device_ids is not None
        stats["messages"] += sum(r.messages for r in log)
        ran |= {(r.collective, r.primitive) for r in log}
        fallbacks |= {(r.collective, r.primitive, r.note) for r in log if "fallback" in r.note}
    stats["ran"], stats["fallbacks"] = sorted(ran), sorted(fallbacks)
    return bad, stats


def check_disagreement(rank: int, world: int):
    "Rank 0 asks for a different target: every rank must raise before data moves, and the group stays usable."
    mesh = Mesh([("x", world)])
    x = np.arange(world * 3, dtype=np.float32).reshape(world, 3)
    st = ShardedTensor.from_global(x, TensorSharding(mesh, (DimSharding(("x",)), DimSharding())))
    dst = TensorSharding(mesh, (DimSharding(), DimSharding(("x",)) if rank == 0 else DimSharding()))
    try:
        st.reshard(dst, timeout=10)
        msg = None
    except DistributedReshardError as e:
        msg = str(e)
    after = st.reshard(TensorSharding(mesh, (DimSharding(), DimSharding())), timeout=10)
    return msg, np.array_equal(after.local.numpy(), x)


def check_dtensor(rank: int, world: int):
    "DTensor round trips, and DTensor's redistribute agrees with shardnb's reshard; a list of failures."
    from torch.distributed.tensor import Replicate, Shard
    mesh = Mesh([("x", 2), ("y", world // 2)], [0, 2, 1, 3] if world == 4 else None)  # non-iota, ascending along axes
    x = np.arange(7 * 6, dtype=np.float32).reshape(7, 6)
    bad = []
    scrambled = Mesh([("x", 2), ("y", world // 2)], [3, 1, 0, 2] if world == 4 else None)
    try:
        sharded_to_dtensor(ShardedTensor.from_global(x, TensorSharding(scrambled, (DimSharding(("x",)), DimSharding()))))
        bad.append(("scrambled ranks accepted",))
    except ShardingError as e:
        if "ascending" not in str(e): bad.append(("scrambled", repr(e)))
    cases = [
        TensorSharding(mesh, (DimSharding(("x",)), DimSharding(("y",)))),
        TensorSharding(mesh, (DimSharding(("y",)), DimSharding())),              # 7 over 2: uneven, one axis
        TensorSharding(mesh, (DimSharding(), DimSharding(("x", "y")))),          # 6 over 4: uneven, two axes -> inexpressible
        TensorSharding(mesh, (DimSharding(("y",)), DimSharding()), unreduced=(AxisRef("x"),)),
    ]
    line = Mesh([("z", world)])
    cases.append(TensorSharding(line, (DimSharding((AxisRef("z", 1, 2),)), DimSharding((AxisRef("z", 2, world // 2),)))))  # sub-axes
    for s in cases:
        st = ShardedTensor.from_global(x, s)
        try:
            dt = sharded_to_dtensor(st)
        except Exception as e:
            if "differently" not in str(e): bad.append(("sharded_to_dtensor", str(s), repr(e)))
            continue
        back = dtensor_to_sharded(dt)
        if not back.sharding.equivalent(s, x.shape) or not np.array_equal(back.local.numpy(), shard_array(x, back.sharding)[back.device]):
            bad.append(("round trip", str(s), str(back.sharding)))
        full = dt.redistribute(dt.device_mesh, [Replicate(), Replicate()]).to_local().numpy()
        if not np.array_equal(full, x): bad.append(("redistribute", str(s)))
    # DTensor redistribute vs shardnb reshard on the same move
    s0 = TensorSharding(mesh, (DimSharding(("x",)), DimSharding(("y",))))
    s1 = TensorSharding(mesh, (DimSharding(("y",)), DimSharding(("x",))))
    a = dtensor_to_sharded(sharded_to_dtensor(ShardedTensor.from_global(x, s0)).redistribute(placements=[Shard(1), Shard(0)]))
    b = ShardedTensor.from_global(x, s0).reshard(s1)
    if not np.array_equal(a.local.numpy(), b.local.numpy()): bad.append(("redistribute vs reshard",))
    return bad


def _s(mesh, *dims, unreduced=()):
    "A sharding on `mesh` from one string of axis names per dim ('xy': x then y) and the unreduced axes."
    return TensorSharding(mesh, tuple(DimSharding(tuple(d)) for d in dims), unreduced=tuple(AxisRef(a) for a in unreduced))


def known_cases(world: int):
    "(name, shape, src, dst, expected [(collective, primitive)]) for plans whose steps we know (2x2 meshes, iota and not)."
    assert world == 4
    out = []
    for tag, ids in (("", None), (" non-iota", [3, 0, 2, 1])):
        m = Mesh([("x", 2), ("y", 2)], ids)
        out += [
            # gloo: a small gather runs as one all_to_all_single round, a large one (over 1 MiB gathered) as gloo's all_gather
            ("all_gather" + tag, (8, 6), _s(m, "x", ""), _s(m, "", ""), [("all_gather", "all_to_all_single")]),
            ("all_gather large" + tag, (520, 520), _s(m, "x", ""), _s(m, "", ""), [("all_gather", "all_gather_into_tensor")]),
            ("all_gather uneven two steps" + tag, (7, 5), _s(m, "xy", ""), _s(m, "", ""),
             [("all_gather", "all_to_all_single")]),   # the planner's two steps, merged
            ("all_to_all" + tag, (8, 6), _s(m, "x", ""), _s(m, "", "x"), [("all_to_all", "all_to_all_single")]),
            ("all_to_all uneven" + tag, (7, 5), _s(m, "x", ""), _s(m, "", "x"), [("all_to_all", "all_to_all_single")]),
            ("reduce_scatter" + tag, (8, 6), _s(m, "", "", unreduced="x"), _s(m, "x", ""), [("reduce_scatter", "reduce_scatter_tensor")]),
            ("reduce_scatter uneven" + tag, (7, 3), _s(m, "", "", unreduced="x"), _s(m, "x", ""), [("reduce_scatter", "reduce_scatter_tensor")]),
            ("all_reduce" + tag, (8, 6), _s(m, "y", "", unreduced="x"), _s(m, "y", ""), [("all_reduce", "all_reduce")]),
            ("summing exchange" + tag, (6, 3), _s(m, "", "", unreduced="x"), _s(m, "y", ""),   # sum over x, scatter over y
             [("point_to_point", "batch_isend_irecv")]),
            ("all_slice" + tag, (5, 9), _s(m, "", ""), _s(m, "x", "y"), [("all_slice", "local")]),
            ("[S0,S1]->[S1,S0]" + tag, (5, 9), _s(m, "x", "y"), _s(m, "y", "x"), [("collective_permute", "batch_isend_irecv")]),
        ]
    return out


def check_known_plans(rank: int, world: int):
    "Plans whose steps we know run on the native primitives, exact; also an explicit plan and plan='exchange'."
    from shardnb.reshard.planner import plan_reshard
    res = []
    for name, shape, src, dst, want in known_cases(world):
        x = (np.arange(math.prod(shape)) - 7).astype(np.float32).reshape(shape)
        log = []
        out = ShardedTensor.from_global(x, src).reshard(dst, log=log)
        ok = out.sharding == dst and np.array_equal(out.local.numpy(), shard_array(x, dst)[out.device])
        res.append((name, ok, want, [(r.collective, r.primitive, r.note) for r in log]))
    m = Mesh([("x", 2), ("y", 2)])
    x = np.arange(5 * 9, dtype=np.float64).reshape(5, 9)
    src, dst = _s(m, "x", "y"), _s(m, "y", "")
    plan = plan_reshard(src, dst, x.shape, "float64")
    for p in (plan, "exchange"):
        log = []
        out = ShardedTensor.from_global(x, src).reshard(dst, plan=p, log=log)
        ok = np.array_equal(out.local.numpy(), shard_array(x, dst)[out.device])
        want = [(s.kind, "") for s in plan.steps] if p is plan else [("point_to_point", "batch_isend_irecv")]
        res.append((f"plan={'explicit' if p is plan else p}", ok, want, [(r.collective, r.primitive, r.note) for r in log]))
    # the same two all_gathers, unmerged
    log = []
    a, b, x2 = _s(m, "xy", ""), _s(m, "", ""), np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    out = ShardedTensor.from_global(x2, a).reshard(b, log=log, fuse=False)
    res.append(("unfused", np.array_equal(out.local.numpy(), x2), [("all_gather", "all_to_all_single")] * 2,
                [(r.collective, r.primitive, r.note) for r in log]))
    # a step whose groups can't run the native collective (all_gather over the wrong axis): the planner's transfers run it
    import dataclasses
    from shardnb.reshard.planner import ReshardStep
    a, b = _s(m, "x", ""), _s(m, "", "")
    good = plan_reshard(a, b, x.shape, "float64")
    (s,) = good.steps
    bad = dataclasses.replace(good, steps=(ReshardStep(s.kind, (AxisRef("y"),), s.dims, s.sharding, s.transfers, s.cost),))
    log = []
    out = ShardedTensor.from_global(x, a).reshard(b, plan=bad, log=log)
    res.append(("forced fallback", np.array_equal(out.local.numpy(), x), [("all_gather", "batch_isend_irecv")],
                [(r.collective, r.primitive, r.note) for r in log]))
    try:
        ShardedTensor.from_global(x, src).reshard(_s(m, "", "y"), plan=plan)
        res.append(("wrong plan accepted", False, [], []))
    except ShardingError as e:
        # the plan moves src -> dst; asked for src -> [{}, {"y"}] the executor must name both and refuse
        msg = str(e)
        res.append(("wrong plan refused", msg.startswith("the plan moves ") and plan.dst.body() in msg
                    and _s(m, "", "y").body() in msg.split(", not ", 1)[-1], [], []))
    return res


def check_agreement_once(rank: int, world: int):
    """Count the agreement rounds (check_agreement calls) after each reshard: a new key checks, a repeat does not, a
    new dtype, target or group does, check='always' does; and ranks that disagree still raise. (counts, errors, exact)."""
    import torch.distributed as dist
    from shardnb.runtime import processes as p
    calls, real = [], p.check_agreement
    def counting(key, *args, **kwargs):
        calls.append(key)
        return real(key, *args, **kwargs)
    p.check_agreement = counting   # start_agreement (which reshard calls) looks the name up in its module on every call
    try:
        mesh = Mesh([("x", world)])
        x = np.arange(world * 4 * 3, dtype=np.float32).reshape(world * 4, 3)
        rows, full, cols = _s(mesh, "x", ""), _s(mesh, "", ""), _s(mesh, "", "x")
        st, counts, exact = ShardedTensor.from_global(x, rows), [], []
        def run(t, dst, **kw):
            out = t.reshard(dst, **kw)
            exact.append(np.array_equal(out.local.numpy(), shard_array(x.astype(out.local.numpy().dtype), dst)[out.device]))
            counts.append(len(calls))
        run(st, full)                     # new key: a round
        run(st, full)                     # the same key: none
        run(st, full, timeout=7)          # the timeout is not part of the key: none
        run(st, full, check="always")     # a round
        run(st, full, check=False)        # none
        run(st, cols)                     # a new target: a round
        run(st, full, fuse=False)         # another way of running it: a round
        run(ShardedTensor.from_global(x.astype(np.float64), rows), full)   # a new dtype: a round
        group = dist.new_group(list(range(world)))
        run(ShardedTensor.from_global(x, rows, group=group), full)         # a new group: a round
        run(ShardedTensor.from_global(x, rows, group=group), full)         # then none
        errors = []
        for dst, kw in (((full if rank == 0 else cols), {"check": "always"}),   # both agreed before: 'always' still checks
                        ((_s(mesh, "x", "") if rank == 0 else _s(mesh, "", "x")), {})):   # from cols: both keys new
            try:
                (st if kw else ShardedTensor.from_global(x, cols)).reshard(dst, timeout=10, **kw)
                errors.append(None)
            except DistributedReshardError as e:
                errors.append(str(e))
        run(st, full)                     # the group still works, and the key is still agreed: none
    finally:
        p.check_agreement = real
    return counts, errors, all(exact)


def gather_large(rank: int, world: int):
    "A gather of more than 1 MiB on all ranks: the primitive that ran and whether the result is exact."
    mesh = Mesh([("x", world)])
    x = np.arange(512 * 600, dtype=np.float32).reshape(512, 600)
    log = []
    out = ShardedTensor.from_global(x, _s(mesh, "x", "")).reshard(_s(mesh, "", ""), log=log)
    return [(r.collective, r.primitive) for r in log], np.array_equal(out.local.numpy(), x)


def suite8(rank: int, world: int, seed: int, n: int):
    "Everything the 8-process launch checks, in one launch."
    return dict(random=check_random(rank, world, seed, n), agreement=check_agreement_once(rank, world),
                gather_large=gather_large(rank, world))


def suite4(rank: int, world: int, seed: int, n: int):
    "Everything the 4-process launch checks, in one launch."
    return dict(random=check_random(rank, world, seed, n), disagree=check_disagreement(rank, world),
                dtensor=check_dtensor(rank, world), plan=check_known_plans(rank, world))


def killed_rank(rank: int, world: int, victim: int, timeout: float):
    "Rank `victim` is SIGKILLed just before a reshard; the others report what they raised and how long it took."
    mesh = Mesh([("x", world)])
    x = np.ones((world * 64, 64), dtype=np.float32)
    st = ShardedTensor.from_global(x, TensorSharding(mesh, (DimSharding(("x",)), DimSharding())))
    st.reshard(TensorSharding(mesh, (DimSharding(), DimSharding(("x",)))), timeout=timeout)  # healthy first
    if rank == victim: os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.5)
    t0 = time.monotonic()
    try:
        for _ in range(3):
            st = st.reshard(TensorSharding(mesh, (DimSharding(), DimSharding(("x",)))), timeout=timeout)
            st = st.reshard(TensorSharding(mesh, (DimSharding(("x",)), DimSharding())), timeout=timeout)
        return ("no error", time.monotonic() - t0, "")
    except DistributedReshardError as e:
        return ("DistributedReshardError", time.monotonic() - t0, str(e))
    except Exception as e:
        return (type(e).__name__, time.monotonic() - t0, str(e))


def regroup(rank, world, port):
    """Sub-groups survive a new default group: create them, destroy the group, join a new one (on `port`), and ask
    again. The second answer must be a group of the new world (a cache keyed by the old group would hand back a
    destroyed one, unknown to torch)."""
    import torch
    import torch.distributed as dist
    from shardnb.runtime.processes import init_gloo
    from shardnb.runtime.collectives import subgroup
    parts = [[0, 1], [2, 3]]
    first = subgroup(parts)
    dist.barrier(); dist.destroy_process_group()
    init_gloo(rank, world, port, 30)
    second = subgroup(parts)
    t = torch.ones(1) * (rank + 1)
    dist.all_reduce(t, group=second)
    return second is not first, dist.get_process_group_ranks(second), float(t.item())
