"""Shardy's debug record of propagation (`sdy.sharding_origins`, `sdy.propagation_edges`) against jaxlib 0.10.2.

jaxlib runs `sdy-add-data-flow-edges`, `sdy-apply-sharding-constraints`, `sdy-{strategy}-propagate` and
`sdy-sink-data-flow-edges` with the debug options; shardnb runs the same passes with the matching flags; jaxlib re-prints
shardnb's result and the two texts must be identical. On Shardy's two debugging lit files, on generated programs under
every strategy (both debug options at once), and on the JAX corpus (propagation of the imported programs).

jaxlib 0.10.2 aborts (or fails its own verifier: an edge's `sdy.propagation_edges` naming operands the edge does not have)
on many generated programs when the debug options are on; those are counted, printed and left out."""
import re
from pathlib import Path

import pytest

from shardnb.ir.program import parse_module, print_module
from shardnb.shardy import import_passes
from shardnb.shardy.debug import apply_sharding_constraints_recorded
from shardnb.shardy.propagate import propagate, sink_data_flow_edges, STRATEGIES
from tests.corpus.shardy_runner import run_in_subprocess
from tests.shardy.propagate_gen import gen_program
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a fixture)
from tests.shardy.test_passes_shardy import IMPORT_RUN

pytest.importorskip("jax")

LIT = Path(__file__).parent / "data" / "debugging_lit"
BOTH = "debug-sharding-origins=true debug-propagation-edge-sharding=true"
SINK_BOTH = "sink-debug-sharding-origins=true sink-debug-propagation-edge-sharding=true"
N_PROGRAMS = 60


def jaxlib_pipeline(strategy, opts, sink_opts):
    return (f"sdy-add-data-flow-edges,sdy-apply-sharding-constraints{{{opts}}},sdy-{strategy}-propagate{{{opts}}},"
            f"func.func(sdy-sink-data-flow-edges{{{sink_opts}}})")


def ours(text, strategy, origins, edges):
    m = import_passes.add_data_flow_edges(parse_module(text))
    m = apply_sharding_constraints_recorded(m, debug_sharding_origins=origins, debug_propagation_edge_sharding=edges)
    m = propagate(m, strategy=strategy, debug_sharding_origins=origins, debug_propagation_edge_sharding=edges)
    m = sink_data_flow_edges(m, sink_debug_sharding_origins=origins, sink_debug_propagation_edge_sharding=edges)
    return print_module(m)


def compare(texts, pipeline, fn):
    "(jaxlib's text or None where it refused or aborted, shardnb's text as jaxlib re-prints it) per program."
    ref = run_in_subprocess([[t, pipeline] for t in texts])
    inputs = run_in_subprocess([[t, ""] for t in texts])   # shardnb reads jaxlib's re-print, as the lit runner does
    mine = [fn(ci if iok else t) for t, (iok, ci) in zip(texts, inputs)]
    canon = run_in_subprocess([[x, ""] for x in mine])
    return [(r if rok else None, c if cok else f"jaxlib refuses shardnb's output: {c}") for (rok, r), (cok, c) in zip(ref, canon)]


UNDEFINED = '": 0"'   # an origin Shardy's lookup cannot find: jaxlib's release build reads past `llvm_unreachable`


def _origin_values(line):
    return re.sub(r'(= )"[^"]*"', r'\1"?"', line)


def same(a, b):
    """Whether jaxlib's text `a` and shardnb's `b` are identical, except that on a line where shardnb records an origin
    Shardy cannot find (`": 0"`), jaxlib's undefined read may print any origin: there the origin names are not compared."""
    if a == b: return True
    la, lb = a.splitlines(), b.splitlines()
    return len(la) == len(lb) and all(x == y or (UNDEFINED in y and _origin_values(x) == _origin_values(y)) for x, y in zip(la, lb))


def first_difference(a, b):
    return next(((x, y) for x, y in zip(a.splitlines(), b.splitlines()) if x != y), (a[-300:], b[-300:]))


@pytest.mark.parametrize("name, origins, edges", [("sharding_origins.mlir", True, False), ("edge_shardings.mlir", False, True)])
def test_lit_file_matches_jaxlib(name, origins, edges):
    opt = "debug-sharding-origins=true" if origins else "debug-propagation-edge-sharding=true"
    cases = (LIT / name).read_text().split("// -----")
    results = compare(cases, jaxlib_pipeline("aggressive", opt, "sink-" + opt), lambda t: ours(t, "aggressive", origins, edges))
    assert all(r is not None for r, _ in results), "jaxlib refuses a case of Shardy's own lit file"
    differ = [(k, first_difference(r, o)) for k, (r, o) in enumerate(results) if r != o]
    print(f"{name}: {len(cases) - len(differ)} of {len(cases)} cases identical")
    assert not differ, f"{len(differ)} cases differ; first: {differ[0]}"
    key = "sdy.sharding_origins" if origins else "sdy.propagation_edges"
    assert sum(key in r for r, _ in results) == len(cases)   # not vacuous: every case writes the record


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_generated_programs_match_jaxlib(strategy, seed):
    flavours = [dict(), dict(arg_rate=0.9, op_rate=0.35), dict(edges=True)]
    texts = [gen_program(seed * 1000 + k, **flavours[k % 3]) for k in range(N_PROGRAMS)]
    results = compare(texts, jaxlib_pipeline(strategy, BOTH, SINK_BOTH), lambda t: ours(t, strategy, True, True))
    compared = [(r, o) for r, o in results if r is not None]
    differ = [first_difference(r, o) for r, o in compared if not same(r, o)]
    undefined = sum(UNDEFINED in o for _, o in compared)
    recorded = sum("sdy.sharding_origins" in r and "sdy.propagation_edges" in r for r, _ in compared)
    print(f"{strategy}: {len(compared)} of {len(texts)} programs run through jaxlib (it aborts or refuses the rest), "
          f"{len(compared) - len(differ)} identical, {recorded} with both records, {undefined} with an origin Shardy cannot find")
    assert len(compared) >= len(texts) // 3, f"jaxlib ran only {len(compared)} of {len(texts)}"
    assert recorded >= len(compared) // 2
    assert not differ, f"{len(differ)} of {len(compared)} differ; first: {differ[0]}"


@pytest.mark.corpus
def test_corpus_matches_jaxlib(jax_corpus):
    imported = run_in_subprocess([[jax_corpus[p], IMPORT_RUN] for p in CORPUS_NAMES])
    texts = [t for ok, t in imported if ok]
    fn = lambda t: print_module(propagate(parse_module(t), debug_sharding_origins=True, debug_propagation_edge_sharding=True))
    results = compare(texts, f"sdy-user-priority-propagate{{{BOTH}}}", fn)
    compared = [(r, o) for r, o in results if r is not None]
    differ = [first_difference(r, o) for r, o in compared if not same(r, o)]
    print(f"corpus: {len(compared)} of {len(texts)} programs run through jaxlib, {len(compared) - len(differ)} identical, "
          f"{sum('sdy.sharding_origins' in r for r, _ in compared)} with origins")
    assert len(compared) >= len(texts) // 2
    assert not differ, f"{len(differ)} of {len(compared)} differ; first: {differ[0]}"
