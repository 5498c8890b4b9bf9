"Differential tests: `sharding_rule` against Shardy's `sdy-populate-op-sharding-rules` (jaxlib) on generated programs."
import itertools, random, re
import pytest
from shardnb.layout.mesh import ShardingError
from shardnb.layout.syntax import ShardingSyntaxError
from shardnb.ir.program import parse_module
from shardnb.shardy.rules import sharding_rule, parse_op_sharding_rule, OpShardingRule
from tests.shardy.test_rules_corpus import PASS, compare

jax = pytest.importorskip("jax")

@pytest.fixture(scope="module")
def shardy():
    "Run the populate pass (or its conservative variant) on `text`; returns Shardy's module printed pretty, and in generic form."
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    def run(text, conservative=False):
        with ctx:
            m = ir.Module.parse(text)
            passmanager.PassManager.parse(PASS % str(conservative).lower()).run(m.operation)
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

# ---------------------------------------------------------------- the ops of real programs (issue 12): more generators
C64 = "complex<f32>"
def _lst(xs): return "[" + ", ".join(map(str, xs)) + "]"
def _arr(xs): return "array<i64" + (": " + ", ".join(map(str, xs)) if xs else "") + ">"
def _dense2(pairs): return f"dense<{_lst(_lst(p) for p in pairs)}> : tensor<{len(pairs)}x2xi64>"

def _body(n, op="add", dt="f32"):
    "A region of 2n scalar arguments returning `op` of each pair (i, n + i); op 'set' returns the second of each pair."
    s = T([], dt)
    args = ", ".join(f"%b{i}: {s}" for i in range(2 * n))
    if op == "set": ops, rets = "", [f"%b{n + i}" for i in range(n)]
    else: ops, rets = "".join(f"    %c{i} = stablehlo.{op} %b{i}, %b{n + i} : {s}\n" for i in range(n)), [f"%c{i}" for i in range(n)]
    return f"({{\n  ^bb0({args}):\n{ops}    stablehlo.return {', '.join(rets)} : {', '.join([s] * n)}\n  }})"

def _compare_body(n, dt="f32"):
    "A comparator region of 2n scalar arguments: the first pair compared."
    args = ", ".join(f"%b{i}: {T([], dt)}" for i in range(2 * n))
    return (f"({{\n  ^bb0({args}):\n    %c = stablehlo.compare GT, %b0, %b1 : ({T([], dt)}, {T([], dt)}) -> tensor<i1>\n"
            f"    stablehlo.return %c : tensor<i1>\n  }})")

def _emit_many(g, line, n):
    name = f"%v{g.n}"; g.n += 1; g.last = None
    g.lines.append(f"  {name}:{n} = {line}")

def _some(r, n): return r.randint(1, n) if r.random() < 0.6 else n

def _indices(g, n):
    "n scalar i32 start indices: all constants (an op each) or all arguments."
    if g.r.random() < 0.4:
        out = []
        for _ in range(n): g.emit(f"stablehlo.constant dense<{g.r.randint(0, 1)}> : tensor<i32>", [], "i32"); out.append(g.last[0])
        return out
    return [g.arg([], "i32") for _ in range(n)]

def dynamic_slice(g):
    s = g.shape(1); sizes = [_some(g.r, n) for n in s]
    idx = _indices(g, len(s)); x = g.arg(s)
    g.emit(f"stablehlo.dynamic_slice {x}, {', '.join(idx)}, sizes = {_lst(sizes)} : ({', '.join([T(s)] + [T([], 'i32')] * len(s))}) -> {T(sizes)}", sizes)

def dynamic_update_slice(g):
    s = g.shape(1); u = [_some(g.r, n) for n in s]
    idx = _indices(g, len(s)); x, up = g.arg(s), g.arg(u)
    g.emit(f"stablehlo.dynamic_update_slice {x}, {up}, {', '.join(idx)} : ({', '.join([T(s), T(u)] + [T([], 'i32')] * len(s))}) -> {T(s)}", s)

def _index_shapes(r, O):
    "A random valid gather/scatter over an operand of shape O: the dimension numbers and the shapes of indices and slices."
    rank = len(O); dims = list(range(rank)); r.shuffle(dims)
    batching = dims[:1] if rank >= 2 and r.random() < 0.3 else []
    rest = dims[len(batching):]
    index_map = rest[:r.randint(1, len(rest))] if rest else []
    collapsed = sorted(d for d in index_map if r.random() < 0.5)
    window = {d: (1 if d in collapsed or d in batching else _some(r, O[d])) for d in range(rank)}
    B = [r.choice(SIZES) for _ in range(r.randint(0, 2))]
    p = None
    if batching: p = r.randint(0, len(B)); B.insert(p, O[batching[0]])
    implicit = len(index_map) == 1 and r.random() < 0.3   # no index vector dim: a trailing 1 is implied
    ivd = len(B) if implicit or r.random() < 0.7 else 0
    indices = B if implicit else B[:ivd] + [len(index_map)] + B[ivd:]
    idx_batching = [] if p is None else [p if p < ivd or implicit else p + 1]
    offs = [window[d] for d in range(rank) if d not in collapsed and d not in batching]
    out_rank = len(B) + len(offs)
    offset_dims = sorted(r.sample(range(out_rank), len(offs)))
    it_off, it_b = iter(offs), iter(B)
    slices = [next(it_off) if k in offset_dims else next(it_b) for k in range(out_rank)]
    return dict(batching=sorted(batching), index_map=index_map, collapsed=collapsed, window=[window[d] for d in range(rank)],
                ivd=ivd, indices=indices, idx_batching=idx_batching, offset_dims=offset_dims, slices=slices)

def _fields_text(kind, pairs, ivd):
    return f"#stablehlo.{kind}<" + ", ".join([f"{k} = {_lst(v)}" for k, v in pairs if v] + [f"index_vector_dim = {ivd}"]) + ">"

def gather(g):
    O = g.shape(1, 3); d = _index_shapes(g.r, O)
    dn = _fields_text("gather", [("offset_dims", d["offset_dims"]), ("collapsed_slice_dims", d["collapsed"]), ("operand_batching_dims", d["batching"]),
                                 ("start_indices_batching_dims", d["idx_batching"]), ("start_index_map", d["index_map"])], d["ivd"])
    x, i = g.arg(O), g.arg(d["indices"], "i32")
    g.emit(f'"stablehlo.gather"({x}, {i}) <{{dimension_numbers = {dn}, indices_are_sorted = false, slice_sizes = {_arr(d["window"])}}}> : '
           f'({T(O)}, {T(d["indices"], "i32")}) -> {T(d["slices"])}', d["slices"])

def scatter(g):
    r = g.r; O = g.shape(1, 3); d = _index_shapes(r, O); n = 2 if r.random() < 0.2 else 1
    dn = _fields_text("scatter", [("update_window_dims", d["offset_dims"]), ("inserted_window_dims", d["collapsed"]), ("input_batching_dims", d["batching"]),
                                  ("scatter_indices_batching_dims", d["idx_batching"]), ("scatter_dims_to_operand_dims", d["index_map"])], d["ivd"])
    ins, i, ups = [g.arg(O) for _ in range(n)], g.arg(d["indices"], "i32"), [g.arg(d["slices"]) for _ in range(n)]
    line = (f'"stablehlo.scatter"({", ".join(ins + [i] + ups)}) <{{indices_are_sorted = false, scatter_dimension_numbers = {dn}, unique_indices = false}}> '
            f'{_body(n, r.choice(["add", "maximum", "multiply", "set"]))} : ({", ".join([T(O)] * n + [T(d["indices"], "i32")] + [T(d["slices"])] * n)}) -> '
            + (T(O) if n == 1 else f'({T(O)}, {T(O)})'))
    if n == 1: g.emit(line, O)
    else: _emit_many(g, line, n)

def convolution(g):
    r = g.r; nsp = r.randint(1, 2)
    N, C, F = r.choice([1, 2, 4, 8]), r.choice([1, 2, 3, 4]), r.choice([1, 2, 4, 6])
    fgc = 2 if C % 2 == 0 and F % 2 == 0 and r.random() < 0.25 else 1
    bgc = 2 if fgc == 1 and N % 2 == 0 and F % 2 == 0 and r.random() < 0.2 else 1
    sp = [r.choice([1, 3, 5, 8, 16]) for _ in range(nsp)]
    win = [r.randint(1, min(4, n)) for n in sp]
    stride, dil = [r.choice([1, 1, 2]) for _ in sp], [r.choice([1, 1, 2]) for _ in sp]
    pad = [(r.randint(0, 2), r.randint(0, 2)) for _ in sp]
    dil = [k if (w - 1) * k + 1 <= n + lo + hi else 1 for k, w, n, (lo, hi) in zip(dil, win, sp, pad)]
    osp = [(n + lo + hi - ((w - 1) * k + 1)) // st + 1 for n, w, k, st, (lo, hi) in zip(sp, win, dil, stride, pad)]
    def layout(labels, sizes):
        order = list(labels); r.shuffle(order)
        return order, [sizes[l] for l in order]
    digits = [str(k) for k in range(nsp)]
    lo_, ls = layout(["b", "f"] + digits, dict(b=N, f=C, **dict(zip(digits, sp))))
    ko, ks = layout(["o", "i"] + digits, dict(o=F, i=C // fgc, **dict(zip(digits, win))))
    oo, os_ = layout(["b", "f"] + digits, dict(b=N // bgc, f=F, **dict(zip(digits, osp))))
    dn = f"[{', '.join(lo_)}]x[{', '.join(ko)}]->[{', '.join(oo)}]"
    window = f"stride = {_lst(stride)}, pad = {_lst(_lst(p) for p in pad)}, rhs_dilate = {_lst(dil)}"
    g.emit(f"stablehlo.convolution({g.arg(ls)}, {g.arg(ks)}) dim_numbers = {dn}, window = {{{window}}} "
           f"{{batch_group_count = {bgc} : i64, feature_group_count = {fgc} : i64}} : ({T(ls)}, {T(ks)}) -> {T(os_)}", os_)

def _window(r, s):
    "Window dims, strides, padding (each None sometimes: the attribute is optional) and the windowed shape."
    w = [r.randint(1, min(3, n)) if r.random() < 0.7 else 1 for n in s]
    st = [r.choice([1, 1, 2]) for _ in s] if r.random() < 0.8 else None
    pad = [(r.randint(0, 1), r.randint(0, 1)) if r.random() < 0.4 else (0, 0) for _ in s] if r.random() < 0.7 else None
    out = [(n + (pad[d][0] + pad[d][1] if pad else 0) - w[d]) // (st[d] if st else 1) + 1 for d, n in enumerate(s)]
    attrs = ([f"padding = {_dense2(pad)}"] if pad else []) + [f"window_dimensions = {_arr(w)}"] + ([f"window_strides = {_arr(st)}"] if st else [])
    return ", ".join(attrs), out

def reduce_window(g):
    r, s = g.r, g.shape(1); attrs, out = _window(r, s)
    x, init = g.arg(s), g.arg([])
    g.emit(f'"stablehlo.reduce_window"({x}, {init}) <{{{attrs}}}> {_body(1, r.choice(["add", "maximum"]))} : ({T(s)}, {T([])}) -> {T(out)}', out)

def select_and_scatter(g):
    r, s = g.r, g.shape(1); attrs, src = _window(r, s)
    x, src_v, init = g.arg(s), g.arg(src), g.arg([])
    g.emit(f'"stablehlo.select_and_scatter"({x}, {src_v}, {init}) <{{{attrs}}}> {_compare_body(1)[:-1]}, {_body(1)[1:]} : '
           f'({T(s)}, {T(src)}, {T([])}) -> {T(s)}', s)

def sort(g):
    r, s = g.r, g.shape(1); n = r.randint(1, 2); d = r.randrange(len(s))
    ins = [g.arg(s) for _ in range(n)]
    line = f'"stablehlo.sort"({", ".join(ins)}) <{{dimension = {d} : i64, is_stable = true}}> {_compare_body(n)} : ({", ".join([T(s)] * n)}) -> '
    if n == 1: g.emit(line + T(s), s)
    else: _emit_many(g, line + f"({', '.join([T(s)] * n)})", n)

def fft(g):
    r, s = g.r, g.shape(1, 3); length = s[-r.randint(1, len(s)):]
    t = r.choice(["FFT", "IFFT", "RFFT", "IRFFT"]); half = s[:-1] + [s[-1] // 2 + 1]
    i, o, di, do = {"FFT": (s, s, C64, C64), "IFFT": (s, s, C64, C64), "RFFT": (s, half, "f32", C64), "IRFFT": (half, s, C64, "f32")}[t]
    g.emit(f"stablehlo.fft {g.arg(i, di)}, type = {t}, length = {_lst(length)} : ({T(i, di)}) -> {T(o, do)}", o, do)

def bitcast_convert(g):
    r, s = g.r, g.shape(0, 3)
    i, di, o, do = r.choice([(s, "f32", s, "i32"), (s, "f32", s + [2], "bf16"), (s + [2], "bf16", s, "f32"), (s, "f32", s + [4], "i8")])
    g.emit(f"stablehlo.bitcast_convert {g.arg(i, di)} : ({T(i, di)}) -> {T(o, do)}", o, do)

def complex_parts(g):
    r, s = g.r, g.shape(); k = r.randrange(3)
    if k == 0: g.emit(f'"stablehlo.complex"({g.arg(s)}, {g.arg(s)}) : ({T(s)}, {T(s)}) -> {T(s, C64)}', s, C64)
    else: op = ["real", "imag"][k - 1]; g.emit(f'"stablehlo.{op}"({g.arg(s, C64)}) : ({T(s, C64)}) -> {T(s)}', s)

def collective(g):
    r, s = g.r, g.shape(1, 3); G = r.choice([2, 4])
    groups = f"replica_groups = dense<{_lst([list(range(G))])}> : tensor<1x{G}xi64>".replace("[[", "[[").replace(" ", " ")
    k, d, d2 = r.randrange(6), r.randrange(len(s)), r.randrange(len(s))
    if k == 0:
        out = s[:d] + [s[d] * G] + s[d + 1:]
        g.emit(f'"stablehlo.all_gather"({g.arg(s)}) <{{all_gather_dim = {d} : i64, {groups}}}> : ({T(s)}) -> {T(out)}', out)
    elif k == 1:
        s[d] = G * r.randint(1, 3); out = s[:d] + [s[d] // G] + s[d + 1:]
        g.emit(f'"stablehlo.reduce_scatter"({g.arg(s)}) <{{{groups}, scatter_dimension = {d} : i64}}> {_body(1)} : ({T(s)}) -> {T(out)}', out)
    elif k == 2:
        s[d] = G * r.randint(1, 3); out = list(s); out[d] //= G; out[d2] *= G
        g.emit(f'"stablehlo.all_to_all"({g.arg(s)}) <{{concat_dimension = {d2} : i64, {groups}, split_count = {G} : i64, split_dimension = {d} : i64}}> : '
               f'({T(s)}) -> {T(out)}', out)
    elif k == 3: g.emit(f'"stablehlo.all_reduce"({g.arg(s)}) <{{{groups}}}> {_body(1)} : ({T(s)}) -> {T(s)}', s)
    elif k == 4: g.emit(f'"stablehlo.collective_permute"({g.arg(s)}) <{{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}}> : ({T(s)}) -> {T(s)}', s)
    else: g.emit(f'"stablehlo.collective_broadcast"({g.arg(s)}) <{{{groups}}}> : ({T(s)}) -> {T(s)}', s)

def rng_bit_generator(g):
    r, out = g.r, g.shape(0, 3)
    if r.random() < 0.5: state = g.arg([2], "ui64")
    else:   # an X64Combine feeding the state: Shardy replicates it
        lo, hi = g.arg([2], "ui32"), g.arg([2], "ui32")
        g.emit(f"stablehlo.custom_call @X64Combine({lo}, {hi}) : ({T([2], 'ui32')}, {T([2], 'ui32')}) -> {T([2], 'ui64')}", [2], "ui64"); state = g.last[0]
    _emit_many(g, f"stablehlo.rng_bit_generator {state}, algorithm = THREE_FRY : ({T([2], 'ui64')}) -> ({T([2], 'ui64')}, {T(out, 'ui32')})", 2)

def linalg(g):
    r = g.r; k = r.randrange(4); B = g.shape(0, 2); n, m = r.choice([2, 3, 4]), r.choice([2, 3, 5])
    if k == 0:
        lhs = r.choice([[n, m], [m]]); rhs = r.choice([[m, 4], [m]])
        out = lhs[:-1] + rhs[1:]
        g.emit(f"stablehlo.dot {g.arg(lhs)}, {g.arg(rhs)} : ({T(lhs)}, {T(rhs)}) -> {T(out)}", out)
    elif k == 1: s = B + [n, n]; g.emit(f"stablehlo.cholesky {g.arg(s)}, lower = {r.choice(['true', 'false'])} : {T(s)}", s)
    elif k == 2:
        left = r.random() < 0.5; a = B + [n, n]; b = B + ([n, m] if left else [m, n])
        ta = r.choice(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
        g.emit(f'"stablehlo.triangular_solve"({g.arg(a)}, {g.arg(b)}) <{{left_side = {str(left).lower()}, lower = true, transpose_a = #stablehlo<transpose {ta}>, '
               f'unit_diagonal = false}}> : ({T(a)}, {T(b)}) -> {T(b)}', b)
    else:
        s = g.shape(2, 4); fi = r.randrange(len(s)); v = [s[fi]]
        ops = [g.arg(s)] + [g.arg(v) for _ in range(4)]
        g.emit(f'"stablehlo.batch_norm_inference"({", ".join(ops)}) <{{epsilon = 1.0E-5 : f32, feature_index = {fi} : i64}}> : '
               f'({", ".join([T(s)] + [T(v)] * 4)}) -> {T(s)}', s)

def custom_call(g):
    r = g.r; B = g.shape(0, 2); n, m = r.choice([2, 3, 4]), r.choice([2, 3, 5]); k = r.randrange(6)
    if k == 0:
        s = g.shape(); t = r.choice(["MoveToHost", "MoveToDevice", "LayoutConstraint", "X64SplitLow", "annotate_device_placement", "mhlo.erf",
                      "_SPMDInternalOp_RotateRight", "InspectSharding", "my_kernel", "xla_ffi_python_cpu_callback", "xla.debug.Log", "tpu_custom_call"])
        g.emit(f"stablehlo.custom_call @\"{t}\"({g.arg(s)}) : ({T(s)}) -> {T(s)}", s)
    elif k == 1:
        s = B + [n + m]; o = B + [m]
        _emit_many(g, f"stablehlo.custom_call @mhlo.topk({g.arg(s)}) {{mhlo.attributes = {{k = {m} : i64, largest = true}}}} : ({T(s)}) -> ({T(o)}, {T(o, 'i32')})", 2)
    elif k == 2: s = B + [n, n]; _emit_many(g, f"stablehlo.custom_call @Eigh({g.arg(s)}) : ({T(s)}) -> ({T(s)}, {T(B + [n])})", 2)
    elif k == 3: s = B + [n, m]; _emit_many(g, f"stablehlo.custom_call @{r.choice(['Qr', 'QrDecompositionBlock'])}({g.arg(s)}) : ({T(s)}) -> ({T(s)}, {T(B + [min(n, m)])})", 2)
    elif k == 4:
        a, t = B + [n, m], B + [min(n, m)]
        g.emit(f"stablehlo.custom_call @ProductOfElementaryHouseholderReflectors({g.arg(a)}, {g.arg(t)}) : ({T(a)}, {T(t)}) -> {T(a)}", a)
    else:
        s = B + [n + m]; iota = g.arg(s, "i32")
        _emit_many(g, f"stablehlo.custom_call @{r.choice(['ApproxTopK', 'PartialReduce'])}({g.arg(s)}, {iota}, {g.arg([])}, {g.arg([], 'i32')}) : "
                      f"({T(s)}, {T(s, 'i32')}, {T([])}, {T([], 'i32')}) -> ({T(B + [m])}, {T(B + [m], 'i32')})", 2)

def no_rule(g):
    "Ops Shardy gives no rule: constants, iota."
    s = g.shape()
    if g.r.random() < 0.5: g.emit(f"stablehlo.constant dense<1.0> : {T(s)}", s)
    else: s = s or [3]; g.emit(f"stablehlo.iota dim = {g.r.randrange(len(s))} : {T(s)}", s)

def concatenate_slices(g):
    "A concatenate of slices of one value, of that value, or of others: `permutation` or `need_replication`."
    r, s = g.r, g.shape(1); d = r.randrange(len(s)); x = g.arg(s); parts = []
    for _ in range(r.randint(1, 3)):
        k = r.random()
        if k < 0.5 and s[d] > 1:
            a = r.randrange(s[d]); b = r.randint(a + 1, s[d]); p = s[:d] + [b - a] + s[d + 1:]
            idx = ", ".join(f"{a}:{b}" if e == d else f"0:{n}" for e, n in enumerate(s))
            g.emit(f"stablehlo.slice {x} [{idx}] : ({T(s)}) -> {T(p)}", p); parts.append((g.last[0], p))
        elif k < 0.8: parts.append((x, s))
        else: p = s[:d] + [r.choice(SIZES)] + s[d + 1:]; parts.append((g.arg(p), p))
    out = s[:d] + [sum(p[d] for _, p in parts)] + s[d + 1:]
    g.emit(f"stablehlo.concatenate {', '.join(n for n, _ in parts)}, dim = {d} : ({', '.join(T(p) for _, p in parts)}) -> {T(out)}", out)

MORE_GENS = (dynamic_slice, dynamic_update_slice, gather, scatter, convolution, reduce_window, select_and_scatter, sort, fft,
             bitcast_convert, complex_parts, collective, rng_bit_generator, linalg, custom_call, no_rule, concatenate_slices)

GENS = (pointwise, transpose, broadcast, reshape, dot_general, reduce, concatenate, reduce_many, reverse, slice_, pad) + MORE_GENS
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

@pytest.mark.parametrize("conservative", [False, True], ids=["default", "conservative"])
def test_generated_programs_match_shardy(shardy, conservative):
    compared, names = 0, set()
    for seed in range(N_PROGRAMS):
        text = gen_program(seed)
        pretty, generic = shardy(text, conservative)
        ops = list(parse_module(text).walk())
        for op, (name, w, got) in zip(ops, compare(text, pretty, conservative)):   # every op, those without a rule too
            assert got == w, f"seed {seed}: {name}\n  ours:   {got}\n  shardy: {w}"
            compared += 1
            if w is None: continue
            r = parse_op_sharding_rule(w)
            assert r == sharding_rule(op, conservative) and str(r) == w
            r.verify([v.type.shape for v in op.operands], [v.type.shape for v in op.results])
            names.add(op.name)
        # the same ops read back from Shardy's generic form (attributes as properties, the rule as an attribute)
        gops = [op for op in parse_module(generic_func(generic)).walk() if "sdy.sharding_rule" in op.attrs]
        for op in gops:   # computed afresh: `sharding_rule` would return the attribute an op already carries
            want = str(op.attrs.pop("sdy.sharding_rule"))
            assert str(sharding_rule(op, conservative)) == want, (seed, op.name)
    assert compared >= 4000 and len(names) >= 65, (compared, sorted(names))

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

def _sort_cases():
    "Every sort of one or two operands over shapes of rank 1-3 made of 1s and 4s, along each dim."
    shapes = [s for rank in (1, 2, 3) for s in itertools.product((1, 4), repeat=rank)]
    return [(list(s), d, n) for s in shapes for d in range(len(s)) for n in (1, 2)]

def test_sort_rules_with_size_one_dims_match_shardy(shardy):
    """Enumerated, not drawn: Shardy blocks propagation along a sort's dim when every other dim has size 1 (nothing else
    to shard); the rule of each sort of `_sort_cases` equals jaxlib's, and the blocked and unblocked ones both occur."""
    args, lines = [], []
    for k, (s, d, n) in enumerate(_sort_cases()):
        ins = [f"%a{k}_{i}" for i in range(n)]
        args += [f"{x}: {T(s)}" for x in ins]
        types = ", ".join([T(s)] * n)
        lines.append(f'  %v{k}:{n} = "stablehlo.sort"({", ".join(ins)}) <{{dimension = {d} : i64, is_stable = true}}> '
                     f'{_compare_body(n)} : ({types}) -> ({types})')
    text = "func.func @main(" + ", ".join(args) + ") {\n" + "\n".join(lines) + "\n  return\n}"
    for conservative in (False, True):
        rows = [row for row in compare(text, shardy(text, conservative)[0], conservative) if row[0] == "stablehlo.sort"]
        assert len(rows) == len(_sort_cases()) and all(w is not None for _, w, _ in rows)
        bad = [(case, w, g) for case, (_, w, g) in zip(_sort_cases(), rows) if w != g]
        assert not bad, f"{len(bad)} of {len(rows)} sort rules differ; first: {bad[0]}"
        blocked = [case for case, (_, w, _) in zip(_sort_cases(), rows) if "blocked_propagation" in w]
        assert any(1 in s and len(s) > 1 for s, _, _ in blocked) and len(blocked) < len(rows)
