__version__ = "0.1.0"

from .mesh import Mesh, AxisRef, ShardingError
from .sharding import DimSharding, TensorSharding, shard_array, unshard
from .syntax import ShardingSyntaxError, parse_mesh, parse_mesh_decl, parse_sharding, parse_sharding_per_value
