"""The ledger: every statement of the source documents, in their own words.

One YAML file per seed document (``000.yaml`` ... ``004.yaml`` beside this module) lists
every numbered equation, theorem, corollary, lemma, algorithm and table of that document,
and every sentence that states a checkable quantity or fact. Each item gives

- ``item``: an id unique within the document (``eq34``, ``thm3``, ``table2.slow``, ``s4.2.cost``);
- ``type``: equation, theorem, corollary, lemma, proposition, definition, algorithm, table,
  table-cell, figure or sentence;
- ``location``: where it is (section, equation, table, row);
- ``line``: the 1-based line of the seed file on which the quote starts;
- ``quote``: the document's own words, verbatim (whitespace may differ);

and exactly one of

- ``claims``: the ids of the registered claims that check it;
- ``not_checkable``: ``{reason: CATEGORY, why: "..."}`` with CATEGORY from `NOT_CHECKABLE`;
- ``missing``: what a check would have to do (checkable, but no claim checks it yet).

An item with claims may also give

- ``charitable``: the id of the claim (one of its ``claims``) that checks the most charitable
  plausible reading, the one a careful author would defend; required when any of its
  ``as-printed`` or ``reading`` claims is expected ``refuted`` (`nacverify.findings`);
- ``defense``: that reading in words, and why it fails, or that it holds;
- ``twin``: ``DOC:ITEM``, the same statement in the other version of the paper (000 and 001
  state many things twice); twins name each other, are checked the same way and get the same
  finding unless ``twin_differs`` says how their words differ;
- ``cites``: claims cited as evidence only. A refuted document claim is *owned* by the one item
  of each document whose words it tests (it is in that item's ``claims``); other items that lean
  on it cite it, and it does not change their finding;
- ``slip``: the intended meaning, where the refuted statement is a typo, a repeated word, an
  omitted input or a name shorthand whose meaning is unique and on which nothing depends (the
  finding is then ``slip``, not ``error``);
- ``untested``: the part of the statement that the claims do not test (the finding is then at
  most ``inconclusive``), with ``untested_reason``: why no claim can decide that part here, one of
  `UNTESTABLE` (a part that the document's own tables, equations or code decide gets a claim);
- ``contradicts``: the item of the same document that this one contradicts (two places that cannot
  both be right), with ``blame``: which of the two the document's other evidence shows wrong, or
  that nothing decides; the finding is counted once, at this item;
- ``twin_differs``: how two twins differ, beginning ``words:`` (their words differ) or ``data:``
  (the data their words refer to differ);
- ``prosecution``: the answer of an independent prosecutor to a ``holds``,
  ``depends-on-reading`` or ``inconclusive`` finding (``defense`` holds the defender's answer to
  an ``error`` or ``slip``).

The labelling standard these fields serve is ``reports/FINDINGS_STANDARD.md``.

The ledger is data a scientist reviews without reading code; `coverage` counts it.
"""

from ._ledger import (
    NOT_CHECKABLE,
    ITEM_TYPES,
    UNTESTABLE,
    DocumentLedger,
    LedgerItem,
    SEED_FILES,
    coverage,
    find_seeds_dir,
    load_ledgers,
    quote_problems,
    validate,
)

__all__ = [
    "NOT_CHECKABLE",
    "ITEM_TYPES",
    "UNTESTABLE",
    "DocumentLedger",
    "LedgerItem",
    "SEED_FILES",
    "coverage",
    "find_seeds_dir",
    "load_ledgers",
    "quote_problems",
    "validate",
]
