"""Numerical claim checks (diffrax trajectories, seeded random draws, exact counts, the printed
tables, adversarial search), one module per part of a document.

From a claim id to its module. A claim id is ``FAMILY.PART.what``: FAMILY names the document
(``nac`` for statements 000 and 001 share, ``nac000`` / ``nac001`` for one version of the NAC
paper, ``ltc`` for 002, ``locality`` for 003, ``sparse`` for 004, ``solvers`` for the suite's own
solver cross-checks) and PART the equation, theorem, corollary, section or table (``eq9``,
``thm3``, ``cor1``, ``s22`` for section 2.2, ``sec15``, ``table11``, ``d3`` for section 3's data
sets, ``alg2``, ``c2`` for contribution 2). The claim is then decided in

1. ``nacverify/proofs/<topic>.py`` when it is a symbolic proof obligation (``nacverify prove``);
2. ``nacverify/frozen/`` for Table 2 and the frozen-error bounds of Theorem 3;
3. otherwise ``nacverify/checks/<family>_<part>.py``, the module named after the part it
   checks: ``ltc.table11.*`` in ``ltc_table11``, ``nac000.table1.*`` in ``nac_table1``,
   ``nac.thm3.*`` in ``nac_thm3_proof``, ``ltc.table_bptt.*`` in ``ltc_bptt``; three kinds of
   claims cut across parts and have their own modules: the registered readings of a statement
   (``nac_readings``, ``ltc_readings``, ``locality_readings``, and ``charitable_nac`` for the
   most charitable readings), and the statements 000 and 001 both make (``nac_twins``).

Private modules (``_tables``, ``_costs``, ``_ltc_common``, ``_nac_text``, ``_attention_common``)
hold what several modules share and register no claims. ``nacverify list --only ID`` names the
exact module, function and line (`nacverify.provenance`). The full map, kept equal to the
registry by ``tests/test_provenance.py`` (a prefix covers the id itself and every id below it):

    ledger002.eq21               sentences_002_004
    ledger002.eq3                sentences_002_004
    ledger002.eq5a               sentences_002_004
    ledger002.eq6                sentences_002_004
    ledger002.eq7a               sentences_002_004
    ledger002.table11            sentences_002_004
    ledger004.batch              sentences_002_004
    locality.attention           text_decided
    locality.code                locality_readings, locality_spiking, text_decided
    locality.delta_learned_through_rho locality_attention, proofs.locality_attention
    locality.dvs                 locality_spiking
    locality.effective_Nk        locality_attention, locality_readings
    locality.grad                proofs.locality_attention
    locality.latency             locality_latency
    locality.lif                 proofs.locality_attention
    locality.log_bias            locality_attention
    locality.long_range          locality_attention, locality_readings
    locality.rho                 locality_attention, locality_readings, proofs.locality_attention
    locality.spiking             locality_readings, locality_spiking
    ltc.alg_bptt                 ltc_bptt
    ltc.eq1                      proofs.ltc_equations
    ltc.eq10                     proofs.ltc, proofs.ltc_equations
    ltc.eq11                     ltc_bounds, ltc_readings, proofs.ltc, sentences_002_004
    ltc.eq12                     ltc_bounds
    ltc.eq13                     ltc_bounds_2018, proofs.ltc_equations, sentences_002_004
    ltc.eq15                     ltc_bounds_2018, proofs.ltc_equations
    ltc.eq16                     ltc_bounds_2018, proofs.ltc_equations
    ltc.eq2                      proofs.ltc_equations, text_decided
    ltc.eq24                     ltc_model_equations
    ltc.eq2a                     proofs.ltc_equations
    ltc.eq3                      ltc_model_equations, proofs.ltc_equations
    ltc.eq4                      proofs.ltc_equations
    ltc.eq4_to_5                 proofs.ltc
    ltc.eq5a                     proofs.ltc, proofs.ltc_equations, text_decided
    ltc.eq6                      ltc_model_equations, proofs.ltc_equations
    ltc.eq7                      ltc_model_equations, proofs.ltc, proofs.ltc_equations
    ltc.eq7a                     proofs.ltc
    ltc.eq9                      ltc_cost, ltc_stability, ltc_unfolding, proofs.ltc, text_decided
    ltc.eq9a                     ltc_model_equations, ltc_readings
    ltc.s5                       ltc_bptt
    ltc.s6                       proofs.ltc_equations
    ltc.sec10                    ltc_unfolding
    ltc.sec15                    convergence.claims, ltc_bounds, ltc_epsilon, ltc_readings, ltc_stability, proofs.ltc
    ltc.sec16                    ltc_cost, ltc_trajectory_length
    ltc.sec6                     ltc_bounds
    ltc.sec8                     ltc_readings, ltc_trajectory_length, proofs.ltc_equations
    ltc.stiff                    ltc_readings, ltc_stability
    ltc.table11                  ltc_table11
    ltc.table12                  convergence.claims, ltc_init, ltc_readings
    ltc.table_bptt               ltc_bptt
    nac.b3                       nac_thm2_proof
    nac.c1                       proofs.nac_text
    nac.c3                       nac_twins
    nac.cor1                     nac_corollaries, proofs.nac_closed_form, proofs.nac_stability
    nac.cor2                     nac_corollaries, proofs.nac_stability
    nac.cor3                     nac_corollaries, nac_text_closed_forms, proofs.nac_stability, proofs.nac_text
    nac.eq15_16                  proofs.nac_gates
    nac.eq17                     proofs.nac_closed_form
    nac.eq18                     proofs.nac_closed_form, proofs.nac_gates
    nac.eq2                      proofs.nac_closed_form
    nac.eq28                     proofs.nac_closed_form
    nac.eq29                     proofs.nac_closed_form
    nac.eq3                      proofs.nac_closed_form
    nac.eq32                     proofs.nac_closed_form
    nac.eq33                     proofs.nac_text
    nac.eq47                     nac_readings, nac_text_closed_forms, proofs.nac_text
    nac.eq7                      proofs.nac_stability
    nac.eq8                      proofs.nac_stability
    nac.euler                    nac_corollaries
    nac.exact                    convergence.claims
    nac.gates                    proofs.nac_gates
    nac.grad                     proofs.nac_gradients
    nac.model                    nac_model_gates, nac_reference_parity, nac_s22_model
    nac.motivation               proofs.nac_motivation
    nac.s1                       proofs.nac_text
    nac.s22                      nac_readings, nac_s22_model, nac_text_closed_forms, proofs.nac_text
    nac.s4                       nac_units
    nac.score                    proofs.nac_text
    nac.sec2                     convergence.claims
    nac.table2                   frozen.claims
    nac.thm1                     nac_corollaries, nac_stability, proofs.nac_stability
    nac.thm2                     charitable_nac, nac_thm2_proof, proofs.nac_gates
    nac.thm3                     charitable_nac, frozen.claims, nac_thm3_proof, proofs.nac_frozen, proofs.nac_text
    nac000.abstract              nac_curation_cost
    nac000.alg1                  nac_twins
    nac000.alg2                  charitable_nac, nac_algorithms, nac_twins
    nac000.c2                    nac_table3
    nac000.count                 nac_twins
    nac000.d2                    nac_readings, text_decided
    nac000.d3                    nac_datasets
    nac000.d33                   nac_readings
    nac000.d4                    nac_twins
    nac000.ledger                nac000_sentences
    nac000.s22                   charitable_nac
    nac000.s2_2                  nac_curation_cost
    nac000.s3                    nac_readings
    nac000.s3_2                  nac001_sentences
    nac000.table1                nac_table1
    nac000.table3                nac_table3
    nac000.table4                nac_readings, nac_twins
    nac000.table5                nac_runtime_table
    nac001.alg1                  nac_algorithms, nac_twins
    nac001.alg2                  nac_algorithms, nac_twins
    nac001.app                   nac001_appendix_sentences
    nac001.b1                    text_decided
    nac001.b3                    charitable_nac
    nac001.c3                    nac_table3
    nac001.count                 nac001_sentences, nac_twins
    nac001.d31                   nac_datasets
    nac001.d32                   nac_datasets
    nac001.d33                   nac_datasets
    nac001.d34                   nac_datasets, nac_readings
    nac001.eq1                   nac001_sentences
    nac001.eq15                  charitable_nac
    nac001.motivation            proofs.nac_motivation
    nac001.s2_2                  nac_curation_cost
    nac001.s3                    nac_datasets, nac_readings
    nac001.s3_1                  nac001_sentences
    nac001.s3_2                  nac001_sentences
    nac001.s4                    nac_table3
    nac001.s5                    nac001_sentences
    nac001.table1                nac001_sentences, nac_table1
    nac001.table2                nac001_sentences, nac_readings, nac_runtime_table
    nac001.table3                nac_table3
    nac001.table4                nac_datasets, nac_readings, nac_twins
    nac001.table5                nac001_sentences
    nac001.xref                  nac001_sentences
    solvers.agree                solver_agreement
    sparse.alg                   locality_readings, proofs.sparse_recurrent, sparse_attention
    sparse.args                  sparse_attention
    sparse.attention             proofs.sparse_recurrent
    sparse.batch                 sparse_attention
    sparse.eq                    proofs.sparse_recurrent
    sparse.sequence              proofs.sparse_recurrent
    sparse.toy                   sparse_attention
    sparse.update                proofs.sparse_recurrent
"""
