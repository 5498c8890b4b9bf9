"""Shardy's pipeline: import passes, op sharding rules, propagation, explicit reshards, the communication
report and the export passes."""
from .import_passes import *
from .rules import *
from .propagate import *
from .explicit import *
from .cost import *
from .export import *
