"""Parse + verify + print throughput of a generated 10,000-op module, and the largest real JAX program of
the test corpus read by shardnb next to jaxlib's own parse + print of it (same process, same text).

Then import_pipeline on a scalar broadcast used by N chained adds (the constant splitter clones it N times): its time
per N shows whether the passes stay linear in the program.

Run: python bench/program.py [n_ops]          (the corpus comparison needs jax; it is skipped without it)"""
import sys, time, random
from pathlib import Path
from shardnb.ir.program import parse_module, print_module, verify_module
import shardnb.ir.api  # registers the sdy op verifiers

def generate(n_ops: int, seed: int = 0) -> str:
    "A JAX-style module: n_ops ops mixing elementwise ops, constants, broadcasts, constraints and dots."
    r = random.Random(seed)
    T = "tensor<128x128xf32>"
    lines = ['module @bench {', '  sdy.mesh @mesh = <["x"=2, "y"=4]>',
             f'  func.func public @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}}, %arg1: {T}) -> ({T}) {{']
    vals, n = ["%arg0", "%arg1"], 0
    shardings = ['<@mesh, [{"x"}, {}]>', '<@mesh, [{}, {"y"}]>', '<@mesh, [{"x", ?}, {?}]>', '<@mesh, [{"y"}, {"x"}]>']
    while n < n_ops - 1:
        a, b = r.choice(vals[-20:]), r.choice(vals[-20:])
        k = r.random(); v = f"%{n}"
        if k < 0.35: lines.append(f"    {v} = stablehlo.{r.choice(['add', 'multiply', 'subtract', 'maximum'])} {a}, {b} : {T}")
        elif k < 0.5: lines.append(f"    {v} = stablehlo.{r.choice(['tanh', 'exponential', 'negate'])} {a} : {T}")
        elif k < 0.6:
            lines.append(f"    %cst_{n} = stablehlo.constant dense<1.000000e+00> : tensor<f32>"); n += 1
            lines.append(f"    {v} = stablehlo.broadcast_in_dim %cst_{n - 1}, dims = [] : (tensor<f32>) -> {T}")
        elif k < 0.8: lines.append(f"    {v} = sdy.sharding_constraint {a} {r.choice(shardings)} : {T}")
        elif k < 0.9: lines.append(f"    {v} = stablehlo.dot_general {a}, {b}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : ({T}, {T}) -> {T}")
        else: lines.append(f"    {v} = stablehlo.add {a}, {b} {{sdy.sharding = #sdy.sharding_per_value<[{r.choice(shardings)}]>}} : {T} loc(#loc{n % 7})")
        vals.append(v); n += 1
    lines += [f"    return {vals[-1]} : {T}", "  }", "}"] + [f'#loc{k} = loc("f.py":{k}:1)' for k in range(7)]
    return "\n".join(lines) + "\n"

def main(n_ops: int = 10_000, repeats: int = 5):
    text = generate(n_ops)
    best = cpu = float("inf")
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        m = parse_module(text); verify_module(m); out = print_module(m)
        best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    n = sum(1 for _ in m.walk()) + 1
    assert parse_module(out) == m
    # on a shared machine the wall clock counts other processes' time too: the CPU time is this process's own
    print(f"{n} ops: parse+verify+print {best * 1e3:.1f} ms wall = {n / best:,.0f} ops/s; "
          f"{cpu * 1e3:.1f} ms CPU = {n / cpu:,.0f} ops/s (best of {repeats})")

def best_of(fn, repeats, clock=time.perf_counter):
    best = float("inf")
    for _ in range(repeats):
        t0 = clock(); fn(); best = min(best, clock() - t0)
    return best

def versus_jaxlib(repeats: int = 7):
    "The largest corpus program: shardnb's parse + verify + print against jaxlib's parse + print, best of `repeats`."
    try:
        from jax._src.interpreters import mlir as jm
        from jaxlib.mlir import ir
    except ImportError:
        print("jax is not installed: no comparison with jaxlib"); return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.corpus.programs import load_corpus
    name, text = max(load_corpus().items(), key=lambda kv: len(kv[1]))
    def ours():
        m = parse_module(text); verify_module(m); return print_module(m)
    def theirs():
        with jm.make_ir_context(): return str(ir.Module.parse(text))
    ours(); theirs()
    n = sum(1 for _ in parse_module(text).walk())
    for what, clock in (("wall", time.perf_counter), ("CPU", time.process_time)):
        a, b = best_of(ours, repeats, clock), best_of(theirs, repeats, clock)
        print(f"largest corpus program {name} ({len(text):,} chars, {n} ops), {what} time: shardnb parse+verify+print "
              f"{a * 1e3:.1f} ms, jaxlib parse+print {b * 1e3:.1f} ms: {a / b:.2f}x jaxlib's time")

def chain(n: int) -> str:
    "A scalar broadcast used by `n` chained adds."
    lines = ["func.func @main(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {",
             "  %s = stablehlo.constant dense<1.0> : tensor<f32>",
             "  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x8xf32>",
             "  %v0 = stablehlo.add %a, %b : tensor<8x8xf32>"]
    lines += [f"  %v{k} = stablehlo.add %v{k - 1}, %b : tensor<8x8xf32>" for k in range(1, n)]
    return "\n".join(lines + [f"  return %v{n - 1} : tensor<8x8xf32>", "}"])

def import_scaling(sizes=(4_000, 8_000, 16_000, 32_000)):
    from shardnb.shardy.import_passes import import_pipeline
    for n in sizes:
        text = chain(n)
        t = best_of(lambda: import_pipeline(parse_module(text)), 3, time.process_time) - best_of(lambda: parse_module(text), 3, time.process_time)
        print(f"import_pipeline, a broadcast used by {n:,} chained adds: {t:.3f} s CPU ({t / n * 1e6:.1f} us per use)")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
    versus_jaxlib()
    import_scaling()
