"""The inclusion-exclusion levels: each level's hand families (build), cached once per deck and
rules (cache), and the passes over them that add into per-class rows (passes, twophase).
"""
