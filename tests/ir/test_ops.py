"""The op catalogue's sets, and the attribute readers on every op of the JAX corpus, read from both texts an op can be
written in: as JAX prints it (pretty forms) and as jaxlib prints it in MLIR's generic form (attributes as values)."""
import pytest
from shardnb.ir.ops import OP_TRAITS, attr_int, attr_ints, attr_text, call_target, dense_ints, dot_dims, op_text, ops_with, struct_fields
from shardnb.ir.parser import parse_module
from shardnb.ir.verify import ELEMENTWISE
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a session fixture)

S = lambda names: frozenset("stablehlo." + n for n in names.split())
# What each use reads today; a change to the catalogue that changes one of these changes what that use does.
SAME_SHAPE = S("abs add and atan2 cbrt ceil compare complex convert cosine count_leading_zeros divide exponential "
               "exponential_minus_one floor imag is_finite log log_plus_one logistic maximum minimum multiply negate not or "
               "popcnt power real reduce_precision remainder round_nearest_afz round_nearest_even rsqrt shift_left "
               "shift_right_arithmetic shift_right_logical sign sine sqrt subtract tan tanh xor")


def test_catalogue_sets():
    assert ops_with("elementwise", without=("quantized",)) == SAME_SHAPE
    assert ops_with("broadcasting") == S("select clamp")
    assert ops_with("elementwise", "broadcasting", without=("quantized",)) == SAME_SHAPE | S("select clamp")
    assert ops_with("quantized") == S("uniform_quantize uniform_dequantize") <= ops_with("elementwise")
    assert ELEMENTWISE == SAME_SHAPE | S("clz atan")   # the verifier's: two of its names are no StableHLO op's
    assert all(n.startswith("stablehlo.") and ts for n, ts in OP_TRAITS.items())
    with pytest.raises(ValueError, match="unknown op trait"): ops_with("elementwise", without=("pure",))


# (pretty name, generic name) of each op's integer attributes
INTS = {"stablehlo.broadcast_in_dim": [("dims", "broadcast_dimensions")], "stablehlo.transpose": [("dims", "permutation")],
        "stablehlo.reverse": [("dims", "dimensions")], "stablehlo.reduce": [("dimensions", "dimensions")],
        "stablehlo.concatenate": [("dim", "dimension")], "stablehlo.iota": [("dim", "iota_dimension")],
        "stablehlo.sort": [("dimension", "dimension")], "stablehlo.fft": [("length", "fft_length")],
        "stablehlo.gather": [("slice_sizes", "slice_sizes")],
        "stablehlo.reduce_window": [(k, k) for k in ("window_dimensions", "window_strides", "base_dilations", "window_dilations")],
        "stablehlo.select_and_scatter": [("window_dimensions", "window_dimensions"), ("window_strides", "window_strides")],
        "stablehlo.convolution": [("feature_group_count", "feature_group_count"), ("batch_group_count", "batch_group_count")],
        "stablehlo.all_to_all": [("split_dimension", "split_dimension"), ("concat_dimension", "concat_dimension")]}
ONE = {"stablehlo.concatenate": ("dim", "dimension"), "stablehlo.iota": ("dim", "iota_dimension"), "stablehlo.sort": ("dimension", "dimension")}


@pytest.fixture(scope="module")
def generic_printer():
    pytest.importorskip("jax")
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    ctx = jm.make_ir_context()
    def run(text):
        with ctx: return ir.Module.parse(text).operation.get_asm(print_generic_op_form=True)
    return run


def _ops(m):
    "Every op, but not inside a reduce: its pretty form `applies stablehlo.add` has no body, its generic form has one."
    def walk(ops):
        for op in ops:
            yield op
            if op.name != "stablehlo.reduce":
                for b in op.regions: yield from walk(b.ops)
    return [op for f in m.funcs.values() for op in walk(f.body.ops)]


def _read(op):
    "Everything the readers give for `op` (an error as its message)."
    def attempt(f, *a):
        try: return f(*a)
        except ValueError as e: return f"error: {e}"
    out = [attempt(attr_ints, op, *k) for k in INTS.get(op.name, ())]
    if op.name in ONE: out.append(attempt(attr_int, op, *ONE[op.name]))
    if op.name == "stablehlo.dot_general": out.append(dot_dims(op))
    if op.name == "stablehlo.reduce_window":   # its padding: a pair per operand dim
        rank = op.operands[0].type.rank
        out.append(dense_ints(attr_text(op, "padding"), 2 * rank) or attempt(attr_ints, op, "pad", "padding"))
    if op.name in ("stablehlo.gather", "stablehlo.scatter", "stablehlo.dynamic_gather"):
        out.append(struct_fields(attr_text(op, "dimension_numbers") or attr_text(op, "scatter_dimension_numbers") or op_text(op)))
    if op.name == "stablehlo.custom_call": out.append(attempt(call_target, op))
    return out


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_readers_read_both_forms_alike(jax_corpus, generic_printer, name):
    text = jax_corpus[name]
    pretty, generic = _ops(parse_module(text)), _ops(parse_module(generic_printer(text)))
    assert [op.name for op in pretty] == [op.name for op in generic]
    for a, b in zip(pretty, generic):
        read = _read(a)
        assert read == _read(b), (a.name, read, _read(b))
        assert not any(isinstance(x, str) and x.startswith("error") for x in read), (a.name, read)
        if a.name in INTS and a.name != "stablehlo.reduce_window": assert read[0] is not None, a.name   # the attribute was found
