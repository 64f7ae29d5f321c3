"""``lnrnn info`` and the shared options by value (round 322 of the planted bugs,
tests/mutants/mutants_values322.py): info's BLAS line is every BLAS pool threadpoolctl lists (library, version,
thread count in the singular or plural, file name) then numpy's and scipy's build BLAS from their show_config,
joined by '; '; the kernels' line ends with the cache tag of the chosen BLAS; a threading layer that cannot be
read is shown as 'unavailable (why)' beside the thread counts read from numba. train's --split (task_options)
reaches the split's parser: a malformed or non-positive split is refused in its words, not as an unknown option."""
import os

import numba
import numpy
import pytest
import scipy

from lnrnn.kernels.cpu import blas as blas_mod
from test_cli import assert_ok, invoke
from test_values221_sample_cli import exact_error


@pytest.fixture(scope="module")
def info_out():
    r = invoke("info")
    assert_ok(r)
    return r.stdout.splitlines()


def blas_entries():
    from threadpoolctl import threadpool_info
    want = []
    for pool in threadpool_info():
        if pool["user_api"] == "blas":
            n = pool["num_threads"]
            plural = "thread" if n == 1 else "threads"
            want.append(f"{pool['internal_api']} {pool.get('version') or ''} ({n} {plural}, "
                        f"{os.path.basename(pool['filepath'])})")
    for name, m in (("numpy", numpy), ("scipy", scipy)):
        b = m.show_config(mode="dicts")["Build Dependencies"]["blas"]
        want.append(f"{name} built against {b['name']} {b.get('version', '')}".rstrip())
    return want


def test_the_blas_line_lists_the_pools_then_the_builds(info_out):
    want = blas_entries()
    assert len(want) >= 2   # numpy's and scipy's builds at least: the separator shows
    assert [ln for ln in info_out if ln.startswith("BLAS: ")] == ["BLAS: " + "; ".join(want)]


def test_the_kernels_line_names_the_choice_and_its_cache_tag(info_out):
    line = [ln for ln in info_out if ln.startswith("lnrnn kernels multiply with: ")]
    assert len(line) == 1
    assert line[0].startswith(f"lnrnn kernels multiply with: {blas_mod.BLAS}, because {blas_mod.BLAS_WHY}; ")
    assert line[0].endswith(f"compiled kernels are cached under names ending -{blas_mod.BLAS_TAG} (one set per "
                            "choice)")


def test_a_threading_layer_that_cannot_be_read_is_shown_unavailable(monkeypatch):
    def broken():
        raise ValueError("no threading layer was chosen")

    monkeypatch.setattr(numba, "threading_layer", broken)
    r = invoke("info")
    assert_ok(r)
    want = (f"numba threading layer: unavailable (no threading layer was chosen); threads: "
            f"{numba.get_num_threads()} in use of {numba.config.NUMBA_NUM_THREADS} (NUMBA_NUM_THREADS)")
    assert [ln for ln in r.stdout.splitlines() if ln.startswith("numba threading layer: ")] == [want]


@pytest.mark.parametrize("split, why", [("10/abc", "must be TRAIN/VAL counts such as 8000/2000, not '10/abc'"),
                                        ("7/0", "needs positive counts, not '7/0'")])
def test_trains_split_reaches_its_parser(tmp_path, split, why):
    out = tmp_path / "run"
    r = invoke("train", "--task", "digits", "--split", split, "--epochs", 1, "--out", out, "-q")
    exact_error(r, f"--split {why}.")
    assert os.listdir(tmp_path) == []
