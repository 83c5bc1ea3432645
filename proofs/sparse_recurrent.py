"""Sparse recurrent attention (seed 004): the cost of the update X + X[args] @ M[args]
with |args| = k, per step and over n tokens, counted on explicit symbolic matrices.

X is a row of m entries, M is m x m; X[args] is 1 x k, M[args] the k selected rows.
Each of the m outputs is X_j + sum_{i in args} X_i M_ij: k multiplications and k
additions, so 2 k m operations per step and 2 k m n over n tokens; for capped k this is
O(m) per step and O(n m) in total, as the seed says. With r nonzeros per row of M the
product needs k r multiplications and touches at most k r entries of X.

The baseline of the seed ("O(nnd)" for attention): Q K^T and alpha V each take n^2 d
multiplications.
"""

import sympy as sp
from sympy import Sum, oo, symbols

from nacverify.claims import Kind
from nacverify.symbolic import HOLDS, REFUTED, SEED004, AllOf, Identity, Limit, Obligation

m, k, n, r, d, i = symbols("m k n r d i", integer=True, positive=True)
h_prev, v_t, k_t = symbols("h_prev v_t k_t", real=True)
beta = sp.Symbol("beta", positive=True)
GRID = ((4, 1), (6, 2), (8, 3), (5, 5))
SPARSE_GRID = ((8, 2, 2), (9, 3, 3))
ATTN_GRID = ((3, 2), (4, 3))

step_cost = 2 * k * m


def _ops(expr) -> dict[str, int]:
    """Multiplications and additions in `expr` (SymPy's visual operation count)."""
    total = sp.count_ops(expr, visual=True)
    mul = sum(int(total.coeff(sp.Symbol(name))) for name in ("MUL",))
    add = sum(int(total.coeff(sp.Symbol(name))) for name in ("ADD", "SUB"))
    return {"mul": mul, "add": add}


def _update(m: int, k: int, nonzero_per_row: int | None = None):
    """X + X[args] @ M[args] for args = the first k indices (dense M, or r nonzeros per row)."""
    X = sp.Matrix(1, m, lambda _, j: sp.Symbol(f"x{j}"))
    if nonzero_per_row is None:
        M = sp.Matrix(m, m, lambda a, b: sp.Symbol(f"M{a}_{b}"))
    else:
        M = sp.Matrix(m, m, lambda a, b: sp.Symbol(f"M{a}_{b}") if (b - a) % m < nonzero_per_row else 0)
    args = list(range(k))
    return X + X[:, args] * M[args, :], X[:, args] * M[args, :]


def update_flops(m: int, k: int) -> int:
    counts = _ops(_update(m, k)[0])
    return counts["mul"] + counts["add"]


def sparse_product_mults(m: int, k: int, r: int) -> int:
    return _ops(_update(m, k, r)[1])["mul"]


def sparse_product_nonzeros(m: int, k: int, r: int) -> int:
    return sum(1 for entry in _update(m, k, r)[1] if entry != 0)


def attention_mults(n: int, d: int) -> int:
    Q = sp.Matrix(n, d, lambda a, b: sp.Symbol(f"q{a}_{b}"))
    K = sp.Matrix(n, d, lambda a, b: sp.Symbol(f"k{a}_{b}"))
    V = sp.Matrix(n, d, lambda a, b: sp.Symbol(f"v{a}_{b}"))
    alpha = sp.Matrix(n, n, lambda a, b: sp.Symbol(f"alpha{a}_{b}"))  # softmax(Q K^T) treated as given
    return _ops(Q * K.T)["mul"] + _ops(alpha * V)["mul"]


FG_GRID = ((4, 1), (6, 2), (5, 3))
fg_cost = 4 * k * m   # one map: 2k m multiplications + (2k - 1) m additions + m nonlinearities


def fg_ops(m: int, k: int) -> int:
    """Operations of one of f, g read as tanh([X[args], B[args]] @ W), W of shape 2k x m
    (multiplications, additions and elementwise tanh calls), on explicit matrices."""
    sel = sp.Matrix(1, 2 * k, lambda _, j: sp.Symbol(f"v{j}"))           # X[args] and B[args], concatenated
    W = sp.Matrix(2 * k, m, lambda a, b: sp.Symbol(f"W{a}_{b}"))
    out = (sel * W).applyfunc(sp.tanh)
    total = sp.count_ops(out, visual=True)
    return sum(int(total.coeff(sp.Symbol(name))) for name in ("MUL", "ADD", "SUB", "TANH"))


OBLIGATIONS = [
    Obligation(
        "sparse.update.step_cost",
        source=f"{SEED004}, Method: 'X + X[args] @ M[args]'",
        statement="the update costs exactly 2 k m operations (k m multiplications, k m additions), counted on explicit matrices",
        check=AllOf(**{f"m{mm}_k{kk}": Identity(lambda mm=mm, kk=kk: update_flops(mm, kk), step_cost.subs({m: mm, k: kk}))
                       for mm, kk in GRID}),
        expect=HOLDS,
        reason="each of the m outputs sums k products and adds the old X_j",
        over=(m, k),
        note=f"counted for (m, k) in {GRID}",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "sparse.update.O_m",
        source=f"{SEED004}, 'If the number of args is capped, the above operation costs O(m)'",
        statement="for a capped k, the per-step cost 2 k m is O(m): cost/m -> 2k as m -> oo",
        check=Limit(step_cost / m, m, oo, 2 * k),
        expect=HOLDS,
        reason="the constant is 2k (16 m for k = 8); for k growing with m (k = c m) the step is O(m^2)",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "sparse.sequence.O_nm",
        source=f"{SEED004}, 'Over n tokens, it is O(nm), linear in terms of n'",
        statement="over n tokens the cost sum_{i=1}^n 2 k m = 2 k m n, and (2 k m n)/(n m) -> 2k: O(n m) for capped k",
        check=AllOf(
            total=Identity(Sum(step_cost, (i, 1, n)).doit(), 2 * k * m * n),
            linear=Limit(2 * k * m * n / (n * m), n, oo, 2 * k),
        ),
        expect=HOLDS,
        reason="the per-step cost does not depend on the position in the sequence",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "sparse.update.sparse_rows",
        source=f"{SEED004}, 'If each row of M is sparse, X[args] @ M[args] will be a sparse vector'",
        statement="with r nonzeros per row of M the product takes k r multiplications and has at most k r nonzero entries",
        check=AllOf(**{
            **{f"m{mm}_k{kk}_r{rr}_mults": Identity(lambda mm=mm, kk=kk, rr=rr: sparse_product_mults(mm, kk, rr), kk * rr)
               for mm, kk, rr in SPARSE_GRID},
            **{f"m{mm}_k{kk}_r{rr}_nonzeros_beyond_kr": Identity(lambda mm=mm, kk=kk, rr=rr: max(0, sparse_product_nonzeros(mm, kk, rr) - kk * rr), 0)
               for mm, kk, rr in SPARSE_GRID},
        }),
        expect=HOLDS,
        reason="only the r stored entries of each selected row contribute",
        over=(m, k, r),
        note=f"counted for (m, k, r) in {SPARSE_GRID}",
        kind=Kind.READING,
        reading="'each row of M is sparse' read as r nonzeros per row; 'sparse vector' as at most k r nonzeros, 'further less' as k r multiplications instead of k m",
    ),
    Obligation(
        "sparse.attention.baseline",
        source=f"{SEED004}, Background: attention costs 'O(nnd)'",
        statement="Q K^T and alpha V take n^2 d multiplications each: 2 n^2 d in total, quadratic in n",
        check=AllOf(**{f"n{nn}_d{dd}": Identity(lambda nn=nn, dd=dd: attention_mults(nn, dd), 2 * nn**2 * dd) for nn, dd in ATTN_GRID}),
        expect=HOLDS,
        reason="n^2 dot products of length d, then n^2 weighted sums of d-vectors",
        over=(n, d),
        note=f"counted for (n, d) in {ATTN_GRID}",
        kind=Kind.READING,
        reading='cost counted as the multiplications of Q K^T and alpha V (softmax and projections excluded)',
    ),
    Obligation(
        "sparse.alg.fg_cost",
        source=f"{SEED004}, how is the attention determined?: 'B = f(X[args], B[args]), X = g(X[args], B[args]) ... Each operation here costs O(m)'",
        statement="with f and g each a linear map from the 2k selected entries to m outputs followed by tanh, each costs exactly 4 k m operations "
                  "(2k m multiplications, (2k - 1) m additions, m tanh), counted on explicit matrices, and 4 k m / m -> 4k: O(m) for capped k",
        check=AllOf(
            **{f"m{mm}_k{kk}": Identity(lambda mm=mm, kk=kk: fg_ops(mm, kk), fg_cost.subs({m: mm, k: kk})) for mm, kk in FG_GRID},
            linear=Limit(fg_cost / m, m, oo, 4 * k),
        ),
        expect=HOLDS,
        reason="each of the m outputs is a length-2k dot product and one tanh; the text leaves f and g unspecified, so O(m) holds only for maps "
               "with O(1) work per output and selected entry",
        over=(m, k),
        note=f"counted for (m, k) in {FG_GRID}",
        kind=Kind.READING,
        reading="f and g read as dense linear maps from the 2k selected entries (X[args], B[args]) to m outputs, then an elementwise tanh",
    ),
    Obligation(
        "sparse.eq.deltanet",
        source=f"{SEED004}, 'Expectation of outcome' table, 'DeltaNet ht=ht-1+gt(vt-ht-1)' (line 97); the document names DeltaNet (its reference "
               "list cites Mamba, not DeltaNet), whose paper (Yang et al., arXiv 2406.06484) states the delta rule "
               "S_t = S_(t-1) + beta_t (v_t - S_(t-1) k_t) k_t^T with unit-length keys",
        statement="the printed DeltaNet update h_t = h_(t-1) + g_t (v_t - h_(t-1)) is the delta rule: for a scalar state (one value and key "
                  "channel) it equals h_(t-1) + beta_t (v_t - h_(t-1) k_t) k_t with g_t = beta_t",
        check=Identity(h_prev + beta * (v_t - h_prev), h_prev + beta * (v_t - h_prev * k_t) * k_t, hints=({h_prev: 0.0, beta: 1.0, v_t: 1.0, k_t: -1.0},)),
        expect=REFUTED,
        reason="the delta rule retrieves S_(t-1) k_t and writes along k_t; the printed update has no key at all and is a gated moving average "
               "(1 - g) h + g v, equal to the delta rule only for k_t = 1: the unit key k_t = -1 (h = 0, v = 1, beta = 1) gives -1 against 1, "
               "and with a key of two or more channels the delta rule mixes them, which no element-wise gate does",
        note="h, v, k real, beta in (0, 1]; the attribution is to the cited paper's update rule (data, not code)",
        kind=Kind.AS_PRINTED,
    ),
]
