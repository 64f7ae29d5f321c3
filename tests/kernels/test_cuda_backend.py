"""Backend selection: CUDA detection, the one-sentence error where CUDA cannot run, CPU/CUDA twins
with matching signatures, and every CUDA kernel compiled for a real GPU (PTX) without one.

Run as a script (``python tests/kernels/test_cuda_backend.py --ptx``, without the simulator) it compiles every
kernel for float32 and float64, to PTX where NVVM is installed and else typed and lowered to LLVM IR (what
a GPU's compiler refuses, the simulator runs: both find it), and exits 0 or 1 (failure).
"""
import inspect
import json
import os
import re
import subprocess
import sys
import testpaths

import pytest

from lnrnn import backend

ROOT = testpaths.ROOT
SKIP_RC = 77


def _run(code_or_args, sim):
    """Run Python in a fresh process with the simulator on or off; -> CompletedProcess."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1" if sim else "0",
               PYTHONPATH=os.pathsep.join((ROOT, testpaths.TESTS)))  # this file runs as a script too
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else code_or_args
    return subprocess.run([sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)


def _one_sentence(msg):
    assert msg.startswith("CUDA is not usable here: ") and msg.endswith("use --device cpu (device='cpu') instead.")
    assert "\n" not in msg


def test_unknown_device():
    with pytest.raises(ValueError, match="unknown device 'gpu'; expected one of cpu, cuda"):
        backend.kernels("gpu")


def test_cpu_namespace_identity_transfers():
    k = backend.kernels("cpu")
    x = object()
    assert k.device == "cpu" and k.to_host(x) is x and k.to_device(x) is x
    for op in backend.OPS:
        assert callable(getattr(k, op))


def test_missing_numba_cuda_fails_in_one_sentence(monkeypatch):
    real = backend.importlib.util.find_spec
    monkeypatch.setattr(backend.importlib.util, "find_spec",
                        lambda name, *a: None if name == "numba_cuda" else real(name, *a))
    backend.cuda_usable.cache_clear()
    try:
        ok, reason = backend.cuda_usable()
        assert not ok and "numba-cuda package is not installed" in reason
        with pytest.raises(backend.CudaUnavailable) as e:
            backend.kernels("cuda")
        _one_sentence(str(e.value))
        assert isinstance(e.value, RuntimeError)
    finally:
        backend.cuda_usable.cache_clear()


def test_without_simulator_import_works_and_cuda_request_is_clear():
    """A fresh process without the simulator: importing lnrnn never imports numba.cuda; asking for
    CUDA either works (a GPU is here) or raises CudaUnavailable with one sentence."""
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    code = """if True:
        import json, sys
        import lnrnn, lnrnn.model.layers, lnrnn.backend as b
        imported = 'numba.cuda' in sys.modules
        ok, reason = b.cuda_usable()
        try:
            b.kernels('cuda'); err = None
        except b.CudaUnavailable as e:
            err = str(e)
        print(json.dumps(dict(imported=imported, ok=ok, reason=reason, err=err)))"""
    r = _run(code, sim=False)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert not out["imported"], "import lnrnn must not import numba.cuda"
    if out["ok"]:
        assert out["err"] is None
    else:
        _one_sentence(out["err"])
        assert out["reason"] in out["err"]


def test_cuda_twins_import_no_cpu_kernel_and_backend_no_circle():
    """A fresh process imports every CUDA twin: none of them loads a CPU kernel module (lstm.py would
    load the BLAS choice, MKL included) or the backend; and backend's CPU namespace is plain imports."""
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    code = """if True:
        import json, sys
        from lnrnn.kernels import batchnorm_cuda, bn_lstm_cuda, bn_rnn_cuda, layernorm_cuda, lstm_cuda, rnn_cuda
        print(json.dumps(sorted(m for m in sys.modules if m.startswith('lnrnn'))))"""
    r = _run(code, sim=True)
    assert r.returncode == 0, r.stderr
    loaded = set(json.loads(r.stdout.strip().splitlines()[-1]))
    shared = {"lnrnn", "lnrnn.config", "lnrnn.errors", "lnrnn.kernels", "lnrnn.kernels.codes", "lnrnn.kernels.masks",
              "lnrnn.kernels.cuda", "lnrnn.kernels.cuda.cuda_env", "lnrnn.kernels.cuda.arrays_cuda",
              "lnrnn.kernels.cuda.gemm_cuda", "lnrnn.kernels.cuda.rows_cuda", "lnrnn.threadscope", "lnrnn.version"}  # lnrnn/__init__ imports kernel_threads and __version__
    other = sorted(m for m in loaded - shared if not m.endswith("_cuda"))
    assert not other, f"importing the CUDA twins loaded {other}"


def _cuda_op_pairs():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA kernels cannot run here: {why}")
    cpu, gpu = backend.kernels("cpu"), backend.kernels("cuda")
    names = [n for n in vars(gpu) if n not in ("device", "to_host", "to_device") and hasattr(cpu, n)]
    return [(n, getattr(cpu, n), getattr(gpu, n)) for n in names]


def test_twins_share_names_and_arguments():
    pairs = _cuda_op_pairs()
    assert {n for n, _, _ in pairs} >= set(backend.OPS)
    for name, cpu_fn, gpu_fn in pairs:
        cpu_params = list(inspect.signature(getattr(cpu_fn, "py_func", cpu_fn)).parameters)
        gpu_params = list(inspect.signature(gpu_fn).parameters)
        assert gpu_params == cpu_params, name


def test_simulator_is_reported():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    if not backend.simulator_enabled():
        pytest.skip("the simulator is off (running on a GPU)")
    assert backend.cuda_usable() == (True, "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), on the CPU")


def test_kernels_compile_to_ptx_for_a_real_gpu():
    """The simulator runs the kernels as Python, which accepts code the CUDA target would reject; this
    compiles each of them for a GPU without one (to PTX with NVVM where it is installed, else typed and
    lowered to LLVM IR) and checks that float32 kernels do no float64 arithmetic (a stray Python number
    would silently make them 2-32x slower on a GPU)."""
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    r = _run([os.path.abspath(__file__), "--ptx"], sim=False)
    if r.returncode == SKIP_RC:
        pytest.skip(r.stdout.strip().splitlines()[-1])
    assert r.returncode == 0, r.stdout + r.stderr


# ------------------------------------------------------------------------------------------------
# PTX compilation (script mode, simulator off)
# ------------------------------------------------------------------------------------------------
F64_OP = re.compile(r"^\s*(add|sub|mul|fma|div|sqrt|rsqrt|neg|abs|min|max|ex2|lg2|rcp|tanh|setp)\S*\.f64")


def _ptx_signatures(np_dtype, tpb, tile):
    """(name, dispatcher, argument types) of every kernel, as the host code launches them."""
    import numpy as np
    from numba import boolean, float64, int64, types

    from dev import lstm_persistent_cuda
    from lnrnn.kernels import (batchnorm_cuda, bn_lstm_cuda, bn_rnn_cuda, ctc_cuda, layernorm_cuda, losses_cuda,
                               lstm_cuda, mdn_cuda, optim_cuda, rnn_cuda, window_cuda)
    from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda

    dt = arrays_cuda.nbtype(np_dtype)
    A1, A2, A3 = dt[::1], dt[:, ::1], dt[:, :, ::1]
    L = int64[::1]  # lengths (B,)
    U = types.UniTuple
    d = np.dtype(np_dtype)
    ln_fwd, ln_bwd = layernorm_cuda._kernels(d, tpb)
    lstm_fwd, lstm_bwd = lstm_cuda._kernels(d, tpb, 1)
    lstm_fwd2, lstm_bwd2 = lstm_cuda._kernels(d, tpb, 2)  # threads owning two hidden units (H > tpb)
    rnn_fwd, rnn_bwd = rnn_cuda._kernels(d, tpb, 1)
    bn_fwd, bn_bwd = batchnorm_cuda._kernels(d, tile)
    bnl_fwd, bnl_bwd = bn_lstm_cuda._kernels(d, tile, 3)  # lanes owning three batch rows each
    bnr_fwd, bnr_bwd = bn_rnn_cuda._kernels(d, tile, 3)
    sigs = [
        ("gemm", gemm_cuda._gemm_kernel(d, tile), (A2, A2, A2, boolean, boolean, boolean)),
        ("colsum", gemm_cuda._colsum_kernel(d, tile), (A2, A2, A1, A1, int64, A2)),
        ("fill", arrays_cuda._fill_kernel, (A1, dt)),
        ("layernorm_fwd", ln_fwd, (A2, A1, A1, float64, boolean, A2, A1, A1)),
        ("layernorm_bwd", ln_bwd, (A2, A2, A1, A1, A1, A2)),
        ("lstm_fwd_step", lstm_fwd, (A2, A2, A2, U(A1, 7), boolean, float64, U(A2, 6), A1, A1)),
        ("lstm_bwd_step", lstm_bwd, (A2, A2, A2, U(A2, 6), U(A1, 3), U(A1, 3), boolean, float64, U(A2, 4))),
        ("lstm_fwd_step nu=2", lstm_fwd2, (A2, A2, A2, U(A1, 7), boolean, float64, U(A2, 6), A1, A1)),
        ("lstm_bwd_step nu=2", lstm_bwd2, (A2, A2, A2, U(A2, 6), U(A1, 3), U(A1, 3), boolean, float64, U(A2, 4))),
        ("rnn_fwd_step", rnn_fwd, (A2, A2, A1, A1, boolean, float64, A2, A2, A1)),
        ("rnn_bwd_step", rnn_bwd, (A2, A2, A2, A2, A1, A1, boolean, A2, A2)),
        ("batchnorm_fwd", bn_fwd, (A3, L, A1, A1, A2, A2, boolean, float64, float64, A3, A2, A2)),
        ("batchnorm_bwd", bn_bwd, (A3, A3, L, A2, A2, A1, boolean, A3, A2, A2)),
        ("bn_lstm_fwd_step", bnl_fwd, (A2, A2, A2, L, int64, U(A1, 3), boolean, boolean, boolean, U(A1, 4), float64,
                                       float64, U(A2, 4), U(A1, 4))),
        ("bn_lstm_bwd_step", bnl_bwd, (A2, A2, A2, L, int64, U(A2, 5), U(A1, 4), U(A1, 2), boolean, float64, A2, A2,
                                       U(A1, 3))),
        ("bn_rnn_fwd_step", bnr_fwd, (A2, A2, L, int64, A1, boolean, boolean, A1, A1, float64, float64, A1, A1, A2)),
        ("bn_rnn_bwd_step", bnr_bwd, (A2, A2, L, int64, A2, A2, A1, A1, A1, boolean, A2, A2, A1)),
    ]
    # Sequence kernels, at the three ways a block's threads can meet H (two thread groups, one, strided)
    for H in (tpb // 2, tpb, 2 * tpb):
        lf, lb = lstm_cuda._seq_kernels(d, tpb, H)
        rf, rb = rnn_cuda._seq_kernels(d, tpb, H)
        sigs += [
            (f"lstm_fwd_seq H={H}", lf, (A3, A2, A2, A2, U(A1, 7), boolean, float64, U(A3, 6), A3)),
            (f"lstm_bwd_seq H={H}", lb, (A3, U(A3, 6), A2, A3, U(A1, 3), A2, boolean, float64, U(A3, 4), A2, A2)),
            (f"rnn_fwd_seq H={H}", rf, (A3, A2, A2, A1, A1, boolean, float64, A3, A3, A2)),
            (f"rnn_bwd_seq H={H}", rb, (A3, A3, A3, A2, A1, A2, boolean, A3, A3, A2)),
        ]
    sigs.append(("transpose", arrays_cuda._transpose_kernel, (A2, A2)))
    sigs.append(("scale_rows", lstm_cuda._scale_rows, (A2, A1)))
    # the synthesis network's layer 1 with its window (chars, ulen: int64)
    I2, T_ = int64[:, ::1], types.Tuple
    cell_fwd, cell_bwd = window_cuda._row_kernels(d, tpb, 1)
    window_fwd, window_bwd = window_cuda._window_kernels(d, tpb)
    x_fwd, x_bwd = window_cuda._bn_kernels(d, tile)
    win_in, win_out = T_((A2, A1, A2, I2, L)), U(A2, 4)
    win = T_((A2, A2, A2, I2, L, A2))
    sigs += [("window_cell_fwd", cell_fwd, (A2, A2, A2, U(A1, 7), boolean, float64, U(A2, 6), U(A1, 3), win_in,
                                            win_out)),
             ("window_fwd", window_fwd, (A2, win_in, win_out)),
             ("window_cell_bwd", cell_bwd, (U(A2, 3), L, int64, win, A2, A2, U(A2, 2), U(A2, 6), U(A1, 3), U(A1, 3),
                                            boolean, float64, U(A2, 4))),
             ("window_bwd", window_bwd, (U(A2, 3), L, int64, win, A2, A2)),
             ("window_x_bn_fwd", x_fwd, (A2, L, int64, A1, A1, boolean, boolean, U(A1, 2), float64, float64, A2,
                                         U(A1, 2))),
             ("window_x_bn_bwd", x_bwd, (A2, A2, L, int64, U(A1, 2), A1, boolean, A2, A1))]
    # the synthesis stack's column moves (contiguous arrays; c0 an int, adding a flag)
    sigs += [("put_columns", window_cuda._put_columns, (A3, A3, int64)),
             ("take_columns", window_cuda._take_columns, (A3, int64, A3, boolean, A3))]
    mdn_fwd, mdn_bwd = mdn_cuda._kernels(d)
    sigs += [("mdn_fwd", mdn_fwd, (A2, A2, A1, int64, A1, A2, A2, A2, A1, A2)),
             ("mdn_bwd", mdn_bwd, (A1, A2, A2, A2, A1, A2, A1, A2, A2, int64, A2))]
    ctc_fwd, ctc_bwd = ctc_cuda._kernels(d)
    sigs += [("ctc_fwd", ctc_fwd, (A3, I2, L, L, A3, A3, A1, A1)),
             ("ctc_bwd", ctc_bwd, (A1, A3, A3, A1, I2, L, L, A3, A3))]
    # training on the device: the optimizers' rules, the clipping norm and scale on the flat buffer, a gradient
    # added into another, the heads' losses (labels int64, the rows' metrics float64)
    F1, F2 = float64[::1], float64[:, ::1]
    _, sgd, rmsprop, rmsprop_momentum, adam, scale_grads = optim_cuda._rules(d)
    norm_partials, norm_finish = optim_cuda._norm_kernels(tpb)
    sigs += [("sgd", sgd, (A1, A1, A1, dt, dt, boolean)),
             ("rmsprop", rmsprop, (A1, A1, A1, dt, dt, dt, dt)),
             ("rmsprop_momentum", rmsprop_momentum, (A1, A1, A1, A1, A1, dt, dt, dt, dt, dt, boolean)),
             ("adam", adam, (A1, A1, A1, A1, dt, dt, dt, dt, dt, dt)),
             ("clip_scale", scale_grads, (A1, F1)),
             ("norm_partials", norm_partials, (A1, F1)),
             ("norm_finish", norm_finish, (F1, float64, F1, F1)),
             ("add_into", arrays_cuda._add_kernel, (A1, A1))]
    xent, sqerr, add_bias, nll_rows, clip_scale, ctc_rows = losses_cuda._kernels(d)
    sigs += [("softmax_xent", xent, (A2, A1, L, A1, dt, A2, F2)),
             ("squared_error", sqerr, (A2, A1, A2, A1, dt, dt, A2, F2)),
             ("add_bias", add_bias, (A2, A1)),
             ("nll_rows", nll_rows, (A1, F2)),
             ("clip_and_scale", clip_scale, (A2, dt, dt)),
             ("ctc_rows", ctc_rows, (A1, A3, I2, L, L, int64[:, ::1], int64[:, :, ::1], F2))]
    # ragged batches on the device: each row's own step taken and put back, final states, the running mask; the
    # LN-LSTM's centred Wx (a float64 row sum, as the CPU twin's)
    sigs += [("take_steps", arrays_cuda._take_steps_kernel, (A3, L, L, A2)),   # rev (H,) or (0,) int64
             ("put_steps", arrays_cuda._put_steps_kernel, (A2, L, L, A3)),
             ("reverse_valid", arrays_cuda._reverse_valid_kernel, (A3, L, A3)),
             ("final_rows", arrays_cuda._final_rows_kernel, (A2, A3, A2, L, A2)),
             ("mask_steps", arrays_cuda._mask_steps_kernel, (A3, L, dt, A3)),
             ("centered_rows", lstm_cuda._centered_rows, (A2, A2)),
             ("clamped_lengths", batchnorm_cuda._clamped, (L, int64, L))]  # a BN plan's lengths, at most T
    # the persistent LN-LSTM (a variant in dev/): 7 units over 4 blocks (U 2), 2 of 3 rows staged, both drivers
    pf, ps = lstm_persistent_cuda._kernels(d, tpb, 7, 3, 2, 2)
    bf, bs = lstm_persistent_cuda._bwd_kernels(d, tpb, 7, 3, 2, 2)
    fargs = (A3, A2, A2, A2, U(A1, 7), float64, U(A3, 6), A3, U(A3, 2))
    bargs = (A3, U(A3, 6), A2, A3, U(A1, 3), A2, float64, U(A3, 4), A2, A2, U(A3, 2))
    sigs += [("persistent_fwd", pf, fargs), ("persistent_fwd_stepped", ps, (int64, int64, int64) + fargs + (A3,)),
             ("persistent_bwd", bf, bargs), ("persistent_bwd_stepped", bs, (int64, int64, int64) + bargs)]
    return sigs


def _kernel_defs():
    """(module, qualified name) of every kernel the package and the variants in dev/ define (a function
    decorated @cuda.jit without device=True, or @bounded(...)), read from the source of lnrnn/kernels and
    dev/."""
    import ast

    found = set()

    def is_kernel(dec):
        call = dec if isinstance(dec, ast.Call) else None
        fn = call.func if call else dec
        name = ast.unparse(fn)
        if name == "bounded":
            return True
        return name == "cuda.jit" and not any(k.arg == "device" for k in (call.keywords if call else []))

    def walk(node, prefix, module):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                if any(is_kernel(d) for d in child.decorator_list):
                    found.add((module, prefix + child.name))
                walk(child, f"{prefix}{child.name}.<locals>.", module)
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.", module)

    for package in ("lnrnn.kernels", "lnrnn.kernels.cuda", "dev"):
        folder = os.path.join(ROOT, *package.split("."))
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    walk(ast.parse(f.read()), "", f"{package}.{name[:-3]}")
    return found


# Kernels whose float64 arithmetic in a float32 build is their design: the gradient norm's sums of squares
# (as the CPU twin's float64 dot), the squared error's row sums (the host head sums in float64) and the centred
# weights' row means (codes.centered sums in float64).
F64_BY_DESIGN = {"norm_partials", "norm_finish", "squared_error", "centered_rows"}

F64_IR = re.compile(r"= (fadd|fsub|fmul|fdiv|frem|fneg)( \w+)* double |= fcmp( \w+)* double |call( \w+)* double @")


def _ptx_main():
    import numpy as np
    from numba import cuda, float64, types
    from numba.cuda import compiler

    from lnrnn import config
    from lnrnn.kernels.cuda import gemm_cuda

    # Device functions called by a kernel are compiled for the current device's compute capability;
    # with no GPU there is none, so name one (7.5: the oldest architecture CUDA 13 still targets).
    import numba.cuda.dispatcher as disp
    if not hasattr(disp, "get_current_device"):
        print("numba-cuda's dispatcher changed (no get_current_device): cannot compile without a GPU")
        return SKIP_RC
    cc = (7, 5)
    disp.get_current_device = lambda: type("FakeDevice", (), {"compute_capability": cc})()

    def probe(a):  # a trivial kernel: if even this fails, the toolkit is missing, not our code wrong
        a[0] = 1.0

    try:
        cuda.compile_ptx(probe, (float64[::1],), cc=cc)
        ptx = True
    except Exception as e:
        # Without NVVM (the toolkit's libraries) every kernel is still typed and lowered to LLVM IR, which
        # is where a GPU's compiler refuses what the simulator runs; the float64 check reads the IR.
        print(f"no NVVM here ({type(e).__name__}): kernels typed and lowered to LLVM IR, not to PTX "
              "(pip install 'numba-cuda[cu12]' for PTX)")
        ptx = False
    failures = 0
    listed = set()
    for np_dtype in (np.float32, np.float64):
        for name, kernel, sig in _ptx_signatures(np_dtype, config.THREADS_PER_BLOCK, gemm_cuda.TILE):
            listed.add((kernel.py_func.__module__, kernel.py_func.__qualname__))
            try:
                if ptx:
                    code, _ = cuda.compile_ptx(kernel.py_func, sig, cc=cc)
                    f64 = [line.strip() for line in code.splitlines() if F64_OP.match(line)]
                else:
                    cres = compiler.compile_cuda(kernel.py_func, types.void, sig, cc=cc)
                    code = cres.library.get_llvm_str()
                    f64 = [line.strip() for line in code.splitlines() if F64_IR.search(line)]
            except Exception as e:
                failures += 1
                print(f"FAIL {np.dtype(np_dtype).name} {name}: {type(e).__name__}: {e}")
                continue
            if np_dtype is np.float32 and f64 and name not in F64_BY_DESIGN:
                failures += 1
                print(f"FAIL float32 {name} does float64 arithmetic: {f64[:3]}")
                continue
            print(f"ok   {np.dtype(np_dtype).name} {name}")
    defined = _kernel_defs()
    for module, qualname in sorted(defined - listed):
        failures += 1
        print(f"FAIL {module}.{qualname} is a kernel that _ptx_signatures does not list")
    if len(defined) < 30:
        failures += 1
        print(f"FAIL found only {len(defined)} kernel definitions in lnrnn/kernels and dev/: the source walk misses some")
    return 1 if failures else 0


if __name__ == "__main__" and "--ptx" in sys.argv:
    sys.exit(_ptx_main())
