"""Moving a tensor from one layout to another: the planner's collectives, cost model and lower bound, and
plans run on simulated devices."""
from .planner import *
from .simulate import *
