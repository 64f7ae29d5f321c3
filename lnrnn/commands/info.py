"""``lnrnn info``: versions, Numba threading, BLAS in use (and why), and whether CUDA is usable."""
import os
import platform
import sys

import click


def _threading():
    import numba
    from numba import njit, prange

    @njit(parallel=True, cache=False)
    def _probe(n):  # the threading layer is chosen when the first parallel function runs
        s = 0
        for i in prange(n):
            s += i
        return s

    try:
        _probe(10)
        layer = numba.threading_layer()
    except Exception as e:  # noqa: BLE001
        layer = f"unavailable ({e})"
    return layer, numba.get_num_threads(), numba.config.NUMBA_NUM_THREADS


def _blas():
    lines = []
    try:
        from threadpoolctl import threadpool_info
        for pool in threadpool_info():
            if pool.get("user_api") == "blas":
                n = pool.get("num_threads")
                lines.append(f"{pool.get('internal_api')} {pool.get('version') or ''} "
                             f"({n} thread{'s' * (n != 1)}, {os.path.basename(pool.get('filepath', ''))})")
    except Exception:  # noqa: BLE001 - threadpoolctl is optional
        pass
    import numpy
    import scipy
    for mod, m in (("numpy", numpy), ("scipy", scipy)):
        try:
            cfg = m.show_config(mode="dicts")
            blas = cfg.get("Build Dependencies", {}).get("blas", {})
            lines.append(f"{mod} built against {blas.get('name', '?')} {blas.get('version', '')}".rstrip())
        except Exception:  # noqa: BLE001
            pass
    return lines or ["unknown"]


def _cuda_paths():
    """What runs the CUDA twins' GEMMs and which time loop the LSTM twins take, and the BN cells and the synthesis
    window, which have no sequence kernels (kernels/cuda/graphs_cuda.py)."""
    from lnrnn.kernels.cuda.graphs_cuda import describe, loop_path
    from lnrnn.kernels.lstm_cuda import lstm_path
    return (f"{describe()}; LSTM loop: {lstm_path(128, 'float32')} (H 128, float32); BN cells and the window "
            f"layer: {loop_path(False)}")


def info_lines():
    import numba
    import numpy
    import scipy
    import lnrnn
    layer, threads, max_threads = _threading()
    from lnrnn import backend
    from lnrnn.config import BLOCK_ROWS
    from lnrnn.kernels.cpu.blas import BLAS, BLAS_TAG, BLAS_WHY, DWH, DWH_WHY, GRAD, GRAD_WHY, REC, REC_WHY
    from lnrnn.kernels.cpu.threads import batch_blocks
    usable, detail = backend.cuda_usable()
    from lnrnn.mkl import cnr_mode
    cnr = cnr_mode()
    lines = [
        f"lnrnn {lnrnn.__version__}",
        f"python {sys.version.split()[0]} ({platform.platform()})",
        f"numba {numba.__version__}, numpy {numpy.__version__}, scipy {scipy.__version__}",
        f"numba threading layer: {layer}; threads: {threads} in use of {max_threads} (NUMBA_NUM_THREADS)",
        f"CPU cores: {os.cpu_count()}",
        f"batch blocks: a batch of B rows splits into fixed blocks of at least {BLOCK_ROWS} rows (B 64: "
        f"{batch_blocks(64)}, B 128: {batch_blocks(128)}, B 256: {batch_blocks(256)}); threads take whole blocks, so "
        "results are the same bits on any thread count, and a batch uses at most as many threads as blocks",
        "BLAS: " + "; ".join(_blas()),
        f"lnrnn kernels multiply with: {BLAS}, because {BLAS_WHY}; the per-step products with "
        f"{'rgemm' if REC == 'rgemm' else 'the BLAS'}: {REC_WHY}; compiled kernels are cached under "
        f"names ending -{BLAS_TAG} (one set per choice)",
        *([f"MKL's reproducibility mode (MKL_CBWR): {cnr}" + (
            "" if cnr != "off" else ": results may depend on where the arrays lie in memory; unset MKL_CBWR (or set it "
            "to AUTO) for the same bits on any thread count and MPI rank count")] if cnr else []),
        f"weight gradients (dWh, dWx) whose partials outgrow L2: "
        f"{'blocks in L2 on rgemm' if DWH == 'rgemm' else 'large blocks on the BLAS'}"
        f": {DWH_WHY}",
        f"weight-gradient blocks within L2: "
        f"{'on rgemm' if GRAD == 'rgemm' else 'on the BLAS, as every weight gradient'}: {GRAD_WHY}",
        "thread variables: " + ", ".join(f"{v}={os.environ.get(v, 'unset')}" for v in (
            "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")),
        f"CUDA: {'usable' if usable else 'not usable'}: {detail}",
        *([f"CUDA products and LSTM time loops: {_cuda_paths()}"] if usable else []),
        "malloc: " + ("large freed buffers reused (mallopt; LNRNN_KEEP_MALLOC=1 turns this off)" if lnrnn.MALLOC_TUNED
                      else "default allocator"),
    ]
    return lines


@click.command("info")
def info():
    """Print versions, Numba's threading layer and thread count, the BLAS in use, and CUDA status."""
    for line in info_lines():
        click.echo(line)
