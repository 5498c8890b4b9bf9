"""The import passes on real JAX programs: every program of the JAX corpus (`tests/corpus/programs.py`), each pass alone and
the whole import pipeline, against jaxlib 0.10.2 -- jaxlib re-prints shardnb's output and the texts must be identical,
nothing normalised away (sharding rules, `stablehlo.mesh`, constant clones of `@tril` with `sdy.original_func_name`,
named computations and their data-flow edges)."""
import pytest

from shardnb.ir.program import parse_module, print_module
from shardnb.shardy import import_passes as P
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a fixture)
from tests.shardy.test_passes_shardy import IMPORT_RUN, PASSES, shardy   # noqa: F401  (shardy is a fixture)

pytest.importorskip("jax")


@pytest.mark.parametrize("name", ["import-pipeline"] + list(PASSES))
def test_corpus_matches_shardy(shardy, jax_corpus, name):
    pipeline, fn = (IMPORT_RUN, P.import_pipeline) if name == "import-pipeline" else (name, PASSES[name])
    differ = []
    for prog in CORPUS_NAMES:
        text = jax_corpus[prog]
        theirs = shardy(text, pipeline)
        ours = shardy(print_module(fn(parse_module(text))))
        if ours != theirs: differ.append(prog)
    assert not differ, f"{len(differ)} of {len(CORPUS_NAMES)} programs differ: {differ}"


def test_corpus_exercises_the_passes(shardy, jax_corpus):
    "The comparison is not vacuous: on real programs the pipeline really imports calls, splits constants and applies constraints."
    after = {p: shardy(jax_corpus[p], IMPORT_RUN) for p in CORPUS_NAMES}
    split = [shardy(jax_corpus[p], "sdy-constant-or-scalar-splitter") for p in CORPUS_NAMES]
    assert sum("sdy.original_func_name" in t for t in split) >= 2   # constant functions (tril masks) cloned
    for what in ("sdy.named_computation", "sdy.data_flow_edge", "sdy.sharding_rule",
                 "stablehlo.mesh", "sdy.constant", "sdy.manual_computation"):
        assert sum(what in t for t in after.values()) >= 2, what
