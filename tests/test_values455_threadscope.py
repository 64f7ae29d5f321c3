"""lnrnn.threadscope.kernel_threads prepares the process on its first entry (lnrnn/threadscope.py): in a fresh
process that imports the scope alone, with no kernels loaded, nothing is prepared before; the first block starts
Numba's threading layer (the one the process then reports) and tunes the allocator, and records both; a second
block finds them done, and the record is what prepare_process returns. LNRNN_KEEP_MALLOC=1 is honoured there too."""
import json
import sys

import pytest

from test_threads_scope import run_probe

PROBE = """
import json, sys
import lnrnn.threadscope as t
before = dict(t._prepared)
with t.kernel_threads():
    first = dict(t._prepared)
    import numba
    try:
        layer = numba.threading_layer()
    except ValueError:       # "Threading layer is not initialized."
        layer = None
with t.kernel_threads():
    pass
print(json.dumps(dict(before=before, first=first, again=t.prepare_process(), layer=layer,
                      kernels="lnrnn.kernels" in sys.modules)))
"""


@pytest.mark.parametrize("keep", [False, True])
def test_the_first_block_prepares_the_process(keep):
    got = json.loads(run_probe(PROBE, {"LNRNN_KEEP_MALLOC": "1"} if keep else None).stdout)
    assert got["before"] == {} and not got["kernels"]
    tuned = not keep and sys.platform.startswith("linux")     # glibc's mallopt, unless the user keeps malloc
    assert got["first"] == {"MALLOC_TUNED": tuned, "THREADING_LAYER": got["layer"]}
    assert got["layer"] in ("omp", "tbb", "workqueue")
    assert got["again"] == got["first"]
