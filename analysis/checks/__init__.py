"""Checks against independent truth: the published figures (`paigow verify`) and a Monte Carlo of
real deals.
"""
