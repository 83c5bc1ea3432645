"""Formulas in the documents' words (nacverify/report/formulas.py): cut from the prose, their text copies
dropped, written as MathML for the pages and as $LaTeX$ for Markdown. The expected cuts are read off
the seed documents by hand."""

from __future__ import annotations

import re

import pytest

from nacverify.ledger import load_ledgers
from nacverify.report import formulas
from nacverify.report.formulas import Piece, pieces


@pytest.mark.parametrize("text, expected", [
    # document 000 (HTML extraction): the rendering of a formula, then its LaTeX source; the copy goes
    ("Here, a=ϕ/ωτa^{*}=\\phi/\\omega_{\\tau} is the steady-state solution.",
     [Piece("Here, "), Piece("a^{*}=\\phi/\\omega_{\\tau}", True), Piece(" is the steady-state solution.")]),
    ("It enables the logit ata_{t} to evolve", [Piece("It enables the logit "), Piece("a_{t}", True), Piece(" to evolve")]),
    ("where 𝐮=[𝐪;𝐤]\\mathbf{u}=[\\mathbf{q};\\mathbf{k}] denotes",
     [Piece("where "), Piece("\\mathbf{u}=[\\mathbf{q};\\mathbf{k}]", True), Piece(" denotes")]),
    # the rendering drops signs and symbols (minus, the double-struck R): the letters and digits decide
    ("a resting potential at 70mV-70\\,\\text{mV} and", [Piece("a resting potential at "), Piece("-70\\,\\text{mV}", True), Piece(" and")]),
    ("Queries QB×H×Tq×DQ\\in\\mathbb{R}^{B\\times H\\times T_{q}\\times D}, Keys",
     [Piece("Queries "), Piece("Q\\in\\mathbb{R}^{B\\times H\\times T_{q}\\times D}", True), Piece(", Keys")]),
    # a relation command takes the next word; a command before an ordinary word does not
    ("For small Lωt1L_{\\omega}t\\ll 1, this simplifies to", [Piece("For small "), Piece("L_{\\omega}t\\ll 1", True), Piece(", this simplifies to")]),
    ("the ODE is a˙=ϕ\\dot{a}=\\phi and the solution", [Piece("the ODE is "), Piece("\\dot{a}=\\phi", True), Piece(" and the solution")]),
    # prose glued before the copy stays prose; an opening bracket the formula starts with goes with it
    ("followed by NAC-ϕlinear\\phi_{\\text{linear}} with 29.53.",
     [Piece("followed by NAC-"), Piece("\\phi_{\\text{linear}}", True), Piece(" with 29.53.")]),
    ("Wiring 𝒲\\mathcal{W} with (Ain,Arec)(A_{\\text{in}},A_{\\text{rec}}), groups",
     [Piece("Wiring "), Piece("\\mathcal{W}", True), Piece(" with "), Piece("(A_{\\text{in}},A_{\\text{rec}})", True), Piece(", groups")]),
    # a display equation: its source alone, the equation number prose
    ("\\frac{da}{dt}=-\\omega_{\\tau}a+\\phi. (43)", [Piece("\\frac{da}{dt}=-\\omega_{\\tau}a+\\phi", True), Piece(". (43)")]),
    # formulas without a command, written twice, in a text that has formulas: one letter, or with an operator
    ("linear in tt (unless ϕ=0\\phi=0).", [Piece("linear in "), Piece("t", True), Piece(" (unless "), Piece("\\phi=0", True), Piece(").")]),
    ("At a=Ma=M, dadt0\\frac{da}{dt}\\leq 0", [Piece("At "), Piece("a=M", True), Piece(", "), Piece("\\frac{da}{dt}\\leq 0", True)]),
    ("and (ii) NAC-ϕtanh\\phi_{\\text{tanh}} with", [Piece("and (ii) NAC-"), Piece("\\phi_{\\text{tanh}}", True), Piece(" with")]),  # a numeral stays
    # document 002 (Markdown): delimited formulas
    ("Without input, $V_i(t) \\to V_{Leak_i}$ exponentially", [Piece("Without input, "), Piece("V_i(t) \\to V_{Leak_i}", True), Piece(" exponentially")]),
    ("$$\\dot{u}(t) = A \\tag{6}$$", [Piece("\\dot{u}(t) = A \\tag{6}", True, True)]),
    # document 001 (text from a PDF): Markdown emphasis is not a formula
    ("of _{Aj}_ .", [Piece("of _{Aj}_ .")]),
    ("a word with no formula at all", [Piece("a word with no formula at all")]),
])
def test_pieces_of_a_documents_words(text, expected):
    assert pieces(text) == expected


def test_every_formula_of_every_quote_converts_and_no_source_is_left_in_the_prose():
    """Across the ledgers: each formula found in a quote converts to MathML, and the prose left around the
    formulas holds no LaTeX command (a formula missed, or a copy kept, would show one)."""
    found = 0
    for ledger in load_ledgers().values():
        for it in ledger.items:
            for p in pieces(it.quote):
                if p.math:
                    found += 1
                    assert formulas.mathml(p.text, p.display) is not None, (it.key, p.text)
                else:
                    assert not re.search(r"\\[A-Za-z]{2,}", p.text), (it.key, p.text)
    assert found > 400


def test_html_writes_mathml_and_marks_what_does_not_convert():
    html = formulas.html("Here, a=ϕ/ωτa^{*}=\\phi/\\omega_{\\tau} is it.")
    assert html.startswith("Here, <span class=\"math\"><math display=\"inline\">") and html.endswith("</math></span> is it.")
    assert "<mi>ϕ</mi>" in html and "<mi>ω</mi>" in html and "\\phi" not in html
    broken = formulas.html("bad $\\frac{1}{$ here")
    assert '<code class="tex" title="this formula did not convert to MathML: its LaTeX source">\\frac{1}{</code>' in broken
    unknown = formulas.html("an $\\undefinedcommand x$ formula")  # the converter would keep the command as text: not converted
    assert '<code class="tex"' in unknown and "<math" not in unknown


def test_html_renders_markdown_emphasis_and_escapes_everything_else():
    html = formulas.html("**Theorem 1** (State Stability) **.** _Let a_ <script>x</script> & more")
    assert html == "<strong>Theorem 1</strong> (State Stability) <strong>.</strong> <em>Let a</em> &lt;script&gt;x&lt;/script&gt; &amp; more"
    assert formulas.html("**Constraints on $A$:** all", emphasis=True).startswith("<strong>Constraints on <span class=\"math\">")  # bold across a formula


def test_markdown_keeps_latex_between_dollars_and_drops_the_copies():
    assert formulas.markdown("Here, a=ϕ/ωτa^{*}=\\phi/\\omega_{\\tau} is it.") == "Here, $a^{*}=\\phi/\\omega_{\\tau}$ is it."
    assert formulas.markdown("$$x \\tag{1}$$ and $y$") == "$$x \\tag{1}$$ and $y$"


def test_the_suites_own_formulas():
    """Statements and readings write formulas in plain text: sub- and superscripted names become formulas,
    Greek letters spelled out become LaTeX's; identifiers and claim ids stay words; in Markdown the prose
    is escaped (an asterisk would start emphasis)."""
    own = pieces("x_{n+1} = x_n + dt(-omega a_n), e^{-omega t}, V_Leak_i, max_tightness, nac.x_y", own=True)
    assert [p.text for p in own if p.math] == ["x_{n+1}", "x_{n}", "a_{n}", "e^{-\\omega t}", "V_{Leak_{i}}"]
    assert formulas.markdown("a*b and u_t", own=True) == "a\\*b and $u_{t}$"


def test_clipping_cuts_prose_between_words_and_keeps_formulas_whole():
    html = formulas.html("As tsamplet_{\\text{sample}}\\to\\infty, the trajectory converges to the steady state", limit=20)
    assert "<math" in html and html.endswith(" the …") and "converges" not in html
