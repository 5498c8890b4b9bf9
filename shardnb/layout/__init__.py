"""How a tensor is laid out over devices: meshes and axes, shardings, Shardy's text syntax, and interop
with JAX, DTensor, the MLIR shard dialect and MindSpore."""
from .mesh import *
from .sharding import *
from .syntax import *
from .interop import *
