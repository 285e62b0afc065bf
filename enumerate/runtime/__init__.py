"""How the process runs its work: memory (allocator), threads, cache writes behind the caller, and
numba kernels run as plain Python for one-hand questions.
"""
