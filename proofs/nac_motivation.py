"""The LNN neuron that motivates NAC (000 and 001, Section 2.1, 'Motivation behind this formulation'):
a formula attributed to another work (Hasani et al. 2021, the LTC neuron, 002 eq. 1), then a
substitution.

    dx/dt = x/tau + S,          S = f(x, u, t, theta) (A - x)          (as printed)
    dx/dt = -[1/tau + f] x + f A                                      ('Plugging S yields')

Substituting S into the printed first line gives (1/tau - f) x + f A: the plug-in result holds only
with the leak -x/tau of the LTC neuron (002: dx/dt = -x/tau + S), the sign the result itself carries.
"""

from sympy import Symbol, symbols

from nacverify.symbolic import HOLDS, REFUTED, SEED000, SEED001, Identity, Obligation

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
        "nac.motivation.ltc_plugging.leaky",
        kind="reading",
        reading="the first line read with the LTC neuron's leak -x/tau (Hasani et al. 2021; 002, eq. 1), the sign the plugged result carries",
        source=SOURCE,
        statement="dx/dt = -x/tau + S with S = f (A - x) equals -[1/tau + f] x + f A",
        check=Identity(-x / tau + S, plugged),
        expect=HOLDS,
        reason="-x/tau + f A - f x = -(1/tau + f) x + f A",
    ),
]
