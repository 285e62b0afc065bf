"""The packages, and the shipped data (rule cards, variants, bets, envy tables, published
figures) installed as the package data of ``enumerate.data``, where ``enumerate.paths`` finds
it when the toolkit runs from an installed wheel (``data/`` of the checkout otherwise). The
metadata is in ``pyproject.toml``."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["enumerate*", "analysis*"]), "enumerate.data"],
    package_dir={"enumerate.data": "data"},
    package_data={"enumerate.data": ["*.toml", "*/*.toml"]},
    exclude_package_data={"enumerate.data": ["cache/*"]},
)
