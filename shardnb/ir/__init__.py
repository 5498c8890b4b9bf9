"""The program IR: its data model, the MLIR text parser and printer, the op catalogue and attribute reader,
the verifier, and Shardy's API ops."""
from .core import *
from .parser import *
from .ops import *
from .verify import *
from .program import *
from .api import *
