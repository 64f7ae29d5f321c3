"""The shared options and lnrnn info, against what their help and the README say: --bidirectional a flag
(given: on, with the next option still read as an option; omitted: off, TrainConfig's documented default), and
info's lines written out word for word with every environment answer stood in (threading layer, BLAS pools,
the kernels' BLAS choice and its reasons, batch blocks, CUDA, MKL's mode, malloc, the thread variables)."""
import json
import os
import platform
import sys

import click
import numba
import numpy
import scipy
from click.testing import CliRunner

import lnrnn
from lnrnn import backend
from lnrnn.commands import info as cmd
from lnrnn.commands.options import model_options


@click.command()
@model_options
def _shown(**kw):
    click.echo(json.dumps(kw, sort_keys=True))


def _options(args):
    r = CliRunner().invoke(_shown, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_bidirectional_is_a_flag_read_before_other_options():
    got = _options(["--bidirectional", "--hidden", "7"])
    assert got["bidirectional"] is True and got["hidden"] == 7
    assert _options(["--hidden", "3", "--bidirectional"])["bidirectional"] is True
    # omitted: the documented model defaults (README: ln-lstm, orthogonal, forget bias 1, float32, one direction)
    assert _options([]) == {"bidirectional": False, "cell": "ln-lstm", "dtype": "float32", "forget_bias": 1.0,
                            "hidden": None, "init": "orthogonal", "layers": None, "skip": None, "window": None,
                            "window_norm": None}


def test_info_lines_word_for_word_with_the_environment_stood_in(monkeypatch):
    import lnrnn.config
    import lnrnn.kernels.cpu.blas as blas
    import lnrnn.kernels.cpu.threads as threads
    import lnrnn.mkl as mkl
    monkeypatch.setattr(cmd, "_threading", lambda: ("tbb", 3, 12))
    monkeypatch.setattr(cmd, "_blas", lambda: ["pool A", "pool B"])
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, "no GPU in the stand-in"))
    monkeypatch.setattr(mkl, "cnr_mode", lambda: None)
    monkeypatch.setattr(lnrnn, "MALLOC_TUNED", False, raising=False)
    monkeypatch.setattr(lnrnn.config, "BLOCK_ROWS", 17)
    monkeypatch.setattr(threads, "batch_blocks", lambda B: f"<{B}>")
    monkeypatch.setattr(os, "cpu_count", lambda: 7)
    for name, value in (("BLAS", "the-blas"), ("BLAS_WHY", "why-blas"), ("BLAS_TAG", "tag9"), ("REC", "rgemm"),
                        ("REC_WHY", "why-rec"), ("DWH", "blas"), ("DWH_WHY", "why-dwh"), ("GRAD", "blas"),
                        ("GRAD_WHY", "why-grad")):
        monkeypatch.setattr(blas, name, value)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "5")
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    assert cmd.info_lines() == [
        f"lnrnn {lnrnn.__version__}",
        f"python {platform.python_version()} ({platform.platform()})",
        f"numba {numba.__version__}, numpy {numpy.__version__}, scipy {scipy.__version__}",
        "numba threading layer: tbb; threads: 3 in use of 12 (NUMBA_NUM_THREADS)",
        "CPU cores: 7",
        "batch blocks: a batch of B rows splits into fixed blocks of at least 17 rows (B 64: <64>, B 128: <128>, "
        "B 256: <256>); threads take whole blocks, so results are the same bits on any thread count, and a batch "
        "uses at most as many threads as blocks",
        "BLAS: pool A; pool B",
        "lnrnn kernels multiply with: the-blas, because why-blas; the per-step products with rgemm: why-rec; "
        "compiled kernels are cached under names ending -tag9 (one set per choice)",
        "weight gradients (dWh, dWx) whose partials outgrow L2: large blocks on the BLAS: why-dwh",
        "weight-gradient blocks within L2: on the BLAS, as every weight gradient: why-grad",
        "thread variables: OPENBLAS_NUM_THREADS=2, MKL_NUM_THREADS=unset, OMP_NUM_THREADS=5, OMP_WAIT_POLICY=unset",
        "CUDA: not usable: no GPU in the stand-in",
        "malloc: default allocator",
    ]
    assert sys.version.startswith(platform.python_version())
