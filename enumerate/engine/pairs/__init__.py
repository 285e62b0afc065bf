"""The pair counts: every (player, dealer) deal counted by inclusion-exclusion, by player and
dealer class; the engine's kernels, its runs and shards, the Dask backend, and the blind pass of
several house ways at once.
"""
