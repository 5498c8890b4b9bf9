"""The program IR: types, the MLIR text form (parser, printer, verifier), a builder, and Shardy's API ops."""
from .program import *
from .api import *
