"""Automatic sharding of torch models against MindSpore's hand strategies: for each model of tests/auto/torch_models.py
at its bench size (float32, an H100 DeviceModel) on each mesh, the torch search's solve time, status, gap and size,
and the step cost (plan_cost: compute, MindSpore's redistributions and AllReduces priced in seconds, peak bytes) of
its answer beside data parallel's and Megatron's (MindSpore's propagation from their annotations).

    python bench/auto_torch.py [--models mlp,gpt2_block] [--meshes 8,2x4,8x8] [--time-limit 60] [--no-starts] [--memory-limit-of megatron]

By default the baselines are the search's first incumbents, so it is never worse; `--no-starts` runs it alone (a row
marked BASELINE FASTER is then a real miss). `--memory-limit-of megatron` limits the search to the Megatron plan's
peak bytes. A row marks where the search is strictly faster than every baseline. Also printed: over every pair of
bit layouts of a 1024 x 4096 float32 tensor on the (2, 4) mesh, MindSpore's redistribution against the reshard planner's
plan (`--layouts`)."""
import argparse, itertools, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shardnb.layout.syntax import parse_mesh
from shardnb.auto.auto_shard import DeviceModel
from shardnb.auto.torch_search import torch_search, torch_baselines, plan_cost, BitMesh, MindSporePricer
from shardnb.mindspore.operators import operators
from tests.auto.torch_models import MODELS, bench
sys.path.insert(0, str(ROOT / "bench"))
from auto_shard import machine_speed   # bench/auto_shard.py's

MESHES = {"8": '<["x"=8]>', "2x4": '<["a"=2, "b"=4]>', "8x8": '<["a"=8, "b"=8]>'}


def layouts_row():
    "MindSpore's redistribution against the planner over every pair of bit layouts of a 1024 x 4096 tensor on (2, 4)."
    from shardnb.reshard.planner import plan_reshard
    bm = BitMesh("mesh", parse_mesh(MESHES["2x4"])); p = MindSporePricer(bm, DeviceModel())
    L = list(dict.fromkeys((tuple(q[:c]), tuple(q[c:k])) for q in itertools.permutations([2, 1, 0]) for k in range(4) for c in range(k + 1)))
    dearer = cheaper = 0; ms_total = pl_total = 0.0
    for a, b in itertools.product(L, L):
        sa, sb = bm.sharding(a), bm.sharding(b)
        ms, pl = p.exact(sa, sb, (1024, 4096), "f32"), plan_reshard(sa, sb, (1024, 4096), "f32", cost_model=p.model).cost.seconds
        ms_total += ms; pl_total += pl; dearer += ms > pl * 1.01; cheaper += ms < pl * 0.99
        assert p.bound(sa, sb, (1024, 4096), "f32") <= min(ms, pl) * (1 + 1e-9)
    print(f"layouts: {len(L) ** 2} pairs of bit layouts; MindSpore's redistribution costs more than the planner's plan on {dearer}, "
          f"less on {cheaper} (the planner's search stops at its state budget); in all {ms_total / pl_total:.2f}x the planner's seconds")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--meshes", default="8,2x4")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--no-starts", action="store_true")
    ap.add_argument("--memory-limit-of", choices=("megatron", "data parallel"))
    ap.add_argument("--layouts", action="store_true")
    a = ap.parse_args()
    print(f"machine: {machine_speed():.0f} GFLOP/s (numpy float32 matmul); device model: {DeviceModel().name}")
    if a.layouts: layouts_row()
    print(f"{'model':<24} {'mesh':<5} {'ops':>4} {'solve s':>8} {'gap':>6} {'vars':>7}  {'search':>10} {'data par.':>10} {'megatron':>10}  {'peak GiB':>8}  status")
    for name in a.models.split(","):
        module = bench(name)
        for m in a.meshes.split(","):
            mesh = MESHES[m]
            pricer = MindSporePricer(BitMesh("mesh", parse_mesh(mesh)), DeviceModel())
            base = {k: plan_cost(p, pricer) for k, p in torch_baselines(module, mesh).items()}
            limit = base[a.memory_limit_of].peak_bytes if a.memory_limit_of else None
            t = time.perf_counter()
            r = torch_search(module, mesh, time_limit=a.time_limit, with_baselines=not a.no_starts, memory_limit=limit)
            t = time.perf_counter() - t
            assert abs(r.predicted.total_s - r.cost.total_s) <= 1e-9 * r.cost.total_s or "costs less" in r.solver.status, (r.predicted, r.cost)
            faster = [k for k, c in base.items() if c.total_s < r.cost.total_s * (1 - 1e-9) and (limit is None or c.peak_bytes <= limit)]
            fit = {k: c for k, c in base.items() if limit is None or c.peak_bytes <= limit}
            mark = ("BASELINE FASTER: " + ", ".join(faster)) if faster else \
                   f"strictly faster than every baseline{' that fits' if limit else ''} ({', '.join(fit)})" if all(r.cost.total_s < c.total_s * (1 - 1e-9) for c in fit.values()) \
                   else "ties " + ", ".join(k for k, c in fit.items() if c.total_s <= r.cost.total_s * (1 + 1e-9))
            us = lambda c: f"{c.total_s * 1e6:,.1f} µs"
            print(f"{name:<24} {m:<5} {len(operators(module)):>4} {t:>8.1f} {r.solver.gap:>6.2%} {r.solver.variables:>7,}  {us(r.cost):>10} "
                  f"{us(base['data parallel']):>10} {us(base['megatron']):>10}  {r.cost.peak_bytes / 2**30:>8.3f}  {r.solver.status}; {mark}"
                  + (f" (limit {limit / 2**30:.3f} GiB)" if limit else ""), flush=True)


if __name__ == "__main__":
    main()
