"""Round 351 (tests/mutants/mutants_values351.py): lnrnn info's CUDA line word for word where CUDA is usable, with
the CUDA twins' choices stood in by distinct strings: the library's line, the LSTM loop at H 128 in float32, and
the BN cells' and the window layer's loop asked with seq_ok False (they have no sequence kernels)."""
from lnrnn import backend
from lnrnn.commands import info as info_mod
from lnrnn.kernels import lstm_cuda
from lnrnn.kernels.cuda import graphs_cuda
from test_cli import assert_ok, invoke


def test_the_cuda_paths_line_names_each_loop(monkeypatch):
    monkeypatch.setattr(info_mod, "_threading", lambda: ("workqueue", 2, 2))
    monkeypatch.setattr(backend, "cuda_usable", lambda: (True, "a stand-in GPU"))
    monkeypatch.setattr(graphs_cuda, "describe", lambda: "cuBLAS and CUDA graphs through a stand-in")
    monkeypatch.setattr(graphs_cuda, "loop_path",
                        lambda seq_ok, T=None: "seq" if seq_ok else ("step" if T is None else "graph"))
    monkeypatch.setattr(lstm_cuda, "lstm_path", lambda H, dtype, dcT=False, T=None: f"lstm-{H}-{dtype}")
    r = invoke("info")
    assert_ok(r)
    lines = r.stdout.splitlines()
    assert [ln for ln in lines if ln.startswith("CUDA")] == [
        "CUDA: usable: a stand-in GPU",
        "CUDA products and LSTM time loops: cuBLAS and CUDA graphs through a stand-in; LSTM loop: lstm-128-float32 "
        "(H 128, float32); BN cells and the window layer: step"]
