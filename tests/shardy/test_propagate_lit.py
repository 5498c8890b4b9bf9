"""Shardy's own propagation lit tests (vendored in tests/data/propagation_lit, see its README): every case of every file,
through the passes of its RUN line, in jaxlib 0.10.2 and in shardnb (propagation strategies, conservative, data-flow
edges, manual computations, tokens, sharding groups, sharding rules, and the whole sdy-propagation-pipeline). jaxlib
re-prints shardnb's output and every function, and each module's own lines (attributes, meshes), must be identical,
except exactly the differences listed here; shardnb refuses exactly the cases jaxlib refuses."""
import re
from pathlib import Path

import pytest

pytest.importorskip("jax")
from tests.shardy.lit_runner import run_file  # noqa: E402

DIR = Path(__file__).parent / "data" / "propagation_lit"
FILES = sorted(p.name for p in DIR.glob("*.mlir"))
# (file, case, function): known differences, each with its cause
KNOWN: set = set()
# (file) -> cases jaxlib refuses: a later syntax (`unreduced=max{...}`) it cannot read, nor can shardnb
REJECTED = {"user_priority_propagation.mlir": {19}}
# files whose RUN line asks for an option shardnb does not implement
UNSUPPORTED = {"propagation_pipeline_dedup_functions_fully_true.mlir": "dedup-functions-fully=true"}


def position(error: str):
    "(line, column) of the first place an error names: jaxlib's `\"-\":LINE:COLUMN:`, shardnb's `(line LINE, column COLUMN)`."
    m = re.search(r'"-":(\d+):(\d+):|\(line (\d+), column (\d+)\)', error)
    return m and tuple(int(g) for g in m.groups() if g is not None)


def test_every_file_is_run():
    assert len(FILES) >= 16 and set(UNSUPPORTED) <= set(FILES)


@pytest.mark.parametrize("name", [f for f in FILES if f not in UNSUPPORTED])
def test_lit_file_matches_jaxlib(name):
    s = run_file(str(DIR / name))
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


@pytest.mark.parametrize("name", list(UNSUPPORTED))
def test_unsupported_option_is_refused(name):
    "An option shardnb does not implement is refused loudly, never silently ignored."
    s = run_file(str(DIR / name))
    assert s["same"] == 0 and s["funcs"] >= 1
    assert all("NotImplementedError" in (ours or "") for _, _, _, ours in s["diffs"]), s["diffs"][0][3][:200]
