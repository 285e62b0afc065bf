"""The games as data: variants and paytables read from the TOML files of data/, checked when read.
"""
