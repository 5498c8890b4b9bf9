"""Shardy's pipeline: import passes, op sharding rules, projection onto factors, propagation (with Shardy's debug
record of origins and edges), explicit reshards, the communication report, the export passes, `explain`, and the
prediction of what XLA emits and what each device holds."""
from .import_passes import *
from .op_sharding_rule import *
from .rules import *
from .projection import *
from .propagate import *
from .explicit import *
from .cost import *
from .export import *
from .debug import *
from .explain import *
from .predict import *
from .predict_xla import *
from .xla_handlers import *
from .xla_movement import *
