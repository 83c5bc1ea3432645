"""Importing this module registers every claim provider with the registry.

Claims live with the checks, never in the packages they check: `nacverify.solvers` and
`nacverify.model` know nothing of verification.
"""

from .frozen import claims as _frozen_claims  # noqa: F401
from .symbolic import claims as _symbolic_claims  # noqa: F401
from .checks import nac_stability as _nac_stability_claims  # noqa: F401
from .checks import nac_corollaries as _nac_corollaries_claims  # noqa: F401
from .checks import solver_agreement as _solver_claims  # noqa: F401
from .checks import nac_model_gates as _nac_model_gates_claims  # noqa: F401
from .checks import nac_reference_parity as _nac_reference_parity_claims  # noqa: F401
from .checks import locality_latency as _locality_latency_claims  # noqa: F401
from .checks import locality_attention as _locality_attention_claims  # noqa: F401
from .checks import locality_spiking as _locality_spiking_claims  # noqa: F401
from .checks import sparse_attention as _sparse_attention_claims  # noqa: F401
from .checks import nac_table1 as _nac_table1_claims  # noqa: F401
from .checks import nac_runtime_table as _nac_runtime_table_claims  # noqa: F401
from .checks import nac_datasets as _nac_datasets_claims  # noqa: F401
from .checks import nac_text_closed_forms as _nac_text_closed_forms_claims  # noqa: F401
from .checks import nac_thm3_proof as _nac_thm3_proof_claims  # noqa: F401
from .checks import nac_s22_model as _nac_s22_model_claims  # noqa: F401
from .checks import nac_thm2_proof as _nac_thm2_proof_claims  # noqa: F401
from .checks import nac_readings as _nac_readings_claims  # noqa: F401
from .checks import nac_algorithms as _nac_algorithms_claims  # noqa: F401
from .checks import nac_curation_cost as _nac_curation_cost_claims  # noqa: F401
from .checks import nac_table3 as _nac_table3_claims  # noqa: F401
from .checks import nac_units as _nac_units_claims  # noqa: F401
from .checks import ltc_bounds as _ltc_bounds_claims  # noqa: F401
from .checks import ltc_stability as _ltc_stability_claims  # noqa: F401
from .checks import ltc_unfolding as _ltc_unfolding_claims  # noqa: F401
from .checks import ltc_cost as _ltc_cost_claims  # noqa: F401
from .checks import ltc_bptt as _ltc_bptt_claims  # noqa: F401
from .checks import ltc_epsilon as _ltc_epsilon_claims  # noqa: F401
from .checks import ltc_init as _ltc_init_claims  # noqa: F401
from .checks import ltc_trajectory_length as _ltc_trajectory_length_claims  # noqa: F401
from .checks import ltc_model_equations as _ltc_model_equations_claims  # noqa: F401
from .checks import ltc_bounds_2018 as _ltc_bounds_2018_claims  # noqa: F401
from .checks import ltc_table11 as _ltc_table11_claims  # noqa: F401
from .checks import charitable_nac as _charitable_nac_claims  # noqa: F401
from .checks import ltc_readings as _ltc_readings_claims  # noqa: F401
from .checks import locality_readings as _locality_readings_claims  # noqa: F401
from .checks import nac_twins as _nac_twins_claims  # noqa: F401
from .checks import text_decided as _text_decided_claims  # noqa: F401
from .checks import nac000_sentences as _ledger_000_claims  # noqa: F401
from .checks import sentences_002_004 as _ledger_002_004_claims  # noqa: F401
from .checks import nac001_sentences as _ledger_001a_claims  # noqa: F401
from .checks import nac001_appendix_sentences as _ledger_001b_claims  # noqa: F401
from .convergence import claims as _convergence_claims  # noqa: F401
