"""The layout shows the architecture: a folder per stage in nbs/, shardnb/ and tests/, data flowing down (no import
circle, no private name imported across modules, no stage importing the figures), CONTRIBUTING's layer list equal to
the import graph, chapters a reader finishes, and every public name of the package still importable from `shardnb`."""
import ast, importlib, json, re, subprocess, sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import layers  # noqa: E402

# Every name `from shardnb import ...` gave before the stages became subpackages (the API contract of DESIGN.md and
# the rest of the public surface), plus `propagation_pipeline`, which the contract lists.
PUBLIC = """AttrAxisRef Attr AxisRef Block Builder CostComparison CostItem CostModel CostReport DTensorLayout DimSharding
FactorSharding Func GridNotationError GridSharding Mesh Module Op OpShardingRule OpaqueType PROPAGATION_STRATEGIES PlanCost
ProgramError ProgramSyntaxError Projection ReshardPlan ReshardStep ShardingError ShardingSyntaxError ShardingTypeError
StepCost Strategy StrategyPlan TensorFactors TensorLayout TensorSharding TensorType Transfers Value add_data_flow_edges
api apply_sharding_constraints check_module check_result_types close_shardings communication_report compare_styles
constant_or_scalar_merger constant_splitter copy_module cost data_flow_edge draw_device_grid draw_mesh draw_pass
draw_program draw_sharding drop_sharding_rules dtensor_devices_indices_map element_labels explicit export
export_named_computations flatten_call_graph format_grid_axes from_dtensor from_grid_axes from_jax from_mindspore_layout
from_mindspore_strategy from_partition_spec from_torch frontends import_func_calls import_pipeline insert_explicit_reshards
insert_func_call_reshards interop itemsize jax_devices_indices_map lift_inlined_meshes local_type manual_axes_cleanup
manual_computation mesh module_errors parse_grid_axes parse_mesh parse_mesh_decl parse_module parse_op_sharding_rule
parse_sharding parse_sharding_per_value parse_type passes plan_gather_slice plan_reshard plan_reshard_basis pre_order_funcs
print_module print_sharding_per_value program project project_tensor propagate propagate_sharding_from_func_to_call
propagate_strategies propagate_to_func_results propagation_pipeline propagation_rounds remove_sharding_groups
remove_size_one_axes remove_sub_axes_in_input_output_shardings reshard rules run_plan shard_array sharding
sharding_constraint sharding_constraint_to_reshard sharding_group sharding_group_import sharding_rule shardy_plan
simulate sink_data_flow_edges strategies symbol_dce syntax to_dtensor to_grid_axes to_jax to_mindspore_layout
to_mindspore_strategy to_partition_spec trace unflatten_call_graph unproject_tensor unshard
update_non_divisible_input_output_shardings value_shardings verify_module verify_program viz viz_program
without_sub_axes""".split()
PUBLIC.remove("AttrAxisRef")  # (keeps the list's first line short)


@pytest.fixture(scope="module")
def graph(): return layers.read_graph()


def test_no_import_circle_even_through_imports_inside_functions(graph):
    assert graph.cycles() == []


def test_no_private_name_crosses_a_module(graph):
    assert [f"{i.src} <- {i.dst}: {i.names}" for i in graph.private_imports()] == []


def test_no_stage_imports_the_figures_or_the_command(graph):
    assert layers.problems(graph) == []


def test_contributing_lists_the_layers_of_the_import_graph(graph):
    assert layers.written_list() == layers.layer_list(graph), "stale: run python tools/layers.py --write"


def test_the_checker_sees_a_circle_and_a_private_import(graph):
    "The rules above can fail: a lazy import that closes a circle, and a private name, are both reported."
    high, low = sorted(graph.edges(lazy=False))[0]   # `high` imports `low`: now `low` imports `high` back, lazily
    g = layers.Graph(list(graph.modules), list(graph.imports) + [layers.Import(low, high, ["_hidden"], lazy=True)])
    assert g.cycles() and any("_hidden" in p for p in layers.problems(g))
    assert any("import circle" in p for p in layers.problems(g))


def test_every_stage_is_a_folder_in_nbs_shardnb_and_tests(graph):
    nbs = {re.sub(r"^\d+_", "", p.name): p for p in (ROOT / "nbs").iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    assert set(nbs) == set(graph.stages())
    for stage, folder in nbs.items():
        exports = {line.split()[-1] for nb in folder.glob("*.ipynb") for c in json.loads(nb.read_text())["cells"]
                   for line in "".join(c["source"]).splitlines() if line.startswith("#| default_exp")}
        assert exports and all(e == stage or e.startswith(stage + ".") for e in exports), (stage, exports)
        assert list((ROOT / "tests" / stage).glob("test_*.py")), f"tests/{stage}/ has no tests"
    assert not list((ROOT / "nbs").glob("[0-9]*.ipynb")), "a chapter outside the stage folders"


def test_every_public_name_stays_importable_from_shardnb():
    r = subprocess.run([sys.executable, "-c", "import shardnb, sys, json; print(json.dumps(sorted(sys.modules)))"],
                       capture_output=True, text=True, check=True)
    loaded = json.loads(r.stdout)
    assert not [m for m in loaded if m.split(".")[0] in ("torch", "jax", "jaxlib", "triton")], "import shardnb needs only numpy, matplotlib and fastcore"
    shardnb = importlib.import_module("shardnb")
    assert [n for n in PUBLIC if not hasattr(shardnb, n)] == []
    assert shardnb.propagation_pipeline.__module__ == "shardnb.shardy.export"


# The flat modules before the stages became subpackages, by the module that holds their code now; `reshard`, `viz` and
# `propagate` are left out: they name the planner's stage, the figures' stage and the propagation function now.
OLD_MODULES = dict(api="ir.api", cost="shardy.cost", explicit="shardy.explicit", export="shardy.export",
                   frontends="mindspore.torch_frontend", interop="layout.interop", mesh="layout.mesh",
                   passes="shardy.import_passes", program="ir.program", rules="shardy.rules", sharding="layout.sharding",
                   simulate="reshard.simulate", strategies="mindspore.strategies", syntax="layout.syntax",
                   viz_program="viz.program", viz_plan="viz.reshard")


@pytest.mark.parametrize("old", sorted(OLD_MODULES))
def test_every_old_module_path_still_imports(old):
    "`import shardnb.passes` and `from shardnb.passes import ...` give the module that holds that code now, in a fresh process."
    code = (f"import importlib, shardnb.{old} as m; assert m.__name__ == 'shardnb.{OLD_MODULES[old]}', m.__name__; "
            f"assert importlib.import_module('shardnb.{old}') is importlib.import_module('shardnb.{OLD_MODULES[old]}')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _chapters():
    return sorted(p for p in (ROOT / "nbs").rglob("*.ipynb") if not any(s.startswith((".", "_")) for s in p.parts))


def test_chapters_are_read_in_one_sitting():
    sizes = {p.relative_to(ROOT / "nbs").as_posix(): sum(len("".join(c["source"])) for c in json.loads(p.read_text())["cells"])
             for p in _chapters()}
    assert {k: v for k, v in sizes.items() if v > 60_000} == {}


def test_classes_grow_one_way():
    "No `class X(X)`: a later section adds a method with fastcore's `@patch`, or the class holds it from the start."
    grown = []
    for p in (ROOT / "shardnb").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id == node.name for b in node.bases):
                grown.append(f"{p.relative_to(ROOT)}: class {node.name}({node.name})")
    assert grown == []


WORK_LOG = re.compile(r"\b(stop \d+|since this (stop|session)|measured on another day|20\d\d-\d\d-\d\d|seeds? \d+\S*,? case \d+)\b", re.I)


def test_chapters_and_test_docstrings_keep_no_work_log():
    hits = []
    for p in _chapters():
        for i, c in enumerate(json.loads(p.read_text())["cells"]):
            hits += [f"{p.name} cell {i}: {m.group(0)}" for m in WORK_LOG.finditer("".join(c["source"]))]
    for p in (ROOT / "tests").rglob("*.py"):
        if p.name == "test_architecture.py": continue
        for node in ast.walk(ast.parse(p.read_text())):
            doc = ast.get_docstring(node) if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) else None
            hits += [f"{p.relative_to(ROOT)}: {m.group(0)}" for m in WORK_LOG.finditer(doc or "")]
    assert hits == []
