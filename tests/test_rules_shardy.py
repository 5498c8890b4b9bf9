"Differential tests: `sharding_rule` against Shardy's `sdy-populate-op-sharding-rules` (jaxlib) on generated programs."
import random, re
import pytest
from shardnb.mesh import ShardingError
from shardnb.syntax import ShardingSyntaxError
from shardnb.program import parse_module
from shardnb.rules import sharding_rule, parse_op_sharding_rule, OpShardingRule

jax = pytest.importorskip("jax")

@pytest.fixture(scope="module")
def shardy():
    "Run the populate pass on `text`; returns Shardy's module printed pretty, and in generic form."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    def run(text):
        with ctx:
            m = ir.Module.parse(text)
            passmanager.PassManager.parse("builtin.module(func.func(sdy-populate-op-sharding-rules))").run(m.operation)
            return str(m), m.operation.get_asm(print_generic_op_form=True)
    return run

RULE = re.compile(r"sdy\.sharding_rule = (#sdy\.op_sharding_rule<(?:->|[^<>-])*>)")
SIZES = (1, 2, 3, 4, 6, 8)
FLOAT_UNARY = "negate abs tanh exponential log sqrt rsqrt sine cosine floor ceil sign logistic exponential_minus_one log_plus_one cbrt tan round_nearest_even round_nearest_afz".split()
FLOAT_BINARY = "add subtract multiply divide maximum minimum power remainder atan2".split()
INT_UNARY = "not popcnt count_leading_zeros".split()
INT_BINARY = "and or xor shift_left shift_right_arithmetic shift_right_logical".split()

def T(shape, dt="f32"): return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"

class Gen:
    "Builds one function: each op gets fresh arguments (or the previous result) of the shapes it needs."
    def __init__(self, r):
        self.r, self.args, self.lines, self.n, self.last = r, [], [], 0, None
    def arg(self, shape, dt="f32"):
        if self.last and self.last[1:] == (tuple(shape), dt) and self.r.random() < 0.5: return self.last[0]
        name = f"%a{len(self.args)}"; self.args.append(f"{name}: {T(shape, dt)}"); return name
    def emit(self, line, shape, dt="f32"):
        name = f"%v{self.n}"; self.n += 1
        self.lines.append(f"  {name} = {line}"); self.last = (name, tuple(shape), dt)
    def shape(self, lo=0, hi=4): return [self.r.choice(SIZES) for _ in range(self.r.randint(lo, hi))]
    def text(self):
        return "func.func @main(" + ", ".join(self.args) + ") {\n" + "\n".join(self.lines) + "\n  return\n}"

def pointwise(g):
    r, s = g.r, g.shape()
    k = r.randrange(9)
    if k == 0: op = r.choice(FLOAT_UNARY); g.emit(f"stablehlo.{op} {g.arg(s)} : {T(s)}", s)
    elif k == 1: op = r.choice(FLOAT_BINARY); g.emit(f"stablehlo.{op} {g.arg(s)}, {g.arg(s)} : {T(s)}", s)
    elif k == 2: op = r.choice(INT_UNARY); g.emit(f"stablehlo.{op} {g.arg(s, 'i32')} : {T(s, 'i32')}", s, "i32")
    elif k == 3: op = r.choice(INT_BINARY); g.emit(f"stablehlo.{op} {g.arg(s, 'i32')}, {g.arg(s, 'i32')} : {T(s, 'i32')}", s, "i32")
    elif k == 4: g.emit(f"stablehlo.compare {r.choice(['GT', 'EQ', 'LE'])}, {g.arg(s)}, {g.arg(s)} : ({T(s)}, {T(s)}) -> {T(s, 'i1')}", s, "i1")
    elif k == 5: g.emit(f"stablehlo.convert {g.arg(s)} : ({T(s)}) -> {T(s, 'f16')}", s, "f16")
    elif k == 6:
        ps = s if r.random() < 0.6 else []
        g.emit(f'"stablehlo.select"({g.arg(ps, "i1")}, {g.arg(s)}, {g.arg(s)}) : ({T(ps, "i1")}, {T(s)}, {T(s)}) -> {T(s)}', s)
    elif k == 7:
        lo, hi = (s if r.random() < 0.5 else []), (s if r.random() < 0.5 else [])
        g.emit(f'"stablehlo.clamp"({g.arg(lo)}, {g.arg(s)}, {g.arg(hi)}) : ({T(lo)}, {T(s)}, {T(hi)}) -> {T(s)}', s)
    else: g.emit(f'"stablehlo.reduce_precision"({g.arg(s)}) <{{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}}> : ({T(s)}) -> {T(s)}', s)

def transpose(g):
    s = g.shape(1); p = list(range(len(s))); g.r.shuffle(p)
    out = [s[i] for i in p]
    g.emit(f"stablehlo.transpose {g.arg(s)}, dims = [{', '.join(map(str, p))}] : ({T(s)}) -> {T(out)}", out)

def broadcast(g):
    r, out = g.r, g.shape(1, 5)
    dims = sorted(r.sample(range(len(out)), r.randint(0, len(out))))
    s = [1 if r.random() < 0.3 else out[d] for d in dims]
    g.emit(f"stablehlo.broadcast_in_dim {g.arg(s)}, dims = [{', '.join(map(str, dims))}] : ({T(s)}) -> {T(out)}", out)

def _group(r, primes):
    "Random dims whose product is prod(primes): consecutive primes grouped, size-1 dims sprinkled in."
    dims, cur = [], 1
    for p in primes:
        cur *= p
        if r.random() < 0.5: dims.append(cur); cur = 1
    if cur > 1 or not dims: dims.append(cur)
    for _ in range(r.choice([0, 0, 1, 2])): dims.insert(r.randint(0, len(dims)), 1)
    return dims

def reshape(g):
    r = g.r
    primes = [r.choice([2, 2, 2, 3, 5]) for _ in range(r.randint(0, 5))]
    a = _group(r, primes)
    if r.random() < 0.4: r.shuffle(primes)
    b = _group(r, primes)
    g.emit(f"stablehlo.reshape {g.arg(a)} : ({T(a)}) -> {T(b)}", b)

def dot_general(g):
    r = g.r
    nb, nc, nl, nr = r.randint(0, 2), r.randint(0, 2), r.randint(0, 2), r.randint(0, 2)
    bs, cs, ls, rs = ([r.choice(SIZES) for _ in range(n)] for n in (nb, nc, nl, nr))
    lhs = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + [("f", i) for i in range(nl)]
    rhs = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + [("f", i) for i in range(nr)]
    r.shuffle(lhs); r.shuffle(rhs)
    size = lambda k, i, free: {"b": bs, "c": cs, "f": free}[k][i]
    L = [size(k, i, ls) for k, i in lhs]; R = [size(k, i, rs) for k, i in rhs]
    pos = lambda side, k: [side.index((k, i)) for i in range(nb if k == "b" else nc)]
    out = bs + [L[d] for d, (k, _) in enumerate(lhs) if k == "f"] + [R[d] for d, (k, _) in enumerate(rhs) if k == "f"]
    lst = lambda xs: "[" + ", ".join(map(str, xs)) + "]"
    dn = (f"batching_dims = {lst(pos(lhs, 'b'))} x {lst(pos(rhs, 'b'))}, " if nb else "") + f"contracting_dims = {lst(pos(lhs, 'c'))} x {lst(pos(rhs, 'c'))}"
    g.emit(f"stablehlo.dot_general {g.arg(L)}, {g.arg(R)}, {dn} : ({T(L)}, {T(R)}) -> {T(out)}", out)

def reduce(g):
    r, s = g.r, g.shape(1)
    dims = sorted(r.sample(range(len(s)), r.randint(1, len(s))))
    out = [n for d, n in enumerate(s) if d not in dims]
    g.emit(f"stablehlo.reduce({g.arg(s)} init: {g.arg([])}) applies stablehlo.add across dimensions = [{', '.join(map(str, dims))}] : ({T(s)}, {T([])}) -> {T(out)}", out)

def concatenate(g):
    r, s = g.r, g.shape(1)
    d = r.randrange(len(s))
    parts = [s[:d] + [r.choice(SIZES)] + s[d + 1:] for _ in range(r.randint(1, 3))]
    out = s[:d] + [sum(p[d] for p in parts)] + s[d + 1:]
    names = ", ".join(g.arg(p) for p in parts)
    g.emit(f"stablehlo.concatenate {names}, dim = {d} : ({', '.join(T(p) for p in parts)}) -> {T(out)}", out)

def reduce_many(g):
    "A reduce of 2 or 3 inputs in generic form (a region, results `%v:n`)."
    r, s = g.r, g.shape(1)
    n = r.randint(2, 3)
    dims = sorted(r.sample(range(len(s)), r.randint(0, len(s))))
    out = [x for d, x in enumerate(s) if d not in dims]
    ins = [g.arg(s) for _ in range(n)] + [g.arg([]) for _ in range(n)]
    bb = ", ".join(f"%b{i}: {T([])}" for i in range(2 * n))
    name = f"%v{g.n}"; g.n += 1; g.last = None
    g.lines.append(f'  {name}:{n} = "stablehlo.reduce"({", ".join(ins)}) <{{dimensions = array<i64{": " if dims else ""}{", ".join(map(str, dims))}>}}> ({{\n'
                   f'  ^bb0({bb}):\n    "stablehlo.return"({", ".join(f"%b{i}" for i in range(n))}) : ({", ".join([T([])] * n)}) -> ()\n'
                   f'  }}) : ({", ".join([T(s)] * n + [T([])] * n)}) -> ({", ".join([T(out)] * n)})')

def reverse(g):
    s = g.shape(1); dims = sorted(g.r.sample(range(len(s)), g.r.randint(0, len(s))))
    g.emit(f"stablehlo.reverse {g.arg(s)}, dims = [{', '.join(map(str, dims))}] : {T(s)}", s)

def slice_(g):
    r, s, idx, out = g.r, g.shape(1), [], []
    for n in s:
        a = r.randrange(n) if r.random() < 0.5 else 0
        b = r.randint(a + 1, n) if r.random() < 0.5 else n
        st = r.choice([1, 1, 2])
        idx.append(f"{a}:{b}" + (f":{st}" if st > 1 else "")); out.append(-(-(b - a) // st))
    g.emit(f"stablehlo.slice {g.arg(s)} [{', '.join(idx)}] : ({T(s)}) -> {T(out)}", out)

def pad(g):
    r, s = g.r, g.shape(1)
    lo, hi, it = ([r.choice([0, 0, 1, 2]) for _ in s] for _ in range(3))
    out = [l + h + n + max(n - 1, 0) * i for n, l, h, i in zip(s, lo, hi, it)]
    lst = lambda xs: "[" + ", ".join(map(str, xs)) + "]"
    g.emit(f"stablehlo.pad {g.arg(s)}, {g.arg([])}, low = {lst(lo)}, high = {lst(hi)}, interior = {lst(it)} : ({T(s)}, {T([])}) -> {T(out)}", out)

GENS = (pointwise, transpose, broadcast, reshape, dot_general, reduce, concatenate, reduce_many, reverse, slice_, pad)
N_PROGRAMS, OPS_PER_PROGRAM = 200, 25

def gen_program(seed):
    r = random.Random(seed); g = Gen(r)
    for _ in range(OPS_PER_PROGRAM): r.choice(GENS)(g)
    return g.text()

def generic_func(module_text):
    "Shardy's generic module as a pretty `func.func` around the generic ops (shardnb reads generic ops, not a generic func)."
    lines = module_text.splitlines()
    b = next(i for i, l in enumerate(lines) if l.strip().startswith("^bb0("))
    e = max(i for i, l in enumerate(lines) if '"func.return"' in l)
    return "func.func @main" + lines[b].strip()[len("^bb0"):].rstrip(":") + " {\n" + "\n".join(lines[b + 1:e]) + "\n  return\n}"

def test_generated_programs_match_shardy(shardy):
    compared, names = 0, set()
    for seed in range(N_PROGRAMS):
        text = gen_program(seed)
        pretty, generic = shardy(text)
        want = RULE.findall(pretty)
        ops = [op for op in parse_module(text).walk() if op.name not in ("func.return", "stablehlo.return")]
        assert len(want) == len(ops), text
        for op, w in zip(ops, want):
            got = str(sharding_rule(op))
            assert got == w, f"seed {seed}: {op.name}\n  ours:   {got}\n  shardy: {w}"
            r = parse_op_sharding_rule(w)
            assert r == sharding_rule(op) and str(r) == w
            r.verify([v.type.shape for v in op.operands], [v.type.shape for v in op.results])
            compared += 1; names.add(op.name)
        # the same ops read back from Shardy's generic form (attributes as properties, the rule as an attribute)
        gops = [op for op in parse_module(generic_func(generic)).walk() if "sdy.sharding_rule" in op.attrs]
        assert len(gops) >= len(ops)   # the body of a generic reduce has its own scalar ops
        for op in gops:   # computed afresh: `sharding_rule` would return the attribute an op already carries
            want = str(op.attrs.pop("sdy.sharding_rule"))
            assert str(sharding_rule(op)) == want, op.name
    assert compared >= 1000 and len(names) >= 40, (compared, sorted(names))

def test_zero_element_reshape_has_no_rule(shardy):
    text = "func.func @main(%a: tensor<0x4xf32>) {\n  %0 = stablehlo.reshape %a : (tensor<0x4xf32>) -> tensor<4x0xf32>\n  return\n}"
    assert not RULE.findall(shardy(text)[0])
    with pytest.raises(ShardingError, match="0 elements"): sharding_rule(next(parse_module(text).walk()))

def test_ops_shardy_gives_no_rule_raise(shardy):
    text = ("func.func @main(%a: tensor<4x8xf32>) {\n  %0 = stablehlo.constant dense<1.0> : tensor<4xf32>\n"
            "  %1 = stablehlo.iota dim = 0 : tensor<4x8xf32>\n  return\n}")
    for op in list(parse_module(text).walk())[:2]:
        with pytest.raises(ShardingError, match=f"Shardy gives {op.name} no sharding rule"): sharding_rule(op)

TEXTS = ["#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=4} reduction={j} need_replication={i} blocked_propagation={i}>",
         "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4} permutation={j}>",
         "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4} blocked_propagation={j}, custom>",
         "#sdy.op_sharding_rule<([], [])->([]), custom>",
         "#sdy.op_sharding_rule<([i, j])->([ji]) {i=2, j=4}>",
         "#sdy.op_sharding_rule<([i, j])->([i]) {i=2, j=4} reduction={j, i}>",
         "#sdy.op_sharding_rule<(  [ i , j ] )  ->  ( [i] ) { i = 2 , j = 1 }  reduction = {j}>"]

def test_round_trip_through_shardy_attribute_printer():
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    with jm.make_ir_context():
        for t in TEXTS:
            s = str(ir.Attribute.parse(t))
            assert str(parse_op_sharding_rule(t)) == s and parse_op_sharding_rule(s) == parse_op_sharding_rule(t)
        # many factors: i..z then z_1, z_2, ...
        n = 22
        rule = OpShardingRule([2] * n, [[[d] for d in range(n)]], [[[d] for d in range(n)]], reduction=[20])
        assert str(ir.Attribute.parse(str(rule))) == str(rule) and parse_op_sharding_rule(str(rule)) == rule

BAD = ["#sdy.op_sharding_rule<([i])->() {i=2}>", "#sdy.op_sharding_rule<([i])->([i]) {j=2}>",
       "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4} blocked_propagation={j} reduction={i}>",
       "#sdy.op_sharding_rule<([z_1])->([z_1]) {z_1=2}>", "#sdy.op_sharding_rule<([i])->([i]) {i=2}",
       "#sdy.op_sharding_rule<([i], )->([i]) {i=2}>", "#sdy.op_sharding_rule<([i j])->([i]) {i=2, j=2}>"]

def test_bad_texts_rejected_by_both():
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir
    with jm.make_ir_context():
        for t in BAD:
            with pytest.raises(Exception): ir.Attribute.parse(t)
            with pytest.raises(ShardingSyntaxError) as e: parse_op_sharding_rule(t)
            assert e.value.caret and e.value.column >= 1

def test_shardnb_stricter_than_shardys_attribute_parser():
    "Shardy's parser accepts these and leaves them to op verification; shardnb rejects them at parse or `verify()`."
    with pytest.raises(ShardingSyntaxError, match="factor 'q' has no size"):
        parse_op_sharding_rule("#sdy.op_sharding_rule<([i])->([i]) {i=2} reduction={q}>")
    for t, msg in [("#sdy.op_sharding_rule<([i, i])->([i]) {i=2}>", "used twice in operand 0"),
                   ("#sdy.op_sharding_rule<([i])->([i]) {i=2} reduction={i} need_replication={i}>", "both reduction and need_replication"),
                   ("#sdy.op_sharding_rule<([i])->([i]) {i=2} reduction={i, i}>", "listed twice in reduction"),
                   ("#sdy.op_sharding_rule<([i])->([i]) {i=2, j=3}>", "factor 'j' is used by no operand or result")]:
        r = parse_op_sharding_rule(t)
        assert str(r) == t
        with pytest.raises(ShardingError, match=msg): r.verify()
