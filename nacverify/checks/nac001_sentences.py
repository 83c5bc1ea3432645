r"""Claims for the statements of 001 (the December 2025 preprint), lines 1-1256, that the ledger's
first reading left without an item (issue 43: every unit decided).

- *Cross-references* (``nac001.xref.*``): "The proof is provided in Appendix B.2", "refer to
  Appendix D.3.3". The appendix that a sentence names must exist in the document and hold what the
  sentence sends the reader there for. The appendix headings are read from the shipped document
  (`nacverify.ledger.units.document_text`): a heading is a line ``**B.2. Title**`` or
  ``D.3.1. TITLE``; the *span* of section $X$ runs from its heading to the next heading that is not a
  subsection of $X$ (001 prints A.2 after B.1, so the document's order, not the letters', decides).
  A topic is *in* the span when one of its words occurs there (case-insensitive).
- *Eq. 1 is a linear first-order ODE* (``nac001.eq1.linear_first_order``): the Abstract and
  Section 2 call the logit dynamics "a (first-order) linear ODE with nonlinear interlinked gates".
  With the gates functions of $u = [q; k]$ only (eq. 1, eqs. 15-16),
  $\dot a = -\omega_\tau(u)\,a + \phi(u)$ has order 1 and is affine in $a$ (SymPy classifies it
  ``1st_linear``), while $\phi = \sigma(\cdot)$ and $\omega_\tau = \mathrm{softplus}(\cdot) + \varepsilon$
  are nonlinear in their argument (second derivatives not identically zero).
- *Counts*: "The process involves five steps: (i) ... (v)"; "The transformation was done in two
  steps: (i) ..., and (ii) ..." (the same count as `nac_twins.count_claims`).
- *Table numbers in the text*: Section 3.3's "strong cross-validation capability" on the two data
  sets that Section 3.3 uses for cross-validation, and Section 3.4's "from 151.54 MB to 150.85 MB"
  against Table 2.
- *Section 2.3's "We now establish ... by extending the classical UAT"*: the proof's construction
  (Appendix B.3) is `nac.thm2.single_key_head_output`, counted once, at B.3 (issue 43's review: the sentence
  announces the extension; it cites that claim).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..claims import Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._tables import SEED000, SEED001, _s, dataset_table5, results_table, runtime_table

__all__ = ["appendix_sections", "section_span", "xref_outcome", "ledger_001a_claims"]

H, F = Verdict.HOLDS, Verdict.REFUTED

_HEADING = re.compile(r"^\s*(?:\*\*([A-D](?:\.\d+)*)\.\s+([^*]+?)\*\*|([A-D]\.\d+\.\d+)\.\s+([A-Z0-9][A-Z0-9 ().,&\-]+))\s*$")


@lru_cache(maxsize=None)
def appendix_sections(doc: str = "001") -> tuple[tuple[str, str, int], ...]:
    """(section id, title, 1-based line) of every appendix heading of the document, in the document's order."""
    from ..ledger.units import document_text

    out = []
    for number, line in enumerate(document_text(doc).splitlines(), 1):
        m = _HEADING.match(line)
        if m:
            sid, title = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            out.append((sid, title.strip(), number))
    return tuple(out)


def section_span(section: str, doc: str = "001") -> tuple[int, int, str] | None:
    """(first line, last line, title) of appendix `section`: from its heading to the line before the next heading that is
    not one of its subsections (the end of the document if none); None when the document has no such heading."""
    from ..ledger.units import document_text

    heads = appendix_sections(doc)
    total = len(document_text(doc).splitlines())
    for k, (sid, title, line) in enumerate(heads):
        if sid == section:
            end = next((ln - 1 for s, _, ln in heads[k + 1:] if not s.startswith(section + ".")), total)
            return line, end, title
    return None


def _span_text(section: str, doc: str = "001") -> str:
    from ..ledger.units import document_text

    span = section_span(section, doc)
    if span is None:
        return ""
    lines = document_text(doc).splitlines()
    return " ".join(lines[span[0] - 1:span[1]])


def xref_outcome(section: str, topics: dict[str, str], doc: str = "001") -> Outcome:
    """Does appendix `section` exist and hold every topic (a regular expression, case-insensitive) the sentence sends the
    reader there for? The witness of a missing topic names the appendix sections whose spans do hold it."""
    span = section_span(section, doc)
    heads = appendix_sections(doc)
    if span is None:
        return Outcome(F, f"the document has no Appendix {section} (its appendix headings: {', '.join(s for s, _, _ in heads)})",
                       Evidence({"appendix_sections": _s([s for s, _, _ in heads])}, {"section_found": 0}, {"section": section}))
    text = _span_text(section, doc)
    found = {name: bool(re.search(pattern, text, re.IGNORECASE)) for name, pattern in topics.items()}
    elsewhere = {name: [s for s, _, _ in heads if s != section and len(s) > 1 and re.search(topics[name], _span_text(s, doc), re.IGNORECASE)]
                 for name, ok in found.items() if not ok}
    arrays = {"topics": _s(list(topics)), "topic_found": np.array([int(v) for v in found.values()])}
    scalars = {"section_found": 1, "first_line": span[0], "last_line": span[1], "topics_found": sum(found.values()), "topics": len(topics)}
    where = f"Appendix {section} '{span[2]}' (lines {span[0]}-{span[1]})"
    if all(found.values()):
        return Outcome(H, f"{where} holds every topic: {', '.join(topics)}", Evidence(arrays, scalars, {}))
    missing = [name for name, ok in found.items() if not ok]
    detail = "; ".join(f"'{name}' is in {', '.join(elsewhere[name]) or 'no other appendix section'}" for name in missing)
    return Outcome(F, f"{where} has no {', '.join(repr(m) for m in missing)} ({detail})",
                   Evidence(arrays, scalars, {"section": section, "missing_topic": missing[0], "found_in": ", ".join(elsewhere[missing[0]])}))


# ----------------------------------------------------------------------------- eq. 1


def _eq1_linear() -> Outcome:
    import sympy as sp

    t, x, eps = sp.symbols("t x epsilon", real=True)
    q, k = sp.symbols("q k", real=True)
    omega_u, phi_u = sp.Function("omega_tau")(q, k), sp.Function("phi")(q, k)
    a = sp.Function("a")
    ode = sp.Eq(a(t).diff(t), -omega_u * a(t) + phi_u)
    order = sp.ode_order(ode, a(t))
    hints = sp.classify_ode(ode, a(t))
    rhs = ode.rhs.subs(a(t), x)
    affine = sp.simplify(sp.diff(rhs, x, 2)) == 0 and not sp.diff(rhs, x).has(x)
    sigma = 1 / (1 + sp.exp(-x))
    softplus = sp.log(1 + sp.exp(x)) + eps
    curvature = {name: sp.simplify(sp.diff(g, x, 2)) for name, g in (("phi = sigma(x)", sigma), ("omega = softplus(x) + eps", softplus))}
    nonlinear = {name: c != 0 and abs(float(c.subs({x: 0.5, eps: 0.1}))) > 0 for name, c in curvature.items()}
    scalars = {"order": int(order), "affine_in_a": int(affine), "first_order_linear_hint": int("1st_linear" in hints),
               "gates_nonlinear": int(all(nonlinear.values()))}
    msg = (f"da/dt = -omega_tau(u) a + phi(u): order {order}, d^2(rhs)/da^2 = 0 ({'affine' if affine else 'not affine'} in a), SymPy hints "
           f"{', '.join(h for h in hints if '1st' in h)}; gates' second derivatives " + ", ".join(f"{n}: {c}" for n, c in curvature.items()))
    ok = order == 1 and affine and "1st_linear" in hints and all(nonlinear.values())
    return Outcome(H if ok else F, msg, Evidence({}, scalars, {} if ok else scalars))


# ----------------------------------------------------------------------------- Table numbers in the text


def _cross_validation_first() -> Outcome:
    """Section 3.3 uses XJTU-SY and HUST 'to assess cross-validation': is the best printed score on each a NAC row?"""
    t = results_table("001")
    rows, ok = [], []
    for column in ("xjtu", "hust"):
        v = t.mean[column]
        i = int(np.argmin(v))  # lower is better (Score)
        j = int(np.flatnonzero(~t.nac)[np.argmin(v[~t.nac])])
        rows.append((column, t.models[i], float(v[i]), t.models[j], float(v[j])))
        ok.append(t.models[i].startswith("NAC-"))
    arrays = {"columns": _s([r[0] for r in rows]), "best_model": _s([r[1] for r in rows]), "best_score": np.array([r[2] for r in rows]),
              "best_baseline": _s([r[3] for r in rows]), "best_baseline_score": np.array([r[4] for r in rows])}
    msg = "; ".join(f"{c}: best {m} {s:g}, best baseline {b} {bs:g}" for c, m, s, b, bs in rows)
    if all(ok):
        return Outcome(H, f"001 Table 1 (lower is better): {msg}", Evidence(arrays, {"columns_nac_first": 2}, {}))
    c = rows[ok.index(False)]
    return Outcome(F, f"001 Table 1 (lower is better): {msg}", Evidence(arrays, {"columns_nac_first": sum(ok)}, {"column": c[0], "best": c[1]}))


def _par_sampling() -> Outcome:
    """Section 3.1's PAR sampling period against Appendix D.3.2's, both read from the document."""
    from ..ledger.units import flat_text

    text = flat_text("001")
    section = re.search(r"each equipped with inertial measurement sensors sampled every (\d+) ms", text)
    appendix = re.search(r"the sensors are sampled at a fixed interval of (\d+) ms", text)
    if section is None or appendix is None:
        return Outcome(F, "a sampling period is missing: " + ("Section 3.1" if section is None else "Appendix D.3.2"), Evidence({}, {}, {"found": 0}))
    a, b = int(section.group(1)), int(appendix.group(1))
    scalars = {"section_3_1_ms": a, "appendix_d32_ms": b}
    return Outcome(H if a == b else F, f"Section 3.1: sampled every {a} ms; Appendix D.3.2: a fixed interval of {b} ms", Evidence({}, scalars, {} if a == b else scalars))


def _emnist_pipeline_steps(stated: int = 2) -> Outcome:
    """Appendix D.3.1's description of the same transformation (Lechner & Hasani's pipeline): its ordinal steps, against the
    'two steps' of Section 3.1."""
    from ..ledger.units import flat_text

    text = flat_text("001")
    m = re.search(r"We follow the preprocessing pipeline described in \(Lechner & Hasani, 2022\), which proceeds as follows\.(.*?)\*\*Neural Network", text)
    if m is None:
        return Outcome(F, "Appendix D.3.1's preprocessing paragraph was not found", Evidence({}, {}, {"found": 0}))
    body = m.group(1)
    steps = re.findall(r"\b(First|Second|Third|Fourth|Finally),", body)
    binarize = bool(re.search(r"threshold is applied to convert the 8-bit pixel values into binary values", body))
    scalars = {"stated_steps": stated, "appendix_steps": len(steps), "appendix_binarizes_first": int(binarize)}
    msg = (f"Section 3.1: 'two steps' (flatten, encode 'the binary time series'); Appendix D.3.1 lists {len(steps)} ({', '.join(steps)}): "
           "threshold the 8-bit pixels to binary, reshape to length 784, event-encode, pad to 256 and normalize time")
    if len(steps) == stated:
        return Outcome(H, msg, Evidence({"ordinals": _s(steps)}, scalars, {}))
    return Outcome(F, msg + "; the binarization that step (ii) presupposes is none of Section 3.1's two steps",
                   Evidence({"ordinals": _s(steps)}, scalars, {"stated": stated, "appendix_steps": len(steps)}))


#: How each version cites the two lane-keeping networks (001: author-year; 000: citation keys).
_RAZZAQ = {"001": "Razzaq & Hongwei, 2023", "000": "razzaq2023neural"}
_BOJARSKI = {"001": "Bojarski et al., 2016", "000": "bojarski2016end"}


def _lane_keeping_models(doc: str = "001") -> Outcome:
    """Section 3.2's 'the AI models proposed by (Razzaq & Hongwei, 2023), replacing the recurrent layer' against Appendix D.3.3's
    two networks (000 prints the same sentences, with citation keys)."""
    from ..ledger.units import flat_text

    text = flat_text(doc)
    car = re.search(r"For OpenAI-CarRacing, we modified the neural network architecture proposed in \(([^)]*)\).*?the (LNN layers) were replaced with NAC", text)
    uda = re.search(r"For the Udacity simulator, we modified the network proposed in \(([^)]*)\) by replacing ([A-Za-z ]+?) with NAC", text)
    if car is None or uda is None:
        return Outcome(F, "Appendix D.3.3's architecture sentences were not found", Evidence({}, {}, {"found": 0}))
    rows = [("CarRacing", car.group(1), car.group(2)), ("Udacity", uda.group(1), uda.group(2))]
    ok = [source == _RAZZAQ[doc] and ("LNN" in replaced or "recurrent" in replaced) for _, source, replaced in rows]
    arrays = {"task": _s([r[0] for r in rows]), "network_from": _s([r[1] for r in rows]), "replaced": _s([r[2] for r in rows]),
              "matches_section_3_2": np.array(ok, int)}
    msg = "Appendix D.3.3: " + "; ".join(f"{t}: the network of ({src}), {rep} replaced by NAC" for t, src, rep in rows)
    if all(ok):
        return Outcome(H, msg, Evidence(arrays, {"tasks_matching": 2}, {}))
    t, src, rep = rows[ok.index(False)]
    return Outcome(F, msg + f": {t}'s network is not Razzaq & Hongwei's with a recurrent layer replaced",
                   Evidence(arrays, {"tasks_matching": sum(ok)}, {"task": t, "network_from": src, "replaced": rep}))


def _lane_keeping_corrected(doc: str = "001") -> Outcome:
    out = _lane_keeping_models(doc)
    net = dict(zip(out.evidence.arrays.get("task", []), out.evidence.arrays.get("network_from", [])))
    ok = net.get("CarRacing") == _RAZZAQ[doc] and net.get("Udacity") == _BOJARSKI[doc]
    return Outcome(H if ok else F, out.message.split(": CarRacing's")[0].split(": Udacity's")[0], Evidence(out.evidence.arrays, {"corrected_matches": int(ok)}, {}))


def _bridges_continuous() -> Outcome:
    """Section 1's named limitation of dot-product attention, discreteness: NAC's logit (eq. 17) is the solution of eq. 1 at every
    real pseudo-time t >= 0, continuous in t, and it responds to t (its t-derivative is not identically zero)."""
    import sympy as sp

    t, phi, omega = sp.symbols("t phi omega", positive=True)
    logit = phi / omega * (1 - sp.exp(-omega * t))
    residual = sp.simplify(sp.diff(logit, t) - (-omega * logit + phi))
    rate = sp.simplify(sp.diff(logit, t))
    continuous = sp.calculus.util.continuous_domain(logit, t, sp.Interval(0, sp.oo)) == sp.Interval(0, sp.oo)
    ok = residual == 0 and continuous and rate != 0
    scalars = {"ode_residual_zero": int(residual == 0), "continuous_on_t_ge_0": int(continuous), "depends_on_t": int(rate != 0)}
    msg = f"eq. 17 a(t) = {logit}: d/dt a + omega a - phi = {residual}; continuous on [0, oo): {continuous}; da/dt = {rate}"
    return Outcome(H if ok else F, msg, Evidence({}, scalars, {} if ok else scalars))


def _bridges_quadratic(ctx) -> Outcome:
    """The quadratic cost of dot-product attention, which Section 1 names ('to reduce computational cost, particularly for long
    sequences') and Section 4 concedes ('it still computes the full QK^T matrix'): NAC's Top-K scores S = Q K^T (Algorithm 2, line 1)
    cost 2 H D n^2 FLOPs, the count of nac001.s2_2.S_quadratic."""
    from .nac_curation_cost import _s_quadratic_check

    out = _s_quadratic_check(ctx)
    slope = float(out.evidence.scalars["slope_flops"])
    free = slope < 2 - 1e-9
    msg = f"NAC's score stage S = Q K^T (Algorithm 2): {out.message}; so NAC keeps dot-product attention's O(n^2) score cost"
    return Outcome(H if free else F, msg, Evidence(out.evidence.arrays, dict(out.evidence.scalars), {} if free else {"slope_flops": slope}))


def _bearings(cell: str) -> list[int]:
    """The bearings of a printed range '4~7' (4, 5, 6, 7); none for an empty cell."""
    if not cell:
        return []
    lo, hi = (int(x) for x in cell.split("~"))
    return list(range(lo, hi + 1))


def _table5_protocol(what: str) -> Outcome:
    """Section 3.3's protocol against Table 5. what 'training': only PRONOSTIA has training bearings; 'bearing1': Bearing 1 of
    condition 1 is a test bearing of every data set (not a training one)."""
    rows = dataset_table5()
    names = list(dict.fromkeys(r["dataset"] for r in rows))
    train = {d: sum(len(_bearings(r["train"])) for r in rows if r["dataset"] == d) for d in names}
    first = {d: next(r for r in rows if r["dataset"] == d and r["condition"] == "1") for d in names}
    arrays = {"dataset": _s(names), "training_bearings": np.array([train[d] for d in names]),
              "condition1_test": _s([first[d]["test"] for d in names]), "condition1_train": _s([first[d]["train"] or "-" for d in names])}
    if what == "training":
        ok = train["PRONOSTIA"] > 0 and all(train[d] == 0 for d in names if d != "PRONOSTIA")
        msg = "Table 5 training bearings: " + ", ".join(f"{d} {train[d]}" for d in names)
        return Outcome(H if ok else F, msg, Evidence(arrays, {"datasets_with_training": sum(v > 0 for v in train.values())}, {} if ok else {"training": msg}))
    bad = [d for d in names if 1 not in _bearings(first[d]["test"]) or 1 in _bearings(first[d]["train"])]
    msg = "Table 5, condition 1: " + "; ".join(f"{d} test {first[d]['test']}, train {first[d]['train'] or '-'}" for d in names)
    return Outcome(H if not bad else F, msg, Evidence(arrays, {"datasets_bearing1_tested": len(names) - len(bad)}, {"dataset": bad[0]} if bad else {}))


def _sparsity_memory_values(printed_from: float = 151.54, printed_to: float = 150.85) -> Outcome:
    """The two memories the sentence prints against Table 2's NAC-02s (20 %) and NAC-09s (90 %) rows."""
    t = runtime_table("001")
    m02, m09 = float(t.memory[t.index("NAC-02s")]), float(t.memory[t.index("NAC-09s")])
    scalars = {"printed_from_mb": printed_from, "printed_to_mb": printed_to, "nac_02s_mb": m02, "nac_09s_mb": m09}
    ok = printed_from == m02 and printed_to == m09
    msg = f"Table 2: NAC-02s (20%) {m02:g} MB, NAC-09s (90%) {m09:g} MB; the sentence prints 'from {printed_from:g} MB to {printed_to:g} MB'"
    return Outcome(H if ok else F, msg, Evidence({}, scalars, {} if ok else scalars))


# ----------------------------------------------------------------------------- claims

XREFS = (
    # (suffix, section, where, quote, topics, expected, reason)
    ("A1", "A.1", "Section 2, first sentence", "formulation of the attention logits a (refer to Appendix A.1 for more information)",
     {"attention logits": r"attention"}, H, "A.1 is 'Attention Mechanism'"),
    ("A2", "A.2", "Section 1, last paragraph", "Neuronal Circuit Policies (NCPs) from the nervous system of C. elegans nematode (refer to Appendix A.2 for more information)",
     {"NCPs": r"Neuronal Circuit Policies|NCP"}, H, "A.2 is 'Neuronal Circuit Policies (NCPs)'"),
    ("B1", "B.1", "Section 2, after eq. 3", "The full derivation is provided in Appendix B.1.",
     {"derivation of the closed form": r"closed-form"}, H, "B.1 is 'Deriving Closed-form (Exact) Solution'"),
    ("B2", "B.2", "Theorem 1, last sentence", "The proof is provided in the Appendix B.2.",
     {"proof of Theorem 1": r"Theorem 1"}, H, "B.2 is 'Proof of Theorem 1'"),
    ("B3", "B.3", "Theorem 2, last sentence", "The proof is provided in Appendix B.3.",
     {"proof of Theorem 2": r"Theorem 2"}, H, "B.3 is 'Proof for Theorem 2'"),
    ("D2", "D.2", "Section 2.2, Attention output", "Sensitivity to attention output w.r.t δt is visualized in Appendix D.2.",
     {"sensitivity to delta t": r"sensitivity of NAC to _δt_|Effect of _δt_"}, H, "D.2 ends with Figure 4, 'Effect of δt on output of NAC'"),
    ("D33", "D.3.3", "Section 3.2, last paragraph", "To visualize saliency maps for these experiments, refer to Appendix D.3.3.",
     {"saliency maps": r"saliency"}, H, "D.3.3 holds the saliency maps (Figures 5 and 6)"),
)
D3_TOPICS = {"baselines": r"baseline", "ablation": r"ablation", "environment": r"environment|simulator",
             "data curation and preprocessing": r"curation|preprocessing", "neural network architectures": r"architecture"}
D3_QUOTE = ("Table 1 provides results for all experiments, and the details of the baselines, ablation, environment utilized, the data "
            "curation and preprocessing, and neural network architectures for all experiments are provided in the Appendix D.3.")


def _xref_claims() -> list[Claim]:
    out = [Claim(id=f"nac001.xref.{suffix}", source=f"{SEED001}, {where}, '{quote}'",
                 statement=f"Appendix {section} exists and holds what the sentence points to: {', '.join(topics)}",
                 assumptions="appendix headings and spans read from the document (a span ends at the next heading that is not a subsection); "
                             "a topic is there when one of its words occurs in the span",
                 expected=expected, expected_reason=reason, check=lambda ctx, section=section, topics=topics: xref_outcome(section, topics),
                 group="text", kind=Kind.AS_PRINTED)
           for suffix, section, where, quote, topics, expected, reason in XREFS]
    out += [
        Claim(id="nac001.xref.D3", source=f"{SEED001}, Section 3, first paragraph, '{D3_QUOTE}'",
              statement="Appendix D.3 holds the details of all five topics: baselines, ablation, environment, data curation and preprocessing, "
                        "neural network architectures",
              assumptions="D.3's span runs from 'D.3. Experimental Details' to the end of the document; a topic is there when one of its words occurs",
              expected=F, expected_reason="D.3 never mentions the ablations: they are described in D.2 'Ablations Details' (the baselines in D.1 "
                                          "'Related Works', and D.3's 'Baselines Hyperparameters Clarification')",
              check=lambda ctx: xref_outcome("D.3", D3_TOPICS), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac001.xref.D3.appendix_D", source=f"{SEED001}, Section 3, first paragraph, '{D3_QUOTE}'",
              statement="corrected pointer 'Appendix D': Appendix D (D.1 Related Works, D.2 Ablations Details, D.3 Experimental Details) holds all five topics",
              assumptions="D's span runs from 'D. Evaluation' to the end of the document",
              expected=H, expected_reason="D.1 describes the baselines, D.2 the ablations, D.3 the environments, curation, preprocessing and architectures",
              check=lambda ctx: xref_outcome("D", D3_TOPICS), group="text", kind=Kind.CORRECTION),
    ]
    return out


def _count_claims() -> list[Claim]:
    from .nac_twins import _count_check, stated_and_listed

    sentences = (
        ("design-steps", "Section 2.2, first paragraph",
         "The process involves five steps: (i) repurposing NCPs; (ii) input curation; (iii) construction of the time vector ( _t_ ); "
         "(iv) computing attention logits and weights; and (v) generating the attention output."),
        ("emnist-steps", "Section 3.1, Event-based MNIST",
         "The transformation was done in two steps: (i) flattening each 28×28 image into a time series of length 784, and (ii) encoding "
         "the binary time series into an event-based format by collapsing consecutive identical values (e.g., 1,1,1,1 → (1, t=4))."),
    )
    out = []
    for key, where, sentence in sentences:
        stated, _, _ = stated_and_listed(sentence, None)
        out.append(Claim(id=f"nac001.count.{key}", source=f"{SEED001}, {where}, '{sentence[:90]}...'",
                         statement=f"the number in words ({stated}) equals the number of entries the sentence lists",
                         assumptions="the sentence as printed; entries are its enumerators (i), (ii), ...",
                         expected=H, expected_reason="as many enumerated entries as the number says",
                         check=lambda ctx, sentence=sentence: _count_check(sentence, None), group="text", kind=Kind.AS_PRINTED))
    return out


def ledger_001a_claims() -> list[Claim]:
    return _xref_claims() + _count_claims() + [
        Claim(id="nac001.eq1.linear_first_order",
              source=f"{SEED001}, Abstract, 'reformulates attention logits computation as the solution to a linear first-order ODE with nonlinear "
                     "interlinked gates'; Section 2, 'interpreting them as the solution to a first-order linear ODE modulated by nonlinear, interlinked gates' (eq. 1)",
              statement="eq. 1, da/dt = -omega_tau(u) a + phi(u) with gates of u = [q; k] only, is a first-order ODE, linear (affine) in a, and its "
                        "gates phi = sigma(.) (eq. 15) and omega_tau = softplus(.) + eps (eq. 16) are nonlinear functions",
              assumptions="eq. 1 as printed: the gates take [q; k] and their parameters, not a_t; SymPy's ode_order and classify_ode",
              expected=H, expected_reason="order 1, d^2(rhs)/da^2 = 0, SymPy hint 1st_linear; sigma'' and softplus'' are not identically zero",
              check=lambda ctx: _eq1_linear(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac001.table1.cross_validation_first",
              source=f"{SEED001}, Section 3.3, 'These results demonstrated the strong cross-validation capability of NAC' (XJTU-SY and HUST "
                     "'are used to assess cross-validation')",
              statement="on both cross-validation data sets (XJTU-SY, HUST) the best printed Score of Table 1 is a NAC row's",
              assumptions="001 Table 1's printed means; Score: lower is better",
              expected=H, expected_reason="XJTU-SY: NAC-Exact/05s/8k 19.87 (best baseline CTA 25.86); HUST: NAC-Exact/05s/8k 27.82 (best baseline CTA 38.41)",
              check=lambda ctx: _cross_validation_first(), group="text", kind=Kind.READING,
              reading="'strong cross-validation capability' = a NAC variant scores best on each data set used for cross-validation"),
        Claim(id="nac001.table2.sparsity_memory.values",
              source=f"{SEED001}, Section 3.4, 'Reducing NAC sparsity from 90% to 20% has minimal effect on memory, decreasing usage slightly from "
                     "151.54 MB to 150.85 MB' (the numbers, after Table 2)",
              statement="the two printed memories are Table 2's: 151.54 MB is NAC-02s (20%) and 150.85 MB is NAC-09s (90%)",
              assumptions="001 Table 2 as printed",
              expected=H, expected_reason="Table 2 prints NAC-02s 151.54 MB and NAC-09s 150.85 MB (the direction of the change is "
                                          "nac001.table2.sparsity_memory.direction's)",
              check=lambda ctx: _sparsity_memory_values(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac001.s3_1.par_sampling",
              source=f"{SEED001}, Section 3.1, PAR, 'each equipped with inertial measurement sensors sampled every 211 ms'; Appendix D.3.2, "
                     "'the sensors are sampled at a fixed interval of 211 ms'",
              statement="Section 3.1's PAR sampling period equals Appendix D.3.2's",
              assumptions="both sentences as printed in the document",
              expected=H, expected_reason="both print 211 ms",
              check=lambda ctx: _par_sampling(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac001.count.emnist-steps.d31",
              source=f"{SEED001}, Section 3.1, 'The transformation was done in two steps: (i) flattening ..., and (ii) encoding the binary time "
                     "series ...'; Appendix D.3.1, Preprocessing, 'We follow the preprocessing pipeline described in (Lechner & Hasani, 2022), which "
                     "proceeds as follows. First, ... Second, ... Third, ... Finally, ...'",
              statement="the transformation that the document describes step by step in Appendix D.3.1 has two steps",
              assumptions="Appendix D.3.1's steps are its ordinals First, Second, Third, Finally (the same Lechner & Hasani transformation)",
              expected=F, expected_reason="D.3.1 lists four steps (threshold to binary, reshape to 784, event-encode, pad to 256); three without "
                                          "the batching step, and the binarization that Section 3.1's step (ii) presupposes is none of its two",
              check=lambda ctx: _emnist_pipeline_steps(), group="text", kind=Kind.READING,
              reading="'done in two steps' counts the steps of the transformation as the document itself describes it in Appendix D.3.1"),
        Claim(id="nac001.s3_2.models_from_razzaq",
              source=f"{SEED001}, Section 3.2, 'We implemented the AI models proposed by (Razzaq & Hongwei, 2023), replacing the recurrent layer "
                     "with NAC and its counterparts' (after the CarRacing and Udacity tasks); Appendix D.3.3, Neural Network Architecture",
              statement="both lane-keeping models (CarRacing and Udacity) are Razzaq & Hongwei (2023)'s with a recurrent layer replaced by NAC",
              assumptions="Appendix D.3.3's architecture sentences as printed (the network each task modifies and what it replaces)",
              expected=F, expected_reason="D.3.3: Udacity modifies Bojarski et al. (2016)'s network, replacing three latent MLP layers "
                                          "(Table 4's Udacity conv stack, 5x 2D 24-64@5-3 ELU, is not CarRacing's 3x TD-2D); only CarRacing is Razzaq & Hongwei's",
              check=lambda ctx: _lane_keeping_models(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac001.s3_2.models_per_task",
              source=f"{SEED001}, Section 3.2, 'We implemented the AI models proposed by (Razzaq & Hongwei, 2023), replacing the recurrent layer "
                     "with NAC and its counterparts', corrected by Appendix D.3.3",
              statement="corrected: CarRacing uses Razzaq & Hongwei (2023)'s network with its LNN layers replaced, Udacity Bojarski et al. (2016)'s "
                        "with three latent MLP layers replaced (Appendix D.3.3)",
              assumptions="Appendix D.3.3's architecture sentences as printed",
              expected=H, expected_reason="D.3.3 says exactly this",
              check=lambda ctx: _lane_keeping_corrected(), group="text", kind=Kind.CORRECTION),
        Claim(id="nac000.s3_2.models_from_razzaq",
              source=f"{SEED000}, Section 3.2, 'We implemented the AI models proposed by (razzaq2023neural), replacing the recurrent layer "
                     "with NAC and its counterparts'; Appendix D.3.3, Neural Network Architecture",
              statement="both lane-keeping models (CarRacing and Udacity) are razzaq2023neural's with a recurrent layer replaced by NAC",
              assumptions="Appendix D.3.3's architecture sentences as printed (000, the same as 001's)",
              expected=F, expected_reason="D.3.3: Udacity modifies bojarski2016end's network, replacing three latent MLP layers",
              check=lambda ctx: _lane_keeping_models("000"), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.s3_2.models_per_task",
              source=f"{SEED000}, Section 3.2, 'We implemented the AI models proposed by (razzaq2023neural), ...', corrected by Appendix D.3.3",
              statement="corrected: CarRacing uses razzaq2023neural's network with its LNN layers replaced, Udacity bojarski2016end's with three "
                        "latent MLP layers replaced (Appendix D.3.3)",
              assumptions="Appendix D.3.3's architecture sentences as printed", expected=H, expected_reason="D.3.3 says exactly this",
              check=lambda ctx: _lane_keeping_corrected("000"), group="text", kind=Kind.CORRECTION),
        Claim(id="nac001.s5.bridges.continuous",
              source=f"{SEED001}, Section 5, 'NAC bridges discrete attention with continuous-time dynamics, enabling adaptive temporal processing "
                     "without the limitations inherent to traditional scaled dot-product attention'",
              statement="NAC's logit is free of the limitation that Section 1 names for dot-product attention (discrete operations that limit "
                        "modelling continuous trajectories): eq. 17's logit solves eq. 1 at every pseudo-time t >= 0, is continuous in t and depends on it",
              assumptions="eq. 17 (a0 = 0) with phi, omega_tau > 0 constants over the pseudo-time interval (frozen coefficients, eq. 3)",
              expected=H, expected_reason="a(t) = (phi/omega)(1 - e^{-omega t}) satisfies a' = -omega a + phi, is continuous, and a' = phi e^{-omega t} != 0",
              check=lambda ctx: _bridges_continuous(), group="text", kind=Kind.READING,
              reading="'the limitations inherent to traditional scaled dot-product attention' = the one Section 1 names for it, discrete "
                      "operations that limit modelling continuous trajectories"),
        Claim(id="nac001.s5.bridges.quadratic",
              source=f"{SEED001}, Section 5, 'without the limitations inherent to traditional scaled dot-product attention'; Section 1, attention "
                     "variants 'reduce computational cost, particularly for long sequences'; Section 2.2 'the initial computation of S remains "
                     "quadratic'; Section 4 'it still computes the full QK^T matrix, which can dominate the cost for very long sequences'",
              statement="NAC is free of dot-product attention's quadratic cost in the sequence length: its score stage grows slower than n^2",
              assumptions="Algorithm 2's S = Q K^T over T_q = T_k = n, counted as in nac001.s2_2.S_quadratic (H = 4, D = 16, n = 256..4096)",
              expected=F, expected_reason="S = Q K^T costs 2 H D n^2 FLOPs (slope exactly 2), as Sections 2.2 and 4 themselves say",
              check=_bridges_quadratic, group="complexity", kind=Kind.READING,
              reading="'without the limitations inherent to traditional scaled dot-product attention' includes its quadratic cost in the "
                      "sequence length, a limitation of attention that Section 1 names (the sparse variants 'reduce computational cost, "
                      "particularly for long sequences')"),
        Claim(id="nac001.table5.training_on_pronostia",
              source=f"{SEED001}, Section 3.3, 'Training is performed on PRONOSTIA, while XJTU-SY and HUST are used to assess cross-validation'",
              statement="in Table 5 only PRONOSTIA has training bearings; XJTU-SY and HUST have test bearings only",
              assumptions="001 Table 5's Train and Test cells as printed",
              expected=H, expected_reason="PRONOSTIA condition 1 trains on bearings 4~7; every XJTU-SY and HUST Train cell is '-'",
              check=lambda ctx: _table5_protocol("training"), group="tables", kind=Kind.AS_PRINTED),
        Claim(id="nac001.table5.bearing1_tested",
              source=f"{SEED001}, Section 3.3, 'We evaluate generalization using Bearing 1 from the first operating condition of each dataset'",
              statement="Bearing 1 of condition 1 is a test bearing (not a training one) of each of the three data sets in Table 5",
              assumptions="001 Table 5's Train and Test cells as printed",
              expected=H, expected_reason="condition 1 tests 1~3 (PRONOSTIA), 1~5 (XJTU-SY, HUST); PRONOSTIA trains on 4~7",
              check=lambda ctx: _table5_protocol("bearing1"), group="text", kind=Kind.AS_PRINTED),
    ]


add_provider(ledger_001a_claims)
