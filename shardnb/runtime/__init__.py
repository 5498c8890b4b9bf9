"""Running plans for real: local kernels (Triton, with torch elsewhere) and torch.distributed across processes.

Nothing is imported here: both modules need torch (`shardnb.runtime.kernels`, `shardnb.runtime.distributed`)."""
