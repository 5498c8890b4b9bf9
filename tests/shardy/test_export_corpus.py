"""The export passes on real JAX programs: each pass of jaxlib 0.10.2's `sdy-propagation-pipeline` after propagation, run
by shardnb on jaxlib's own state just before that pass (every program of the JAX corpus), must give what jaxlib's pass
gives -- jaxlib re-prints shardnb's output and the texts are identical. A second test runs the pipeline end to end with
shardnb alone (import, user-priority propagation, export) up to the explicit reshards, against jaxlib's same list."""
import pytest

from shardnb.ir.program import parse_module, print_module
from shardnb.shardy import export as E
from shardnb.shardy.import_passes import import_pipeline, symbol_dce
from shardnb.shardy.propagate import propagate
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a fixture)
from tests.shardy.test_passes_shardy import IMPORT_RUN, shardy   # noqa: F401  (shardy is a fixture)

pytest.importorskip("jax")

PROPAGATE = "sdy-user-priority-propagate{keep-sharding-rules=true}"
# jaxlib's list after propagation (`PassManager.parse("builtin.module(sdy-propagation-pipeline)")` prints it), up to
# the explicit reshards; sdy-save-module only dumps the module
EXPORT = [("sdy-export-named-computations", E.export_named_computations),
          ("sdy-propagate-to-func-results", E.propagate_to_func_results),
          ("sdy-unflatten-call-graph", E.unflatten_call_graph), ("symbol-dce", symbol_dce),
          ("sdy-insert-func-call-reshards", E.insert_func_call_reshards),
          ("func.func(sdy-constant-or-scalar-merger)", E.constant_or_scalar_merger),
          ("func.func(sdy-sink-data-flow-edges)", E.sink_data_flow_edges),
          ("sdy-remove-sharding-groups", E.remove_sharding_groups),
          ("func.func(sdy-sharding-constraint-to-reshard)", E.sharding_constraint_to_reshard),
          ("sdy-update-non-divisible-input-output-shardings", E.update_non_divisible_input_output_shardings),
          ("sdy-remove-sub-axes-in-input-output-shardings", E.remove_sub_axes_in_input_output_shardings),
          ("sdy-close-shardings", E.close_shardings)]


def test_export_list_is_jaxlibs(shardy):
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import passmanager
    with jm.make_ir_context():
        full = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))
    names = [n for n, _ in EXPORT]
    tail = full[full.index("sdy-export-named-computations"):full.index(",sdy-save-module,func.func(sdy-insert-explicit-reshards")]
    tail = tail.replace("{dedup-functions-fully=false}", "").replace("{sink-debug-propagation-edge-sharding=false sink-debug-sharding-origins=false}", "")
    assert tail == ",".join(names)


@pytest.fixture(scope="module")
def states(shardy, jax_corpus):
    "For each pass, every corpus program as jaxlib leaves it just before that pass."
    out, cur = {}, {p: shardy(shardy(jax_corpus[p], IMPORT_RUN), PROPAGATE) for p in CORPUS_NAMES}
    for name, _ in EXPORT + [("func.func(sdy-drop-sharding-rules)", None)]:
        out[name] = cur
        cur = {p: shardy(t, name) for p, t in cur.items()}
    return out


@pytest.mark.parametrize("name", [n for n, _ in EXPORT] + ["func.func(sdy-drop-sharding-rules)"])
def test_each_export_pass_matches_shardy(shardy, states, name):
    fn = dict(EXPORT).get(name, E.drop_sharding_rules)
    differ = [p for p, t in states[name].items() if shardy(print_module(fn(parse_module(t)))) != shardy(t, name)]
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} differ: {differ}"


def test_export_passes_do_something(states):
    "Not vacuous: on real programs the passes change the modules they are given."
    for name in ("sdy-export-named-computations", "sdy-unflatten-call-graph", "func.func(sdy-constant-or-scalar-merger)",
                 "func.func(sdy-sink-data-flow-edges)", "sdy-close-shardings"):
        nxt = [n for n, _ in EXPORT] + ["func.func(sdy-drop-sharding-rules)", None]
        after = states.get(nxt[nxt.index(name) + 1]) if nxt[nxt.index(name) + 1] else None
        if after is None: continue
        assert sum(states[name][p] != after[p] for p in CORPUS_NAMES) >= 3, name


def test_shardnb_alone_up_to_explicit_reshards(shardy, jax_corpus):
    "Import, propagation and export all by shardnb, end to end, against jaxlib running the same list."
    pipeline = IMPORT_RUN + "," + PROPAGATE + "," + ",".join(n for n, _ in EXPORT)
    differ = []
    for p in CORPUS_NAMES:
        m = propagate(import_pipeline(parse_module(jax_corpus[p])), strategy="user-priority", keep_sharding_rules=True)
        for _, fn in EXPORT: m = fn(m)
        if shardy(print_module(m)) != shardy(jax_corpus[p], pipeline): differ.append(p)
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} differ: {differ}"


def test_propagation_pipeline_is_jaxlibs(shardy, jax_corpus):
    "shardnb's whole `propagation_pipeline` against jaxlib's `sdy-propagation-pipeline`, on every corpus program; inputs unchanged."
    from shardnb.shardy.export import propagation_pipeline
    differ = []
    for p in CORPUS_NAMES:
        m = parse_module(jax_corpus[p]); before = print_module(m)
        out = propagation_pipeline(m)
        assert print_module(m) == before, p
        if shardy(print_module(out)) != shardy(jax_corpus[p], "sdy-propagation-pipeline"): differ.append(p)
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} differ: {differ}"


def test_conservative_pipeline(shardy, jax_corpus):
    "jaxlib's pipeline takes no conservative option; its pass list with a conservative propagation is the reference."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import passmanager
    from shardnb.shardy.export import propagation_pipeline
    with jm.make_ir_context():
        full = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))[len("builtin.module("):-1]
    full = full.replace("sdy-save-module,", "").replace(",sdy-save-module", "").replace("conservative-propagation=false", "conservative-propagation=true")
    assert "conservative-propagation=true" in full
    differ = [p for p in CORPUS_NAMES
              if shardy(print_module(propagation_pipeline(parse_module(jax_corpus[p]), conservative=True))) != shardy(jax_corpus[p], full)]
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} differ: {differ}"


def test_dedup_functions_fully_pipeline(shardy, jax_corpus):
    """`propagation_pipeline(dedup_functions_fully=True)` against jaxlib's `sdy-propagation-pipeline{dedup-functions-fully=true}`
    on every corpus program: calls and functions kept, propagation through function data-flow edges."""
    from shardnb.shardy.export import propagation_pipeline
    ref = {p: shardy(jax_corpus[p], "sdy-propagation-pipeline{dedup-functions-fully=true}") for p in CORPUS_NAMES}
    differ = [p for p in CORPUS_NAMES
              if shardy(print_module(propagation_pipeline(parse_module(jax_corpus[p]), dedup_functions_fully=True))) != ref[p]]
    # not vacuous: programs with calls, and programs where the option changes jaxlib's result
    with_calls = sum("call @" in jax_corpus[p] for p in CORPUS_NAMES)
    changed = sum(ref[p] != shardy(jax_corpus[p], "sdy-propagation-pipeline") for p in CORPUS_NAMES)
    print(f"dedup-functions-fully: {len(CORPUS_NAMES)} programs, {with_calls} with calls, {changed} changed by the option, {len(differ)} differ")
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} differ: {differ}"
    assert with_calls >= 10 and changed >= 1


def test_pipeline_output_has_reshards(shardy, jax_corpus):
    "Not vacuous: on real programs the pipeline's result holds reshards (110 of 259 programs with jaxlib 0.10.2)."
    outs = [shardy(jax_corpus[p], "sdy-propagation-pipeline") for p in CORPUS_NAMES]
    assert sum("sdy.reshard" in t for t in outs) >= 10
