"""Every op of the real JAX corpus: shardnb's `sharding_rule` against jaxlib's `sdy-populate-op-sharding-rules`.

For each corpus program, jaxlib runs the pass (default, and with `conservative-propagation=true`) and prints the
module; shardnb reads that text and the original, walks both, and each op's `sdy.sharding_rule` (or its absence)
must equal, character for character, what `sharding_rule(op, conservative)` gives for the op read from the original
(or that it raises `ShardingError`, where Shardy gives the op none). Nothing is normalised: the rule texts are taken
verbatim from jaxlib's printout.

`python tests/shardy/test_rules_corpus.py` prints the agreement per op name.
"""
import collections
import re
import pytest
from shardnb.layout.mesh import ShardingError
from shardnb.ir.program import parse_module
from shardnb.shardy.rules import sharding_rule
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a fixture)

PASS = "builtin.module(func.func(sdy-populate-op-sharding-rules{conservative-propagation=%s}))"
RULE = re.compile(r"sdy\.sharding_rule = (#sdy\.op_sharding_rule<(?:->|[^<>-])*>)")


def populate_runner():
    "A function running Shardy's populate pass on a module text: returns jaxlib's printout."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    def run(text, conservative):
        with ctx:
            m = ir.Module.parse(text)
            passmanager.PassManager.parse(PASS % str(conservative).lower()).run(m.operation)
            return str(m)
    return run


def compare(text: str, shardy_text: str, conservative: bool) -> list:
    "[(op name, Shardy's rule text or None, shardnb's or None)] for every op of `text`, matched to `shardy_text` by position."
    ours, theirs = list(parse_module(text).walk()), list(parse_module(shardy_text).walk())
    assert [o.name for o in ours] == [o.name for o in theirs], "the pass changed the program's ops"
    rows = []
    for op, sop in zip(ours, theirs):
        a = sop.attrs.get("sdy.sharding_rule")
        try: got = str(sharding_rule(op, conservative))
        except ShardingError: got = None
        rows.append((op.name, None if a is None else str(a), got))
    # the rule texts read back are jaxlib's own, verbatim: the same multiset as a regex finds in its printout
    assert sorted(w for _, w, _ in rows if w is not None) == sorted(RULE.findall(shardy_text))
    return rows


@pytest.fixture(scope="module")
def populate():
    pytest.importorskip("jax")
    return populate_runner()


@pytest.mark.parametrize("conservative", [False, True], ids=["default", "conservative"])
@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_rules_match_shardy(jax_corpus, populate, name, conservative):
    text = jax_corpus[name]
    rows = compare(text, populate(text, conservative), conservative)
    bad = [f"{n}\n  shardy:  {w}\n  shardnb: {g}" for n, w, g in rows if w != g]
    assert not bad, f"{len(bad)} of {len(rows)} ops differ:\n" + "\n".join(bad[:10])


def test_corpus_has_the_ops_that_need_rules(jax_corpus, populate):
    "The comparison is not vacuous: the corpus has rules for each family the chapter covers."
    names = collections.Counter()
    for text in jax_corpus.values():
        for n, w, _ in compare(text, populate(text, False), False):
            if w is not None: names[n] += 1
    want = {"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.gather", "stablehlo.scatter",
            "stablehlo.convolution", "stablehlo.reduce_window", "stablehlo.select_and_scatter", "stablehlo.sort",
            "stablehlo.fft", "stablehlo.bitcast_convert", "stablehlo.real", "stablehlo.imag", "stablehlo.complex",
            "stablehlo.all_gather", "stablehlo.all_to_all", "stablehlo.reduce_scatter", "stablehlo.all_reduce",
            "stablehlo.collective_permute", "stablehlo.custom_call", "sdy.sharding_constraint", "stablehlo.concatenate"}
    assert want <= set(names), sorted(want - set(names))
    assert sum(names.values()) >= 3000


if __name__ == "__main__":
    from tests.corpus.programs import load_corpus
    run, corpus = populate_runner(), load_corpus()
    for conservative in (False, True):
        table = collections.defaultdict(lambda: [0, 0, 0])   # op name -> [ops, with a Shardy rule, identical]
        for text in corpus.values():
            for n, w, g in compare(text, run(text, conservative), conservative):
                t = table[n]; t[0] += 1; t[1] += w is not None; t[2] += w == g
        ops, ruled, same = (sum(t[k] for t in table.values()) for k in range(3))
        print(f"{'conservative' if conservative else 'default'}: {len(corpus)} programs, {ops} ops ({ruled} with a Shardy rule), "
              f"{same} identical, {ops - same} differ")
        for n, (a, r, s) in sorted(table.items()):
            if r or s != a: print(f"  {n:36} {a:5} ops {r:5} ruled {s:5} identical")
