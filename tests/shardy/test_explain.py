"""`shardnb.shardy.explain` on generated programs and the JAX corpus.

Each traced axis must end where its origin says it entered: at the argument, the constraint (or the value the constraint
applied to), the returned value or the manual computation named by Shardy's debug record. The replications flagged at
the function boundary must be exactly the argument and result dims that jaxlib's own `sdy-propagation-pipeline` leaves
without axes although shardnb's (jaxlib-identical) propagation sharded them."""
import re

import pytest

from shardnb.ir.program import parse_module
from shardnb.shardy.explain import explain, value_label
from shardnb.shardy.debug import UNKNOWN
from tests.corpus.shardy_runner import run_in_subprocess
from tests.shardy.propagate_gen import gen_program
from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: F401  (jax_corpus is a fixture)

N_PROGRAMS = 40


def entry_values(m, annotation, value):
    "The labels of the values an axis may enter on, for the annotation `explain` names."
    f = m.main
    if a := re.match(r"argument (\d+) ", annotation): return {value_label(f.args[int(a.group(1))])}
    if a := re.match(r"result (\d+) of @", annotation): return {value_label(f.return_op.operands[int(a.group(1))])}
    if annotation == "its own annotation": return {value}
    if a := re.match(r"(?:with_sharding_constraint|shard_map) (%[\w#.]+)", annotation):
        op = next((o for o in m.walk() if o.results and value_label(o.results[0]) == a.group(1)), None)
        if op is None: return set()
        vals = list(op.results) + list(op.operands)
        while vals[-1].owner is not None and getattr(vals[-1].owner, "name", None) == "sdy.sharding_constraint":
            vals += list(vals[-1].owner.operands)   # a constraint's result is its operand's tensor: the import may chain them
        return {value_label(v) for v in vals} | {value_label(v) for b in op.regions for v in b.args}
    return set()


def group_mates(text):
    """Each value of a `sdy.sharding_group` of the program as written -> every value of its group. Shardy's sharding-group
    import gives the group's values one sharding, and its debug record names the annotation that sharding came from
    (a constraint on one member), so an axis may enter any member of that annotation's group with no op between."""
    groups = {}
    for o in parse_module(text).walk():
        if o.name == "sdy.sharding_group": groups.setdefault(str(o.attrs["group_id"]), set()).add(value_label(o.operands[0]))
    return {v: g for g in groups.values() for v in g}


def check_traces(e, mates=None):
    "(traces, traces that end on the value of the annotation they name or a value of its sharding group, the first that does not)."
    n = ok = 0; bad = None; mates = mates or {}
    for name, v in e.values.items():
        for t in v.axes:
            if t.origin == str(UNKNOWN): continue
            n += 1
            end = t.hops[-1].source if t.hops else name
            entry = entry_values(e.module, t.annotation, name)
            entry |= {w for u in entry for w in mates.get(u, ())}
            if end in entry: ok += 1
            elif bad is None: bad = (name, str(t))
    return n, ok, bad


def boundary(text):
    "The explanation of one program and its boundary replications: (argument or result, dim) -> the axes jaxlib keeps."
    e = explain(parse_module(text))
    return e, {(r.value, r.dim): kept(r) for r in e.replications if r.op == "the function boundary"}


def jaxlib_boundary(jax_text, e):
    "Each argument and result dim of jaxlib's pipeline output -> its axes' text (`{}` for none), named as `explain` names them."
    out = {}
    head = next(l for l in jax_text.splitlines() if "func.func" in l and "@main" in l)
    f = e.module.main
    args, results = head.split(") -> ")[0], head.split(") -> ")[1] if ") -> " in head else ""
    for k, dims in re.findall(r"%arg(\d+): tensor<[^>]*>(?: \{sdy.sharding = #sdy.sharding<@\w+, \[(.*?)\]>)?", args):
        for d, dim in enumerate(re.findall(r"\{[^{}]*\}", dims)): out[(f"argument {k} ({value_label(f.args[int(k)])})", d)] = dim
    for k, dims in enumerate(re.findall(r"tensor<[^>]*>(?: \{[^}]*?sdy.sharding = #sdy.sharding<@\w+, \[(.*?)\]>)?", results)):
        for d, dim in enumerate(re.findall(r"\{[^{}]*\}", dims)): out[(f"result {k} of @main", d)] = dim
    return out


def kept(r):
    "The axes a boundary replication says jaxlib keeps, as jaxlib prints them."
    m = re.search(r"keeps only (\{.*?\}) of", r.reason)
    return m.group(1) if m else "{}"


def run_programs(texts, label):
    jax = run_in_subprocess([[t, "sdy-propagation-pipeline"] for t in texts])
    n = ok = flagged = checked = 0; bad, wrong = None, []
    for t, (jok, jt) in zip(texts, jax):
        e, flags = boundary(t)
        a, b, c = check_traces(e, group_mates(t)); n += a; ok += b; bad = bad or c
        if not jok: continue
        checked += 1; flagged += len(flags)
        theirs = jaxlib_boundary(jt, e)
        missing = {k: (v, theirs.get(k)) for k, v in flags.items() if theirs.get(k, "{}") != v}
        if missing: wrong.append((t[:300], missing))
    print(f"{label}: {ok} of {n} traced axes end where their origin entered; {flagged} boundary replications flagged "
          f"over {checked} programs jaxlib ran, {len(wrong)} programs where jaxlib keeps other axes than the flag says")
    return n, ok, bad, flagged, wrong


def test_generated_programs(seed):
    flavours = [dict(), dict(arg_rate=0.9, op_rate=0.35)]
    texts = [gen_program(seed * 1000 + k, **flavours[k % 2]) for k in range(N_PROGRAMS)]
    n, ok, bad, flagged, wrong = run_programs(texts, "generated")
    # Not every trace reaches its annotation yet: up to 1% of generated traces stop short (2 of 247 and 2 of 230 on two
    # seeds of ten, none on the others), where an axis reaches a value through a sharding group's sync, or Shardy's debug
    # record names a constraint for an axis its operand's own annotation gave; the assertion prints the first one missed
    assert n >= N_PROGRAMS and ok >= 0.97 * n, bad
    assert not wrong, wrong[0]


@pytest.mark.corpus
def test_corpus(jax_corpus):
    texts = [jax_corpus[p] for p in CORPUS_NAMES]
    n, ok, bad, flagged, wrong = run_programs(texts, "corpus")
    # 5553 of 5717 measured: the traces that stop short cross a while loop's body or a nested named computation, whose
    # values the edges name by region and whose labels repeat the function's; the rest end on their annotation
    assert n >= len(texts) and ok >= 0.95 * n, bad
    assert not wrong, wrong[0]


def test_a_non_divisible_constraint_is_flagged_and_jaxlib_agrees():
    "jax#26946: 17 rows constrained over 8 devices; jaxlib's pipeline replicates the argument and the result there."
    text = '''sdy.mesh @mesh = <["data"=8]>
func.func @main(%arg0: tensor<17x16xf32>) -> tensor<17x16xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<17x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"data"}, {}]> : tensor<17x16xf32>
  return %1 : tensor<17x16xf32>
}'''
    e, flags = boundary(text)
    ((ok, jt),) = run_in_subprocess([[text, "sdy-propagation-pipeline"]])
    assert ok and flags == {("argument 0 (%arg0)", 0): "{}", ("result 0 of @main", 0): "{}"}
    theirs = jaxlib_boundary(jt, e)
    assert all(theirs[k] == v for k, v in flags.items()), theirs
    e16, flags16 = boundary(text.replace("17x16", "16x16"))
    assert not flags16
