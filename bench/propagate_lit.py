"""Run Shardy's own propagation lit files through jaxlib and through shardnb, and print per-file agreement.

  python bench/propagate_lit.py [DIR [FILE ...]]

DIR defaults to the lit files vendored in tests/shardy/data/propagation_lit (see its README); a Shardy checkout's
shardy/dialect/sdy/transforms/propagation/test works too. Each file is split at `// -----`; its RUN line's passes
run in jaxlib (in a subprocess: a case can abort it) and in shardnb; jaxlib re-prints shardnb's output and the two
texts are compared per function. Cases that jaxlib 0.10.2 rejects (a newer syntax, an expected error) are counted
apart."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tests.shardy.lit_runner import run_file  # noqa: E402


VENDORED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "shardy", "data", "propagation_lit")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else VENDORED
    files = sys.argv[2:] or sorted(f for f in os.listdir(d) if f.endswith(".mlir"))
    verbose = os.environ.get("VERBOSE")
    tot_f = tot_s = 0
    for f in files:
        s = run_file(os.path.join(d, f))
        if "skipped" in s: print(f"{s['file']:<50} skipped: {s['skipped']}"); continue
        tot_f += s["funcs"]; tot_s += s["same"]
        print(f"{s['file']:<50} cases {s['cases']:>3}  jaxlib rejected {s['rejected']:>2}  functions identical {s['same']:>3}/{s['funcs']:<3}")
        for k, name, a, b in s["diffs"]:
            print(f"    differs: case {k} @{name}")
            if verbose:
                for x, y in zip(a.splitlines(), (b or "").splitlines()):
                    if x != y: print("      jaxlib :", x); print("      shardnb:", y)
    print(f"total functions identical: {tot_s}/{tot_f}")


if __name__ == "__main__":
    main()
