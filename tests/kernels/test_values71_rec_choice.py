"""The choice of the per-step product (lnrnn/kernels/cpu/rec_choice.py, blas._choose_rec) and the LSTM backward's
dWh blocks (blas.dwh_blocks) on given timings and sizes: the margins themselves (a tie keeps the rule by CPU kind),
LNRNN_REC_GEMM choosing outright in any case and spacing, the record keyed by the CPU's model and flags, a record
read back without measuring again (one written by hand with this host's key too), a corrupt record measured again
rather than raising; dwh_blocks against its docstring, worked out by hand from config's sizes."""
import json

import pytest

from lnrnn.config import DWH_BIG_BYTES, DWH_BLAS_MIN_ROWS, DWH_BLOCK_ROWS, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu import rec_choice as rc

RULE = ("blas", "by CPU kind")


@pytest.mark.parametrize("ratio,want", [(rc.RGEMM_BELOW * 0.999, "rgemm"), (rc.RGEMM_BELOW, "rule"), (1.0, "rule"),
                                        (rc.BLAS_ABOVE, "rule"), (rc.BLAS_ABOVE * 1.001, "blas")])
def test_decide_on_given_ratios_ties_keep_the_rule(ratio, want):
    for rule in (("blas", "intel"), ("rgemm", "amd")):
        choice, why = rc.decide(ratio, rule)
        assert choice == (rule[0] if want == "rule" else want)
        assert f"{ratio:.2f}x" in why and ((rule[1] in why) == (want == "rule"))


@pytest.fixture
def child(monkeypatch, tmp_path):
    """Records in tmp_path; a child that 'measures' the ratio in state, counted."""
    state = {"ratio": 0.5, "dwh_ratio": 0.5, "calls": 0}

    def run_child():
        state["calls"] += 1
        return {"shapes": [], "ratio": state["ratio"], "dwh_shapes": [], "dwh_ratio": state["dwh_ratio"]}
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    monkeypatch.setattr(rc, "run_child", run_child)
    return state, tmp_path


def test_a_record_is_read_back_without_measuring(child):
    state, folder = child
    assert rc.choose("numpy", "cpu X | avx2", RULE)[0] == "rgemm" and state["calls"] == 1
    path = folder / f"rec-choice-{rc.host_key('numpy', 'cpu X | avx2')}.json"
    assert json.loads(path.read_text()) == {"shapes": [], "ratio": 0.5, "dwh_shapes": [], "dwh_ratio": 0.5,
                                            "key": rc.host_key("numpy", "cpu X | avx2")}
    state["ratio"] = 5.0
    for _ in range(2):
        assert rc.choose("numpy", "cpu X | avx2", RULE)[0] == "rgemm" and state["calls"] == 1


def test_a_record_written_by_hand_is_taken_as_it_says(child):
    state, folder = child
    key = rc.host_key("numpy", "cpu Y")
    (folder / f"rec-choice-{key}.json").write_text(json.dumps({"ratio": 1.5, "dwh_ratio": 0.1, "key": key}))
    rec, why, dwh, dwh_why = rc.choose("numpy", "cpu Y", ("rgemm", "amd"))
    assert (rec, dwh) == ("blas", "blas") and "1.50x" in why and state["calls"] == 0


@pytest.mark.parametrize("text", ["", "{", "\x00\xff garbage", '{"ratio": 0.5, "dwh_ratio": 0.5, "key": "',
                                  "[1, 2]", "null"])
def test_a_corrupt_record_is_measured_again_not_raised(child, text):
    state, folder = child
    key = rc.host_key("numpy", "cpu Z")
    path = folder / f"rec-choice-{key}.json"
    path.write_text(text)
    state["ratio"] = 1.5
    assert rc.read_record(str(path), key) is None
    assert rc.choose("numpy", "cpu Z", ("rgemm", "amd"))[0] == "blas" and state["calls"] == 1
    assert json.loads(path.read_text())["ratio"] == 1.5, "the new measurement replaces it"


@pytest.fixture
def no_env(monkeypatch):
    for var in ("LNRNN_REC_GEMM", "LNRNN_BLAS", "LNRNN_DWH_GEMM"):
        monkeypatch.delenv(var, raising=False)
    asked = []
    monkeypatch.setattr(blas.rec_choice, "choose", lambda name, cpu, rule: asked.append((name, cpu)) or
                        ("blas", "measured", "blas", "the per-step products run on the BLAS"))
    return asked


@pytest.mark.parametrize("value,want", [("rgemm", "rgemm"), ("RGEMM", "rgemm"), (" Rgemm\n", "rgemm"),
                                        ("BLAS", "blas"), (" blas ", "blas")])
def test_the_environment_chooses_outright_in_any_case(no_env, monkeypatch, value, want):
    monkeypatch.setenv("LNRNN_REC_GEMM", value)
    rec, why, _, _ = blas._choose_rec(True)
    assert rec == want and why == f"LNRNN_REC_GEMM={want} asks for it"
    assert no_env == [], "nothing measured"


def test_the_record_is_keyed_by_the_cpus_model_and_flags(no_env, monkeypatch):
    """Two hosts of one model name, one with AVX-512 and one without (a VM), ask for records of other keys."""
    for flags in ("fpu sse avx2 avx512f", "fpu sse avx2"):
        monkeypatch.setattr(blas, "cpuinfo", lambda field, f=flags: {"model name": "EPYC 9000", "flags": f,
                                                                     "vendor_id": "AuthenticAMD"}.get(field, ""))
        blas._choose_rec(False)
    (name0, cpu0), (name1, cpu1) = no_env
    assert name0 == name1 == "numpy"
    assert "EPYC 9000" in cpu0 and "avx512f" in cpu0 and "avx512f" not in cpu1
    assert rc.host_key(name0, cpu0) != rc.host_key(name1, cpu1)


def dwh_by_docstring(H, I, m, T, itemsize, rec, dwh):
    """blas.dwh_blocks as its docstrings say, written out: the budget (DWH_L2_BYTES where the H x 4H partial fits
    in L2 and the I x 4H one in a quarter of it; DWH_BIG_BYTES where rgemm runs both and both fit in that; else
    none), rows filling a quarter of it (DWH_BLOCK_ROWS without, never more), whole steps of m rows; rgemm's
    blocks where rgemm runs per step and a block fills at most half the budget (L2's at least); short BLAS
    blocks as many as blocks of DWH_BLAS_MIN_ROWS rows would be, the steps spread evenly."""
    N = 4 * H
    big = rec == "rgemm" and dwh == "rgemm"
    if H * N * itemsize <= DWH_L2_BYTES and 4 * I * N * itemsize <= DWH_L2_BYTES:
        budget = DWH_L2_BYTES
    elif big and max(H, I) * N * itemsize <= DWH_BIG_BYTES:
        budget = DWH_BIG_BYTES
    else:
        budget = 0
    rows = DWH_BLOCK_ROWS if budget == 0 else min(DWH_BLOCK_ROWS, max(1, budget // 4 // (N * itemsize)))
    nb = max(1, min(T, rows // m))
    tw = rec == "rgemm" and 2 * nb * m * N * itemsize <= max(budget, DWH_L2_BYTES)
    if not tw and nb * m < DWH_BLAS_MIN_ROWS:
        steps = -(-DWH_BLAS_MIN_ROWS // m)
        blocks = -(-T // steps)
        nb = -(-T // blocks)
    return nb, tw


def test_dwh_blocks_worked_examples():
    assert (DWH_L2_BYTES, DWH_BIG_BYTES, DWH_BLOCK_ROWS, DWH_BLAS_MIN_ROWS) == (1 << 20, 4 << 20, 4096, 256)
    # S2 on the BLAS (H 256, I 28, 32-row chunks, 28 steps): 64-row L2 blocks are 2 steps, under 256 rows:
    # 4 blocks of 7 steps (the docstring's example)
    assert blas.dwh_blocks(256, 28, 32, 28, 4, "blas", "blas") == (7, False)
    # ... on rgemm: 2 steps of 32 rows, rgemm's transposed product
    assert blas.dwh_blocks(256, 28, 32, 28, 4, "rgemm", "blas") == (2, True)
    # S3 (H 400: a 2.5 MB partial) with rgemm's large blocks measured faster: 4 MB / 4 / 6400 B = 163 rows,
    # 10 steps of 16 rows; measured slower: 4096-row blocks, 150 steps here, on the BLAS
    assert blas.dwh_blocks(400, 0, 16, 150, 4, "rgemm", "rgemm") == (10, True)
    assert blas.dwh_blocks(400, 0, 16, 150, 4, "rgemm", "blas") == (150, False)
    # S1 (H 128, 64 rows, 784 steps): 128 rows fill a quarter of L2: 2 steps
    assert blas.dwh_blocks(128, 1, 64, 784, 4, "rgemm", "rgemm") == (2, True)


@pytest.mark.parametrize("rec,dwh", [("rgemm", "rgemm"), ("rgemm", "blas"), ("blas", "blas")])
@pytest.mark.parametrize("itemsize", [4, 8])
def test_dwh_blocks_follow_the_docstring(rec, dwh, itemsize):
    for H in (1, 7, 33, 65, 128, 256, 400, 513):
        for I in (0, 7, 65, 1000):
            for m in (1, 7, 33, 65):
                for T in (1, 7, 33, 65, 784):
                    got = blas.dwh_blocks(H, I, m, T, itemsize, rec, dwh)
                    assert got == dwh_by_docstring(H, I, m, T, itemsize, rec, dwh), (H, I, m, T)
                    assert 1 <= got[0] <= T
