__version__ = "0.1.0"

from .mesh import Mesh, AxisRef, ShardingError
from .sharding import DimSharding, TensorSharding, shard_array, unshard
