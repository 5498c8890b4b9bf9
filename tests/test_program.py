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
