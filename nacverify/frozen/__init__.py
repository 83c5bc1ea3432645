r"""The frozen-coefficient error study (seed 000, appendix B.1.2, Theorem 3, Table 2).

Logit ODE with time-varying gates (seed 000 eq. 33; seed 001 eq. 1):
$a' = -\omega(t) a + \phi(t)$, $\omega > 0$. The frozen solution (seed 000 eq. 39)
freezes the gates at $t = 0$: $a_f(t) = a^* + (a_0 - a^*) e^{-\omega_0 t}$,
$a^* = \phi_0/\omega_0$. The error is $\varepsilon = a_{\mathrm{varying}} - a_f$.

Bounds, with $C = |a_0| + |\phi_0|/\omega_0$ and Lipschitz constants $L_\phi, L_\omega$:

* **Theorem 3** (seed 000 eq. 34): $|\varepsilon(t)| \le (L_\phi + C L_\omega)\, t^2 e^{L_\omega t}$.
* **Sharp form**: $|\varepsilon(t)| \le (L_\phi + C L_\omega)\, t^2 / 2$.
  Derivation. Subtracting $a_f' = -\omega_0 a_f + \phi_0$ from eq. 33 and writing
  $a_{\mathrm{varying}} = a_f + \varepsilon$:
  $$\varepsilon' = -\omega(t)\varepsilon + (\phi(t) - \phi_0) - (\omega(t) - \omega_0)\, a_f(t), \quad \varepsilon(0) = 0.$$
  Variation of constants gives
  $\varepsilon(t) = \int_0^t e^{-\int_s^t \omega}\,[(\phi(s) - \phi_0) - (\omega(s) - \omega_0) a_f(s)]\,ds$.
  Since $\omega > 0$ the exponential is at most 1; $a_f(s)$ is a convex combination of
  $a_0$ and $a^*$, so $|a_f| \le \max(|a_0|, |a^*|) \le C$; and Lipschitz continuity gives
  $|\phi(s) - \phi_0| \le L_\phi s$, $|\omega(s) - \omega_0| \le L_\omega s$. Hence
  $|\varepsilon(t)| \le \int_0^t (L_\phi + C L_\omega) s\, ds = (L_\phi + C L_\omega) t^2/2$.
  (The paper's proof bounds $a_{\mathrm{varying}}$ instead of $a_f$, which brings in
  Gronwall's factor; it also integrates to $T$ where $t$ is meant, eq. 38-41.)
* **Bounded-variation form** (no continuity needed, so it covers the step regime):
  with $V_\phi = \max_{[0,T]} |\phi - \phi_0|$, $V_\omega = \max_{[0,T]} |\omega - \omega_0|$ and
  $\omega_{\min} = \min_{[0,T]} \omega$, the same representation with
  $e^{-\int_s^t \omega} \le e^{-\omega_{\min}(t - s)}$ gives
  $|\varepsilon(t)| \le (V_\phi + C V_\omega)(1 - e^{-\omega_{\min} t}) / \omega_{\min}$.

**Relative error** (the definition nacverify uses for Table 2): at the grid points
$t_i > 0$ of the uniform saving grid (t = 0 excluded, where both solutions equal $a_0$),
$r(t_i) = |a_{\mathrm{varying}}(t_i) - a_f(t_i)| / |a_{\mathrm{varying}}(t_i)|$, skipping points
where $|a_{\mathrm{varying}}| <$ `rel_floor` (1e-9). "mean" and "max" are the mean and maximum
of $r$ over those points, in percent.

**Variation bound on the relative error** (for Table 2's audit). Assume $a_0 = 0$,
$\phi_0 > 0$, $\omega > 0$, and let $v_\phi = V_\phi/\phi_0 < 1$, $v_\omega = V_\omega/\omega_0 < 1$, so
$\phi \in [\phi_0(1 - v_\phi), \phi_0(1 + v_\phi)]$ and $\omega \in [\omega_0(1 - v_\omega), \omega_0(1 + v_\omega)]$.
Then $a \ge 0$ and, by comparison with the constant-coefficient equations,
$\frac{\phi_{\min}}{\omega_{\max}}(1 - e^{-\omega_{\max} t}) \le a_{\mathrm{varying}}(t) \le \frac{\phi_{\max}}{\omega_{\min}}(1 - e^{-\omega_{\min} t})$.
With $h(w) = (1 - e^{-w t})/w$ decreasing and $w\,h(w)$ increasing in $w$,
$h(\omega_{\min})/h(\omega_0) \le \omega_0/\omega_{\min}$ and $h(\omega_{\max})/h(\omega_0) \ge \omega_0/\omega_{\max}$, so
$$\frac{1 - v_\phi}{1 + v_\omega} \le \frac{a_{\mathrm{varying}}}{a_f} \le \frac{1 + v_\phi}{1 - v_\omega},
\qquad r(t) = \Big|1 - \frac{a_f}{a_{\mathrm{varying}}}\Big| \le \frac{v_\phi + v_\omega}{1 - v_\phi}.$$
The relative error can never exceed this, whatever the shape of the variation.

Modules (private, re-exported here): `_specs` (what a run is asked: `SolveOptions`,
`RegimeSpec`), `_bounds` (the bounds above), `_solve` (one instance solved and
summarised), `_sweep` (random draws in chunks, streamed), `_chunking` (a sweep's default chunk, from the device), `_baseline` (scipy, the speed baseline), `_stats` (the
sweep's streaming reductions), `_verdicts` (bound verdicts), `_table2` (Table 2 and its audit), `_readings` (Table 2 under each reading of
its phi/omega columns), `_adversary` (gradient search past the random draws), `_search` (many-restart searches in
chunks of restarts, as Dask tasks like a sweep's chunks), `_exact` (constant
coefficients: eps = 0 is proved, so bounds of 0 hold with the exact margin 0). `claims` builds the claims and registers them (imported by
`nacverify.catalog`, not here).
"""

from ._bounds import BOUNDS, bound_curves, variation_bound
from ._solve import ROUNDING, TIGHTER_FACTOR, FrozenErrorRun, MemberSummary, cached_run, run_frozen_error
from ._specs import RegimeSpec, SolveOptions, regime_specs
from ._stats import SweepStats
from ._baseline import scipy_baseline
from ._members import member_spec, witness_spec
from ._sweep import ChunkResult, SweepRun, SweepSpec, cached_sweep, default_chunk, run_sweep, sweep_chunk
from ._search import SearchChunk, SearchResult, run_search, search_chunk
from ._table2 import AVERAGE_TOL, Table2Row, paper_table2, table2_average_outcome, table2_row_outcome
from ._verdicts import bound_outcome, variation_bound_outcome

# `nacverify.frozen.claims` is not imported here: registering the claims is
# `nacverify.catalog`'s job; importing the study registers nothing.

__all__ = [
    "SolveOptions",
    "RegimeSpec",
    "regime_specs",
    "FrozenErrorRun",
    "SweepRun",
    "SweepSpec",
    "SweepStats",
    "ChunkResult",
    "sweep_chunk",
    "witness_spec",
    "BOUNDS",
    "paper_table2",
    "run_frozen_error",
    "run_sweep",
    "run_search",
    "search_chunk",
    "SearchChunk",
    "SearchResult",
    "bound_curves",
    "variation_bound",
    "bound_outcome",
    "table2_row_outcome",
    "table2_average_outcome",
    "variation_bound_outcome",
    "scipy_baseline",
    "MemberSummary",
    "Table2Row",
    "cached_run",
    "cached_sweep",
    "default_chunk",
    "member_spec",
    "TIGHTER_FACTOR",
    "ROUNDING",
    "AVERAGE_TOL",
]
