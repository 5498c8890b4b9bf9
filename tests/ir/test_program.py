"Round trip, fuzzing and bad input for the program IR's text form."
import random, re, sys, os
import pytest
from hypothesis import given, settings, strategies as st
from shardnb.ir.program import parse_module, print_module, verify_module, check_module, ProgramSyntaxError, ProgramError
from shardnb.layout.mesh import ShardingError
from shardnb.layout.syntax import ShardingSyntaxError

sys.path.insert(0, os.path.dirname(__file__))
from tests.shardy.test_passes_shardy import gen_program   # noqa: E402  (the generator needs no jax)

@pytest.mark.parametrize("seed", range(40))
def test_generated_round_trip(seed):
    m = parse_module(gen_program(seed))
    text = print_module(m)
    m2 = parse_module(text)
    assert m2 == m and print_module(m2) == text

@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_mutated_text_never_crashes(seed, data):
    text = gen_program(seed)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i, min(len(text), i + 8)))
    junk = data.draw(st.sampled_from(["", "{", "}", "(", ")", "<", ">", "%", "#", '"', ":", ",", "=", "@", "x", "0", "\n"]))
    bad = text[:i] + junk + text[j:]
    try: verify_module(parse_module(bad))
    except (ShardingSyntaxError, ShardingError) as e:
        assert isinstance(e, ValueError)
        first = e
    else: first = None
    errors = check_module(bad)   # never raises: every error, the first the same as verify_module's
    assert all(isinstance(x, ValueError) for x in errors)
    assert (first is None) == (errors == [])
    if first is not None and not isinstance(first, ShardingSyntaxError):
        assert errors[0].message.startswith(str(first)) or str(first) in str(errors[0])
    for x in errors:   # located errors point inside the text
        if getattr(x, "line", None) is not None: assert 1 <= x.line <= bad.count("\n") + 1

@pytest.mark.parametrize("text,msg", [
    ("func.func @main() {\n  %0 = stablehlo.add %x, %x : tensor<f32>\n  return\n}", "use of undefined value '%x' (line 2"),
    ("func.func @main() {\n  return", "expected '}' to close the region"),
    ('func.func @main(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {\n  return\n}', None),
    ("func.func @main(%a: tensor<4xf32>) {\n  %a = stablehlo.tanh %a : tensor<4xf32>\n  return\n}", "redefinition of SSA value '%a'"),
    ("func.func @main(%a: tensor<4xf32>) {\n  %b:2 = stablehlo.tanh %a : tensor<4xf32>\n  return %b : tensor<4xf32>\n}", "'%b' has 2 results"),
    ('func.func @main() {\n  %0 = "x.y"( : () -> ()\n}', "expected an SSA value"),
    ("\x00", "unexpected character"),
    # a fuzzed corpus program (seed 3359986085): a select's operands cut to `@14` parsed as an op with no operands,
    # then crashed the printer; jaxlib refuses both the symbol and a select without its three operands
    ("func.func @main(%p: tensor<8xi1>) -> tensor<8xf32> {\n  %0 = stablehlo.select @14 : tensor<8xi1>, tensor<8xf32>\n  return %0 : tensor<8xf32>\n}",
     "@ identifier expected to start with letter or '_' (line 2, column 25)"),
    ("func.func @main(%p: tensor<8xi1>, %a: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.select %p, %a : tensor<8xi1>, tensor<8xf32>\n  return %0 : tensor<8xf32>\n}",
     "custom op 'stablehlo.select' number of operands and types do not match: got 2 operands and 3 types (line 2"),
])
def test_bad_text(text, msg):
    with pytest.raises((ProgramSyntaxError, ProgramError)) as e:
        verify_module(parse_module(text))
    if msg: assert msg in str(e.value)

def test_deep_nesting_does_not_crash():
    text = "func.func @main() {\n" + '%0 = "a.b"() ({\n' * 3000 + "\n"
    with pytest.raises(ProgramSyntaxError): parse_module(text)

def test_jax_lowering_round_trips_through_shardy():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    def f(a, b):
        c = jnp.tanh(a @ b) + 1.0
        return jnp.sum(c, axis=0), c.reshape(-1), jax.lax.optimization_barrier(c)
    text = jax.jit(f).lower(jnp.ones((8, 8)), jnp.ones((8, 16))).as_text(debug_info=True)
    ours = print_module(parse_module(text))
    with jm.make_ir_context():
        assert str(ir.Module.parse(ours)) == str(ir.Module.parse(text))


# ---------------------------------------------------------------- real programs: the JAX corpus
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: E402,F401  (jax_corpus is a session fixture)
import shardnb.ir.api   # noqa: E402,F401  (registers the sdy ops' verifiers: the corpus must pass them too)


def _jaxlib_prints(text):
    "jaxlib's pretty and generic print of `text` (locations left out)."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    with jm.make_ir_context():
        m = ir.Module.parse(text)
        return (m.operation.get_asm(enable_debug_info=False), m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False))


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_round_trips_through_jaxlib(jax_corpus, name):
    # what shardnb prints, jaxlib reads and prints exactly as it prints JAX's own text, in both forms
    text = jax_corpus[name]
    m = parse_module(text)
    ours = print_module(m)
    assert _jaxlib_prints(ours) == _jaxlib_prints(text)
    again = parse_module(ours)
    assert again == m and print_module(again) == ours


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_in_generic_form_round_trips_through_jaxlib(jax_corpus, name):
    # the same program as jaxlib prints it generically ("builtin.module"() ({...}), "func.func"() <{...}>, ...)
    text = jax_corpus[name]
    pretty, generic = _jaxlib_prints(text)
    m = parse_module(generic)
    assert _jaxlib_prints(print_module(m)) == (pretty, generic)
    # the same functions, top-level ops and shardings (a pretty `reduce ... applies` has no region to walk)
    top = lambda m: [(op.name, [str(r.sharding) for r in op.results]) for f in m.funcs.values() for op in f.body.ops]
    args = lambda m: [(str(v.type), str(v.sharding)) for f in m.funcs.values() for v in f.args]
    pm = parse_module(text)
    assert list(m.funcs) == list(pm.funcs) and top(m) == top(pm) and args(m) == args(pm)
    assert check_module(generic) == []


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_passes_check_module(jax_corpus, name):
    assert check_module(jax_corpus[name]) == []


# ---------------------------------------------------------------- each defect seen on real programs, as minimal text
def _round_trip_via_jaxlib(text):
    pytest.importorskip("jax")
    ours = print_module(parse_module(text))
    assert _jaxlib_prints(ours) == _jaxlib_prints(text)
    assert check_module(text) == []
    return ours

FN = "func.func @main({args}) -> {res} {{\n{body}\n}}"

def test_select_short_form():
    ours = _round_trip_via_jaxlib(FN.format(args="%p: tensor<8x8xi1>, %a: tensor<8x8xf32>", res="tensor<8x8xf32>",
        body="  %0 = stablehlo.select %p, %a, %a : tensor<8x8xi1>, tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>"))
    assert "stablehlo.select %p, %a, %a : tensor<8x8xi1>, tensor<8x8xf32>" in ours

def test_chlo_arrow_types_and_top_k():
    ours = _round_trip_via_jaxlib(FN.format(args="%x: tensor<16x32xf32>", res="(tensor<16x32xf32>, tensor<16x4xf32>, tensor<16x4xi32>)",
        body="  %0 = chlo.square %x : tensor<16x32xf32> -> tensor<16x32xf32>\n  %1 = chlo.erf_inv %0 : tensor<16x32xf32> -> tensor<16x32xf32>\n"
             "  %v, %i = chlo.top_k(%1, k = 4) : tensor<16x32xf32> -> (tensor<16x4xf32>, tensor<16x4xi32>)\n"
             "  return %1, %v, %i : tensor<16x32xf32>, tensor<16x4xf32>, tensor<16x4xi32>"))
    assert "chlo.top_k(%1, k = 4) : tensor<16x32xf32> -> (tensor<16x4xf32>, tensor<16x4xi32>)" in ours

def test_locations_in_region_signatures():
    _round_trip_via_jaxlib(FN.format(args="%x: tensor<8x16xf32>, %i: tensor<8x16xi32>", res="(tensor<8xf32>, tensor<8xi32>)", body=
        "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %0:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)\n"
        '    reducer(%a: tensor<f32> loc("a.py":1:2), %b: tensor<f32> loc("a.py":1:3)) (%c2: tensor<i32> loc("a.py":1:4), %d: tensor<i32> loc("a.py":1:5)) {\n'
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n    %n = stablehlo.maximum %c2, %d : tensor<i32>\n    stablehlo.return %m, %n : tensor<f32>, tensor<i32>\n  }\n"
        "  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>"))

def test_variadic_reduce_operands_are_inputs_then_inits():
    text = FN.format(args="%x: tensor<8x16xf32>, %i: tensor<8x16xi32>", res="(tensor<8xf32>, tensor<8xi32>)", body=
        "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %0:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)\n"
        "    reducer(%a: tensor<f32>, %b: tensor<f32>) (%c2: tensor<i32>, %d: tensor<i32>) {\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n    %n = stablehlo.maximum %c2, %d : tensor<i32>\n    stablehlo.return %m, %n : tensor<f32>, tensor<i32>\n  }\n"
        "  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>")
    red = next(op for op in parse_module(text).walk() if op.name == "stablehlo.reduce")
    assert [str(v.type) for v in red.operands] == ["tensor<8x16xf32>", "tensor<8x16xi32>", "tensor<f32>", "tensor<i32>"]
    assert "(%x init: %c), (%i init: %z)" in print_module(parse_module(text))
    _round_trip_via_jaxlib(text)

def test_call_inside_a_region_is_func_call():
    text = ("func.func private @f(%a: tensor<i32>) -> tensor<i32> {\n  return %a : tensor<i32>\n}\n" + FN.format(args="%x: tensor<i32>", res="tensor<i32>", body=
        "  %0 = stablehlo.while(%it = %x) : tensor<i32>\n  cond {\n    %c = stablehlo.compare LT, %it, %it : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n  } do {\n    %1 = func.call @f(%it) : (tensor<i32>) -> tensor<i32>\n    stablehlo.return %1 : tensor<i32>\n  }\n"
        "  %2 = call @f(%0) : (tensor<i32>) -> tensor<i32>\n  return %2 : tensor<i32>"))
    ours = _round_trip_via_jaxlib(text)
    assert "%1 = func.call @f(%it)" in ours and "= call @f(%0)" in ours

def test_convolution_window_stays_in_place():
    ours = _round_trip_via_jaxlib(FN.format(args="%x: tensor<8x3x6xf32>, %k: tensor<4x3x3xf32>", res="tensor<8x4x6xf32>", body=
        "  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[1, 1]], rhs_dilate = [1]} "
        "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x3x6xf32>, tensor<4x3x3xf32>) -> tensor<8x4x6xf32>\n  return %0 : tensor<8x4x6xf32>"))
    assert ours.count("window = {") == 1 and ours.count("pad = [[1, 1]]") == 1

def test_quoted_symbols():
    text = ('func.func private @"<lambda>"(%a: tensor<i32>) -> tensor<i32> {\n  return %a : tensor<i32>\n}\n'
            + FN.format(args="%x: tensor<i32>", res="tensor<i32>", body='  %0 = call @"<lambda>"(%x) : (tensor<i32>) -> tensor<i32>\n  return %0 : tensor<i32>'))
    ours = _round_trip_via_jaxlib(text)
    assert '@"<lambda>"(' in ours and "<lambda>" in parse_module(text).funcs

def test_complex_element_types():
    from shardnb.ir.program import TensorType, parse_type
    assert parse_type("tensor<8x17xcomplex<f32>>") == TensorType((8, 17), "complex<f32>")
    _round_trip_via_jaxlib(FN.format(args="%x: tensor<8x17xf32>", res="tensor<8x17xcomplex<f32>>", body=
        "  %0 = stablehlo.complex %x, %x : tensor<8x17xcomplex<f32>>\n  %1 = stablehlo.fft %0, type =  FFT, length = [17] : (tensor<8x17xcomplex<f32>>) -> tensor<8x17xcomplex<f32>>\n"
        "  return %1 : tensor<8x17xcomplex<f32>>"))

COLLECTIVES = '''module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @maximal = <[], device_ids=[0]>
  func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<16x8xf32> {
    %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %1 = sdy.all_slice [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %2 = sdy.all_to_all [{"x"}: 0->1] %1 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x8xf32>
    %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{}, {"x", "y"}]> {foo = 1 : i64} : tensor<16x8xf32>
    %4 = sdy.reduce_scatter [{"y"}, {}] %0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
    %5 = sdy.all_reduce {"y":(2)2} %arg1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
    %6 = sdy.named_computation<"foo">(%4, %5) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] (%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) {
      %7 = stablehlo.add %a, %b : tensor<16x8xf32>
      sdy.return %7 : tensor<16x8xf32>
    } : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %8 = sdy.named_computation<"bar">(%6) (%a: tensor<16x8xf32>) {
      sdy.return %a : tensor<16x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    stablehlo.custom_call @cb(%8) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<16x8xf32>) -> ()
    return %3 : tensor<16x8xf32>
  }
}
'''

def test_shardy_collectives_named_computation_and_zero_result_sharding():
    _round_trip_via_jaxlib(COLLECTIVES)
    ops = {op.name: op for op in parse_module(COLLECTIVES).walk()}
    assert str(ops["sdy.all_gather"].attrs["gathering_axes"]) == '[{}, {"y"}]'
    assert ops["sdy.all_reduce"].attrs["out_sharding"].body() == '<@mesh, [{}, {"x"}]>'
    assert ops["sdy.named_computation"].attrs["name"] == "bar"
    assert ops["stablehlo.custom_call"].attrs["sdy.sharding"][0].body() == "<@maximal, []>"


# ---------------------------------------------------------------- issue 11: text that printed but did not parse back; crashes
@pytest.mark.parametrize("text,msg", [
    ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n  return : tensor<8xf32>\n}", "func.return has 0 operands but its type lists 1"),
    ("func.func @f(%a: tensor<4xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.while(%i = %a) : tensor<8xf32>\n  cond {\n"
     "    %c = stablehlo.constant dense<true> : tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  } do {\n    stablehlo.return %i : tensor<8xf32>\n  }\n"
     "  return %0 : tensor<8xf32>\n}", "use of value '%a' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<4xf32>' (line 2, column 29)"),
    ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<8xf32>, tensor<8xf32>\n"
     "  %1 = stablehlo.add %0#0x, %a : tensor<8xf32>\n  return %1 : tensor<8xf32>\n}", "expected a result number after '#' in '%0#0x' (line 3, column 22)"),
    ("func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
     "(tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>\n}", "'tensor<8x8xf32>' vs 'tensor<4x8xf32>' (line 2, column 30)"),
    ("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}", "'tensor<8xf32>' vs 'tensor<4xf32>'"),
    ("func.func @f(%a: tensor<9223372036854775808x8xf32>) {\n  return\n}", "is above 2**63 - 1 (line 1, column 18)"),
    ("func.func @f(%a: tensor<\u0663x8xf32>) {\n  return\n}", "malformed tensor type"),
    ("func.func @f(%a: tensor<8xf32>) {\n  %0:" + "9" * 5000 + " = stablehlo.tanh %a : tensor<8xf32>\n  return\n}", "result count 99999"),
    ("func.func @f(%a: tensor<8xf32>) {\n  %0 = stablehlo.tanh %a#" + "9" * 5000 + " : tensor<8xf32>\n  return\n}", "result number 99999"),
    ("func.func @f(%a: tensor<" + "9" * 5000 + "xf32>) {\n  return\n}", "is above 2**63 - 1"),
    ("func.func @f(%a: tensor<8xf32>) {\n  sdy.sharding_group %a group_id=" + "9" * 5000 + " : tensor<8xf32>\n  return\n}", "group id 9999"),
])
def test_issue11_bad_text_is_an_error_not_a_crash(text, msg):
    errors = check_module(text)   # returns, never raises
    assert errors and msg in str(errors[0]), errors
    with pytest.raises(ProgramSyntaxError): parse_module(text)


@pytest.mark.parametrize("text,msg,col", [
    ("", "expected a module", 1),
    ("// only a comment\n", "expected a module", 1),
    ("hello world", "expected an operation (dialect.op or \"dialect.op\"(...)), found 'hello'", 1),
    ("def f(x):\n    return x + 1\n", "found 'def'", 1),
    ("import numpy as np\n", "found 'import'", 1),
    ("module { foo.bar 0 }", "unknown operation 'foo.bar'", 10),
    ("module {\n  return\n}", "'return' is func.return only in a function body", 3),
])
def test_garbage_is_not_a_module(text, msg, col):
    errors = check_module(text)
    assert len(errors) == 1 and msg in errors[0].message and errors[0].column == col, errors


def test_generic_unknown_ops_still_parse():
    assert check_module('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}') == []


# ---------------------------------------------------------------- check_module: result types and located errors
from shardnb.ir.verify import _RESULT_TYPES   # noqa: E402
from shardnb.ir.core import TensorType   # noqa: E402

def _mutations(text, rng, n=3):
    """Up to `n` (line, mutated text, op name): one op of a kind check_module knows, its result given a wrong type in
    the IR and the module printed again (so every use agrees with the wrong type, and only the op itself is wrong)."""
    m = parse_module(text)
    ops = list(m.walk())
    cands = [k for k, op in enumerate(ops) if op.name in _RESULT_TYPES and op.results and isinstance(op.results[0].type, TensorType)
             and all(d > 0 for d in op.results[0].type.shape)]
    out = []
    for k in rng.sample(cands, min(n, len(cands))):
        m = parse_module(text); op = list(m.walk())[k]
        t = op.results[0].type
        # a size-1 or scalar operand broadcasts to any shape: there, change the element type
        op.results[0].type = TensorType(t.shape, "i8" if t.dtype != "i8" else "f32") if op.name == "stablehlo.broadcast_in_dim" else TensorType((3,) + t.shape, t.dtype)
        bad = print_module(m)
        pos = list(parse_module(bad).walk())[k].pos
        out.append((bad.count("\n", 0, pos) + 1, bad, op.name))
    return out

@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_mutated_result_type_is_rejected_at_the_op(jax_corpus, name, seed):
    rng = random.Random(f"{seed}-{name}")
    for line, bad, opname in _mutations(jax_corpus[name], rng):
        errors = check_module(bad)
        at_op = [e for e in errors if e.line == line and e.message.startswith(opname + ":")]
        assert at_op, f"{opname} on line {line} with a wrong result type: {[str(e).splitlines()[0] for e in errors]}"
        assert at_op[0].column == len(bad.split("\n")[line - 1]) - len(bad.split("\n")[line - 1].lstrip()) + 1


NEG = "func.func @main(%a: tensor<8xf32>) -> tensor<4xf32> {{\n  %0 = {op}\n  return %0 : tensor<4xf32>\n}}"

@pytest.mark.parametrize("body,msg", [
    ("stablehlo.negate %a : (tensor<8xf32>) -> tensor<4xf32>", "stablehlo.negate: result 0 is declared tensor<4xf32>, but the op gives tensor<8xf32>"),
    ("stablehlo.reshape %a : (tensor<8xf32>) -> tensor<4xf32>", "has 8 elements but the declared result tensor<4xf32> has 4"),
    ("stablehlo.slice %a [0:8:2] : (tensor<8xf32>) -> tensor<4xf32>", None),
    ("stablehlo.slice %a [0:6] : (tensor<8xf32>) -> tensor<4xf32>", "the op gives tensor<6xf32>"),
    ("stablehlo.concatenate %a, %a, dim = 0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<4xf32>", "the op gives tensor<16xf32>"),
    ("stablehlo.convert %a : (tensor<8xf32>) -> tensor<4xf32>", "the op gives tensor<8xf32>"),
    ("stablehlo.transpose %a, dims = [0] : (tensor<8xf32>) -> tensor<4xf32>", "the op gives tensor<8xf32>"),
    ('"stablehlo.slice"(%a) <{limit_indices = array<i64: 8>, start_indices = array<i64: 0>, strides = array<i64: 2>}> : (tensor<8xf32>) -> tensor<4xf32>', None),
    ('"stablehlo.slice"(%a) <{limit_indices = array<i64: 8>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>', "the op gives tensor<8xf32>"),
])
def test_result_types(body, msg):
    errors = check_module(NEG.format(op=body))
    if msg is None: assert errors == []
    else:
        assert len(errors) == 1 and msg in errors[0].message and (errors[0].line, errors[0].column) == (2, 3), errors

def test_dot_general_and_reduce_and_broadcast_results():
    text = ("func.func @main(%a: tensor<2x8x4xf32>, %b: tensor<2x4x16xf32>, %c: tensor<f32>) -> tensor<2x8x16xf32> {\n"
            "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x4xf32>, tensor<2x4x16xf32>) -> tensor<2x8x16xf32>\n"
            "  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x16xf32>\n"
            "  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 2] : (tensor<2x16xf32>) -> tensor<2x8x16xf32>\n"
            "  return %2 : tensor<2x8x16xf32>\n}")
    assert check_module(text) == []
    for old, new, msg in [("-> tensor<2x8x16xf32>\n  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x8x16xf32>",
                           "-> tensor<2x16x8xf32>\n  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x16x8xf32>",
                           "the op gives tensor<2x8x16xf32>"),
                          ("-> tensor<2x16xf32>\n  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 2] : (tensor<2x16xf32>)",
                           "-> tensor<2x8xf32>\n  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 2] : (tensor<2x8xf32>)", "the op gives tensor<2x16xf32>"),
                          ("dims = [0, 2]", "dims = [0, 1]", "operand dimension 1 (16) must be 1 or equal result dimension 1 (8)"),
                          ("contracting_dims = [2] x [1]", "contracting_dims = [1] x [1]", "lhs dimension 1 (8) and rhs dimension 1 (4) must be equal")]:
        bad = text.replace(old, new, 1)
        assert bad != text
        errors = check_module(bad)
        assert errors and msg in errors[0].message, (new, errors)

MESHED = ('sdy.mesh @m = <["x"=2, "y"=2]>\n'
          'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"c"}, {}]>}) -> tensor<8x8xf32> {\n'
          '  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {"x", "y"}]>]>} : tensor<8x8xf32>\n'
          '  %1 = sdy.sharding_constraint %0 <@n, [{}, {}]> : tensor<8x8xf32>\n'
          '  return %0 : tensor<8x8xf32>\n}')

def test_sharding_errors_point_at_the_offending_token():
    errors = check_module(MESHED)
    got = {e.message.split(": ", 1)[1] if ": " in e.message else e.message: (e.line, e.column) for e in errors}
    lines = MESHED.split("\n")
    assert got['unknown axis name: "c"'] == (2, lines[1].index('"c"') + 1)
    assert got['duplicate axis ref: "y"'] == (3, lines[2].rindex('"y"') + 1)
    assert any(m.endswith("unknown mesh: @n") and pos == (4, lines[3].index("@n") + 1) for m, pos in got.items()), got
    for e in errors: assert e.caret.splitlines()[-1].index("^") == e.column - 1


# ---------------------------------------------------------------- fuzz: mutated real programs
_JUNK = ["", "{", "}", "(", ")", "<", ">", "%", "#", '"', ":", ",", "=", "@", "x", "0", "\n", "->", "tensor<", "9" * 30, "%0#1x",
         "stablehlo.select", "loc(", "[{", "\u0663", " : tensor<2xf32>", "sdy.all_reduce {\"x\"} "]

@pytest.mark.parametrize("name", CORPUS_NAMES[::4])
def test_mutated_corpus_text_never_crashes(jax_corpus, name, seed):
    # check_module returns its errors, never raises; what parses prints text that parses back to an equal module
    rng = random.Random(f"{seed}-{name}")
    text = jax_corpus[name]
    for _ in range(25):
        i = rng.randrange(len(text)); j = min(len(text), i + rng.randrange(12))
        bad = text[:i] + rng.choice(_JUNK) + text[j:]
        errors = check_module(bad)
        assert all(isinstance(e, ValueError) for e in errors)
        try: m = parse_module(bad)
        except ProgramSyntaxError: continue
        out = print_module(m)
        assert parse_module(out) == m
        assert (check_module(out) == []) == (errors == []), (i, bad[max(0, i - 80):i + 80], errors[:1], check_module(out)[:1])


def test_replace_all_uses_with_keeps_use_lists_right():
    from shardnb.ir.program import Module
    m = Module(); f, b = m.function("main", [TensorType((4,))])
    x = f.args[0]; y = b.negate(x)
    adds = [b.add(y, y).defining_op for _ in range(500)]
    z = b.tanh(x)
    y.replace_all_uses_with(z, where=lambda op: op in adds[:100])   # a part, then the rest
    assert len(z.uses) == 200 and len(y.uses) == 800
    y.replace_all_uses_with(z)
    assert y.uses == [] and len(z.uses) == 1000 and all(op.operands[i] is z for op, i in z.uses)
    z.replace_all_uses_with(z)
    assert len(z.uses) == 1000


# ---------------------------------------------------------------- the parser's gaps that real lowerings showed, each on a real lowering where JAX makes one
def _jaxlib_accepts(text):
    "Whether jaxlib's parser (and Shardy's verifier in it) accepts `text`."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    with jm.make_ir_context():
        try: ir.Module.parse(text)
        except Exception: return False   # jaxlib reports a bad module as an MLIRError
    return True

def _caret_at(e, column):
    "The error is at `column` and its caret line says so."
    return e.column == column and e.caret.splitlines()[-1].index("^") == column - 1


def test_variadic_reduce_sharing_an_init_reads_inputs_then_inits(jax_corpus):
    text = jax_corpus["variadic_reduce_shared_init"]   # (%arg0 init: %arg3), (%arg1 init: %arg3), (%arg2 init: %arg4)
    m = parse_module(text)
    red = next(op for op in m.walk() if op.name == "stablehlo.reduce" and len(op.results) == 3)
    args = m.main.args
    assert red.operands == [args[0], args[1], args[2], args[3], args[3], args[4]]
    assert len(args[3].uses) == 2 and [r.type for r in red.results] == [TensorType((8,), "f32"), TensorType((8,), "f32"), TensorType((8,), "i32")]
    assert "reduce(%arg0 init: %arg3), (%arg1 init: %arg3), (%arg2 init: %arg4) across dimensions = [1]" in print_module(m)
    # a wrong declared result of the three is an error at the reduce
    red.results[1].type = TensorType((16,), "f32")
    bad = print_module(m)
    line = next(k for k, l in enumerate(bad.split("\n"), 1) if ":3 = stablehlo.reduce(" in l)
    errors = check_module(bad)
    at_reduce = [e for e in errors if e.line == line]   # (the return of the changed value is wrong too)
    assert len(at_reduce) == 1 and "result 1 is declared tensor<16xf32>, but the op gives tensor<8xf32>" in at_reduce[0].message
    assert not _jaxlib_accepts(bad)


def test_attr_dict_after_regions_on_a_continuation_line(jax_corpus):
    # set_xla_metadata puts mhlo.frontend_attributes on every op; the generic ops with regions print it on the line closing them
    text = jax_corpus["xla_metadata_on_region_ops"]
    closing = [l for l in text.split("\n") if re.match(r"\s*\}\)? \{mhlo\.frontend_attributes", l)]
    assert len(closing) >= 4
    m = parse_module(text)
    tagged = [op for op in m.walk() if "mhlo.frontend_attributes" in op.attrs]
    assert len(tagged) == text.count("mhlo.frontend_attributes = {")
    assert {op.name for op in tagged} >= {"stablehlo.sort", "stablehlo.scatter", "stablehlo.case", "stablehlo.reduce_window", "sdy.manual_computation", "stablehlo.while"}
    assert all(str(op.attrs["mhlo.frontend_attributes"]) == '{stage = "fwd", step = "2"}' for op in tagged)

def test_pretty_op_broken_over_lines():
    # MLIR is free-form: the attribute dict (or the operands after a ',') may go on the next line
    text = FN.format(args="%a: tensor<8xf32>, %i: tensor<i32>", res="tensor<8xf32>", body=
        "  %0 = stablehlo.add %a,\n        %a\n      {foo = 1 : i64} : tensor<8xf32>\n"
        '  %1 = stablehlo.custom_call @bar(%0)\n      {has_side_effect = true,\n       backend_config = ""}\n      : (tensor<8xf32>) -> tensor<8xf32>\n'
        "  %2:2 = stablehlo.while(%it = %i, %x = %1) : tensor<i32>, tensor<8xf32>\n      attributes {foo = 2 : i64}\n"
        "    cond {\n    %c = stablehlo.compare LT, %it, %it : (tensor<i32>, tensor<i32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n    stablehlo.return %it, %x : tensor<i32>, tensor<8xf32>\n  }\n  return %2#1 : tensor<8xf32>")
    ours = _round_trip_via_jaxlib(text)
    assert "%0 = stablehlo.add %a, %a {foo = 1 : i64} : tensor<8xf32>" in ours
    ops = list(parse_module(text).walk())
    assert [op.attrs.get("foo") is not None for op in ops[:3]] == [True, False, True] and "backend_config" in ops[1].attrs
    # a line break still ends an op: the next line's op is its own, not more text of this one
    assert [op.name for op in ops] == ["stablehlo.add", "stablehlo.custom_call", "stablehlo.while", "stablehlo.compare",
                                       "stablehlo.return", "stablehlo.return", "func.return"]


BARRIER = "func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {{\n  %0 = sdy.propagation_barrier %a allowed_direction={} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}}"

@pytest.mark.parametrize("direction", ["NONE", "FORWARD", "BACKWARD", "BOTH"])
def test_propagation_barrier_direction(direction):
    pytest.importorskip("jax")
    text = BARRIER.format(direction)
    errors = check_module(text)
    assert (errors == []) == _jaxlib_accepts(text) == (direction != "BOTH")
    if direction == "BOTH":
        (e,) = errors
        assert "cannot specify `BOTH` as the direction" in e.message and e.line == 2
        assert _caret_at(e, text.split("\n")[1].index("=BOTH") + 2)   # under BOTH
        # the generic form says it with a number
        generic = _jaxlib_prints(BARRIER.format("FORWARD"))[1].replace("allowed_direction = 1 : i32", "allowed_direction = 3 : i32")
        assert "allowed_direction = 3" in generic and not _jaxlib_accepts(generic)
        assert ["cannot specify `BOTH`" in e.message for e in check_module(generic)] == [True]
    else:
        assert _round_trip_via_jaxlib(text).count(f"allowed_direction={direction}") == 1


@pytest.mark.parametrize("sharding,msg", [
    ("<@maximal_mesh_0, []>", None),
    ("<@mesh, []>", None),   # no dim sharded: Shardy takes it too
    ("<@empty_mesh, []>", None),
    ("", None),   # no sharding for no result
    ("<@maximal_mesh_0, [{}]>", "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes."),
    ('<@mesh, [], replicated={"x"}>', "a maximal sharding can only have a sharding with rank 0"),
    ('<@mesh, [{"x"}]>', "result shardings don't match number of values: 1 shardings vs 0 values"),
    ("<@maximal_mesh_0, []>, <@maximal_mesh_0, []>", "2 shardings vs 0 values"),
    ("<@nope, []>", "unknown mesh: @nope"),
    ('<@nope, [{"x"}]>', "1 shardings vs 0 values"),
])
def test_zero_result_custom_call_sharding(jax_corpus, sharding, msg):
    # jax.debug.print's custom_call has no result and runs on device 0: `sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>`
    text = jax_corpus["io_callback_ordered_tokens"]
    real = "sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8xf32>) -> ()"
    assert real in text
    assert 'sdy.mesh @mesh = <["x"=2, "y"=4]>' in text and "sdy.mesh @empty_mesh = <[]>" in text
    bad = text.replace(real, real.replace("<@maximal_mesh_0, []>", sharding), 1)
    errors = check_module(bad)
    assert (errors == []) == _jaxlib_accepts(bad) == (msg is None), errors
    if msg is None:
        m = parse_module(bad)
        op = next(op for op in m.walk() if op.name == "stablehlo.custom_call" and not op.results)
        assert print_module(m).count(f"sdy.sharding = #sdy.sharding_per_value<[{sharding}]>") >= 1
        assert [x.body() for x in op.attrs["sdy.sharding"]] == ([sharding] if sharding else [])
        return
    (e,) = errors
    line = bad[:bad.index(real.replace("<@maximal_mesh_0, []>", sharding))].count("\n") + 1
    assert msg in e.message and e.message.startswith("stablehlo.custom_call") and e.line == line
    row = bad.split("\n")[line - 1]
    assert _caret_at(e, row.index("@nope") + 1 if "unknown mesh" in msg else len(row) - len(row.lstrip()) + 1)


@pytest.mark.parametrize("text", ["", "// only a comment\n", "hello world", "def f(x):\n    return x + 1\n", "module { foo.bar 0 }", "{}"])
def test_garbage_errors_have_a_caret(text):
    (e,) = check_module(text)
    assert _caret_at(e, e.column) and e.caret.splitlines()[0] == (text.split("\n")[e.line - 1] if text else "")

def test_wrong_declared_result_type_of_a_real_negate():
    # a real lowering of -x, its negate (and what it feeds) declared with another shape: an error at the negate, as jaxlib says
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    text = jax.jit(lambda x: -x).lower(jnp.ones((8, 4))).as_text()
    line = next(l for l in text.split("\n") if "stablehlo.negate" in l)
    assert line.endswith(": tensor<8x4xf32>")
    bad = text.replace(line, line.replace(": tensor<8x4xf32>", ": (tensor<8x4xf32>) -> tensor<4x8xf32>"))
    bad = re.sub(r"(return %\S+ : )tensor<8x4xf32>", r"\1tensor<4x8xf32>", bad).replace("-> (tensor<8x4xf32>", "-> (tensor<4x8xf32>")
    assert not _jaxlib_accepts(bad) and _jaxlib_accepts(text)
    (e,) = check_module(bad)
    row = next(k for k, l in enumerate(bad.split("\n"), 1) if "stablehlo.negate" in l)
    assert e.line == row and _caret_at(e, bad.split("\n")[row - 1].index("%") + 1)
    assert "stablehlo.negate: result 0 is declared tensor<4x8xf32>, but the op gives tensor<8x4xf32>" in e.message
