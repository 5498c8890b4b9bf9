"""Automatic sharding against hand strategies: for JAX training steps (tests/auto/models.py, lowered in a subprocess)
on several meshes, the search's solve time, gap and size, and every strategy's step_cost (the same model for all).

    python bench/auto_shard.py [--models mlp2,gpt2_block] [--meshes 8,2x4] [--time-limit 60]

Baselines are argument annotations that shardnb's propagation completes (Shardy's user-priority propagation):
replicated; data parallel (the batch dim of the data arguments over every axis); FSDP (data parallel, and every
parameter's largest divisible dim over every axis); Megatron tensor parallel on the last axis (column-split first
matrices, row-split second ones) plus data parallel on the others, where the model has a Megatron layout here."""
import argparse, math, os, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shardnb.ir.program import parse_module, copy_module
from shardnb.layout.syntax import parse_mesh
from shardnb.auto.auto_shard import (auto_shard, step_cost, propagated, inline_calls, sharding_of_dims, DeviceModel)

# per model: the data arguments and, for Megatron, {argument: dim split on the tensor-parallel axis}
MODELS = {
    "mlp2": dict(data=[2, 3], megatron={0: 1, 1: 0}),                              # w1 column, w2 row
    "gpt2_block": dict(data=[6], megatron={5: 1, 4: 0, 2: 1, 3: 0}),             # wqkv, w1 column; wo, w2 row
    "llama_block": dict(data=[9], megatron={6: 1, 4: 1, 7: 1, 8: 1, 1: 0, 3: 0}),
    "moe_layer": dict(data=[3], megatron={1: 0, 2: 0}),                           # experts split (expert parallel)
    "wide_resnet_bottleneck": dict(data=[6], megatron={}),
}


def machine_speed() -> float:
    "GFLOP/s of a 1024^3 float32 numpy matmul on this machine (the best of three)."
    import numpy as np
    a = np.random.default_rng(0).standard_normal((1024, 1024), dtype=np.float32)
    best = math.inf
    for _ in range(3):
        t = time.perf_counter(); a @ a; best = min(best, time.perf_counter() - t)
    return 2 * 1024**3 / best / 1e9


def lower(names) -> dict:
    out = Path(tempfile.mkdtemp(prefix="auto-models-"))
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    subprocess.run([sys.executable, str(ROOT / "tests" / "auto" / "models.py"), str(out), *names], check=True, env=env)
    return {n: (out / f"{n}.mlir").read_text() for n in names}


def annotate(text, mesh_text, dims: dict):
    "The program with argument k sharded as dims[k] (a list of axis-name tuples per dim); the rest left to propagation."
    m = inline_calls(parse_module(text)); mesh = parse_mesh(mesh_text)
    m.meshes = {"mesh": mesh}
    for k, d in dims.items():
        a = m.main.args[k]; a.sharding = sharding_of_dims("mesh", mesh, d)
    return m


def baselines(name, text, mesh_text):
    mesh = parse_mesh(mesh_text); axes = [n for n, _ in mesh.axes]; size = math.prod(k for _, k in mesh.axes)
    m0 = parse_module(text); args = m0.main.args; spec = MODELS[name]
    def batch(k, on): s = [()] * args[k].type.rank; s[0] = tuple(on); return s
    fits = lambda k, d, on: args[k].type.shape[d] % math.prod(dict(mesh.axes)[a] for a in on) == 0
    out = {"replicated": {}}
    out["data parallel"] = {k: batch(k, axes) for k in spec["data"] if fits(k, 0, axes)}
    fsdp = dict(out["data parallel"])
    for k, a in enumerate(args):
        if k in spec["data"] or not a.type.shape: continue
        d = max((d for d in range(a.type.rank) if fits(k, d, axes)), key=lambda d: a.type.shape[d], default=None)
        if d is not None: s = [()] * a.type.rank; s[d] = tuple(axes); fsdp[k] = s
    out["FSDP"] = fsdp
    if spec["megatron"]:
        tp, dp = axes[-1:], axes[:-1]
        meg = {k: batch(k, dp) for k in spec["data"] if dp and fits(k, 0, dp)}
        for k, d in spec["megatron"].items():
            if fits(k, d, tp): s = [()] * args[k].type.rank; s[d] = tuple(tp); meg[k] = s
        out["Megatron TP" + (" + DP" if dp else "")] = meg
    return {b: step_cost(propagated(annotate(text, mesh_text, d))) for b, d in out.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="mlp2,gpt2_block")
    ap.add_argument("--meshes", default="8,2x4")
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args(argv)
    names = a.models.split(","); texts = lower(names)
    meshes = {m: "<[" + ", ".join(f'"{n}"={k}' for n, k in zip("abcd", map(int, m.split("x")))) + "]>" for m in a.meshes.split(",")}
    print(f"machine: {os.cpu_count()} cores, numpy float32 matmul {machine_speed():.1f} GFLOP/s; device model: {DeviceModel().name}")
    print(f"{'model':24} {'mesh':6} {'strategy':22} {'step ms':>10} {'comm ms':>9} {'peak GiB':>9}  search")
    for name in names:
        for mk, mt in meshes.items():
            t = time.perf_counter()
            r = auto_shard(texts[name], mt, time_limit=a.time_limit)
            wall = time.perf_counter() - t
            s = r.solver
            print(f"{name:24} {mk:6} {'auto_shard':22} {r.cost.total_s*1e3:10.4f} {r.cost.comm_s*1e3:9.4f} {r.cost.peak_bytes/2**30:9.3f}  "
                  f"{wall:.1f} s in all, solve {s.seconds:.1f} s, {s.status}, gap {s.gap:.1e}, {s.variables:,} vars, {s.constraints:,} rows, "
                  f"{s.decisions}/{s.nodes} decisions, {s.rounds} rounds, {r.pins} pins")
            for b, c in baselines(name, texts[name], mt).items():
                worse = c.total_s / r.cost.total_s
                print(f"{'':24} {'':6} {b:22} {c.total_s*1e3:10.4f} {c.comm_s*1e3:9.4f} {c.peak_bytes/2**30:9.3f}  x{worse:.2f} of auto_shard's")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
