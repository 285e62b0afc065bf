"""Exact return tables: pair counts priced by a variant and player mode, side bets, envy, optimal
play, one hand's settings, player banking, and the statistics of a math report.
"""
