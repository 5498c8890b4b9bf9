from .auto_shard import *
