"""A tiny array namespace over numpy object arrays of mpmath numbers.

It lets the vector fields of `nacverify.ltc` and `nacverify.solvers.problem`, written once
against ``xp`` (jax.numpy / numpy), run in arbitrary precision: arithmetic and ``@`` work on
object arrays already; this adds the elementwise functions, evaluated by mpmath at the
current working precision of ``mpmath.mp``.
"""

from __future__ import annotations

import mpmath
import numpy as np

__all__ = ["MP"]


def _elementwise(fn):
    """fn applied to every element of an object array (or to a scalar)."""
    return np.frompyfunc(fn, 1, 1)


class _MpNamespace:
    """``xp`` for mpmath: asarray converts floats exactly (binary -> mpf)."""

    exp = staticmethod(_elementwise(mpmath.exp))
    expm1 = staticmethod(_elementwise(mpmath.expm1))
    sin = staticmethod(_elementwise(mpmath.sin))
    tanh = staticmethod(_elementwise(mpmath.tanh))

    @property
    def pi(self):
        return +mpmath.mp.pi  # evaluated at the current precision

    @staticmethod
    def asarray(x):
        a = np.asarray(x)
        if a.dtype == object:
            return a
        return np.frompyfunc(mpmath.mpf, 1, 1)(a.astype(np.float64)) if a.ndim else mpmath.mpf(float(a))

    @staticmethod
    def sum(x, axis=None):
        return np.sum(x, axis=axis)

    @staticmethod
    def where(cond, a, b):
        return np.where(cond, a, b)

    @staticmethod
    def ones_like(x):
        return np.full(np.shape(x), mpmath.mpf(1), dtype=object) if np.ndim(x) else mpmath.mpf(1)

    @staticmethod
    def searchsorted(a, v, side="left"):
        return np.searchsorted(np.asarray(a, dtype=np.float64), float(v), side=side)


MP = _MpNamespace()
