"""shardnb.shardy.predict over the whole real-JAX corpus against XLA's compiled programs: one row per program, shared
by tests/shardy/test_predict_xla.py, tests/shardy/test_memory.py's figures and bench/predict.py."""
from __future__ import annotations

from shardnb.ir.program import parse_module
from shardnb.shardy.export import propagation_pipeline
from shardnb.shardy.predict import compare_collectives, hlo_collectives, memory_report, predict_collectives

# a program whose result shardings XLA chooses otherwise than Shardy's pipeline (output bytes differ from
# memory_analysis): its collectives follow that other choice, so the difference is XLA's choice, not the planning
OTHER_RESULT_SHARDING = "XLA chose another result sharding"


def compare_program(text: str, compiled: dict) -> dict:
    "One program's row: XLA's and the predicted collectives, their per-device bytes, the cause of any difference, and memory."
    module = parse_module(text)
    mem = memory_report(propagation_pipeline(module))
    c = compare_collectives(hlo_collectives(compiled["hlo"]), predict_collectives(module))
    planner = predict_collectives(module, reshard="planner").per_device()   # shardnb's own reshard plans, beside XLA's
    xla_mem = compiled["memory"]
    other_result = mem.output_bytes != xla_mem["output_size_in_bytes"]
    cause = OTHER_RESULT_SHARDING if other_result and not c.equal else c.cause
    x, p = c.busiest
    return dict(equal=c.equal, cause=cause, xla_bytes=x, predicted_bytes=p, planner_bytes=max(planner.values(), default=0), xla_only=list(c.xla_only),
                predicted_only=list(c.predicted_only), xla_per_device=c.xla, predicted_per_device=c.predicted,
                estimate_temp=mem.temp_bytes, xla_temp=xla_mem["temp_size_in_bytes"],
                arguments_equal=mem.argument_bytes == xla_mem["argument_size_in_bytes"], outputs_equal=not other_result)


def compare_corpus(corpus: dict, compiled: dict) -> dict[str, dict]:
    "{name: row} for every corpus program XLA compiles."
    return {n: compare_program(corpus[n], compiled[n]) for n in sorted(corpus) if "hlo" in compiled.get(n, {})}
