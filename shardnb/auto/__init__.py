from .step_cost import *
from .auto_shard import *
from .baselines import *
from .torch_search import *
