__version__ = "0.1.0"

# The stable names of DESIGN.md's API contract, and the rest of the public surface, re-exported so
# that `import shardnb` is enough. Modules that need torch or jax (kernels, distributed) are not
# imported here: `import shardnb` needs only numpy and matplotlib.
from .mesh import Mesh, AxisRef, ShardingError
from .sharding import DimSharding, TensorSharding, shard_array, unshard
from .syntax import (ShardingSyntaxError, parse_mesh, parse_mesh_decl, parse_sharding, parse_sharding_per_value,
                     print_sharding_per_value)
from .reshard import plan_reshard, ReshardPlan, ReshardStep, CostModel, PlanCost, StepCost, Transfers, itemsize
from .simulate import run_plan, trace
from .interop import (without_sub_axes, from_partition_spec, to_partition_spec, from_jax, to_jax, jax_devices_indices_map,
                      DTensorLayout, from_dtensor, to_dtensor, dtensor_devices_indices_map, GridNotationError, GridSharding,
                      parse_grid_axes, format_grid_axes, from_grid_axes, to_grid_axes, TensorLayout, from_mindspore_layout,
                      to_mindspore_layout, from_mindspore_strategy, to_mindspore_strategy)
from .viz import draw_mesh, draw_sharding, draw_device_grid, element_labels
