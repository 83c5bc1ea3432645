"""The sentence map (nacverify/ledger/units.py): documents cut into units, units owned by ledger items
(issue 43, points 1 and 3). Expected cuts are read off the documents by hand."""

from __future__ import annotations

import json
import re
from importlib import resources
from types import SimpleNamespace

import pytest

from nacverify.ledger import SEED_FILES, find_seeds_dir, load_ledgers
from nacverify.ledger import units as unitmod
from nacverify.ledger.units import document_text, flat_text, owners_of_units, unit_counts, units


def _item(item, quote, line):
    return SimpleNamespace(item=item, quote=quote, line=line)


def test_shipped_documents_are_the_seeds():
    seeds = find_seeds_dir()
    if seeds is None:
        pytest.skip("../shared/seeds not beside the checkout")
    for doc, name in SEED_FILES.items():
        assert document_text(doc) == (seeds / name).read_text(encoding="utf-8"), doc


def test_shipped_map_equals_a_fresh_cut():
    shipped = json.loads(resources.files("nacverify.data").joinpath("units.json").read_text(encoding="utf-8"))
    fresh = unitmod.shipped_map(SEED_FILES)
    assert shipped == fresh, "run python tools/sentence_map.py"


def test_every_unit_is_its_span_of_the_flat_text_in_order():
    for doc in SEED_FILES:
        flat = flat_text(doc)
        previous_end = 0
        for index, unit in enumerate(units(doc)):
            assert unit.index == index
            assert flat[unit.start:unit.end] == unit.text
            assert unit.start >= previous_end, (doc, unit)
            previous_end = unit.end
            assert unit.kind in unitmod.UNIT_KINDS


def _texts(doc):
    return [u.text for u in units(doc)]


def test_003_opening_is_cut_after_length_n_and_after_11_ms():
    """003 line 1: 'has O(N²) computational cost in sequence length N. For token sequences ...' is two sentences
    (pysbd alone keeps them together); line 5: '... produces a classification at 11 ms. The 8 ms jitter ...' too."""
    texts = _texts("003")
    assert texts[0].endswith("in sequence length N.")
    assert texts[1] == "For token sequences of 512 or 1024 this is manageable in data center inference."
    assert "A gesture beginning 9 ms into a bin produces a classification at 11 ms." in texts
    assert any(t.startswith("The 8 ms jitter in classification timing") for t in texts)


def test_abbreviations_and_decimals_do_not_end_a_sentence():
    """001: 'Hasani et al., 2021' and '0.0170' stay inside their sentences."""
    texts = _texts("001")
    assert "In the Udacity benchmark, NAC-32k performed the best, achieving the lowest MSE of 0.0170." in texts
    # a citation's "et al., 2021" never ends a unit (a reference list's "..., et al. Title." may: there it ends the authors)
    assert not any(re.match(r"^,? ?(19|20)\d\d[a-z]?[);,]", t) for t in texts)
    cut = unitmod._sentences("Liquid networks (Hasani et al., 2021) use e.g. tanh. The mean is 0.5 ms. Next one.")
    assert cut == ["Liquid networks (Hasani et al., 2021) use e.g. tanh.", "The mean is 0.5 ms.", "Next one."]


def test_001_sentences_broken_over_lines_are_joined():
    """001 lines 50-51: 'While effective / for regularly sampled sequences, DT-RNNs face challenges ...' is one sentence."""
    texts = _texts("001")
    assert ("While effective for regularly sampled sequences, DT-RNNs face challenges with irregularly sampled data because "
            "they assume uniform time intervals.") in texts


def test_pdf_artifacts_are_dropped():
    """001 repeats its bold title at the head of each page and prints page numbers on lines of their own."""
    texts = _texts("001")
    title = "**Neuronal Attention Circuit (NAC) for Representation Learning**"
    assert sum(1 for t in texts if t == title) == 0
    assert "2" not in texts and "(3)" not in texts
    assert texts[0] == "## **Neuronal Attention Circuit (NAC) for Representation Learning**"


def test_lines_of_units():
    """003: the density formula is on line 10 of the seed, 'Standard scaled dot-product attention:' on line 14."""
    by_text = {u.text: u for u in units("003")}
    assert by_text["ρ(t, δ) = |{e ∈ E : |t_e - t| < δ}| / (2δ)"].line == 10
    assert by_text["Standard scaled dot-product attention:"].line == 14
    assert by_text["import nrm.nn as nrm"].kind == "code"


def test_an_item_owns_the_units_its_quote_overlaps_most():
    """003 line 5 holds four sentences; an item quoting two of them whole owns both, an item quoting a fragment of the
    third owns it, and the fourth stays uncovered. A second item overlapping the first sentence by a few words loses it."""
    doc = "003"
    line5 = [u for u in units(doc) if u.line == 5]
    assert len(line5) == 5
    first, second, third, fourth = line5[0], line5[1], line5[2], line5[3]
    items = [
        _item("pair", first.text + " " + second.text, 5),
        _item("fragment", third.text[:30], 5),
        _item("overlap", first.text[-10:], 5),
    ]
    owner = owners_of_units(doc, items)
    assert owner[first.index] == "pair" and owner[second.index] == "pair"
    assert owner[third.index] == "fragment"
    assert fourth.index not in owner
    counts = unit_counts(doc, items, {"pair": "holds", "fragment": "error"})
    assert counts["by_finding"] == {"error": 1, "holds": 2}
    assert counts["covered"] == 3 and counts["units"] == len(units(doc))
    assert fourth in counts["uncovered"]


def test_a_quote_found_twice_goes_to_the_occurrence_nearest_its_line():
    """000 prints 'This dataset is only used for the cross-validation test.' twice (two dataset paragraphs); an item
    quoting it covers the occurrence nearest its line, and only that one."""
    doc = "000"
    text = "This dataset is only used for the cross-validation test."
    both = [u for u in units(doc) if u.text == text]
    assert len(both) == 2 and both[0].line < both[1].line
    for target in both:
        owner = owners_of_units(doc, [_item("repeat", text, target.line)])
        assert owner == {target.index: "repeat"}


def test_the_ledger_covers_at_least_what_it_quotes():
    """Every item whose quote is in its document covers at least one unit (a quote that overlaps nothing would mean the
    map dropped a statement)."""
    ledgers = load_ledgers()
    for doc, led in ledgers.items():
        spans = unitmod.item_spans(doc, led.items)
        owner = owners_of_units(doc, led.items)
        covering = set()
        for unit in units(doc):
            for item, (start, end) in spans.items():
                if start < unit.end and end > unit.start:
                    covering.add(item)
        missing = sorted(set(spans) - covering)
        assert not missing, (doc, missing[:5])
        assert set(owner.values()) <= set(spans)


def test_each_ledger_reads_in_the_documents_order_and_covers_every_unit():
    """Issue 43: the ledger is an annotated copy of its document: its items in the order of their quotes in the document,
    and every unit owned by exactly one item (every map is complete)."""
    ledgers = load_ledgers()
    assert unitmod.COMPLETE_MAPS == frozenset(SEED_FILES)
    for doc, led in ledgers.items():
        spans = unitmod.item_spans(doc, led.items)
        starts = [spans[it.item][0] for it in led.items if it.item in spans]
        assert starts == sorted(starts), doc
        owner = owners_of_units(doc, led.items)
        assert set(owner) == {u.index for u in units(doc)}, (doc, len(units(doc)) - len(owner))
