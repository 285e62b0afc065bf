"""The per-dealer table: for every class and each of its valid settings as the dealer's, the exact
results of every player hand of the other cards (any dealer way priced without another engine
run).
"""
