"""What XLA emits, predicted: shardnb.shardy.predict against jax's compiled programs over the real-JAX corpus.

  python bench/predict.py [--write-tables bench/tables]
      compiles the corpus with jax on 8 host CPU devices (cached under .pytest_cache, as the tests do), predicts each
      program's collectives and memory from its text, and prints: the share of programs whose every device receives
      the bytes XLA's collectives move, the differences by cause, and the memory estimate's ratio to XLA's
      temporaries. With --write-tables, bench/tables/predict.json (the chapter's figure reads it) and predict.md.
"""
import argparse
import collections
import json
import os
import platform
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write-tables", metavar="DIR", help="write predict.json and predict.md there")
    args = ap.parse_args()
    from tests.corpus.programs import load_corpus
    from tests.shardy.xla_compile import load_compiled
    from tests.shardy.predict_compare import compare_corpus
    corpus, compiled = load_corpus(), load_compiled()
    t0 = time.perf_counter()
    rows = compare_corpus(corpus, compiled)
    seconds = time.perf_counter() - t0
    causes = collections.Counter(r["cause"] for r in rows.values())
    n, eq = len(rows), causes["equal"]
    lines = [f"# Predicted collectives and memory against XLA (jax on 8 host CPU devices)", "",
             f"{len(corpus)} corpus programs, {n} compiled by XLA; predicting all of them took {seconds:.1f} s on "
             f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores).", "",
             f"Equal bytes received on every device: {eq} of {n} ({100 * eq / n:.0f}%).", "",
             "| cause | programs | XLA bytes (busiest device, summed) | shardnb bytes |", "|---|---:|---:|---:|"]
    for cause, k in causes.most_common():
        sel = [r for r in rows.values() if r["cause"] == cause]
        lines.append(f"| {cause} | {k} | {sum(r['xla_bytes'] for r in sel):,} | {sum(r['predicted_bytes'] for r in sel):,} |")
    ratios = sorted(r["estimate_temp"] / r["xla_temp"] for r in rows.values() if r["xla_temp"])
    q = statistics.quantiles(ratios, n=4)
    better = [r for r in rows.values() if r["planner_bytes"] != r["predicted_bytes"]]
    lines += ["", f"Reshards as shardnb's planner plans them instead of XLA's routine (`reshard=\"planner\"`): {len(better)} programs "
              f"differ; there the busiest device receives {sum(r['planner_bytes'] for r in better):,} B against "
              f"{sum(r['predicted_bytes'] for r in better):,} B ({sum(r['planner_bytes'] < r['predicted_bytes'] for r in better)} move less, "
              f"{sum(r['planner_bytes'] > r['predicted_bytes'] for r in better)} more)."]
    lines += ["", f"Arguments' bytes equal XLA's on {sum(r['arguments_equal'] for r in rows.values())} of {n}, outputs' on "
              f"{sum(r['outputs_equal'] for r in rows.values())} of {n}.",
              f"Peak-live estimate / XLA temp_size_in_bytes over {len(ratios)} programs: min {ratios[0]:.2f}, quartiles "
              f"{q[0]:.2f} / {q[1]:.2f} / {q[2]:.2f}, max {ratios[-1]:.2f}.", "",
              "| program | cause | XLA B | shardnb B | planner B | XLA only | shardnb only |", "|---|---|---:|---:|---:|---|---|"]
    for name, r in rows.items():
        if not r["equal"]:
            kinds = lambda ks: ", ".join(f"{k} x{c}" for k, c in sorted(collections.Counter(ks).items()))
            lines.append(f"| {name} | {r['cause']} | {r['xla_bytes']:,} | {r['predicted_bytes']:,} | {r['planner_bytes']:,} | {kinds(r['xla_only'])} | {kinds(r['predicted_only'])} |")
    print("\n".join(lines))
    if args.write_tables:
        os.makedirs(args.write_tables, exist_ok=True)
        keep = ("equal", "cause", "xla_bytes", "predicted_bytes", "planner_bytes", "xla_only", "predicted_only", "estimate_temp", "xla_temp")
        counted = lambda v: dict(collections.Counter(v)) if isinstance(v, list) else v   # unmatched kinds, counted
        table = {"programs": [dict(name=k, **{f: counted(r[f]) for f in keep}) for k, r in rows.items()],
                 "seconds": round(seconds, 2), "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"}
        with open(os.path.join(args.write_tables, "predict.json"), "w") as f: json.dump(table, f, separators=(",", ":"))
        with open(os.path.join(args.write_tables, "predict.md"), "w") as f: f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
