"""Understand, plan and run tensor sharding: Shardy's representation, propagation, reshard planning and execution, as literate notebooks."""

__version__ = "0.1.0"

# The stable names of DESIGN.md's API contract, and the rest of the public surface, re-exported so
# that `import shardnb` is enough. Each stage is a subpackage (layout, reshard, ir, shardy, mindspore,
# viz, auto; runtime needs torch and is not imported here): `import shardnb` needs only numpy, matplotlib and
# fastcore.
from .layout import (Mesh, AxisRef, ShardingError, ShardingTypeError, DimSharding, TensorSharding, shard_array, unshard,
                     ShardingSyntaxError, parse_mesh, parse_mesh_decl, parse_sharding, parse_sharding_per_value,
                     print_sharding_per_value, without_sub_axes, from_partition_spec, to_partition_spec, from_jax, to_jax,
                     jax_devices_indices_map, DTensorLayout, from_dtensor, to_dtensor, dtensor_devices_indices_map,
                     GridNotationError, GridSharding, parse_grid_axes, format_grid_axes, from_grid_axes, to_grid_axes,
                     TensorLayout, from_mindspore_layout, to_mindspore_layout, from_mindspore_strategy,
                     to_mindspore_strategy)
from .reshard import (plan_reshard, plan_reshard_basis, plan_gather_slice, ReshardPlan, ReshardStep, CostModel, PlanCost,
                      Transfers, itemsize, run_plan, trace)
from .ir import (Module, Func, Block, Op, Value, TensorType, OpaqueType, Attr, Builder, parse_module, print_module,
                 verify_module, module_errors, check_module, ProgramSyntaxError, ProgramError, check_result_types,
                 parse_type, copy_module)
# ir.api registers the sdy ops' verifiers; its `reshard` op builder stays in shardnb.ir.api (shardnb.reshard is the
# planner).
from .ir.api import sharding_constraint, sharding_group, data_flow_edge, manual_computation, local_type, verify_program
from .shardy import (add_data_flow_edges, apply_sharding_constraints, constant_splitter, lift_inlined_meshes,
                     manual_axes_cleanup, sharding_group_import, import_pipeline, symbol_dce, remove_size_one_axes,
                     propagate_sharding_from_func_to_call, flatten_call_graph, import_func_calls, pre_order_funcs,
                     OpShardingRule, parse_op_sharding_rule, sharding_rule, propagate, propagation_rounds, value_shardings,
                     sink_data_flow_edges, FactorSharding, TensorFactors, Projection, project, project_tensor,
                     unproject_tensor, insert_explicit_reshards, export_named_computations, propagate_to_func_results,
                     unflatten_call_graph, insert_func_call_reshards, constant_or_scalar_merger, remove_sharding_groups,
                     sharding_constraint_to_reshard, update_non_divisible_input_output_shardings,
                     remove_sub_axes_in_input_output_shardings, close_shardings, drop_sharding_rules,
                     propagation_pipeline, communication_report, CostReport, CostItem, CostComparison)
from .shardy.propagate import STRATEGIES as PROPAGATION_STRATEGIES
from .mindspore import Strategy, StrategyPlan, propagate_strategies, shardy_plan, compare_styles
from .mindspore import from_torch   # imports torch only when called
from .shardy import explain, memory_report, peak_live_bytes, predict_collectives, hlo_collectives, compare_collectives
# `StepCost` is a training step's cost (DESIGN's contract: compute_s, comm_s, total_s, peak_bytes); one reshard step's
# cost is `shardnb.reshard.StepCost`.
from .auto import (auto_shard, AutoShard, step_cost, StepCost, DeviceModel, SolverReport, hand_strategy, pareto, alpa_search,
                   torch_search, torch_baselines, plan_cost)
from .viz import draw_mesh, draw_sharding, draw_device_grid, element_labels, draw_program, draw_pass, draw_explain

# The flat module names from before the stages became subpackages, kept so that `from shardnb import passes`
# still works; new code imports from the stage's subpackage (`shardnb.shardy.import_passes`).
from .layout import mesh, sharding, syntax, interop
from .ir import program, api
from .reshard import simulate
from .shardy import import_passes as passes, rules, explicit, cost, export
from .mindspore import strategies, torch_frontend as frontends
from .viz import program as viz_program
from .viz import reshard as viz_plan
# ... and as module paths, so `import shardnb.passes` and `from shardnb.passes import import_pipeline` still work
# (`shardnb.reshard`, `shardnb.viz` and `shardnb.propagate` name the stage packages and the function now).
import sys as _sys
for _old, _mod in dict(mesh=mesh, sharding=sharding, syntax=syntax, interop=interop, program=program, api=api,
                       simulate=simulate, passes=passes, rules=rules, explicit=explicit, cost=cost, export=export,
                       strategies=strategies, frontends=frontends, viz_program=viz_program, viz_plan=viz_plan).items():
    _sys.modules.setdefault(f"{__name__}.{_old}", _mod)
del _sys, _old, _mod
