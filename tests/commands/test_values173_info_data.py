"""lnrnn info's printed values against what the libraries themselves report (numba's threads, threadpoolctl's
loaded BLAS, numpy's and scipy's build configuration, lnrnn's chosen weight-gradient path, both ways), and lnrnn
data mnist's --subset against MNIST's file names (train-* for the 60k pair, t10k-* for the 10k pair), with the
download replaced by a fake that records each URL and the verification by one that accepts."""
import os

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.commands import data as data_cmd
from lnrnn.commands import info as info_cmd


def test_threads_line_says_in_use_then_the_maximum(monkeypatch):
    monkeypatch.setattr(info_cmd, "_threading", lambda: ("workqueue", 3, 8))
    lines = info_cmd.info_lines()
    assert "numba threading layer: workqueue; threads: 3 in use of 8 (NUMBA_NUM_THREADS)" in lines


def test_blas_lines_against_numpy_scipy_and_threadpoolctl():
    import numpy
    import scipy
    got = info_cmd._blas()
    for mod, m in (("numpy", numpy), ("scipy", scipy)):
        blas = m.show_config(mode="dicts")["Build Dependencies"]["blas"]
        assert f"{mod} built against {blas['name']} {blas.get('version', '')}".rstrip() in got
    threadpoolctl = pytest.importorskip("threadpoolctl")
    pools = [p for p in threadpoolctl.threadpool_info() if p.get("user_api") == "blas"]
    for p in pools:
        n = p["num_threads"]
        want = f"({n} {'thread' if n == 1 else 'threads'}, {os.path.basename(p['filepath'])})"
        assert any(line.startswith(f"{p['internal_api']} ") and line.endswith(want) for line in got), (p, got)


def info_lines_with(monkeypatch, prefix, **choices):
    """lnrnn info's lines that start with prefix, with the kernels' product choices set (blas.DWH, DWH_WHY, GRAD,
    GRAD_WHY, ...: choices) and the threading probe stubbed."""
    from lnrnn.kernels.cpu import blas
    for name, value in choices.items():
        monkeypatch.setattr(blas, name, value)
    monkeypatch.setattr(info_cmd, "_threading", lambda: ("omp", 1, 1))
    return [line for line in info_cmd.info_lines() if line.startswith(prefix)]


@pytest.mark.parametrize("dwh, said", [("rgemm", "blocks in L2 on rgemm"), ("blas", "large blocks on the BLAS")])
def test_weight_gradient_line_names_the_path_taken(monkeypatch, dwh, said):
    lines = info_lines_with(monkeypatch, "weight gradients", DWH=dwh, DWH_WHY="the reason")
    assert lines == [f"weight gradients (dWh, dWx) whose partials outgrow L2: {said}: the reason"]


NAMES = ["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz"]


@pytest.mark.parametrize("subset, want", [("train", NAMES[:2]), ("test", NAMES[2:]), (None, NAMES)])
def test_subset_downloads_the_files_of_its_pair(monkeypatch, tmp_path, subset, want):
    urls = []

    def download(url, dest_path, quiet):
        urls.append(url)
        tmp = os.path.join(os.path.dirname(dest_path), ".download-fake")
        with open(tmp, "wb") as f:
            f.write(b"x")
        return tmp
    monkeypatch.setattr(data_cmd, "download", download)
    monkeypatch.setattr(data_cmd, "verify", lambda path, name: None)
    dest = tmp_path / "mnist"
    args = ["data", "mnist", "--dest", str(dest), "--mirror", "https://example.org/m/", "-q"]
    r = CliRunner().invoke(main, args + (["--subset", subset] if subset else []))
    assert r.exit_code == 0, r.output
    assert sorted(urls) == sorted("https://example.org/m/" + n for n in want)
    assert sorted(os.listdir(dest)) == sorted(want)
