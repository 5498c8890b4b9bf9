"""MindSpore's style of propagation: operators and their candidate strategies, redistribution and its
cost, the cost graph and BFS, the per-device program, and the torch frontend that reads `torch.export`
programs."""
from .operators import *
from .redistribution import *
from .plan import *
from .per_device import *
from .strategies import *
from .torch_frontend import *
from .torch_ops import *
