"Differential tests: each import pass against Shardy's own (jaxlib) on generated programs."
import random
import pytest
from shardnb.program import parse_module, print_module
from shardnb import passes as P

jax = pytest.importorskip("jax")

PASSES = {"sdy-add-data-flow-edges": P.add_data_flow_edges, "sdy-apply-sharding-constraints": P.apply_sharding_constraints,
          "sdy-constant-or-scalar-splitter": P.constant_splitter, "sdy-lift-inlined-meshes": P.lift_inlined_meshes,
          "sdy-manual-axes-cleanup": P.manual_axes_cleanup, "sdy-sharding-group-import": P.sharding_group_import}

@pytest.fixture(scope="module")
def shardy():
    from jax._src.interpreters import mlir as jm
    from jaxlib.mlir import ir, passmanager
    ctx = jm.make_ir_context()
    def run(text, name=None):
        with ctx:
            m = ir.Module.parse(text)
            if name: passmanager.PassManager.parse(f"builtin.module({name})").run(m.operation)
            return str(m)
    return run

AXES = ("x", "y", "z")

def gen_sharding(r, mesh="@mesh", manual=(), closed=None):
    free = list(AXES); r.shuffle(free)
    dims = []
    for d in range(2):
        axes = [a for a in manual if r.random() < 0.5 and a in free]
        for a in axes: free.remove(a)
        if r.random() < 0.4 and free:
            a = free.pop(); axes.append(a)
        op = (r.random() < 0.3) if closed is None else not closed
        dims.append("{" + ", ".join(f'"{a}"' for a in axes) + (", ?" if op and axes else ("?" if op else "")) + "}")
    if mesh == "inline": mesh = r.choice(['mesh<["x"=2, "y"=2, "z"=2]>', 'mesh<["x"=2, "y"=2, "z"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>'])
    return f"<{mesh}, [{', '.join(dims)}]>"

def gen_program(seed, inline=True):
    r = random.Random(seed)
    mesh_choices = ['@mesh', 'inline'] if inline else ['@mesh']
    T = "tensor<8x8xf32>"
    lines = ['sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>']
    if r.random() < 0.3: lines.append('sdy.mesh @dup = <["x"=2, "y"=2, "z"=2]>')
    args = []
    for k in range(3):
        sh = f" {{sdy.sharding = #sdy.sharding{gen_sharding(r, r.choice(mesh_choices))}}}" if r.random() < 0.3 else ""
        args.append(f"%arg{k}: {T}{sh}")
    vals, body, n = [f"%arg{k}" for k in range(3)], [], 0
    def new():
        nonlocal n; n += 1; return f"%v{n}"
    for _ in range(r.randint(4, 14)):
        kind = r.choice(["add", "add", "tanh", "const", "bcast", "iota", "sc", "sc", "sc", "group", "barrier", "mc", "while", "sc_chain"])
        v = new()
        a, b = r.choice(vals), r.choice(vals)
        if kind == "add": body.append(f"{v} = stablehlo.add {a}, {b} : {T}")
        elif kind == "tanh": body.append(f"{v} = stablehlo.tanh {a} : {T}")
        elif kind == "const": body.append(f"{v} = stablehlo.constant dense<1.000000e+00> : {T}")
        elif kind == "iota": body.append(f"{v} = stablehlo.iota dim = 0 : {T}")
        elif kind == "bcast":
            s = new(); body.append(f"{s} = stablehlo.constant dense<2.000000e+00> : tensor<f32>")
            body.append(f"{v} = stablehlo.broadcast_in_dim {s}, dims = [] : (tensor<f32>) -> {T}")
        elif kind in ("sc", "sc_chain"):
            body.append(f"{v} = sdy.sharding_constraint {a} {gen_sharding(r, r.choice(mesh_choices + ['@mesh']))} : {T}")
            if kind == "sc_chain":
                w = new(); body.append(f"{w} = sdy.sharding_constraint {v} {gen_sharding(r)} : {T}"); vals.append(v); v = w
        elif kind == "group":
            body.append(f"sdy.sharding_group {a} group_id={r.randint(0, 5)} : {T}"); continue
        elif kind == "barrier": body.append(f"{v} = stablehlo.optimization_barrier {a} : {T}")
        elif kind == "while":
            body.append(f"{v}:2 = stablehlo.while(%i{n} = {a}, %j{n} = {b}) : {T}, {T}\n cond {{\n %c{n} = stablehlo.constant dense<true> : tensor<i1>\n stablehlo.return %c{n} : tensor<i1>\n }} do {{\n %t{n} = stablehlo.add %i{n}, %j{n} : {T}\n stablehlo.return %t{n}, %j{n} : {T}, {T}\n }}")
            vals.append(f"{v}#0"); continue
        elif kind == "mc":
            manual = sorted(r.sample(AXES, r.randint(1, 2)), key=AXES.index)
            if r.random() < 0.3: manual = manual[::-1]
            ins = gen_sharding(r, manual=manual, closed=r.random() < 0.5)
            outs = gen_sharding(r, manual=manual)
            from shardnb.syntax import parse_sharding
            from shardnb.mesh import Mesh
            from shardnb.api import local_type
            from shardnb.program import TensorType
            ms = {"mesh": Mesh({"x": 2, "y": 2, "z": 2})}
            li = local_type(TensorType((8, 8)), parse_sharding(ins, ms), manual)
            lo = local_type(TensorType((8, 8)), parse_sharding(outs, ms), manual)
            if li != lo: body.append(f"{v} = stablehlo.add {a}, {b} : {T}"); vals.append(v); continue
            inner = ""
            if r.random() < 0.5: inner = f"\n sdy.sharding_group %m{n} group_id={r.randint(0, 5)} : {li}"
            ax = ", ".join(f'"{x}"' for x in manual)
            body.append(f"{v} = sdy.manual_computation({a}) in_shardings=[{ins}] out_shardings=[{outs}] manual_axes={{{ax}}} (%m{n}: {li}) {{{inner}\n %q{n} = stablehlo.tanh %m{n} : {li}\n sdy.return %q{n} : {li}\n }} : ({T}) -> {T}")
        vals.append(v)
    ret = r.sample(vals, 2)
    body.append(f"return {ret[0]}, {ret[1]} : {T}, {T}")
    return "\n".join(lines) + f"\nfunc.func @main({', '.join(args)}) -> ({T}, {T}) {{\n  " + "\n  ".join(body) + "\n}\n"

def normalized(text):
    m = parse_module(text)
    m.mesh_attrs.clear()
    for op in m.walk(): op.attrs.pop("sdy.sharding_rule", None)
    return print_module(m, canonical=True)

def check(shardy, name, seed):
    text = gen_program(seed, inline=name == "sdy-lift-inlined-meshes")
    try: theirs = shardy(text, name)
    except Exception as e:
        with pytest.raises(Exception): PASSES[name](parse_module(text))
        return
    ours = print_module(PASSES[name](parse_module(text)))
    assert normalized(shardy(ours)) == normalized(theirs), text

@pytest.mark.parametrize("name", list(PASSES))
def test_pass_matches_shardy(shardy, name):
    for seed in range(60):
        check(shardy, name, seed)

def test_pipeline_matches_shardy(shardy):
    pipe = "sdy-lift-inlined-meshes,sdy-constant-or-scalar-splitter,sdy-manual-axes-cleanup,sdy-add-data-flow-edges,sdy-apply-sharding-constraints,sdy-sharding-group-import"
    for seed in range(60):
        text = gen_program(seed, inline=False)
        try: theirs = shardy(text, pipe)
        except Exception: continue
        assert normalized(shardy(print_module(P.import_pipeline(parse_module(text))))) == normalized(theirs), text
