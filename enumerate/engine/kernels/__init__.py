"""Numba kernels shared by every table the engine builds: packed class records and the merge of a
family's records, sorting by high id, the Fenwick tree over low ids, the dealer grid and the
vectorised adds, and a software prefetch.
"""
