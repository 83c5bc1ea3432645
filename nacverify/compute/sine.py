r"""A float64 sine that XLA vectorises: the oscillatory family's $g(t) = \sin(2\pi f t / T)$ in sweeps.

XLA on a CPU evaluates ``jnp.sin`` in float64 through the C library, one element at a time
(about 9 ns per element at arguments up to $8\pi$, on a 2-core Xeon); a Tsit5 step of a sweep
chunk evaluates $g$ at six stage times for every draw, so in the oscillatory family the sine
was half of the two solves' time. `sine` is the textbook algorithm written with array
operations, which XLA fuses and vectorises (about 1 ns per element there):

1. **Reduction by $\pi/2$ (Cody and Waite).** $k = \mathrm{round}(x \cdot 2/\pi)$ and
   $r = x - k\,\pi/2$, with $\pi/2 = P_0 + P_1 + P_2 + P_3$ (to $2^{-141}$): $P_0, P_1, P_2$
   carry 27 significant bits each, so $k P_i$ is exact for $|k| < 2^{26}$, and $x - k P_0$ is
   exact (Sterbenz). The reduced argument is kept as a pair $r = r_{hi} + r_{lo}$: the rounding
   error of each later subtraction is recovered (Fast2Sum) and carried in $r_{lo}$. Next to a
   zero of the sine, where $|r|$ is tiny, the missing $k \cdot 2^{-141}$ still leaves $r$
   accurate to the last bit for $|x| \le 2^{20}$.
2. **Kernels on $|r| \le \pi/4$.** Taylor polynomials in $z = r_{hi}^2$ (the coefficients
   $(-1)^i/(2i+1)!$ and $(-1)^i/(2i)!$ rounded to float64, up to $r^{19}$ and $r^{18}$: the
   first omitted terms are below $2^{-60}$ there), evaluated by Horner's rule, with the first
   order correction in $r_{lo}$: $\sin(r_{hi} + r_{lo}) \approx \sin r_{hi} + r_{lo}(1 - z/2)$ and
   $\cos(r_{hi} + r_{lo}) \approx \cos r_{hi} - r_{hi} r_{lo}$; $1 - z/2$ is formed with its
   rounding error added back.
3. **Quadrant.** $\sin x = \sin r, \cos r, -\sin r, -\cos r$ for $k \bmod 4 = 0, 1, 2, 3$.

Accuracy (tests/test_sine.py, against mpmath at 120 bits): at most 1 ulp over
$|x| \le 2^{20}$, next to the multiples of $\pi/2$ included (0.75 ulp measured on $10^4$ random
points of $[0, 8\pi]$, 0.50 next to the multiples of $\pi/2$; the C library's is 0.51), so results differ from ``jnp.sin`` in the last
bit for about 3 % of arguments. `SINE_LIMIT` bounds the arguments it is used for. Compiled by
XLA on a CPU, a subnormal argument gives 0 (XLA's generated code flushes subnormals).
"""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["sine", "SINE_LIMIT"]

#: Arguments |x| up to which `sine` is accurate to 1 ulp (k P0 and k P1 exact well beyond).
SINE_LIMIT = 2.0**20

#: pi/2 = P0 + P1 + P2 + P3 (to about 2^-141), P0, P1 and P2 with 27 significant bits (tests re-derive them).
_PIO2 = tuple(float.fromhex(h) for h in ("0x1.921fb54000000p+0", "0x1.10b4610000000p-30", "0x1.a626330000000p-58", "0x1.45c06e0e68948p-86"))
_TWO_OVER_PI = float.fromhex("0x1.45f306dc9c883p-1")
#: (-1)^i / (2i + 1)! for i = 1 ... 9, rounded to float64.
_SIN = tuple(float.fromhex(h) for h in (
    "-0x1.5555555555555p-3", "0x1.1111111111111p-7", "-0x1.a01a01a01a01ap-13", "0x1.71de3a556c734p-19", "-0x1.ae64567f544e4p-26",
    "0x1.6124613a86d09p-33", "-0x1.ae7f3e733b81fp-41", "0x1.952c77030ad4ap-49", "-0x1.2f49b46814157p-57"))
#: (-1)^i / (2i)! for i = 2 ... 9, rounded to float64.
_COS = tuple(float.fromhex(h) for h in (
    "0x1.5555555555555p-5", "-0x1.6c16c16c16c17p-10", "0x1.a01a01a01a01ap-16", "-0x1.27e4fb7789f5cp-22", "0x1.1eed8eff8d898p-29",
    "-0x1.93974a8c07c9dp-37", "0x1.ae7f3e733b81fp-45", "-0x1.6827863b97d97p-53"))


def _horner(coefficients: tuple[float, ...], z):
    acc = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        acc = acc * z + c
    return acc


def sine(x):
    """sin(x) of a float64 array, to 1 ulp for |x| <= SINE_LIMIT (module docstring)."""
    k = jnp.round(x * _TWO_OVER_PI)
    r = x - k * _PIO2[0]  # exact
    lo = jnp.zeros_like(x)
    for part in _PIO2[1:]:  # r + lo = x - k (P0 + ... + part), each rounding error kept in lo
        w = k * part  # exact but for the last part
        new = r - w
        lo = lo + ((r - new) - w)
        r = new
    hi = r
    z = hi * hi
    sin_r = hi + (hi * z * (_SIN[0] + z * _horner(_SIN[1:], z)) + lo * (1.0 - 0.5 * z))
    half = 0.5 * z
    one_minus_half = 1.0 - half
    cos_r = one_minus_half + (((1.0 - one_minus_half) - half) + (z * z * _horner(_COS, z) - hi * lo))
    quadrant = jnp.mod(k, 4.0)
    return jnp.where(quadrant == 0, sin_r, jnp.where(quadrant == 1, cos_r, jnp.where(quadrant == 2, -sin_r, -cos_r)))
