from .auto_shard import *
from .baselines import *
