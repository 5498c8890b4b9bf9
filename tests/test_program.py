"Round trip, fuzzing and bad input for the program IR's text form."
import random, sys, os
import pytest
from hypothesis import given, settings, strategies as st
from shardnb.program import parse_module, print_module, verify_module, check_module, ProgramSyntaxError, ProgramError
from shardnb.mesh import ShardingError
from shardnb.syntax import ShardingSyntaxError

sys.path.insert(0, os.path.dirname(__file__))
from test_passes_shardy import gen_program   # noqa: E402  (the generator needs no jax)

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
from tests.jax_corpus import CORPUS_NAMES, jax_corpus   # noqa: E402,F401  (jax_corpus is a session fixture)


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
    from shardnb.program import TensorType, parse_type
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
