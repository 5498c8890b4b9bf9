"""Where a value's sharding lives: `get_sharding` and `set_sharding` on every value of the JAX corpus, as JAX lowers
it and after the import passes have put data-flow edges in."""
import pytest
from shardnb.ir.core import get_sharding, set_sharding, shardable_value, print_module
from shardnb.ir.parser import parse_module
from shardnb.shardy.import_passes import import_pipeline
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a session fixture)


def _values(m):
    for f in m.funcs.values():
        yield from f.args
        for op in f.walk():
            yield from op.results
            for b in op.regions: yield from b.args


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_set_what_get_gives_changes_nothing(jax_corpus, name):
    "Reading a sharding and writing it back leaves the program as it was, wherever it lives (manual axes included)."
    for m in (parse_module(jax_corpus[name]), import_pipeline(parse_module(jax_corpus[name]))):
        text = print_module(m)
        for v in list(_values(m)):
            s = get_sharding(v)
            w = shardable_value(v)
            assert s == (get_sharding(w) if w is not None else None)
            if s is not None: set_sharding(v, s)
        assert print_module(m) == text
