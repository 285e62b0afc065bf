"""The per-hand table: for every class and each of its non-dominated settings, the exact results
against every dealer hand of the other cards (the optimal blind strategy).
"""
