"""The search on real training steps lowered from JAX (tests/auto/models.py, in a subprocess): never slower than a hand
strategy under the same step_cost, and its annotated program propagated by jaxlib as by shardnb."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shardnb.ir.program import parse_module, print_module, copy_module
from shardnb.ir.core import get_sharding
from shardnb.shardy.import_passes import import_pipeline
from shardnb.auto.auto_shard import auto_shard, step_cost, propagated, checked_values, sharding_dims
from shardnb.auto.baselines import hand_strategy

HERE = Path(__file__).resolve().parent
# per model: data arguments, Megatron's column- and row-split parameters (jax flattens the params dict by sorted key)
SPECS = {"mlp2": dict(data=(2, 3), columns=(0,), rows=(1,)),
         "gpt2_block": dict(data=(6,), columns=(5, 2), rows=(4, 3))}


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    pytest.importorskip("jax")
    out = tmp_path_factory.mktemp("models")
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    subprocess.run([sys.executable, str(HERE / "models.py"), str(out), *SPECS], check=True, env=env, timeout=600)
    return {n: (out / f"{n}.mlir").read_text() for n in SPECS}


def test_the_committed_mlp_is_what_jax_lowers(lowered):
    assert lowered["mlp2"] == (HERE / "data" / "mlp2.mlir").read_text()


@pytest.mark.parametrize("name,mesh", [("mlp2", '<["x"=8]>'), ("mlp2", '<["d"=2, "m"=4]>'), ("gpt2_block", '<["x"=8]>')])
def test_never_slower_than_a_hand_strategy(lowered, name, mesh):
    text = lowered[name]
    r = auto_shard(text, mesh)
    assert r.solver.status == "optimal"
    assert abs(r.cost.total_s - r.predicted.total_s) <= 1e-9 * r.cost.total_s
    rows = {}
    for kind in ("replicated", "data parallel", "FSDP", "Megatron", "Megatron + SP"):
        rows[kind] = step_cost(propagated(hand_strategy(text, mesh, kind, **SPECS[name])))
        assert r.cost.total_s <= rows[kind].total_s * (1 + 1e-9), (kind, r.cost, rows[kind])
    print(f"{name} on {mesh}: auto_shard {r.cost.total_s * 1e3:.4f} ms; " +
          ", ".join(f"{k} {c.total_s * 1e3:.4f} ms" for k, c in rows.items()) + f"; {r.solver}")


def test_gpt2_answer_propagates_alike_in_jaxlib(lowered):
    "The GPT-2 block's annotated program (8 devices): jaxlib's user-priority propagation gives every value shardnb's."
    from tests.corpus.shardy_runner import run_in_subprocess
    r = auto_shard(lowered["gpt2_block"], '<["x"=8]>')
    imported = print_module(import_pipeline(copy_module(r.module)))
    [(ok, got)] = run_in_subprocess([[imported, "sdy-user-priority-propagate"]])
    assert ok, got[:2000]
    ours = [sharding_dims(get_sharding(v), v.type.rank) for v in checked_values(propagated(r.module).main)]
    theirs = [sharding_dims(get_sharding(v), v.type.rank) for v in checked_values(parse_module(got).main)]
    assert ours == theirs
    print(f"jaxlib and shardnb agree on {len(ours)} values of the GPT-2 block's answer ({r.pins} pins)")
