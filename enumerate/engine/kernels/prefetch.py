"""A software prefetch for numba kernels (LLVM's ``llvm.prefetch``).

The per-hand and per-dealer passes add each family's answers into the rows of its classes,
which lie scattered over gigabytes of counts: a row is a cache miss, and a visit's adds are
too long for the processor to reach the next class's rows on its own. Asking for the rows of
a class a few visits ahead lets those misses overlap, which makes those passes, bound by
memory latency, markedly faster.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I32 = ir.IntType(32)
_WRITE, _KEEP, _DATA = 1, 3, 1  # llvm.prefetch(address, rw, locality, cache type)


@intrinsic
def _prefetch(typingctx: Any, arr: Any, index: Any) -> Any:
    """Ask for the cache line of ``arr[index]`` (1-D, for writing); a hint only: it never
    faults, so an index past the end is harmless, and it changes no value."""
    if not isinstance(arr, types.Array) or arr.ndim != 1 or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        byte_ptr = ir.IntType(8).as_pointer()
        address = builder.bitcast(builder.gep(ary.data, [args[1]]), byte_ptr)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, _I32, _I32, _I32])
        # llvmlite names the overload for its kind of pointers (typed or opaque)
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte_ptr], fnty)
        flags = [ir.Constant(_I32, v) for v in (_WRITE, _KEEP, _DATA)]
        builder.call(fn, [address, *flags])
        return context.get_dummy_value()

    return types.void(arr, index), codegen


# called from kernels as prefetch(arr, index): the typing context is numba's argument
prefetch = cast(Callable[[Any, Any], None], _prefetch)
