"""Running plans for real: local kernels (Triton, with torch elsewhere), process groups, the direct
tile exchange, plan steps as collectives, reshards across processes with torch.distributed, and DTensor.

Nothing is imported here: every module needs torch (`shardnb.runtime.kernels`, `shardnb.runtime.distributed`, ...)."""
