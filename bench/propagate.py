"""Propagation benchmarks.

  python bench/propagate.py agreement [--programs N] [--seed S]
      shardnb.propagate vs jaxlib's sdy-*-propagate on generated programs: the agreement table per strategy,
      conservative and not (programs identical after jaxlib re-prints shardnb's output; op lines identical).
  python bench/propagate.py speed [--sizes 1000,5000,10000,50000] [--strategy S]
      a stack of transformer blocks as JAX lowers them, timed with shardnb and with jaxlib's pass in one run.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def agreement(n, seed):
    from shardnb.passes import add_data_flow_edges
    from shardnb.propagate import propagate, STRATEGIES
    from tests.propagate_gen import gen_program
    from tests.propagate_compare import compare, pass_name
    from tests.test_propagate_shardy import flavour, dead_priority_value
    progs = [(gen_program(seed * 100000 + k, **flavour(k)), flavour(k).get("edges", False)) for k in range(n)]
    print(f"{n} generated programs (seed {seed}): a third plain, a third densely annotated, a third with while/optimization_barrier")
    print(f"{'strategy':<14} {'conservative':<12} {'compared':>8} {'identical':>9} {'op lines identical':>20} {'jaxlib crashed':>15}")
    for strategy in STRATEGIES:
        for cons in (False, True):
            res = []
            for edges in (False, True):
                texts = [t for t, e in progs if e == edges]
                fn = (lambda m: propagate(add_data_flow_edges(m), strategy=strategy, conservative=cons)) if edges else \
                     (lambda m: propagate(m, strategy=strategy, conservative=cons))
                res += list(zip(texts, compare(texts, fn, ("sdy-add-data-flow-edges," if edges else "") + pass_name(strategy, cons))))
            ok = [(t, r) for t, r in res if r["ref_ok"]]
            same = sum(r["identical"] for _, r in ok)
            lines = sum(r["lines"] for _, r in ok); dl = sum(r["diff"] for _, r in ok)
            crashed = [t for t, r in res if not r["ref_ok"]]
            explained = sum(dead_priority_value(t) for t in crashed)
            print(f"{strategy:<14} {str(cons):<12} {len(ok):>8} {same:>4} ({100 * same / max(1, len(ok)):5.1f}%) {lines - dl:>7}/{lines:<7} ({100 * (lines - dl) / max(1, lines):5.1f}%) {len(crashed):>6} ({explained} dead p>0)")
            for t, r in ok:
                if not r["identical"]:
                    print("  differs:", t.replace("\n", " ")[:200]); print("   ", r["diffs"][:2])


def speed(sizes, strategy):
    raise SystemExit("not yet")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["agreement", "speed"])
    ap.add_argument("--programs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", default="1000,5000,10000,50000")
    ap.add_argument("--strategy", default="user-priority")
    a = ap.parse_args()
    if a.what == "agreement": agreement(a.programs, a.seed)
    else: speed([int(x) for x in a.sizes.split(",")], a.strategy)


if __name__ == "__main__":
    main()
