"""Numba kernels run as plain Python, for the one-hand questions (``paigow hand``, ``set``).

The first call of any compiled kernel in a process starts numba's JIT: its CPU target loads
the registries of every numpy implementation before it even reads a kernel from the disk
cache, which is most of the time of a warm ``paigow hand`` or ``paigow set``. For one hand the
kernels' Python code is fast enough, so ``in_python(kernel)`` gives the kernel's own Python
function (``py_func``), with every kernel it calls by a global name run the same way: one
source for the compiled path and the one-hand path. Where Python and numba could read the same
code differently (fixed-width integers that numba widens and numpy scalars do not), the tests
compare the two over random hands (``tests/test_cli_speed.py``).

>>> from enumerate.houseways.facts import hand_facts
>>> f = in_python(hand_facts)
>>> f is in_python(hand_facts), hasattr(f, "overloads")
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Any

from numba.core.dispatcher import Dispatcher

# per module (the id of its globals dict): the globals the Python versions of its kernels see,
# a copy of the module's with each kernel replaced by its Python version
_NAMESPACES: dict[int, dict[str, Any]] = {}
_FUNCTIONS: dict[int, Callable[..., Any]] = {}


def in_python(kernel: Callable[..., Any]) -> Callable[..., Any]:
    """``kernel``'s Python function, calling the Python versions of the kernels it names
    (recursively); a function that is not a kernel is returned as it is."""
    if not isinstance(kernel, Dispatcher):
        return kernel
    done = _FUNCTIONS.get(id(kernel))
    if done is None:
        f = kernel.py_func
        space = _NAMESPACES.get(id(f.__globals__))
        fill = space is None
        if space is None:
            space = _NAMESPACES[id(f.__globals__)] = dict(f.__globals__)
        done = FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        done.__doc__, done.__qualname__ = f.__doc__, f.__qualname__
        _FUNCTIONS[id(kernel)] = done  # before its module's kernels: they may name it
        if fill:
            for name, value in f.__globals__.items():
                if isinstance(value, Dispatcher):
                    space[name] = in_python(value)
    return done
