"""Shardy's pipeline: import passes, op sharding rules, projection onto factors, propagation, explicit
reshards, the communication report and the export passes."""
from .import_passes import *
from .op_sharding_rule import *
from .rules import *
from .projection import *
from .propagate import *
from .explicit import *
from .cost import *
from .export import *
