"""A task wrapper that kills its own Dask worker once (tests/test_sweep_stream.py).

It lives in its own module so that workers can import it: the test ships it to them with
`distributed.Client.upload_file`.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path


def die_once(fn, marker: str, index_to_kill: int, spec, index):
    """fn(spec, index), except that the first attempt at chunk `index_to_kill` writes its pid
    to `marker` and kills its own worker process (SIGKILL), as a crashed or pre-empted node would."""
    if index == index_to_kill and not os.path.exists(marker):
        Path(marker).write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return fn(spec, index)
