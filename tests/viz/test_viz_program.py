import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest
from shardnb.ir.program import parse_module
from shardnb.shardy.import_passes import import_pipeline, add_data_flow_edges
from shardnb.viz.program import draw_program, draw_pass, short_sharding
from tests.viz.figcheck import assert_reads

PROGRAMS = {
"plain": '''
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}''',
"manual": '''
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y", "x"} (%a: tensor<4x8xf32>) {
    %1 = stablehlo.add %a, %a : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}''',
"while": '''
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%i = %arg0, %j = %arg1) : tensor<8xf32>, tensor<8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %t = stablehlo.add %i, %arg1 : tensor<8xf32>
    stablehlo.return %t, %j : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0 : tensor<8xf32>
}''',
"two_funcs": '''
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}''',
}

def n_ops(m): return sum(len(f.body.ops) for f in m.funcs.values())
def shardings(m):
    out = [short_sharding(v.sharding) for f in m.funcs.values() for v in f.args if v.sharding is not None]
    out += [short_sharding(r.sharding) for f in m.funcs.values() for op in f.body.ops for r in op.results if r.sharding is not None]
    out += ["out: " + short_sharding(s) for f in m.funcs.values() for s in f.result_shardings if s is not None]
    return out

def check(m):
    fig = draw_program(m, max_nodes=10**9)   # every function (past 150 nodes the figure names the rest in a note)
    ax = fig.axes[0]
    assert len([p for p in ax.patches if p.get_gid() == "op"]) == n_ops(m)
    assert len([p for p in ax.patches if p.get_gid() == "arg"]) == sum(len(f.args) for f in m.funcs.values())
    assert sorted(t.get_text() for t in ax.texts if t.get_gid() == "sharding") == sorted(shardings(m))
    plt.close(fig)

@pytest.mark.parametrize("name", PROGRAMS)
def test_draw_program(name):
    check(parse_module(PROGRAMS[name]))

@pytest.mark.parametrize("name", PROGRAMS)
def test_after_import_pipeline(name):
    m = parse_module(PROGRAMS[name])
    try: import_pipeline(m)
    except ValueError: pytest.skip("pipeline rejects this program")
    check(m)

@pytest.mark.parametrize("name", PROGRAMS)
def test_figures_read(name):
    "Each program, drawn alone and before | after the import pipeline, passes the figure checks of tests/viz/figcheck.py."
    m = parse_module(PROGRAMS[name])
    assert_reads(lambda: draw_program(m), f"draw_program({name})")
    assert_reads(lambda: draw_pass(import_pipeline, m), f"draw_pass(import_pipeline, {name})")
    plt.close("all")

def test_short_sharding():
    m = parse_module(PROGRAMS["plain"])
    assert short_sharding(m.main.args[0].sharding) == '[{"x"}, {?}]'

def test_func_and_labels():
    m = parse_module(PROGRAMS["manual"])
    fig = draw_program(m.main, title="t")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert any("manual_computation" in t and "[2 nested ops]" in t and "manual={\"y\", \"x\"}" in t for t in texts)
    assert fig.get_size_inches()[0] < 9            # sized to the program: three columns, not a fixed 8x4
    wide = parse_module(PROGRAMS["plain"])
    assert draw_program(wide).get_size_inches()[0] > fig.get_size_inches()[0]   # four columns
    plt.close("all")

def test_draw_pass_leaves_input_alone():
    m = parse_module(PROGRAMS["while"])
    before = str(m)
    fig = draw_pass(add_data_flow_edges, m)
    assert len(fig.axes) == 2 and str(m) == before
    after_ops = [p for p in fig.axes[1].patches if p.get_gid() == "op"]
    assert len(after_ops) > n_ops(m)
    plt.close(fig)

def test_large_module_summarised():
    funcs = "\n".join(f'''func.func @f{i}(%arg0: tensor<8xf32>) -> tensor<8xf32> {{
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}}''' for i in range(60))
    m = parse_module('sdy.mesh @mesh = <["x"=2]>\n' + funcs)
    fig = draw_program(m, max_nodes=30)
    ax = fig.axes[0]
    assert len([p for p in ax.patches if p.get_gid() == "op"]) == 2 * 10   # 10 functions of 3 nodes each
    assert [t.get_text() for t in ax.texts if t.get_gid() == "note"][0].startswith("… and 50 more functions (100 ops) not drawn")
    plt.close(fig)

def test_empty_module():
    fig = draw_program(parse_module('sdy.mesh @mesh = <["x"=2]>'))
    assert any(t.get_text() == "(empty)" for t in fig.axes[0].texts)
    plt.close(fig)


from tests.corpus.programs import CORPUS_NAMES, jax_corpus   # noqa: E402,F401  (jax_corpus is a session fixture)

def test_draw_real_programs(jax_corpus, seed):
    # a few real JAX lowerings (their choice drawn from this run's seed): every op, argument and sharding drawn
    import random
    for name in random.Random(seed).sample(CORPUS_NAMES, 5):
        check(parse_module(jax_corpus[name]))

def test_long_chain_folds_into_bands():
    "40 ops in a row: the figure stays within the docs column (figcheck's MAX_WIDTH_IN), folding into bands, every op drawn."
    from tests.viz.figcheck import MAX_WIDTH_IN
    body = "\n".join(f"  %{i + 1} = stablehlo.negate %{i} : tensor<8xf32>" for i in range(40))
    m = parse_module('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%0: tensor<8xf32>) -> tensor<8xf32> {\n'
                     f"{body}\n  return %40 : tensor<8xf32>\n}}")
    fig, _, _ = assert_reads(lambda: draw_program(m), "a chain of 40 negates")
    ops = [p for p in fig.axes[0].patches if p.get_gid() == "op"]
    assert len(ops) == 41 and fig.get_figwidth() <= MAX_WIDTH_IN
    assert len({round(p.get_y()) for p in ops}) >= 4     # several bands, one under the next
    assert len({round(p.get_x()) for p in ops}) < 41     # columns reused by each band
    plt.close("all")

def test_long_sharding_wraps_at_axes():
    "A sharding wider than its column wraps after its commas, at 7 pt or more, inside its column."
    axes = ["alpha_axis", "beta_axis", "gamma_axis", "delta_axis", "epsilon_axis", "zeta_axis"]
    mesh = ", ".join(f'"{a}"=1' for a in axes)
    sharding = '[{"alpha_axis", "beta_axis", "gamma_axis"}, {"delta_axis", "epsilon_axis", "zeta_axis"}]'
    m = parse_module(f'sdy.mesh @mesh = <[{mesh}]>\nfunc.func @main(%a: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}})'
                     ' -> tensor<8x8xf32> {\n  %0 = stablehlo.negate %a : tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>\n}')
    fig, texts, _ = assert_reads(lambda: draw_program(m), "a long sharding")
    drawn = [t for t in texts if t.get_gid() == "sharding"]
    assert len(drawn) == 1 and "\n" in drawn[0].get_text() and drawn[0].get_fontsize() >= 7
    assert drawn[0].get_text().replace("\n", " ") == sharding
    plt.close("all")
