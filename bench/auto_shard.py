"""Automatic sharding against hand strategies: for JAX training steps (tests/auto/models.py, lowered in a subprocess)
on several meshes, the search's solve time, gap and size, and every strategy's step_cost (the same model for all).

    python bench/auto_shard.py [--models mlp2,gpt2_block] [--meshes 8,2x4] [--time-limit 60] [--starts]
    python bench/auto_shard.py --models mlp2,gpt2_block,llama_block,moe_layer,wide_resnet_bottleneck,gpt2_stack12 --write-tables bench/tables
    python bench/auto_shard.py --pareto gpt2_stack12:8 --write-tables bench/tables   (the chapter's Pareto front of the stack)
    python bench/auto_shard.py --models mlp2,gpt2_block,llama_block,moe_layer,wide_resnet_bottleneck --meshes 2x8x8 --write-tables bench/tables --append

Baselines are argument annotations that shardnb's propagation completes (Shardy's user-priority propagation):
replicated; data parallel (the batch dim of the data arguments over every axis); FSDP (data parallel, and every
parameter's largest divisible dim over every axis); Megatron tensor parallel on the last axis (column-split first
matrices, row-split second ones) plus data parallel on the others, and Megatron + SP (the activations between the
blocks split by sequence over the tensor-parallel axis too), where the model has a Megatron layout here
(`shardnb.auto.baselines.hand_strategy`); and the Alpa-style search (`alpa_search`: the same per-op strategies and
solver, every reshard priced by Alpa's closed-form collective costs, element-wise ops merged with their deepest
operand), its answer priced by step_cost like the others, with its own objective and solve time beside it. Each search's predicted cost is asserted equal to step_cost of its answer. By default the search runs alone (no
starts), so a baseline row marked FASTER THAN THE SEARCH is a real miss; with --starts it also gets the hand
strategies (the Alpa-style answer included) as starts.
With --write-tables, bench/tables/auto_shard.json: each search's program size and solve time (the baselines chapter
draws solve time against program size from it)."""
import argparse, json, math, os, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shardnb.ir.program import parse_module, copy_module
from shardnb.layout.syntax import parse_mesh
from shardnb.layout.mesh import ShardingError
from shardnb.auto.auto_shard import auto_shard, step_cost, propagated, DeviceModel
from shardnb.auto.baselines import hand_strategy, alpa_search

# per model: the data arguments and, for Megatron, {argument: dim split on the tensor-parallel axis}
MODELS = {   # jax flattens each params dict by sorted key; the data arguments come last
    "mlp2": dict(data=(2, 3), columns=(0,), rows=(1,)),                       # w1 | w2
    "gpt2_block": dict(data=(6,), columns=(5, 2), rows=(4, 3)),               # wqkv, w1 | wo, w2
    "gpt2_stack12": dict(data=(72,), columns=tuple(6 * l + k for l in range(12) for k in (5, 2)),
                         rows=tuple(6 * l + k for l in range(12) for k in (4, 3))),
    "llama_block": dict(data=(9,), columns=(6, 8, 7, 5), rows=(4, 3)),        # wq, wv, wu, wk... | wo, wd (sorted keys)
    "moe_layer": dict(data=(3,), columns=(), rows=()),
    "wide_resnet_bottleneck": dict(data=(6,), columns=(), rows=()),
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


def kinds(name):
    "The hand strategies of a model (Megatron only where the model has a Megatron layout here)."
    spec = MODELS[name]
    return ["replicated", "data parallel", "FSDP"] + (["Megatron", "Megatron + SP"] if spec["columns"] or spec["rows"] else [])


def baselines(name, text, mesh_text):
    "Each hand strategy's step_cost."
    return {k: step_cost(propagated(hand_strategy(text, mesh_text, k, **MODELS[name]))) for k in kinds(name)}


def mesh_text(m: str) -> str:
    return "<[" + ", ".join(f'"{n}"={k}' for n, k in zip("abcd", map(int, m.split("x")))) + "]>"


def pareto_table(a):
    "Step time against memory limit for one model and mesh: from the unconstrained answer's peak down to the smallest feasible limit, and one byte below it."
    from shardnb.auto.baselines import pareto, plot_pareto
    name, mk = a.pareto.split(":"); text = lower([name])[name]; mt = mesh_text(mk)
    free = auto_shard(text, mt, time_limit=a.time_limit)
    try: auto_shard(text, mt, memory_limit=1, time_limit=a.time_limit); least = 1
    except ShardingError as e:   # the error names the smallest feasible limit: the sweep runs from there to the free peak
        least = int(str(e).split("smallest feasible limit is ")[1].split(" B")[0].replace(",", ""))
    limits = [int(least + (free.cost.peak_bytes - least) * f) for f in (1.0, 0.8, 0.6, 0.4, 0.2, 0.0)] + [least - 1]
    t = time.perf_counter(); pts = pareto(text, mt, limits, time_limit=a.time_limit); wall = time.perf_counter() - t
    print(f"machine: {os.cpu_count()} cores, numpy float32 matmul {machine_speed():.1f} GFLOP/s; {name} on {mt}; {len(limits)} solves in {wall:.1f} s")
    print(f"{'limit MiB':>10} {'step ms':>10} {'peak MiB':>10}")
    for lim, sec, peak in pts:
        print(f"{lim / 2**20:10.1f} " + (f"{sec * 1e3:10.4f} {peak / 2**20:10.1f}" if sec is not None else f"{'no strategy fits':>21}"))
    if a.png: plot_pareto(pts, f"{name} on {mt}").savefig(a.png, dpi=120)
    if a.write_tables:   # the chapter draws the front from this table
        os.makedirs(a.write_tables, exist_ok=True)
        table = dict(machine=dict(cores=os.cpu_count(), matmul_gflops=round(machine_speed(), 1)), model=name, mesh=mk,
                     time_limit=a.time_limit, points=[dict(limit=l, step_s=t, peak_bytes=p) for l, t, p in pts])
        with open(os.path.join(a.write_tables, f"pareto_{name}_{mk}.json"), "w") as f: json.dump(table, f, indent=1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="mlp2,gpt2_block")
    ap.add_argument("--meshes", default="8,2x4")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--pareto", default=None, help="MODEL:MESH: print step time against memory limit instead (e.g. gpt2_block:8)")
    ap.add_argument("--png", default=None, help="with --pareto: draw the front into this file")
    ap.add_argument("--write-tables", metavar="DIR", help="write auto_shard.json (program size and solve time per search) there")
    ap.add_argument("--tied-below", type=int, default=8, help="also search with follow=True (element-wise ops tied) on meshes of at most this many devices")
    ap.add_argument("--starts", action="store_true", help="give the search the hand strategies as starts (then never worse by construction)")
    ap.add_argument("--append", action="store_true", help="with --write-tables: keep the table's other searches, replacing those of the same model and mesh")
    a = ap.parse_args(argv)
    if a.pareto: return pareto_table(a)
    names = a.models.split(","); texts = lower(names)
    meshes = {m: mesh_text(m) for m in a.meshes.split(",")}
    speed, rows = machine_speed(), []
    print(f"machine: {os.cpu_count()} cores, numpy float32 matmul {speed:.1f} GFLOP/s; device model: {DeviceModel().name}")
    print(f"{'model':24} {'mesh':6} {'strategy':22} {'step ms':>10} {'comm ms':>9} {'peak GiB':>9}  search")
    for name in names:
        for mk, mt in meshes.items():
            t = time.perf_counter(); al = alpa_search(texts[name], mt, time_limit=a.time_limit); alpa_wall = time.perf_counter() - t
            starts = [hand_strategy(texts[name], mt, k, **MODELS[name]) for k in kinds(name)] + [al.strategy]
            t = time.perf_counter()
            r = auto_shard(texts[name], mt, time_limit=a.time_limit, starts=starts if a.starts else ())
            wall = time.perf_counter() - t
            s = r.solver
            print(f"{name:24} {mk:6} {'auto_shard':22} {r.cost.total_s*1e3:10.4f} {r.cost.comm_s*1e3:9.4f} {r.cost.peak_bytes/2**30:9.3f}  "
                  f"{wall:.1f} s in all, solve {s.seconds:.1f} s, {s.status}, gap {s.gap:.1e}, {s.variables:,} vars, {s.constraints:,} rows, "
                  f"{s.decisions}/{s.nodes} decisions, {s.rounds} rounds, {r.pins} pins")
            assert abs(r.cost.total_s - r.predicted.total_s) <= 1e-9 * r.cost.total_s, (r.cost, r.predicted)
            rows.append(dict(model=name, mesh=mk, devices=math.prod(k for _, k in parse_mesh(mt).axes), nodes=s.nodes,
                             decisions=s.decisions, variables=s.variables, constraints=s.constraints, solve_s=s.seconds,
                             wall_s=wall, status=s.status, gap=s.gap, step_ms=r.cost.total_s * 1e3, rounds=s.rounds, plans=s.exact_plans,
                             alpa_step_ms=al.cost.total_s * 1e3, alpa_objective_ms=al.objective_s * 1e3, alpa_solve_s=al.solver.seconds,
                             alpa_status=al.solver.status, matmul_gflops=round(speed, 1)))
            best = r.cost.total_s
            if math.prod(k for _, k in parse_mesh(mt).axes) <= a.tied_below:
                t = time.perf_counter(); r2 = auto_shard(texts[name], mt, time_limit=a.time_limit, follow=True); w2 = time.perf_counter() - t
                print(f"{'':24} {'':6} {'auto_shard follow=True':22} {r2.cost.total_s*1e3:10.4f} {r2.cost.comm_s*1e3:9.4f} {r2.cost.peak_bytes/2**30:9.3f}  "
                      f"{w2:.1f} s in all, {r2.solver.status}, gap {r2.solver.gap:.1e}, {r2.solver.variables:,} vars, {r2.pins} pins")
                best = min(best, r2.cost.total_s)
            for b, c in baselines(name, texts[name], mt).items():
                worse = c.total_s / r.cost.total_s
                print(f"{'':24} {'':6} {b:22} {c.total_s*1e3:10.4f} {c.comm_s*1e3:9.4f} {c.peak_bytes/2**30:9.3f}  x{worse:.2f} of auto_shard's"
                      + ("  <-- FASTER THAN THE SEARCH" if c.total_s < best * (1 - 1e-9) else ""))
            c = al.cost
            print(f"{'':24} {'':6} {'Alpa-style':22} {c.total_s*1e3:10.4f} {c.comm_s*1e3:9.4f} {c.peak_bytes/2**30:9.3f}  x{c.total_s / r.cost.total_s:.2f} of auto_shard's; "
                  f"Alpa's own objective {al.objective_s*1e3:.4f} ms, {alpa_wall:.1f} s in all, solve {al.solver.seconds:.1f} s, {al.solver.status}"
                  + ("  <-- FASTER THAN THE SEARCH" if c.total_s < best * (1 - 1e-9) else ""))
            sys.stdout.flush()
    if a.write_tables:
        os.makedirs(a.write_tables, exist_ok=True)
        path = os.path.join(a.write_tables, "auto_shard.json")
        if a.append and os.path.exists(path):   # the searches of other runs stay, each row with its run's machine speed
            with open(path) as f: kept = json.load(f)["searches"]
            done = {(r["model"], r["mesh"]) for r in rows}
            rows = [r for r in kept if (r["model"], r["mesh"]) not in done] + rows
        table = dict(machine=dict(cores=os.cpu_count(), matmul_gflops=round(speed, 1)), time_limit=a.time_limit, searches=rows)
        with open(path, "w") as f: json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
