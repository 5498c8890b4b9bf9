"""Moving a tensor from one layout to another: exact transfers and their cost, the planner's moves, the
search and its bounds, `plan_reshard`, and plans run on simulated devices."""
from .transfers import *
from .moves import *
from .bounds import *
from .search import *
from .planner import *
from .simulate import *
