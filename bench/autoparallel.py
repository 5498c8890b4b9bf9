"""meta-pytorch/autoparallel's search on the two-layer MLP of tests/auto, its choice costed by shardnb's step_cost beside
auto_shard's answer (the same model for both).

    python bench/autoparallel.py --autoparallel /path/to/autoparallel-checkout [--meshes 8,2x4] [--variants free,params,params+data]

AutoParallel (pure Python + torch + PuLP; `pip install pulp`) traces the joint forward and backward graph of an
`nn.Module` and solves an ILP over DTensor placements. It runs here on a CPU in one process: a fake process group, a
"cpu" DeviceMesh, and the module on the meta device. One thing must be patched: its compute cost model looks the GPU
up by name (`torch.get_device_module().get_device_name()`, which `torch.cpu` lacks), so this script names an H100,
the device shardnb's `DeviceModel` describes.

The module is the step of tests/auto/data/mlp2.mlir in torch: `((w2(relu(w1(x))) - y) ** 2).mean()`, B=256, D=1024,
H=4096, f32, no bias (a torch Linear's weight is the JAX weight transposed). The JAX step also updates the weights
(SGD); AutoParallel's graph stops at the gradients. Its answer is carried over as annotations on the JAX step: the
placements of the weights and data (transposed where torch's weight is) and of the five matmul results, matched in
order and shape (a Partial result is left to propagation), then Shardy's propagation completes it and step_cost
prices it. Variants: `free` (only the loss pinned replicated), `params` (AutoParallel's default parameter memory
constraint, 1/devices of the weights per device), `params+data` (that and the batch split over every mesh dim, as its
examples do)."""
import argparse, math, os, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shardnb.auto.auto_shard import auto_shard, step_cost, propagated, inline_calls, as_module, sharding_of_dims, DeviceModel
from shardnb.auto.baselines import hand_strategy
from shardnb.ir.core import set_sharding
from shardnb.layout.syntax import parse_mesh
sys.path.insert(0, str(ROOT / "bench"))
from auto_shard import machine_speed   # bench/auto_shard.py's

MLP = (ROOT / "tests" / "auto" / "data" / "mlp2.mlir").read_text()
B, D, H = 256, 1024, 4096


def setup(checkout):
    "Import AutoParallel on a CPU: a fake process group of 8 ranks and the device-name patch its cost model needs."
    if checkout: sys.path.insert(0, str(checkout))
    import torch
    from torch.testing._internal.distributed.fake_pg import FakeStore
    if not torch.distributed.is_initialized():
        torch.distributed.init_process_group("fake", store=FakeStore(), rank=0, world_size=8)
    if not hasattr(torch.cpu, "get_device_name"):
        torch.cpu.get_device_name = lambda *a, **k: "NVIDIA H100 80GB HBM3"
    from autoparallel.api import AutoParallel
    return AutoParallel


def search(AutoParallel, shape, names, variant):
    "AutoParallel's answer on the MLP for one mesh: {node name: (shape, placements per mesh dim, shard order)}, seconds tracing, seconds solving."
    import torch
    from torch import nn
    from torch.distributed.tensor.placement_types import Replicate, Shard

    class MLP(nn.Module):
        def __init__(self):
            super().__init__(); self.w1 = nn.Linear(D, H, bias=False); self.w2 = nn.Linear(H, D, bias=False)
        def forward(self, x, y): return ((self.w2(torch.relu(self.w1(x))) - y) ** 2).mean()

    mesh = torch.distributed.device_mesh.init_device_mesh("cpu", shape, mesh_dim_names=names)
    with torch.device("meta"): model = MLP()
    t0 = time.perf_counter()
    with AutoParallel(model, lambda: (torch.rand(B, D), torch.rand(B, D)), mesh) as autop:
        t1 = time.perf_counter()
        autop.add_output_constraints([(Replicate(),) * len(shape)])
        if variant != "free": autop.add_parameter_memory_constraint()
        if variant == "params+data": autop.add_input_constraints([(Shard(0),) * len(shape)] * 2)
        sol = autop.optimize_placement()
        t2 = time.perf_counter()
    keep = lambda n: n.op == "placeholder" and n.name.startswith("primals") or n.target is torch.ops.aten.mm.default
    out = {n.name: (tuple(s.output_specs.tensor_meta.shape), tuple(s.output_specs.placements), s.output_specs.shard_order)
           for n, s in sol.items() if keep(n)}
    return out, t1 - t0, t2 - t1


def dims_of(placements, order, names, rank):
    "A DTensor placement (one entry per mesh dim) as shardnb dims: the mesh dims sharding each tensor dim, major first; None if any is Partial."
    dims = [[] for _ in range(rank)]
    for k, p in enumerate(placements):
        if p.is_partial(): return None
        if p.is_shard(): dims[p.dim].append(k)
    for e in order or ():   # an explicit shard order names the mesh dims of a tensor dim, major first
        dims[e.tensor_dim] = list(e.mesh_dims)
    return [tuple(names[k] for k in d) for d in dims]


def annotate_jax(answer, mesh_text, names):
    "The JAX step annotated with AutoParallel's answer: the weights and data, the five matmul results (a torch weight is transposed)."
    m = inline_calls(as_module(MLP)); mesh = parse_mesh(mesh_text)
    m.meshes = dict(m.meshes); m.meshes["mesh"] = mesh
    f = m.main
    def put(value, shape, placements, order, setter):
        dims = dims_of(placements, order, names, len(shape))
        if dims is None: return "partial, left to propagation"
        if tuple(value.type.shape) != shape:
            if tuple(value.type.shape) != shape[::-1]: return f"shape {shape} does not match {value.type.shape}"
            dims = dims[::-1]
        setter(value, sharding_of_dims("mesh", mesh, dims)); return str(dims)
    notes = []
    for k in range(4):
        shape, pl, order = answer[f"primals_{k + 1}"]
        notes.append((f"primals_{k + 1} -> argument {k}", pl, put(f.args[k], shape, pl, order, lambda v, s: setattr(v, "sharding", s))))
    dots = [op for op in f.walk() if op.name == "stablehlo.dot_general"]
    mms = [n for n in answer if n == "mm" or n.startswith("mm_")]
    for name, op in zip(sorted(mms, key=lambda n: int(n[3:] or 0) if n != "mm" else -1), dots):
        shape, pl, order = answer[name]
        notes.append((f"{name} -> dot_general {op.results[0].type}", pl, put(op.results[0], shape, pl, order, set_sharding)))
    return m, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--autoparallel", default=os.environ.get("AUTOPARALLEL"), metavar="DIR",
                    help="a checkout of github.com/meta-pytorch/autoparallel (default: $AUTOPARALLEL, else an installed package)")
    ap.add_argument("--meshes", default="8,2x4")
    ap.add_argument("--variants", default="free,params,params+data")
    a = ap.parse_args(argv)
    AutoParallel = setup(a.autoparallel)
    import torch, pulp
    print(f"machine: {os.cpu_count()} cores, numpy float32 matmul {machine_speed():.1f} GFLOP/s; torch {torch.__version__}, "
          f"PuLP {pulp.__version__}; device model: {DeviceModel().name}")
    for mk in a.meshes.split(","):
        shape = tuple(map(int, mk.split("x")))
        names = ("x",) if len(shape) == 1 else tuple("dm"[:len(shape)]) if len(shape) == 2 else tuple("abcd"[:len(shape)])
        mesh_text = "<[" + ", ".join(f'"{n}"={k}' for n, k in zip(names, shape)) + "]>"
        t = time.perf_counter(); mine = auto_shard(MLP, mesh_text); mine_s = time.perf_counter() - t
        meg = step_cost(propagated(hand_strategy(MLP, mesh_text, "Megatron", data=(2, 3), columns=(0,), rows=(1,))))
        print(f"\nmesh {mesh_text}: auto_shard {mine.cost} ({mine_s:.2f} s, {mine.solver.status}); Megatron {meg.total_s * 1e3:.4f} ms")
        for variant in a.variants.split(","):
            answer, trace_s, solve_s = search(AutoParallel, shape, names, variant)
            m, notes = annotate_jax(answer, mesh_text, names)
            cost = step_cost(propagated(m))
            print(f"  autoparallel [{variant}]: trace {trace_s:.2f} s, solve {solve_s:.2f} s; its choice under step_cost: {cost}, "
                  f"x{cost.total_s / mine.cost.total_s:.2f} of auto_shard's")
            for where, pl, what in notes: print(f"    {where:42} {str(pl):36} {what}")


if __name__ == "__main__":
    main()
