"""Every figure: meshes and shardings, reshard plans step by step, programs as graphs. No other stage
imports this one."""
from .layout import *
from .reshard import *
from .program import *
from .explain import *
