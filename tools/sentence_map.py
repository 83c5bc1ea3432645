"""Write nacverify/data/units.json, the shipped sentence map (nacverify/ledger/units.py): run after
the splitter or a shipped document changes; tests/test_units.py fails while it is stale."""

from __future__ import annotations

import json
from pathlib import Path

from nacverify.ledger import SEED_FILES
from nacverify.ledger.units import shipped_map

TARGET = Path(__file__).resolve().parents[1] / "nacverify" / "data" / "units.json"

if __name__ == "__main__":
    data = shipped_map(SEED_FILES)
    TARGET.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{TARGET}: {sum(len(d['units']) for d in data.values())} units in {len(data)} documents")
