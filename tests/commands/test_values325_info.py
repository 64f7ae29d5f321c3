"""Round 325 (tests/mutants/mutants_values325.py): lnrnn info's lines naming what was chosen and why, word for word,
with blas.py's choices stood in (the BLAS and its reason, the per-step product and its reason, the dWh blocks and
theirs, the cache tag), each reason distinct so that a line quoting the wrong one shows."""
import pytest

from lnrnn.commands import info as info_mod
from lnrnn.kernels.cpu import blas as blas_mod
from test_cli import assert_ok, invoke


@pytest.mark.parametrize("rec, rec_words, dwh, dwh_words", [
    ("rgemm", "rgemm", "rgemm", "blocks in L2 on rgemm"),
    ("blas", "the BLAS", "blas", "large blocks on the BLAS"),
], ids=["rgemm", "blas"])
def test_the_choice_lines_name_each_choice_and_its_own_reason(monkeypatch, rec, rec_words, dwh, dwh_words):
    monkeypatch.setattr(info_mod, "_threading", lambda: ("omp", 1, 2))
    stood_in = dict(BLAS="MKL (libmkl_rt.so.2)", BLAS_WHY="LNRNN_BLAS=mkl asks for it", REC=rec,
                    REC_WHY="measured on this CPU, rgemm took 0.62x the BLAS's time on the per-step shapes",
                    DWH=dwh, DWH_WHY="measured on this CPU, rgemm's blocks took 0.48x the BLAS's time",
                    BLAS_TAG=f"mkl-{rec}-{dwh}")
    for k, v in stood_in.items():
        monkeypatch.setattr(blas_mod, k, v)
    r = invoke("info")
    assert_ok(r)
    lines = r.stdout.splitlines()
    assert [ln for ln in lines if ln.startswith("lnrnn kernels multiply with: ")] == [
        f"lnrnn kernels multiply with: MKL (libmkl_rt.so.2), because LNRNN_BLAS=mkl asks for it; the per-step "
        f"products with {rec_words}: measured on this CPU, rgemm took 0.62x the BLAS's time on the per-step shapes; "
        f"compiled kernels are cached under names ending -mkl-{rec}-{dwh} (one set per choice)"]
    assert [ln for ln in lines if ln.startswith("weight gradients ")] == [
        f"weight gradients (dWh, dWx) whose partials outgrow L2: {dwh_words}: measured on this CPU, rgemm's blocks "
        "took 0.48x the BLAS's time"]
    assert "numba threading layer: omp; threads: 1 in use of 2 (NUMBA_NUM_THREADS)" in lines
