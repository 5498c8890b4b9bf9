"""MindSpore's style of propagation: operator strategies, tensor layouts, redistribution and the BFS, and
the torch frontend that reads `torch.export` programs."""
from .strategies import *
from .torch_frontend import *
