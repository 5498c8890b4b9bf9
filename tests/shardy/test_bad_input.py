"""Bad input the fuzz tier found crashing inside Shardy's passes, each now refused by a package error: `import_pipeline`
on a named computation with an empty region or a body that does not match its operands and results, on a call of a
declaration (jaxlib 0.10.2 crashes there) or of an unknown function; `sharding_rule` of an op whose types disagree (a
rule that failed its own verify). A seeded mutation run checks the whole path: text -> parse -> import -> print ->
parse again raises only the package's errors."""
import random

import pytest

from shardnb.ir.program import Module, ProgramError, parse_module, print_module
from shardnb.layout.mesh import ShardingError
from shardnb.shardy.import_passes import import_pipeline
from shardnb.shardy.rules import sharding_rule

NAMED = '''sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %0 = sdy.named_computation<"foo">(%arg0, %c) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) {
    %1 = stablehlo.add %arg1, %arg2 : tensor<8x8xf32>
    %c2 = stablehlo.constant dense<2.0> : tensor<8x8xf32>
    %2 = stablehlo.multiply %1, %c2 : tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.add %0, %c : tensor<8x8xf32>
  %4 = call @g(%3) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
func.func private @g(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}'''


def _named(m: Module):
    return next(op for op in m.walk() if op.name == "sdy.named_computation")


def test_import_pipeline_runs_on_the_well_formed_module():
    m = import_pipeline(parse_module(NAMED))
    printed = print_module(m)
    assert print_module(parse_module(printed)) == printed and "sdy.named_computation" in printed


def test_import_pipeline_refuses_a_named_computation_with_an_empty_region():
    "Text with an empty region no longer parses; a module built or edited in Python is refused by the verifier."
    m = parse_module(NAMED)
    _named(m).regions[0].ops.clear()
    with pytest.raises(ProgramError, match="sdy.named_computation: the body must end with sdy.return"): import_pipeline(m)


@pytest.mark.parametrize("edit, message", [
    (lambda op: op.regions[0].add_arg(op.regions[0].args[0].type),
     "number of block arguments must match the number of operands: 3 != 2"),
    (lambda op: op.regions[0].ops[-1]._add_operand(op.regions[0].ops[-1].operands[0]),
     "inferred type(s) 'tensor<8x8xf32>', 'tensor<8x8xf32>' are incompatible with return type(s) of operation 'tensor<8x8xf32>'"),
    (lambda op: op.attrs.update(in_shardings=op.attrs["in_shardings"][:1]),
     "in_shardings shardings don't match number of values: 1 shardings vs 2 values"),
])
def test_import_pipeline_refuses_a_named_computation_that_does_not_match_its_op(edit, message):
    "Shardy's NamedComputationOp verifier, with its words, before any pass runs on it."
    m = parse_module(NAMED)
    edit(_named(m))
    with pytest.raises(ProgramError) as e: import_pipeline(m)
    assert str(e.value) == f"sdy.named_computation: {message}"


def test_import_pipeline_refuses_calls_it_cannot_inline():
    "A call of a declaration (no body to inline: jaxlib's pass crashes) and of an unknown function."
    decl = NAMED.split("func.func private @g")[0] + "func.func private @g(tensor<8x8xf32>) -> tensor<8x8xf32>"
    with pytest.raises(ProgramError, match="func.call: @g is a declaration; import_func_calls inlines a body into each call, and it has none"):
        import_pipeline(parse_module(decl))
    unknown = NAMED.replace("call @g(", "call @h(")
    with pytest.raises(ProgramError, match="func.call: unknown function @h"): import_pipeline(parse_module(unknown))


def test_sharding_rule_refuses_a_constraint_whose_types_disagree():
    "A constraint from 8x4 to 4x8 got the rule ([i, j])->([i, j]) {i=4, j=8}, wrong for its operand; now a ShardingError."
    m = parse_module('''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}''')
    op = m.funcs["main"].body.ops[0]
    with pytest.raises(ShardingError, match=r"sdy.sharding_constraint: its types don't fit its sharding rule .*operand 0 dim 0 has size 8"):
        sharding_rule(op)
    with pytest.raises(ProgramError, match="sdy.sharding_constraint: requires the same type for all operands and results"):
        import_pipeline(m)


PIECES = ["}", "{", "(", ")", ",", "%arg1", "%arg0", "%c", "%2", "sdy.return", "return", "%5 = stablehlo.add %arg1, %arg1 : tensor<8x8xf32>",
          "\n", "tensor<8x8xf32>", "tensor<4x8xf32>", "in_shardings=[]", "(%arg9: tensor<8x8xf32>)", "call @g(%3)", '"foo"']


def _mutate(rng: random.Random, text: str) -> str:
    "`text` after 1-3 edits at random places: insert or replace a piece, delete or duplicate a span."
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(text)); j = rng.randint(i, min(len(text), i + 12))
        op = rng.choice(["insert", "replace", "delete", "dup"])
        if op == "insert": text = text[:i] + rng.choice(PIECES) + text[i:]
        elif op == "replace": text = text[:i] + rng.choice(PIECES) + text[j:]
        elif op == "delete": text = text[:i] + text[j:]
        else: text = text[:j] + text[i:j] + text[j:]
    return text


def _package_error(e: ValueError) -> bool:
    "Whether `e` is one of shardnb's own error classes (a syntax error, a ProgramError, a ShardingError)."
    return type(e).__module__.split(".")[0] == "shardnb"


def test_mutated_named_computations_through_the_import_pipeline(seed):
    "Each mutated module is refused by a package error or goes through import_pipeline to a text that parses back."
    rng = random.Random(f"{seed}/named")
    counts = {"refused at parse": 0, "refused by import": 0, "imported": 0}
    for _ in range(300):
        text = _mutate(rng, NAMED)
        try: m = parse_module(text)
        except ValueError as e:
            assert _package_error(e), (e, text); counts["refused at parse"] += 1; continue
        try: import_pipeline(m)
        except ValueError as e:
            assert _package_error(e), (e, text); counts["refused by import"] += 1; continue
        printed = print_module(m)
        assert print_module(parse_module(printed)) == printed, text
        counts["imported"] += 1
    print(counts)
    assert counts["imported"] > 0   # the mutations leave some modules whole: the pipeline itself was exercised
