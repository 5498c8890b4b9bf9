"""shardnb's `insert_explicit_reshards` against jaxlib 0.10.2's `sdy-insert-explicit-reshards`, both settings of
`enable-full-version`: on Shardy's own lit-test inputs (vendored in tests/data/explicit_reshards, split on
`// -----`) and on generated programs propagated by jaxlib's `sdy-user-priority-propagate`.

jaxlib re-prints shardnb's output and the texts must be identical, function by function. A lit case that jaxlib
or shardnb cannot read whole is split into one module per function (its meshes plus that function). The functions
that still differ are listed in `KNOWN_DIFFERENCES`, each with its cause (see nbs/12a_explicit_reshards.ipynb):
the test asserts that exactly those differ."""
import re
from collections import Counter
from pathlib import Path

import pytest

from shardnb.program import parse_module, print_module
from shardnb.explicit import insert_explicit_reshards

from tests.propagate_gen import gen_program
from tests.shardy_runner import run_in_subprocess, ABORTED

pytest.importorskip("jax")

DATA = Path(__file__).parent / "data" / "explicit_reshards"


def pass_pipeline(full):
    return f"func.func(sdy-insert-explicit-reshards{{enable-full-version={'true' if full else 'false'}}})"


def lit_cases():
    "(file, case index, text) for every `// -----` case of every vendored lit file."
    return [(f.name, k, t) for f in sorted(DATA.glob("*.mlir")) for k, t in enumerate(f.read_text().split("// -----"))]


def split_functions(text):
    "One module text per function of a lit case: its meshes and that function."
    meshes = "\n".join(l for l in text.splitlines() if l.startswith("sdy.mesh"))
    return [meshes + "\n" + f for f in re.findall(r"^func\.func .*?^}", text, re.S | re.M)]


def functions(printed):
    "Function name -> its lines, in a module as jaxlib prints it."
    out, cur = {}, None
    for line in printed.splitlines():
        m = re.match(r'  func\.func (?:\w+ )?@([\w$.\-]+|"[^"]*")', line)
        if m: cur = m.group(1); out[cur] = []
        if cur is not None: out[cur].append(line)
        if line == "  }": cur = None
    return {k: "\n".join(v) for k, v in out.items()}


def ours(text, full):
    try: return True, print_module(insert_explicit_reshards(parse_module(text), enable_full_version=full))
    except Exception as e: return False, f"{type(e).__name__}: {e}"


def compare_functions(texts, full):
    "For each module text: (jaxlib ok, {function: identical}) comparing jaxlib's pass with shardnb's."
    pipeline = pass_pipeline(full)
    ref = run_in_subprocess([[t, pipeline] for t in texts])
    mine = [ours(t, full) for t in texts]
    canon = run_in_subprocess([[o, ""] if ok else ["", ""] for ok, o in mine])
    out = []
    for (rok, r), (ok, _), (cok, c) in zip(ref, mine, canon):
        if not rok: out.append((False, r, False)); continue
        theirs, mine_f = functions(r), (functions(c) if ok and cok else {})
        out.append((True, {name: mine_f.get(name) == body for name, body in theirs.items()}, ok and cok))
    return out


def lit_agreement(full):
    """file -> {function: identical} over every lit function jaxlib accepts, and the functions jaxlib rejects. A case
    that jaxlib rejects, or whose output from shardnb (which may not read it) jaxlib cannot read, goes function by function."""
    cases = lit_cases()
    whole = compare_functions([t for _, _, t in cases], full)
    per_file, rejected, retry = {}, [], []
    for (name, k, text), (rok, res, readable) in zip(cases, whole):
        if rok and readable: per_file.setdefault(name, {}).update(res)
        else: retry += [(name, t) for t in split_functions(text)]
    for (name, text), (rok, res, _) in zip(retry, compare_functions([t for _, t in retry], full)):
        if rok: per_file.setdefault(name, {}).update(res)
        else: rejected.append((name, re.search(r"func\.func @([\w$.\-]+)", text).group(1), res[:120]))
    return per_file, rejected


# Every function that differs from jaxlib, with its cause (the chapter lists the same).
_PARSER = "shardnb's parser does not read it"
_SINGLE_DEVICE = "shardnb's parser does not read `#sdy.sharding<...>` inside `#sdy.sharding_per_value`"
_UNREDUCED = "unreduced axes: sharded/replicated-to-unreduced collectives and all-reduces of unreduced operands not implemented"
_MANUAL = "manual computations: edge shardings are not translated to the body's free axes"
KNOWN_DIFFERENCES = {
    True: {},
    False: {},
}
