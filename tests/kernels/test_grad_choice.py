"""Where the weight gradients whose partials stay in L2 take their blocks (blas.GRAD; rec_choice.measure_dwh with
within_l2, decide_grad, recorded_grad; blas._choose_grad, dwh_blocks' grad, grad_blocks): measured on stand-in
products and a stand-in clock, decided at and around its bounds, read from the host's record without measuring,
overridden by the environment, and followed by the LSTM backward and the weight gradients over many rows, which
give the reference's gradients on either product."""
import json
import math
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.kernels.cpu import blas, gemm, rec_choice as rc
import lnrnn.kernels.cpu.rgemm as rg
from test_kernels import close, lstm_problem, ref_lstm, run_lstm
from test_values173_info_data import info_lines_with
from test_values325_rec_choice import Clock, StandInBlas


def test_the_shapes_within_l2_take_other_blocks_on_each_product():
    # S1's and S2's dWh: rgemm's L2 blocks (4 and 2 steps of 32 rows, on its transposed product) against the
    # BLAS's blocks of at least config.DWH_BLAS_MIN_ROWS (256) rows, whatever the large partials' choice
    assert rc.GRAD_SHAPES == ((128, 32, 1024), (256, 32, 896))
    for dwh in ("rgemm", "blas"):
        assert blas.dwh_blocks(128, 0, 32, 32, 4, "rgemm", dwh) == (4, True)
        assert blas.dwh_blocks(256, 0, 32, 28, 4, "rgemm", dwh) == (2, True)
    assert blas.dwh_blocks(128, 0, 32, 32, 4, "blas", "blas") == (8, False)
    assert blas.dwh_blocks(256, 0, 32, 28, 4, "blas", "blas") == (7, False)


def test_measure_within_l2_blocks_and_rows(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    stand_in = StandInBlas(clock)
    rows, ratio = rc.measure_dwh(stand_in, within_l2=True)
    assert stand_in.blocks_asked == [(128, 0, 32, 32, 4, "rgemm", "rgemm"), (128, 0, 32, 32, 4, "blas", "blas"),
                                     (256, 0, 32, 28, 4, "rgemm", "rgemm"), (256, 0, 32, 28, 4, "blas", "blas")]
    # the stand-in's blocks: rgemm's 2 steps of 32 rows, the BLAS's 8. R 1024: 16 blocks of 64 rows against 4 of
    # 256; R 896: 14 of 64 against 3 of 256 and one of 128; a warm-up run of each, then 9 rounds in turns
    first = [("grad_t_add", 64)] * 16 + [("gemm_add", 256)] * 4
    second = [("grad_t_add", 64)] * 14 + [("gemm_add", 256)] * 3 + [("gemm_add", 128)]
    assert stand_in.calls == first * 10 + second * 10
    # grad_t_add 2^-10 s a block, gemm_add 2^-9: 16 / 8 and 14 / 8 of the BLAS's time
    assert rows == [[128, 32, 1024, 16 * 2.0 ** -10, 4 * 2.0 ** -9], [256, 32, 896, 14 * 2.0 ** -10, 4 * 2.0 ** -9]]
    assert ratio == pytest.approx(math.sqrt(2.0 * 1.75), rel=1e-12)


def test_measure_records_both_block_choices(monkeypatch):
    asked = []

    def measure_dwh(blas_, within_l2=False):
        asked.append(within_l2)
        return ([[4, 32, 6, 0.25, 0.5]], 0.5) if within_l2 else ([[1, 2, 3, 0.5, 0.25]], 2.0)
    monkeypatch.setattr(rc, "measure_dwh", measure_dwh)
    monkeypatch.setattr(rc, "in_turns", lambda runs: ((2e-3, 1e-3), math.log(0.75)))
    stand_in = SimpleNamespace(**{n: (lambda *a: None) for n in ("rgemm_mul", "gemm_mul", "blas_mul", "rgemm_pack",
                                                                 "gemm_pack", "blas_pack")})
    out = rc.measure(stand_in)
    assert sorted(asked) == [False, True]
    assert (out["dwh_shapes"], out["dwh_ratio"]) == ([[1, 2, 3, 0.5, 0.25]], 2.0)
    assert (out["grad_shapes"], out["grad_ratio"]) == ([[4, 32, 6, 0.25, 0.5]], 0.5)
    assert out["ratio"] == pytest.approx(0.75, rel=1e-12) and rc.whole(out)


@pytest.mark.parametrize("ratio, rec, avx512, want", [
    (None, "rgemm", False, ("rgemm", "not measured")),
    (None, "rgemm", True, ("rgemm", "not measured")),
    (0.5, "blas", True, ("blas", "the per-step products run on the BLAS")),
    (None, "blas", True, ("blas", "the per-step products run on the BLAS")),
    (0.8999, "rgemm", False, ("rgemm", "measured on this CPU, rgemm's blocks took 0.90x the BLAS's time")),
    (1.1001, "rgemm", True, ("blas", "measured on this CPU, rgemm's blocks took 1.10x the BLAS's time")),
    (1.46, "rgemm", True, ("blas", "measured on this CPU, rgemm's blocks took 1.46x the BLAS's time")),
    (0.9, "rgemm", False, ("blas", "measured on this CPU, rgemm's blocks took 0.90x the BLAS's time, level within "
                                   "noise, so by CPU kind: no AVX-512")),
    (1.1, "rgemm", False, ("blas", "measured on this CPU, rgemm's blocks took 1.10x the BLAS's time, level within "
                                   "noise, so by CPU kind: no AVX-512")),
    (1.04, "rgemm", True, ("rgemm", "measured on this CPU, rgemm's blocks took 1.04x the BLAS's time, level within "
                                    "noise, so by CPU kind: AVX-512")),
])
def test_decide_grad_at_and_around_its_bounds(ratio, rec, avx512, want):
    assert rc.decide_grad(ratio, rec, avx512) == want


@pytest.fixture
def record_dir(monkeypatch, tmp_path):
    """A record folder of its own, and no child process: recorded_grad only reads."""
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))

    def no_child():
        raise AssertionError("recorded_grad measured")
    monkeypatch.setattr(rc, "run_child", no_child)
    return tmp_path


def write_record(folder, key, **fields):
    (folder / f"rec-choice-{key}.json").write_text(json.dumps(dict({"ratio": 0.5, "dwh_ratio": 1.5}, key=key,
                                                                   **fields)))


def test_recorded_grad_reads_the_hosts_record(record_dir):
    name, cpu = "libmkl_rt.so.2", "AMD EPYC 7B13 | fpu avx2"
    key = rc.host_key(name, cpu)
    assert rc.recorded_grad(name, cpu, "rgemm", False) == ("rgemm", "not measured")   # no record yet
    write_record(record_dir, key, grad_ratio=1.3)
    assert rc.recorded_grad(name, cpu, "rgemm", True) == (
        "blas", "measured on this CPU, rgemm's blocks took 1.30x the BLAS's time")
    assert rc.recorded_grad(name, cpu, "blas", True) == ("blas", "the per-step products run on the BLAS")
    write_record(record_dir, key, grad_ratio=0.7)
    assert rc.recorded_grad(name, cpu, "rgemm", False) == (
        "rgemm", "measured on this CPU, rgemm's blocks took 0.70x the BLAS's time")
    for value in (None, "1.3", [1.3]):   # a record without a number for it: not measured
        write_record(record_dir, key, grad_ratio=value)
        assert rc.recorded_grad(name, cpu, "rgemm", False) == ("rgemm", "not measured")
    write_record(record_dir, key)
    assert rc.recorded_grad(name, cpu, "rgemm", False) == ("rgemm", "not measured")
    other = rc.host_key(name, "another CPU")        # another host's record is not this one's
    write_record(record_dir, other, grad_ratio=2.0)
    assert rc.recorded_grad(name, cpu, "rgemm", False) == ("rgemm", "not measured")
    assert sorted(os.listdir(record_dir)) == sorted([f"rec-choice-{key}.json", f"rec-choice-{other}.json"])


@pytest.fixture
def asked(monkeypatch):
    """blas._choose_grad's record stood in: what it was asked, and a choice naming itself."""
    seen = []

    def recorded_grad(blas_name, cpu, rec, avx512):
        seen.append((blas_name, cpu, rec, avx512))
        return "blas", "from the record"
    monkeypatch.setattr(rc, "recorded_grad", recorded_grad)
    for var in ("LNRNN_GRAD_GEMM", "LNRNN_REC_GEMM", "LNRNN_BLAS"):
        monkeypatch.delenv(var, raising=False)
    return seen


def test_choose_grad_by_the_environment_then_the_record(asked, monkeypatch):
    assert blas._choose_grad(True, "rgemm") == ("blas", "from the record")
    cpu = blas.cpuinfo("model name") + " | " + blas.cpuinfo("flags")
    assert asked == [(os.path.basename(blas.MKL_PATH) if blas.MKL_PATH else "numpy", cpu, "rgemm", rg.AVX512)]
    assert blas._choose_grad(False, "rgemm") == ("blas", "from the record") and asked[-1][0] == "numpy"
    assert blas._choose_grad(True, "blas") == ("blas", "the per-step products run on the BLAS")
    monkeypatch.setenv("LNRNN_GRAD_GEMM", " RGemm ")
    assert blas._choose_grad(True, "rgemm") == ("rgemm", "LNRNN_GRAD_GEMM=rgemm asks for it")
    assert blas._choose_grad(True, "blas") == ("blas", "the per-step products run on the BLAS")
    monkeypatch.setenv("LNRNN_GRAD_GEMM", "blas")
    assert blas._choose_grad(True, "rgemm") == ("blas", "LNRNN_GRAD_GEMM=blas asks for it")
    monkeypatch.setenv("LNRNN_GRAD_GEMM", "gemm")                     # neither: the record decides
    assert blas._choose_grad(True, "rgemm") == ("blas", "from the record")
    monkeypatch.delenv("LNRNN_GRAD_GEMM")
    monkeypatch.setenv("LNRNN_REC_GEMM", "rgemm")                    # chosen by the environment: nothing measured
    assert blas._choose_grad(True, "rgemm") == ("rgemm", "not measured")
    assert len(asked) == 3


@pytest.mark.parametrize("itemsize", [4, 8])
def test_dwh_blocks_within_l2_on_the_blas_are_the_blas_hosts_blocks(itemsize):
    for H, I, m, T in ((128, 0, 32, 784), (256, 28, 32, 28), (256, 28, 37, 28), (4, 0, 32, 784), (16, 0, 4, 3),
                       (400, 0, 16, 300), (400, 463, 16, 500)):
        for dwh in ("rgemm", "blas"):
            want = blas.dwh_blocks(H, I, m, T, itemsize, "blas", dwh)
            assert blas.dwh_blocks(H, I, m, T, itemsize, "rgemm", dwh, "blas") == want
            assert want[1] is False
            assert blas.dwh_blocks(H, I, m, T, itemsize, "rgemm", dwh, "rgemm") == blas.dwh_blocks(
                H, I, m, T, itemsize, "rgemm", dwh)
    assert blas.dwh_blocks(256, 28, 32, 28, 4, "rgemm", "blas", "blas") == (7, False)   # S2: 224 rows, not 64
    assert blas.dwh_blocks(128, 0, 32, 784, 4, "rgemm", "rgemm", "blas") == (8, False)  # S1: 256 rows, not 128


def test_grad_blocks_follow_grad(monkeypatch):
    monkeypatch.setattr(blas, "REC", "rgemm")
    for dwh in ("rgemm", "blas"):
        monkeypatch.setattr(blas, "DWH", dwh)
        monkeypatch.setattr(blas, "GRAD", "blas")
        assert blas.grad_blocks(128, 512, 4) == (128, False)     # S1 LSTM's rows, on the BLAS
        assert blas.grad_blocks(128, 128, 4) == (512, False)     # S1 RNN
        assert blas.grad_blocks(400, 1600, 4) == (4096, False)   # S3: never rgemm's 4 MB blocks
        monkeypatch.setattr(blas, "GRAD", "rgemm")
        assert blas.grad_blocks(128, 512, 4) == (128, True)
        assert blas.grad_blocks(400, 1600, 4) == ((163, True) if dwh == "rgemm" else (4096, False))


@pytest.mark.parametrize("grad", ["rgemm", "blas"])
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 6])   # a narrow input (dWx row by row), a wide one (its dWx per block of rows)
def test_lstm_backward_follows_grad_to_the_references_gradients(grad, norm, I, monkeypatch):
    import lnrnn.kernels.lstm as L
    monkeypatch.setattr(L, "REC", "rgemm")
    monkeypatch.setattr(L, "GRAD", grad)
    planned = []
    monkeypatch.setattr(L, "dwh_blocks", lambda *a: planned.append((a, blas.dwh_blocks(*a))) or planned[-1][1])
    rng = np.random.default_rng(31)
    p = lstm_problem(rng, T=7, B=5, I=I)
    dy = rng.standard_normal((7, 5, 4))
    _, _, _, g = run_lstm(p, norm, dy, nchunks=2)
    _, _, _, gr = ref_lstm(p, norm, dy)
    (args, (_, tw)), = planned
    assert args[5:] == ("rgemm", L.DWH, grad) and tw == (grad == "rgemm")   # a tiny partial: rgemm's if grad is
    for k in ("Wh", "h0", "Wx", "b", "x"):
        assert close(g[k], gr[k]) < 1e-11, k


@pytest.mark.parametrize("grad", ["rgemm", "blas"])
def test_weight_gradients_over_many_rows_follow_grad(grad, monkeypatch):
    monkeypatch.setattr(blas, "REC", "rgemm")
    monkeypatch.setattr(blas, "GRAD", grad)
    seen = []
    real = gemm.grad_blocks
    monkeypatch.setattr(gemm, "grad_blocks", lambda *a: seen.append(real(*a)) or seen[-1])
    rng = np.random.default_rng(5)
    A, D = rng.standard_normal((203, 7)), rng.standard_normal((203, 9))  # 203 rows in 3 chunks
    got = gemm.matmul_tn(A, D, 3)
    (rows, tw), = seen
    assert tw == (grad == "rgemm")
    np.testing.assert_allclose(got, A.T @ D, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("grad, said", [("rgemm", "on rgemm"), ("blas", "on the BLAS, as every weight gradient")])
def test_info_names_the_blocks_within_l2_and_why(grad, said, monkeypatch):
    lines = info_lines_with(monkeypatch, "weight-gradient blocks", GRAD=grad, GRAD_WHY="the reason within L2")
    assert lines == [f"weight-gradient blocks within L2: {said}: the reason within L2"]
