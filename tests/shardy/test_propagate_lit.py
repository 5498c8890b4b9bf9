"""Shardy's own propagation lit tests (vendored in tests/shardy/data/propagation_lit and func_edges_lit, see their READMEs):
every case of every file, through the passes of its RUN line, in jaxlib 0.10.2 and in shardnb (propagation strategies,
conservative, data-flow edges, manual computations, tokens, sharding groups, sharding rules, the whole
sdy-propagation-pipeline, with dedup-functions-fully=true too, and its function data-flow edge passes). jaxlib
re-prints shardnb's output and every function, and each module's own lines (attributes, meshes), must be identical,
except exactly the differences listed here; shardnb refuses exactly the cases jaxlib refuses."""
import re
from pathlib import Path

import pytest

pytest.importorskip("jax")
from tests.shardy.lit_runner import run_file  # noqa: E402

DIR = Path(__file__).parent / "data" / "propagation_lit"
FUNC_EDGES = Path(__file__).parent / "data" / "func_edges_lit"   # the import and export passes of dedup-functions-fully
PATHS = {p.name: p for d in (DIR, FUNC_EDGES) for p in d.glob("*.mlir")}
FILES = sorted(PATHS)
# (file, case, function): known differences, each with its cause
KNOWN: set = set()
# (file) -> cases jaxlib refuses: a later syntax (`unreduced=max{...}`) it cannot read, nor can shardnb
REJECTED = {"user_priority_propagation.mlir": {19}}
# files whose RUN line asks for an option shardnb does not implement (none now)
UNSUPPORTED: dict = {}


def position(error: str):
    "(line, column) of the first place an error names: jaxlib's `\"-\":LINE:COLUMN:`, shardnb's `(line LINE, column COLUMN)`."
    m = re.search(r'"-":(\d+):(\d+):|\(line (\d+), column (\d+)\)', error)
    return m and tuple(int(g) for g in m.groups() if g is not None)


def test_every_file_is_run():
    assert len(FILES) >= 18 and set(UNSUPPORTED) <= set(FILES)
    assert "propagation_pipeline_dedup_functions_fully_true.mlir" in FILES and "sink_func_data_flow_edges.mlir" in FILES


@pytest.mark.parametrize("name", [f for f in FILES if f not in UNSUPPORTED])
def test_lit_file_matches_jaxlib(name):
    s = run_file(str(PATHS[name]))
    assert "skipped" not in s, s
    assert s["funcs"] >= 1 and s["rejected"] <= 1, s   # jaxlib rejects one case of user_priority_propagation only
    # shardnb refuses exactly the cases jaxlib refuses (jaxlib's refusals are counted in `rejected`; a case that
    # shardnb alone refuses differs in every function)
    assert {k for k, _, _ in s["rejections"]} == REJECTED.get(name, set()), s["rejections"]
    assert all(ours is not None for _, _, ours in s["rejections"]), [(k, why[:200]) for k, why, ours in s["rejections"] if ours is None]
    # ... at the place jaxlib's parser names
    assert all(position(why) == position(ours) for _, why, ours in s["rejections"]), s["rejections"]
    # the whole module: every function of either output, and the module's own lines, of every case jaxlib accepts
    assert s["modules"] == s["cases"] - s["rejected"]
    differ = {(name, k, fn) for k, fn, _, _ in s["diffs"]}
    assert differ == {d for d in KNOWN if d[0] == name}, sorted(differ)
    assert s["same"] == s["funcs"] - len(differ)


def test_unsupported_option_is_refused():
    "A pipeline option shardnb does not implement is refused loudly, never silently ignored."
    from shardnb.ir.program import parse_module
    from tests.shardy.lit_runner import PASSES
    m = parse_module("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}")
    with pytest.raises(NotImplementedError, match="enable-auto-partitioning"):
        PASSES["sdy-propagation-pipeline"](m, {"dedup-functions-fully": "true", "enable-auto-partitioning": "true"})
