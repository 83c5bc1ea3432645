"""The LNN neuron that motivates NAC (000 and 001, Section 2.1, 'Motivation behind this formulation'):
a formula attributed to another work (Hasani et al. 2021, the LTC neuron, 002 eq. 1), then a
substitution.

    dx/dt = x/tau + S,          S = f(x, u, t, theta) (A - x)          (as printed)
    dx/dt = -[1/tau + f] x + f A                                      ('Plugging S yields')

Substituting S into the printed first line gives (1/tau - f) x + f A: the plug-in result holds only
with the leak -x/tau of the LTC neuron (002: dx/dt = -x/tau + S), the sign the result itself carries.
001 prints the plugged line (as extracted) as -[-1/tau - f] x + f A = (1/tau + f) x + f A, which is
neither.
"""

from sympy import Symbol, symbols

from nacverify.symbolic import HOLDS, REFUTED, SEED000, SEED001, AllOf, Identity, Obligation

x, f, A = symbols("x f A", real=True)
tau = Symbol("tau", positive=True)
S = f * (A - x)
plugged = -(1 / tau + f) * x + f * A

SOURCE = (f"{SEED000}, Section 2.1, 'Motivation behind this formulation' (line 25); {SEED001}, Section 2.1, same paragraph (line 150); "
          "the LNN/LTC neuron of Hasani et al. 2021")

OBLIGATIONS = [
    Obligation(
        "nac.motivation.ltc_plugging",
        kind="as-printed",
        source=SOURCE,
        statement="with the printed neuron dx/dt = x/tau + S and S = f (A - x), 'plugging S yields' dx/dt = -[1/tau + f] x + f A",
        check=Identity(x / tau + S, plugged, hints=({x: 1.0, tau: 1.0, f: 0.0, A: 0.0},)),
        expect=REFUTED,
        reason="x/tau + f (A - x) = (1/tau - f) x + f A: the two lines differ by 2 x/tau; the first line lacks the leak's minus sign",
        note="x, f, A real, tau > 0; f stands for f(x, u, t, theta) at one point",
    ),
    Obligation(
        "nac001.motivation.plugged_as_extracted",
        kind="as-printed",
        source=f"{SEED001}, Section 2.1, 'Plugging S_t yields dx_t/dt = -[-1/tau - f(x_t, u, t, theta)] x_t + f(x_t, u, t, theta) A' (line 155, as "
               "extracted: '[=] [ -] ( - [1] [-] [f] ... ) x_t + f A'; 000 line 25 prints -[1/tau + f] x + f A)",
        statement="001's plugged line as extracted, dx/dt = -[-1/tau - f] x + f A, is the LTC neuron -x/tau + f (A - x) (or the printed first line "
                  "x/tau + f (A - x))",
        check=AllOf(
            ltc=Identity(-(-1 / tau - f) * x + f * A, -x / tau + S, hints=({x: 1.0, tau: 1.0, f: 0.0, A: 0.0},)),
            printed_first_line=Identity(-(-1 / tau - f) * x + f * A, x / tau + S, hints=({x: 1.0, tau: 1.0, f: 1.0, A: 0.0},)),
        ),
        expect=REFUTED,
        reason="-[-1/tau - f] x + f A = (1/tau + f) x + f A differs from the LTC neuron by 2 (1/tau + f) x and from the printed first line by "
               "2 f x; one stray minus before 1/tau (000 prints -[1/tau + f] x + f A); the extraction of 001's minus signs is noisy",
        note="x, f, A real, tau > 0",
    ),
    Obligation(
        "nac.motivation.ltc_plugging.leaky",
        kind="correction",
        source=f"{SOURCE}, corrected: the leak's sign, -x/tau as in the LTC neuron (Hasani et al. 2021; 002, eq. 1), the sign the plugged "
               "result carries",
        statement="dx/dt = -x/tau + S with S = f (A - x) equals -[1/tau + f] x + f A",
        check=Identity(-x / tau + S, plugged),
        expect=HOLDS,
        reason="-x/tau + f A - f x = -(1/tau + f) x + f A",
    ),
]
