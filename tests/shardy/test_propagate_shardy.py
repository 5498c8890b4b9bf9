"""shardnb's propagation against jaxlib's Shardy passes on generated programs: every strategy, conservative or not.

Each program goes through jaxlib's `sdy-{strategy}-propagate` and through `shardnb.shardy.propagate`; jaxlib re-prints
shardnb's output and the two texts must be identical (every op line, so every value's sharding). Programs that
use `stablehlo.optimization_barrier` or `stablehlo.while` run `sdy-add-data-flow-edges` first on both sides."""
import pytest

from shardnb.ir.program import parse_module
from shardnb.shardy.import_passes import add_data_flow_edges
from shardnb.shardy.propagate import propagate, STRATEGIES, is_pure

from tests.shardy.propagate_gen import gen_program
from tests.shardy.propagate_compare import compare, pass_name
from tests.corpus.shardy_runner import ABORTED

pytest.importorskip("jax")

N_PROGRAMS = 90


def flavour(k):
    "Program k's features: plain, densely annotated, or with data-flow edges."
    return [dict(), dict(arg_rate=0.9, op_rate=0.35), dict(edges=True)][k % 3]


def programs(seed):
    return [(gen_program(seed * 1000 + k, **flavour(k)), flavour(k).get("edges", False)) for k in range(N_PROGRAMS)]


def dead_priority_value(text):
    "Whether a pure op that Shardy erases as dead carries a sharding with a priority > 0 (jaxlib 0.10.2 then crashes)."
    m = parse_module(text)
    dead = set()
    ops = [op for op in m.walk()]
    changed = True
    while changed:
        changed = False
        for op in ops:
            if op in dead or not op.results or not is_pure(op): continue
            if all(u in dead for r in op.results for u, _ in r.uses): dead.add(op); changed = True
    return any((r.sharding is not None and any((d.priority or 0) > 0 for d in r.sharding.dims)) for op in dead for r in op.results)


@pytest.mark.parametrize("conservative", [False, True])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_agrees_with_jaxlib(strategy, conservative, seed):
    progs = programs(seed)
    results = []
    for edges in (False, True):
        texts = [t for t, e in progs if e == edges]
        prefix = "sdy-add-data-flow-edges," if edges else ""
        fn = (lambda m: propagate(add_data_flow_edges(m), strategy=strategy, conservative=conservative)) if edges else \
             (lambda m: propagate(m, strategy=strategy, conservative=conservative))
        results += list(zip(texts, compare(texts, fn, prefix + pass_name(strategy, conservative))))
    rejected = [(t, r) for t, r in results if not r["ref_ok"]]
    for t, r in rejected:   # jaxlib refuses no generated program except by crashing on the known case
        assert r["ref"] == ABORTED and strategy == "user-priority" and dead_priority_value(t), (r["ref"][:500], t)
    compared = [(t, r) for t, r in results if r["ref_ok"]]
    differ = [(t, r) for t, r in compared if not r["identical"]]
    assert len(compared) >= 0.8 * len(results)
    assert not differ, f"{len(differ)}/{len(compared)} programs differ; first:\n{differ[0][0]}\n" + \
        "\n".join(f"jaxlib : {a}\nshardnb: {b}" for a, b in differ[0][1]["diffs"][:5])


def test_keep_sharding_rules_agrees_with_jaxlib(seed):
    "As sdy-propagation-pipeline runs it: user-priority with keep-sharding-rules=true, every rule Shardy built left on its op."
    texts = [t for t, e in programs(seed) if not e and not dead_priority_value(t)]
    results = compare(texts, lambda m: propagate(m, keep_sharding_rules=True), "sdy-user-priority-propagate{keep-sharding-rules=true}")
    compared = [r for r in results if r["ref_ok"]]
    assert len(compared) >= 0.8 * len(results)
    assert sum("sdy.sharding_rule" in r["ref"] for r in compared) >= 0.8 * len(compared)   # the rules really are kept
    differ = [r for r in compared if not r["identical"]]
    assert not differ, f"{len(differ)}/{len(compared)} differ:\n" + "\n".join(f"jaxlib : {a}\nshardnb: {b}" for a, b in differ[0]["diffs"][:5])
