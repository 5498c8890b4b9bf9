"""Real models through from_torch and MindSpore-style propagation: per model and export form, the torch nodes, the
StableHLO ops and operators, seconds to translate and to propagate (8 and 64 devices), and whether the translation
evaluates to the model's output; then a 12-layer GPT-2 (tiny width) through from_torch + propagate_strategies.

Run: python bench/torch_models.py [--models gpt2,bert,...]
The models are tests/mindspore/test_torch_models.py's (transformers, tiny configs, random weights, nothing downloaded)."""
import argparse, os, platform, sys, time
from pathlib import Path
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import numpy as np
import torch
from tests.mindspore.test_torch_models import MODELS, WITH_LABELS, built, close, gpt2
from shardnb.mindspore.torch_frontend import from_torch
from shardnb.mindspore.operators import operators
from shardnb.mindspore.strategies import propagate_strategies, evaluate


def machine_speed() -> float:
    "GFLOP/s of a 256 x 256 float64 matmul in numpy on this machine (best of 20): the scale beside the seconds."
    a = np.random.default_rng(0).standard_normal((256, 256)); best = 1e9
    for _ in range(20):
        t0 = time.perf_counter(); a @ a; best = min(best, time.perf_counter() - t0)
    return 2 * 256 ** 3 / best / 1e9


def row(name, labels, ir):
    "One table row: node count, ops, operators, seconds, and agreement with torch."
    m, kw = MODELS[name](labels)
    m = m.double(); kw = {k: v.double() if torch.is_tensor(v) and v.is_floating_point() else v for k, v in kw.items()}
    try:
        ep = torch.export.export(m, (), kw)
        if ir == "core": ep = ep.run_decompositions()
    except Exception as e: return f"| {name} | {'labels' if labels else 'forward'} | {ir} | torch's export fails: {str(e).splitlines()[0][:60]} |"
    nodes = sum(n.op == "call_function" for n in ep.graph.nodes)
    t0 = time.perf_counter()
    try: module = from_torch(ep)
    except Exception as e: return f"| {name} | {'labels' if labels else 'forward'} | {ir} | {nodes} | untranslated: {str(e).splitlines()[1].strip()[:60]} |"
    t1 = time.perf_counter()
    props = []
    for n in (8, 64):
        t = time.perf_counter(); propagate_strategies(module, {}, device_num=n); props.append(time.perf_counter() - t)
    _, args, want = built(name, labels, ir)
    ok = close(evaluate(module, *args), want)
    return (f"| {name} | {'labels' if labels else 'forward'} | {ir} | {nodes} | {len(module.main.body.ops)} | {len(operators(module))} | "
            f"{t1 - t0:.2f} | {props[0]:.2f} | {props[1]:.2f} | {'yes' if ok else 'NO'} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=",".join(MODELS))
    a = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, numpy matmul {machine_speed():.1f} GFLOP/s, torch {torch.__version__}")
    print("| model | call | IR | torch nodes | StableHLO ops | operators | translate s | propagate 8 s | propagate 64 s | = torch |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in a.models.split(","):
        for labels in ((False, True) if name in WITH_LABELS else (False,)):
            for ir in ("default", "core"): print(row(name, labels, ir), flush=True)
    m, kw = gpt2(False, layers=12)
    ep = torch.export.export(m, (), kw)
    t0 = time.perf_counter(); module = from_torch(ep); t1 = time.perf_counter()
    times = []
    for n in (8, 64):
        t = time.perf_counter(); propagate_strategies(module, {}, device_num=n, dataset_strategy="data_parallel" if n == 8 else None); times.append(time.perf_counter() - t)
    print(f"12-layer GPT-2 (width 16): {len(operators(module))} operators, from_torch {t1 - t0:.2f} s, propagate_strategies 8 devices {times[0]:.2f} s, 64 devices {times[1]:.2f} s, total {t1 - t0 + sum(times):.2f} s")


if __name__ == "__main__":
    main()
