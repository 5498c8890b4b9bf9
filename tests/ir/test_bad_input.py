"""Module texts that `parse_module` accepted although MLIR refuses them, found by fuzzing: a function or region body
without its terminator, ops after a `return`, an empty region, `func.return` outside a function, a computation's body
using a value from outside it (the body is isolated from above). Each is now refused with MLIR's words at the line and
column jaxlib reports, with a caret; `check_module` returns the same error instead of raising. The jaxlib test reads
each text with jaxlib's own parser (in a subprocess: a bad module can abort it)."""
import pytest

from shardnb.ir.program import ProgramSyntaxError, check_module, parse_module, print_module

MESH = 'sdy.mesh @mesh = <["a"=2]>\n'


def fn(body, result="tensor<8xf32>"):
    return f"func.func @main(%arg0: tensor<8xf32>) -> {result} {{\n{body}}}"


def named(body, results="tensor<8xf32>", lhs="%0 = ", ret="  return %0 : tensor<8xf32>\n"):
    return MESH + fn(f'  {lhs}sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {{\n{body}  }} : (tensor<8xf32>) -> {results}\n{ret}')


ADD = "  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>\n"
RET = "  return %arg0 : tensor<8xf32>\n"

# (name, text, shardnb's message, line, column): the line and column are jaxlib's (checked in the jaxlib test below)
CASES = [
    ("function without its return", fn(ADD), "block with no terminator, has stablehlo.add", 2, 8),
    ("empty function body", fn(""), "empty block: expect at least a terminator", 1, 1),
    ("return mid-body", fn(RET + ADD), "'func.return' op must be the last operation in the parent block", 2, 3),
    ("two returns", fn(RET + RET), "'func.return' op must be the last operation in the parent block", 2, 3),
    ("empty named computation", named(""), "'sdy.named_computation' op expects a non-empty block", 3, 8),
    ("empty named computation, no results", named("", "()", lhs="", ret=RET),
     "'sdy.named_computation' op expects a non-empty block", 3, 3),
    ("named computation without sdy.return", named("    %1 = stablehlo.add %arg1, %arg1 : tensor<8xf32>\n", "()", lhs="", ret=RET),
     "block with no terminator, has stablehlo.add", 4, 10),
    ("sdy.return mid-region", named("    sdy.return %arg1 : tensor<8xf32>\n    %1 = stablehlo.add %arg1, %arg1 : tensor<8xf32>\n"),
     "'sdy.return' op must be the last operation in the parent block", 4, 5),
    ("func.return in a region", named('    "func.return"(%arg1) : (tensor<8xf32>) -> ()\n'),
     "'func.return' op expects parent op 'func.func'", 4, 5),
    ("named body uses an outer value", named("    %1 = stablehlo.add %arg1, %arg0 : tensor<8xf32>\n    sdy.return %1 : tensor<8xf32>\n"),
     "'stablehlo.add' op using value defined outside the region", 4, 10),
    ("named body returns an outer value", named("    sdy.return %arg0 : tensor<8xf32>\n"),
     "'sdy.return' op using value defined outside the region", 4, 5),
    ("manual body uses an outer value", MESH + fn(
        '  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} '
        "(%arg1: tensor<4xf32>) {\n    %1 = stablehlo.add %arg1, %arg1 : tensor<4xf32>\n    sdy.return %arg0 : tensor<8xf32>\n"
        "  } : (tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n"),
     "'sdy.return' op using value defined outside the region", 5, 5),
    ("while body without its return", fn(
        "  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>\n   cond {\n    %c = stablehlo.constant dense<true> : tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n  } do {\n    %1 = stablehlo.add %iterArg, %iterArg : tensor<8xf32>\n  }\n"
        "  return %0 : tensor<8xf32>\n"), "block with no terminator, has stablehlo.add", 7, 10),
    ("generic function without its return", '"func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "main"}> ({\n'
     '^bb0(%arg0: tensor<8xf32>):\n  %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n}) : () -> ()',
     "block with no terminator, has stablehlo.add", 3, 8),
]
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, text, message, line, column", CASES, ids=IDS)
def test_parse_module_refuses_what_mlir_refuses(name, text, message, line, column):
    "Refused with MLIR's message at its line and column, the caret under that column; check_module returns that error."
    with pytest.raises(ProgramSyntaxError) as e: parse_module(text)
    err = e.value
    assert str(err).startswith(f"{message} (line {line}, column {column})"), str(err)
    src, caret = err.caret.rsplit("\n", 1)
    assert src == text.split("\n")[line - 1] and caret == " " * (column - 1) + "^", err.caret
    errors = check_module(text)
    assert [str(x) for x in errors] == [str(err)]


def test_accepted_neighbours_still_parse_and_print_back():
    "The well-formed versions of the cases: a terminator last, the body using its own arguments only."
    texts = [fn(ADD + "  return %0 : tensor<8xf32>\n"), named("    %1 = stablehlo.add %arg1, %arg1 : tensor<8xf32>\n    sdy.return %1 : tensor<8xf32>\n"),
             named("    sdy.return %arg1 : tensor<8xf32>\n"), fn(RET),
             "func.func private @decl(tensor<8xf32>) -> tensor<8xf32>\n" + fn(RET)]
    for text in texts:
        printed = print_module(parse_module(text))
        assert print_module(parse_module(printed)) == printed


def test_jaxlib_refuses_each_case_at_the_same_line_and_column():
    "jaxlib's parser (and verifier) on each text: refused, its first error at the line and column shardnb reports."
    from tests.corpus.shardy_runner import run_in_subprocess
    results = run_in_subprocess([[text, ""] for _, text, *_ in CASES])
    for (name, text, message, line, column), (ok, out) in zip(CASES, results):
        assert not ok, f"{name}: jaxlib accepted it:\n{out}"
        first = next(l for l in out.splitlines() if l.startswith("error:"))
        print(f"{name}: {first}")
        if name.startswith("while body"):   # jaxlib's own while parser says it at the while: "The while body-region expected to have a terminator"
            assert first == 'error: "-":2:8: The while body-region expected to have a terminator', first; continue
        assert first.startswith(f'error: "-":{line}:{column}: '), (name, first)
        assert first.split(": ", 2)[2].startswith(message.split(", has")[0]), (name, first, message)
