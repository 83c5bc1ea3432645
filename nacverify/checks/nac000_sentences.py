r"""Claims of document 000's sentences that the sentence map (issue 43) found without an item.

Claims ``nac000.ledger.*``: each checks one sentence of 000 against the document's own text, tables
and equations, read from the document shipped in the package (`nacverify.ledger.units.document_text`).

- *Cross-references* (``xref.*``): "The proof is provided in Appendix B.2", "Figure 3 visualizes the
  expected degradation", "details ... are provided in Appendix D.3". The referenced heading or caption
  must exist and carry the topic the sentence names (the topic words are listed per claim). Figures are
  not in the text, so a figure reference is checked against its caption only.
- *Counts* (``count.*``): a number in words against the entries listed after it or the headed paragraphs
  that follow (the rule of `nacverify.checks.nac_twins.stated_and_listed`).
- *Arithmetic and derivation steps*: :math:`28 \times 28 = 784`; eq. 42 printed as eq. 34 ("which is
  Eqn. 34"); :math:`-\omega_\tau(a - A) = 0` has the single root :math:`a = A` for
  :math:`\omega_\tau > 0`; a softmax over one logit is :math:`e^{a}/e^{a} = 1`.
- *Table 4*: the Dense row's output widths against the classes the text lists, and the Loss row against
  the head (softmax heads with sparse categorical cross-entropy, linear heads with MSE).
- *Section 3's baselines*: Table 1's rows contain members of each of D.1's four families and NAC
  ablations.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import sympy as sp

from ..claims import Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..ledger.units import document_text
from ._tables import SEED000, dataset_facts, hyperparameter_table, results_table
from .nac_twins import _count_check

__all__ = ["ledger000_claims"]

DOCUMENT = "000"


@lru_cache(maxsize=1)
def _lines() -> tuple[str, ...]:
    return tuple(document_text(DOCUMENT).splitlines())


def _line_starting(prefix: str) -> tuple[int, str]:
    """(1-based line, text) of the first line that starts with `prefix` (a heading or caption)."""
    for number, text in enumerate(_lines(), start=1):
        if text.strip().startswith(prefix):
            return number, text.strip()
    raise LookupError(f"no line of document {DOCUMENT} starts with {prefix!r}")


def _equation_line(tag: int) -> tuple[int, str]:
    """(1-based line, LaTeX) of the display equation tagged ``(tag)``: the text after the rendered glyphs."""
    for number, text in enumerate(_lines(), start=1):
        stripped = text.strip()
        if stripped.endswith(f"({tag})"):
            return number, stripped[: -len(f"({tag})")].strip()
    raise LookupError(f"no equation ({tag}) in document {DOCUMENT}")


def _section_text(first_heading: str, next_heading: str) -> str:
    """The document's lines from the heading `first_heading` up to (not including) `next_heading`."""
    start, _ = _line_starting(first_heading)
    end, _ = _line_starting(next_heading)
    return "\n".join(_lines()[start - 1 : end - 1])


def _sentence(starting: str, ending: str) -> str:
    """The document's sentence that starts with `starting` and ends with `ending` (whitespace folded)."""
    flat = re.sub(r"\s+", " ", document_text(DOCUMENT))
    begin = flat.index(starting)
    stop = flat.index(ending, begin) + len(ending)
    return flat[begin:stop]


# ----------------------------------------------------------------------------- cross-references


def _xref(label: str, topic_words: tuple[str, ...]) -> Outcome:
    """The heading or caption starting with `label` exists and names every word of `topic_words`."""
    try:
        line, text = _line_starting(label)
    except LookupError:
        return Outcome(Verdict.REFUTED, f"the document has no heading or caption '{label}'", Evidence({}, {}, {"label": label}))
    missing = [word for word in topic_words if word.lower() not in text.lower()]
    scalars: dict[str, float | int | str] = {"line": line, "heading": text[:120], "topic_words": ", ".join(topic_words)}
    if missing:
        return Outcome(Verdict.REFUTED, f"'{label}' (line {line}: '{text[:100]}') does not name {missing}",
                       Evidence({}, scalars, {"label": label, "missing": ", ".join(missing)}))
    return Outcome(Verdict.HOLDS, f"'{label}' is line {line}: '{text[:100]}', which names {', '.join(topic_words)}", Evidence({}, scalars, {}))


#: (claim suffix, where, quoted words, label, topic words the heading or caption must name)
XREFS = (
    ("appendix_a2", "Section 2, first sentence", "refer to Appendix A.2 for more information", "A.2 ", ("Attention",)),
    ("appendix_b1", "Section 2, after eq. 3", "The detailed derivation and analysis are provided in Appendix B.1.", "B.1 ", ("Closed-form",)),
    ("appendix_b2", "Section 2.1.1, after eq. 5", "The proof is provided in the Appendix B.2.", "B.2 ", ("Proof", "Theorem 1")),
    ("appendix_b3", "Section 2.3, after eq. 20", "The proof is provided in Appendix B.3.", "B.3 ", ("Proof", "Theorem 2")),
    ("appendix_c2", "Section 2.2, Input Curation", "The efficiency and complexity comparison is provided in Appendix C.2.", "C.2 ", ("Efficiency", "Complexity")),
    ("appendix_d31", "Appendix D.3.2, architecture", "Following the approach in Section D.3.1", "D.3.1 ", ("MNIST",)),
    ("algorithm1", "Section 2.2, Repurposing NCPs", "Algorithm 1 summarizes the steps for repurposing the NCPs wiring mechanism.", "Algorithm 1 ", ("Repurposed", "NCP")),
    ("figure1a", "Appendix A.1, last sentence", "Figure 1(a) illustrates the connectome of NCPs.", "Figure 1:", ("(a) NCPs",)),
    ("figure2", "Section 2.2, first paragraph", "Figure 2 provides a graphical overview of NAC.", "Figure 2:", ("Neuronal Attention Circuit",)),
    ("figure3", "Section 3.3", "Figure 3 visualizes the expected degradation alongside the outputs of NAC.", "Figure 3:", ("Degradation",)),
    ("figure4", "Section 3.4", "Figure 4 illustrates the cell-level neuron states of NAC.", "Figure 4:", ("NAC cell activity",)),
    ("figure5", "Appendix B.1.2", "An illustration of oscillatory evolution is shown in Figure 5.", "Figure 5:", ("oscillatory evolution",)),
    ("figure6", "Appendix D.3.3, saliency maps", "Figure 6 shows the saliency maps for the OpenAI CarRacing environment.", "Figure 6:", ("Saliency", "CarRacing")),
    ("figure7", "Appendix D.3.3, saliency maps", "Figure 7 also presents the saliency maps for the Udacity Simulator.", "Figure 7:", ("Saliency", "Udacity")),
    ("table2", "Appendix B.1.2", "Table 2 summarizes the empirical results.", "Table 2:", ("Empirical", "frozen-coefficient")),
    ("table3", "Appendix C.2, first sentence", "Table 3 summarizes the computational complexity of different sequence models.", "Table 3:", ("complexity",)),
    ("table4", "Appendix D.3 (each architecture paragraph)", "Detailed hyperparameters and architectural specifications are provided in Table 4.", "Table 4:",
     ("Hyperparameters", "All Experiments")),
)


def _xref_claims() -> list[Claim]:
    out = []
    for suffix, where, words, label, topic in XREFS:
        out.append(Claim(
            id=f"nac000.ledger.xref.{suffix}", source=f"{SEED000}, {where}, '{words}'",
            statement=f"the document has a heading or caption '{label.strip()}' and it names {', '.join(topic)}",
            assumptions="the reference as printed; a heading's or caption's own words decide its topic (figures are not in the text)",
            expected=Verdict.HOLDS, expected_reason=f"'{label.strip()}' exists and names {', '.join(topic)}",
            check=lambda ctx, label=label, topic=topic: _xref(label, topic), group="text", kind=Kind.AS_PRINTED))
    return out


def _mode_equations() -> Outcome:
    """Eqns. 2, 3 and 18 are the logits of the Euler, Exact and Steady modes (Section 1's three modes)."""
    euler = _equation_line(2)[1]
    exact = _equation_line(3)[1]
    steady = _equation_line(18)[1]
    checks = {"eq. 2 is the explicit Euler update a_{n+1} = a_n + dt(...)": "a_{n+1}=a_{n}+\\Delta t" in euler,
              "eq. 3 is the closed form with e^{-omega t}": "e^{-\\omega_{\\tau}t}" in exact and "a^{*}" in exact,
              "eq. 18 is the steady state phi/omega": "\\frac{\\phi}{\\omega_{\\tau}}" in steady and "a^{*}" in steady}
    text = "; ".join(f"{k}: {'yes' if v else 'no'}" for k, v in checks.items())
    scalars = {"eq2": euler[:80], "eq3": exact[:80], "eq18": steady[:80]}
    if all(checks.values()):
        return Outcome(Verdict.HOLDS, text, Evidence({}, scalars, {}))
    return Outcome(Verdict.REFUTED, text, Evidence({}, scalars, {"failed": next(k for k, v in checks.items() if not v)}))


#: the topics that Section 3's sentence says Appendix D.3 details, and the words that would show each in D.3's text
D3_TOPICS = {"baselines": ("baseline",), "ablations": ("ablation",), "environments": ("simulator", "environment"), "data": ("dataset",),
             "preprocessing": ("preprocessing",), "neural network architectures": ("neural network architecture",)}


def _details_in(first_heading: str, next_heading: str) -> Outcome:
    """Every topic of Section 3's list is treated in the document between the two headings."""
    text = _section_text(first_heading, next_heading).lower()
    found = {topic: any(word in text for word in words) for topic, words in D3_TOPICS.items()}
    missing = [topic for topic, ok in found.items() if not ok]
    arrays = {"topic": np.array(list(found), dtype=object).astype(str), "treated": np.array([int(ok) for ok in found.values()])}
    where = f"'{first_heading.strip()}' up to '{next_heading.strip()}'"
    if not missing:
        return Outcome(Verdict.HOLDS, f"{where} treats {', '.join(found)}", Evidence(arrays, {}, {}))
    ablations, _ = _line_starting("D.2 ")
    return Outcome(Verdict.REFUTED, f"{where} never mentions {', '.join(missing)}; the ablations are described in 'D.2 Ablations Details' (line {ablations})",
                   Evidence(arrays, {"topics_missing": len(missing)}, {"missing": ", ".join(missing)}))


# ----------------------------------------------------------------------------- counts, arithmetic, derivation steps


#: (claim suffix, where, first words of the sentence, last words of the sentence)
COUNTS = (
    ("design_steps", "Section 2.2, first paragraph", "The process involves five steps:", "generating the attention output."),
    ("emnist_steps", "Section 3.1, Event-based MNIST", "The transformation was performed in two steps:", "(1, t=4))."),
    ("b2_parts", "Appendix B.2, first paragraph", "We divide the proof into two parts:", "multi-connection case M>1M>1."),
)


def _d1_headings() -> tuple[str, ...]:
    """The paragraph labels ('DT-RNNs:', ...) that follow D.1's first sentence, up to D.2."""
    text = _section_text("D.1 ", "D.2 ")
    return tuple(m.group(1) for m in re.finditer(r"^([A-Z][\w-]*(?: [\w-]+)?):", text, flags=re.MULTILINE))


def _count_claims() -> list[Claim]:
    out = []
    for suffix, where, start, end in COUNTS:
        out.append(Claim(
            id=f"nac000.ledger.count.{suffix}", source=f"{SEED000}, {where}, '{start} ...'",
            statement="the number in words equals the number of entries (i), (ii), ... the sentence lists",
            assumptions="the sentence as printed", expected=Verdict.HOLDS, expected_reason="as many entries as the number says",
            check=lambda ctx, start=start, end=end: _count_check(_sentence(start, end), None), group="text", kind=Kind.AS_PRINTED))
    out.append(Claim(
        id="nac000.ledger.count.d1_subcategories", source=f"{SEED000}, Appendix D.1, 'The brief descriptions of related works are divided into four subcategories.'",
        statement="four headed paragraphs follow the sentence in D.1",
        assumptions="the labelled paragraphs between D.1's heading and D.2's", expected=Verdict.HOLDS,
        expected_reason="DT-RNNs, CT-RNNs, DT-Attentions, CT-Attentions",
        check=lambda ctx: _count_check("divided into four subcategories", _d1_headings()), group="text", kind=Kind.AS_PRINTED))
    return out


def _emnist_784() -> Outcome:
    printed = []
    for start, end in (("(i) flattening each 28×28 image", "length 784"), ("Second, each 28×2828", "length 784.")):
        sentence = _sentence(start, end)
        # D.3.1 prints the rendered glyphs, then the LaTeX ("28×2828\\times 28"): the right factor is read from the LaTeX where there is one
        right = re.search(r"\\times\s*(\d+)", sentence) or re.search(r"×(\d+)", sentence)
        side = [int(re.search(r"(\d+)×", sentence).group(1)), int(right.group(1))]
        length = int(re.findall(r"length (\d+)", sentence)[0])
        printed.append((side, length))
    ok = all(side[0] * side[1] == length for side, length in printed)
    text = "; ".join(f"{side[0]} x {side[1]} = {side[0] * side[1]}, printed {length}" for side, length in printed)
    scalars = {"product": printed[0][0][0] * printed[0][0][1], "printed": printed[0][1]}
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, text, Evidence({}, scalars, {} if ok else {"printed": printed[0][1]}))


def _eq42_is_eq34() -> Outcome:
    line34, eq34 = _equation_line(34)
    line42, eq42 = _equation_line(42)
    same = eq34 == eq42
    scalars = {"eq34_line": line34, "eq42_line": line42, "eq34": eq34[-80:], "eq42": eq42[-80:]}
    if same:
        return Outcome(Verdict.HOLDS, f"eq. 42 (line {line42}) prints the same bound as eq. 34 (line {line34})", Evidence({}, scalars, {}))
    return Outcome(Verdict.REFUTED, f"eq. 42 '{eq42[-60:]}' differs from eq. 34 '{eq34[-60:]}'", Evidence({}, scalars, {"eq34": eq34, "eq42": eq42}))


def _unique_equilibrium() -> Outcome:
    """Eq. 43: the roots of da/dt = -omega (a - A) for omega > 0."""
    a, level = sp.symbols("a A", real=True)
    omega = sp.Symbol("omega_tau", positive=True)
    roots = sp.solve(sp.Eq(-omega * (a - level), 0), a)
    ok = roots == [level]
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"-omega_tau (a - A) = 0 with omega_tau > 0 has the roots {roots}",
                   Evidence({}, {"roots": len(roots)}, {} if ok else {"roots": str(roots)}))


def _single_key_softmax() -> Outcome:
    """softmax over one logit: exp(a)/exp(a) = 1 symbolically and in float64 over a grid of logits."""
    logit = sp.Symbol("a", real=True)
    symbolic = sp.simplify(sp.exp(logit) / sp.exp(logit))
    grid = np.linspace(-50.0, 50.0, 201)
    weights = np.exp(grid - grid) / np.exp(grid - grid)  # the stabilised softmax over the single key
    deviation = float(np.max(np.abs(weights - 1.0)))
    ok = symbolic == 1 and deviation == 0.0
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"exp(a)/exp(a) simplifies to {symbolic}; max |alpha - 1| over a in [-50, 50] is {deviation:g}",
                   Evidence({"logit": grid, "alpha": weights}, {"max_deviation": deviation}, {}))


def _single_connection_collapse() -> Outcome:
    """Theorem 1 with M = 1: phi = f_phi, omega = f_omega, A^min = A^max = A_{i,1}, so eq. 4's bounds are eq. 5's."""
    f_phi = sp.Symbol("f_phi", real=True)
    f_omega = sp.Symbol("f_omega", positive=True)
    per_connection = [f_phi / f_omega]  # A_{i,j} for j = 1..M, M = 1
    phi, omega = sum([f_phi]), sum([f_omega])
    lower4, upper4 = sp.Min(0, sp.Min(*per_connection)), sp.Max(0, sp.Max(*per_connection))
    steady = phi / omega  # A_i = f_phi / omega_tau (line 54)
    lower5, upper5 = sp.Min(0, steady), sp.Max(0, steady)
    ok = sp.simplify(lower4 - lower5) == 0 and sp.simplify(upper4 - upper5) == 0
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"M = 1: eq. 4 gives [{lower4}, {upper4}], eq. 5 [{lower5}, {upper5}]",
                   Evidence({}, {"equal": int(ok)}, {} if ok else {"eq4": str((lower4, upper4)), "eq5": str((lower5, upper5))}))


def _groups(text: str, name: str) -> tuple[str, ...]:
    found = re.search(re.escape(name) + r"=\[([^\]]*)\]", text)
    return tuple(re.findall(r"N_\{(\w)\}", found.group(1))) if found else ()


def _figure1_gates() -> Outcome:
    """Figure 1's caption: (b) sensory gate: sensory neurons active, the rest disabled; (c) backbone: inter-to-motor, sensory disabled.
    Against eqs. 13-14's G_input, G_output and disabled groups D (the LaTeX of lines 138-139 and 143-144)."""
    sensory = " ".join(_lines()[_equation_line(13)[0] - 1 : _equation_line(13)[0] + 1])
    backbone = " ".join(_lines()[_equation_line(14)[0] - 1 : _equation_line(14)[0] + 1])
    parsed = {name: {g: _groups(text, g) for g in ("G_{\\text{input}}", "G_{\\text{output}}", "\\mathcal{D}")} for name, text in (("sensory", sensory), ("backbone", backbone))}
    key = {"G_{\\text{input}}": "input", "G_{\\text{output}}": "output", "\\mathcal{D}": "disabled"}
    parsed = {name: {key[g]: v for g, v in groups.items()} for name, groups in parsed.items()}
    caption_b = parsed["sensory"]["input"] == ("s",) and parsed["sensory"]["output"] == ("s",) and set(parsed["sensory"]["disabled"]) == {"i", "c", "m"}
    caption_c = parsed["backbone"]["input"] == ("i",) and parsed["backbone"]["output"] == ("m",) and parsed["backbone"]["disabled"] == ("s",)
    text = f"eq. 13 {parsed['sensory']}; eq. 14 {parsed['backbone']}"
    ok = caption_b and caption_c
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, text, Evidence({}, {"panel_b": int(caption_b), "panel_c": int(caption_c)}, {} if ok else {"eqs": text}))


# ----------------------------------------------------------------------------- Table 4 and Section 3's baselines


COLUMNS = ("mnist", "par", "carracing", "udacity", "rul")


def _classes() -> dict[str, int]:
    """Output width each experiment needs, from the text: digits 0-9 (D.3.1), the listed activities and actions, one steering value, one RUL."""
    digits = re.search(r"handwritten digits \((\d)–(\d)\)", re.sub(r"\s+", " ", document_text(DOCUMENT)))
    facts = dataset_facts(DOCUMENT)
    return {"mnist": int(digits.group(2)) - int(digits.group(1)) + 1, "par": len(facts["par.activities"][1]), "carracing": len(facts["carracing.actions"][1]),
            "udacity": 1, "rul": 1}


def _head(cell: str) -> tuple[int, str]:
    found = re.search(r"(\d+)\((SM|Lin)\)$", cell)
    if found is None:
        raise ValueError(f"no output head in Table 4 Dense cell {cell!r}")
    return int(found.group(1)), found.group(2)


def _output_heads() -> Outcome:
    dense = hyperparameter_table(DOCUMENT)["Dense"]
    needed = _classes()
    widths = {c: _head(dense[c]) for c in COLUMNS}
    kinds = {"mnist": "SM", "par": "SM", "carracing": "SM", "udacity": "Lin", "rul": "Lin"}  # classification (Section 3) vs regression
    bad = [c for c in COLUMNS if widths[c][0] != needed[c] or widths[c][1] != kinds[c]]
    arrays = {"column": np.array(COLUMNS), "printed_width": np.array([widths[c][0] for c in COLUMNS]), "needed_width": np.array([needed[c] for c in COLUMNS])}
    text = "; ".join(f"{c} '{dense[c]}' for {needed[c]} {'classes' if kinds[c] == 'SM' else 'output'}" for c in COLUMNS)
    if bad:
        return Outcome(Verdict.REFUTED, text, Evidence(arrays, {"columns_differing": len(bad)}, {"column": bad[0]}))
    return Outcome(Verdict.HOLDS, text + ": every head has the width and kind its task needs", Evidence(arrays, {}, {}))


def _loss_matches_head() -> Outcome:
    table = hyperparameter_table(DOCUMENT)
    pairs = {c: (_head(table["Dense"][c])[1], table["Loss"][c]) for c in COLUMNS}
    expected = {"SM": "SCE", "Lin": "MSE"}
    bad = [c for c, (head, loss) in pairs.items() if expected[head] != loss]
    text = "; ".join(f"{c}: {head} head, {loss}" for c, (head, loss) in pairs.items())
    if bad:
        return Outcome(Verdict.REFUTED, text, Evidence({}, {"columns_differing": len(bad)}, {"column": bad[0]}))
    return Outcome(Verdict.HOLDS, text + ": softmax heads use sparse categorical cross-entropy, linear heads MSE", Evidence({}, {}, {}))


def _d1_families() -> dict[str, tuple[str, ...]]:
    """D.1's four families and the model names each paragraph describes (the word before each citation)."""
    text = _section_text("D.1 ", "D.2 ")
    families: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        head = re.match(r"^([A-Z][\w-]*(?: [\w-]+)?): (.*)$", line.strip())
        if head:
            names = re.findall(r"(?:^|\.\s)([A-Za-z][\w-]*(?:[ \u00a0][Aa]ttention)?)\s?\(\w+\d{4}\w*\)", head.group(2))
            families[head.group(1)] = tuple(name.replace("\u00a0", " ") for name in names)
    return families


def _baseline_families() -> Outcome:
    table = results_table(DOCUMENT)
    rows = {m.replace("\u00a0", " ").lower() for m in table.models}
    families = _d1_families()
    present = {family: [n for n in names if n.lower() in rows] for family, names in families.items()}
    ablations = [m for m in table.models if m.startswith("NAC-")]
    ok = len(families) == 4 and all(present.values()) and len(ablations) > 1
    text = "; ".join(f"{family}: {', '.join(names) or 'none'}" for family, names in present.items()) + f"; NAC variants: {len(ablations)}"
    arrays = {"family": np.array(list(present)), "rows_in_table1": np.array([len(v) for v in present.values()])}
    if ok:
        return Outcome(Verdict.HOLDS, "Table 1 has rows of each D.1 family: " + text, Evidence(arrays, {"nac_rows": len(ablations)}, {}))
    return Outcome(Verdict.REFUTED, "Table 1 lacks a family: " + text, Evidence(arrays, {"nac_rows": len(ablations)}, {"families": len(families)}))


# ----------------------------------------------------------------------------- Table 3's Attention time-step cell


STEP_LENGTHS = (8, 16, 32, 64)
STEP_WIDTHS = (8, 16, 32, 64)


def _one_query_attention(query, keys, values):
    """One new query of width k against n cached keys and values: softmax(K q / sqrt(k)) V."""
    import jax
    import jax.numpy as jnp

    scores = keys @ query / jnp.sqrt(query.shape[-1])
    return jax.nn.softmax(scores) @ values


def _attention_timestep() -> Outcome:
    """Dot FLOPs of one attention step over a sequence of n cached keys: exactly 4 n k (K q and the weighted sum of V)."""
    from ._costs import _sds, fit_slope, jaxpr_stats

    by_n = np.array([jaxpr_stats(_one_query_attention, _sds(32), _sds(n, 32), _sds(n, 32))["dot_flops"] for n in STEP_LENGTHS], float)
    by_k = np.array([jaxpr_stats(_one_query_attention, _sds(k), _sds(32, k), _sds(32, k))["dot_flops"] for k in STEP_WIDTHS], float)
    lengths, widths = np.array(STEP_LENGTHS, float), np.array(STEP_WIDTHS, float)
    exact = bool(np.all(by_n == 4 * lengths * 32) and np.all(by_k == 4 * 32 * widths))
    arrays = {"n": lengths, "k": widths, "dot_flops_vs_n": by_n, "dot_flops_vs_k": by_k}
    scalars = {"slope_n": fit_slope(lengths, by_n), "slope_k": fit_slope(widths, by_k)}
    message = (f"one query against n cached keys: dot FLOPs {by_n.astype(int).tolist()} for n = {list(STEP_LENGTHS)} (k = 32) and "
               f"{by_k.astype(int).tolist()} for k = {list(STEP_WIDTHS)} (n = 32): exactly 4 n k ({exact}), O(nk)")
    return Outcome(Verdict.HOLDS if exact else Verdict.REFUTED, message, Evidence(arrays, scalars, {} if exact else {"slope_n": scalars["slope_n"]}))


# ----------------------------------------------------------------------------- the claims


def ledger000_claims() -> list[Claim]:
    """The claims of 000's sentences that had no ledger item before issue 43 (group 'text')."""
    where_d3 = (f"{SEED000}, Section 3, first paragraph, 'the details of the baselines, ablations, environments, data, preprocessing, and neural network "
                "architectures for all the experiments are provided in Appendix D.3'")
    return [
        Claim(id="nac000.ledger.table3.attention_timestep", source=f"{SEED000}, Appendix C.2, Table 3, Attention row, time-step cell 'O(nk)'",
              statement="one attention step (a new query against the n earlier keys and values, width k) costs O(nk): exactly 4 n k dot FLOPs",
              assumptions="one head of width k; n in {8, 16, 32, 64} at k = 32 and k in {8, 16, 32, 64} at n = 32; dot FLOPs counted on the jaxpr",
              expected=Verdict.HOLDS, expected_reason="K q and the weighted sum of V are each 2 n k",
              check=lambda ctx: _attention_timestep(), group="complexity", kind=Kind.READING,
              reading="the attention operation itself with the earlier keys and values cached, its O(k^2) projections of the new token left out "
                      "(the per-layer accounting of the row's sequence cell, nac.c3.attention.n2k)"),
        *_xref_claims(),
        Claim(id="nac000.ledger.xref.mode_equations", source=f"{SEED000}, Section 2.2.1, 'pairwise logits are computed according to Eqns. 2,3 or 18'",
              statement="eqs. 2, 3 and 18 are the logits of the three modes: the explicit Euler update, the closed form and the steady state",
              assumptions="the equations as printed", expected=Verdict.HOLDS, expected_reason="eq. 2 Euler, eq. 3 closed form, eq. 18 phi/omega",
              check=lambda ctx: _mode_equations(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.xref.table1_details_d3", source=where_d3,
              statement="Appendix D.3 (from its heading up to D.4's) treats each listed topic: baselines, ablations, environments, data, preprocessing, architectures",
              assumptions="a topic is treated where its word appears in the appendix's text", expected=Verdict.REFUTED,
              expected_reason="D.3 never mentions the ablations; they are D.2 (Ablations Details)",
              check=lambda ctx: _details_in("D.3 ", "D.4 "), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.xref.table1_details_appendix_d", source=where_d3,
              statement="corrected pointer 'Appendix D': Appendix D (D.1 to D.4) treats each listed topic",
              assumptions="a topic is treated where its word appears in the appendix's text", expected=Verdict.HOLDS,
              expected_reason="D.1 describes the baselines, D.2 the ablations, D.3 the rest",
              check=lambda ctx: _details_in("Appendix D ", "D.4 "), group="text", kind=Kind.CORRECTION),
        *_count_claims(),
        Claim(id="nac000.ledger.thm1.single_connection", source=f"{SEED000}, Theorem 1, 'In the special case of a single connection (M=1), the bounds collapse to' eq. 5",
              statement="with M = 1 eq. 4's bounds min(0, A^min), max(0, A^max) equal eq. 5's min(0, A_i), max(0, A_i) with A_i = f_phi/omega_tau",
              assumptions="SymPy; Theorem 1's decomposition with one connection, f_omega > 0", expected=Verdict.HOLDS, expected_reason="A^min = A^max = f_phi/f_omega = f_phi/omega_tau",
              check=lambda ctx: _single_connection_collapse(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.fig1.gates", source=f"{SEED000}, Figure 1 caption, '(b) Sensory gate, where sensory neurons are active, and the remaining neurons are disabled ... (c) Backbone, showing inter-motor projections with sensory neurons disabled'",
              statement="eq. 13's sensory cell takes and returns N_s with N_i, N_c, N_m disabled, and eq. 14's backbone takes N_i, returns N_m with N_s disabled",
              assumptions="the LaTeX of eqs. 13-14 as printed", expected=Verdict.HOLDS, expected_reason="G_input=[N_s], G_output=[N_s], D=[N_i,N_c,N_m]; G_input=[N_i], G_output=[N_m], D=[N_s]",
              check=lambda ctx: _figure1_gates(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.emnist_784", source=f"{SEED000}, Section 3.1 and Appendix D.3.1, 'flattening each 28×28 image into a time-series of length 784'",
              statement="28 x 28 = 784 in both sentences that print it", assumptions="arithmetic", expected=Verdict.HOLDS, expected_reason="784",
              check=lambda ctx: _emnist_784(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.thm3.eq42_is_eq34", source=f"{SEED000}, Appendix B.1.2, proof of Theorem 3, after eq. 42, 'which is Eqn. 34'",
              statement="eq. 42, the proof's conclusion, prints the bound of eq. 34", assumptions="the LaTeX of both equations as printed",
              expected=Verdict.HOLDS, expected_reason="identical text", check=lambda ctx: _eq42_is_eq34(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.b2.unique_equilibrium", source=f"{SEED000}, Appendix B.2, after eq. 43, 'Here A is the unique equilibrium.'",
              statement="for omega_tau > 0 the right side -omega_tau (a - A) of eq. 43 vanishes at a = A only", assumptions="SymPy, omega_tau > 0 (Theorem 1)",
              expected=Verdict.HOLDS, expected_reason="one root, a = A", check=lambda ctx: _unique_equilibrium(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.b3.single_key_softmax", source=f"{SEED000}, Appendix B.3, 'For T=1, the softmax over one key yields alpha = exp(a)/exp(a) = 1'",
              statement="a softmax over a single logit is 1 for every logit", assumptions="SymPy and float64 on a in [-50, 50]",
              expected=Verdict.HOLDS, expected_reason="exp(a)/exp(a) = 1", check=lambda ctx: _single_key_softmax(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.table4.output_heads", source=f"{SEED000}, Table 4, Dense row '32–10(SM) 32–11(SM) 64–5(SM) 64–1(Lin) 1(Lin)'",
              statement="each experiment's output head has the width and kind its task needs: 10 digits, 11 activities, 5 actions (softmax), one steering value and one RUL (linear)",
              assumptions="the classes the text lists (D.3.1 digits 0-9, D.3.2 activities, D.3.3 actions); Udacity and RUL are regressions (Sections 3.2, 3.3)",
              expected=Verdict.HOLDS, expected_reason="10, 11, 5, 1, 1", check=lambda ctx: _output_heads(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.table4.loss_matches_head", source=f"{SEED000}, Table 4, Loss row 'SCE SCE SCE MSE MSE'",
              statement="the softmax-headed experiments use sparse categorical cross-entropy and the linear-headed ones MSE",
              assumptions="Table 4's Dense and Loss rows as printed", expected=Verdict.HOLDS, expected_reason="SCE with SM, MSE with Lin",
              check=lambda ctx: _loss_matches_head(), group="text", kind=Kind.AS_PRINTED),
        Claim(id="nac000.ledger.s3.baseline_families",
              source=f"{SEED000}, Section 3, 'We evaluate the proposed architecture against a range of baselines, including (DT & CT) RNNs, (DT & CT) Attentions, and multiple NAC ablation configurations.'",
              statement="Table 1 has rows of each of D.1's four families (DT-RNNs, CT-RNNs, DT-Attentions, CT-Attentions) and several NAC variants",
              assumptions="D.1's families and the model names before each citation; Table 1's rows as printed", expected=Verdict.HOLDS,
              expected_reason="every family has rows; 14 NAC rows", check=lambda ctx: _baseline_families(), group="text", kind=Kind.AS_PRINTED),
    ]


add_provider(ledger000_claims)
