"""Kernels compiled against MKL and against np.dot never reach the wrong process, and an unreadable
cache file costs a recompile (lnrnn.compiling.KernelCacheLocator, lnrnn.kernels.cpu.blas).

Each case runs tests/cache_probe.py in child processes that share one NUMBA_CACHE_DIR, in the order
the case names, and checks every child: exit status 0 (a kernel compiled against MKL loaded where MKL
is not dies with SIGSEGV), results equal to NumPy's, the BLAS the child chose, and whether it
compiled (cache misses) or loaded (hits only). Cases that need MKL skip where it is not installed.
"""
import glob
import json
import os
import pickle
import shutil
import subprocess
import sys
import testpaths

import pytest

HERE = testpaths.TESTS  # cache_probe.py's folder
PROBE = os.path.join(HERE, "cache_probe.py")
CHOICES = {"mkl": {}, "numpy": {"LNRNN_BLAS": "numpy"}}


def probe_env(cache, extra=()):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LNRNN_BLAS", "LNRNN_MKL_LIB", "LNRNN_NO_CACHE", "LNRNN_REC_GEMM")}
    env.update(NUMBA_CACHE_DIR=str(cache), NUMBA_NUM_THREADS="1", PYTHONPATH=testpaths.ROOT)
    env.update(extra)
    return env


def parse(r, what):
    assert r.returncode == 0, f"{what}: exit status {r.returncode}\n{r.stderr[-1500:]}"
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["err"] < 1e-4, f"{what}: results differ from NumPy by {out['err']}"
    return out


def run(cache, choice, args=(), extra=()):
    """One probe child; its JSON answer, checked for exit status and agreement with NumPy."""
    r = subprocess.run([sys.executable, PROBE, *args], capture_output=True, text=True, timeout=300,
                       env=probe_env(cache, dict(CHOICES[choice], **dict(extra))))
    return parse(r, f"{choice} {' '.join(args)}")


def first_run(cache, choice):
    out = run(cache, choice)
    if choice == "mkl" and not out["mkl"]:
        pytest.skip(f"MKL is not installed here ({out['why']})")
    assert out["mkl"] == (choice == "mkl")
    assert out["misses"] > 0 and out["hits"] == 0, out  # an empty cache: everything compiled
    return out


def compiled(out):
    return out["misses"] > 0


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """choice -> a cache directory filled by one first child of that choice (first_run: it compiled
    everything), made once for this module; a test that changes a cache works on a copy (copy_of)."""
    made = {}

    def get(choice):
        if choice not in made:
            cache = tmp_path_factory.mktemp(f"{choice}-cache")
            try:
                first_run(cache, choice)
                made[choice] = cache
            except pytest.skip.Exception as e:
                made[choice] = e
        if isinstance(made[choice], pytest.skip.Exception):
            pytest.skip(str(made[choice]))
        return made[choice]
    return get


def copy_of(cache, tmp_path):
    shutil.copytree(cache, tmp_path / "cache")
    return tmp_path / "cache"


@pytest.mark.parametrize("first,second", [("mkl", "numpy"), ("numpy", "mkl")])
def test_each_choice_keeps_its_own_kernels(filled, tmp_path, first, second):
    """One choice fills the cache, the other runs on it (compiles its own), then both load their own."""
    tmp_path = copy_of(filled(first), tmp_path)
    b = run(tmp_path, second)
    assert b["mkl"] == (second == "mkl") and compiled(b), b
    for choice in (first, second):
        again = run(tmp_path, choice)
        assert again["mkl"] == (choice == "mkl") and not compiled(again), (choice, again)


def test_each_per_step_product_keeps_its_own_kernels(tmp_path):
    """Kernels compiled with rgemm as the per-step product and with the BLAS's (LNRNN_REC_GEMM) share one
    cache directory: each compiles its own, then each loads its own, and both multiply correctly."""
    seen = set()
    for rec in ("rgemm", "blas", "rgemm", "blas"):
        out = run(tmp_path, "mkl", extra={"LNRNN_REC_GEMM": rec})
        assert out["rec"] == rec, out
        assert compiled(out) == (rec not in seen), (rec, out)
        seen.add(rec)


def test_per_step_product_rule_follows_the_cpu(monkeypatch):
    """blas._rule (where no measurement decides): rgemm with AVX-512 where MKL is absent or the CPU is not
    Intel's; the BLAS on an Intel CPU with MKL or without AVX-512."""
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(blas.rg, "AVX512", True)
    cases = [("AuthenticAMD", True, "rgemm"), ("GenuineIntel", True, "blas"), ("", True, "blas"),
             ("GenuineIntel", False, "rgemm"), ("AuthenticAMD", False, "rgemm")]
    for vendor, mkl, want in cases:
        monkeypatch.setattr(blas, "cpuinfo", lambda field, v=vendor: v if field == "vendor_id" else "")
        assert blas._rule(mkl)[0] == want, (vendor, mkl)
    monkeypatch.setattr(blas, "cpuinfo", lambda field: "AuthenticAMD" if field == "vendor_id" else "")
    monkeypatch.setattr(blas.rg, "AVX512", False)
    rec, why = blas._rule(True)
    assert rec == "blas" and "AVX-512" in why


def test_per_step_product_is_measured_unless_asked_for(monkeypatch):
    """blas._choose_rec: LNRNN_REC_GEMM chooses outright, LNRNN_BLAS=numpy asks for np.dot, and otherwise
    the host's measurement (rec_choice.choose) decides, with the rule by CPU kind passed to it; dWh's large
    blocks (the 3rd and 4th values) follow the measurement, are the BLAS's where nothing was measured or the
    per-step products run on the BLAS, and LNRNN_DWH_GEMM chooses them outright where rgemm runs per step."""
    from lnrnn.kernels.cpu import blas
    for var in ("LNRNN_REC_GEMM", "LNRNN_BLAS", "LNRNN_DWH_GEMM"):
        monkeypatch.delenv(var, raising=False)
    asked = []
    monkeypatch.setattr(blas.rec_choice, "choose", lambda name, cpu, rule: asked.append((name, rule)) or
                        ("rgemm", "measured", "rgemm", "blocks measured"))
    assert blas._choose_rec(False) == ("rgemm", "measured", "rgemm", "blocks measured")
    assert asked == [("numpy", blas._rule(False))]
    monkeypatch.setenv("LNRNN_DWH_GEMM", " BLAS")
    assert blas._choose_rec(False) == ("rgemm", "measured", "blas", "LNRNN_DWH_GEMM=blas asks for it")
    monkeypatch.setenv("LNRNN_DWH_GEMM", "quick")                    # neither: the measurement stands
    assert blas._choose_rec(False)[2:] == ("rgemm", "blocks measured") and len(asked) == 3
    monkeypatch.setenv("LNRNN_DWH_GEMM", "rgemm")
    monkeypatch.setenv("LNRNN_BLAS", "numpy")
    assert blas._choose_rec(False)[0] == "blas" and len(asked) == 3
    assert blas._choose_rec(False)[2] == "blas"                      # per step on the BLAS: so are dWh's blocks
    monkeypatch.setenv("LNRNN_REC_GEMM", "rgemm")
    assert blas._choose_rec(False) == ("rgemm", "LNRNN_REC_GEMM=rgemm asks for it", "rgemm",
                                       "LNRNN_DWH_GEMM=rgemm asks for it")
    monkeypatch.delenv("LNRNN_DWH_GEMM")
    rec, why, dwh, dwh_why = blas._choose_rec(False)
    assert (rec, dwh) == ("rgemm", "blas") and "not measured" in dwh_why and len(asked) == 3
    monkeypatch.delenv("LNRNN_BLAS")
    monkeypatch.setenv("LNRNN_REC_GEMM", "Fast")
    rec, why, dwh, _ = blas._choose_rec(False)
    assert rec == "rgemm" and "LNRNN_REC_GEMM=fast is neither rgemm nor blas: ignored" in why and len(asked) == 4
    assert dwh == "rgemm"
    monkeypatch.setattr(blas.rec_choice, "choose", lambda name, cpu, rule: ("blas", "measured", "blas", "x"))
    monkeypatch.setenv("LNRNN_DWH_GEMM", "rgemm")
    assert blas._choose_rec(False)[2:] == ("blas", "the per-step products run on the BLAS")


def test_mkl_gone_after_caching(filled, tmp_path):
    """Kernels cached with MKL, then MKL cannot be found (the wheel uninstalled: no libmkl_rt under
    sys.prefix/lib; LNRNN_MKL_LIB naming a file that is gone, or one that is not a library)."""
    tmp_path = copy_of(filled("mkl"), tmp_path)
    gone = run(tmp_path, "mkl", args=("--prefix", str(tmp_path / "no-mkl-here")))
    assert not gone["mkl"] and "no libmkl_rt" in gone["why"] and compiled(gone), gone
    missing = run(tmp_path, "mkl", extra={"LNRNN_MKL_LIB": str(tmp_path / "libmkl_rt.so.2")})
    assert not missing["mkl"] and "does not exist" in missing["why"] and not compiled(missing), missing
    (tmp_path / "not-a-library.so").write_text("not ELF")
    foreign = run(tmp_path, "mkl", extra={"LNRNN_MKL_LIB": str(tmp_path / "not-a-library.so")})
    assert not foreign["mkl"] and "failed to load" in foreign["why"] and not compiled(foreign), foreign
    back = run(tmp_path, "mkl")
    assert back["mkl"] and not compiled(back), back


def test_two_choices_at_once(tmp_path):
    """An MKL and a np.dot process compile into one empty cache directory at the same time."""
    kids = {c: subprocess.Popen([sys.executable, PROBE], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=probe_env(tmp_path, CHOICES[c])) for c in CHOICES}
    outs = {}
    for c, p in kids.items():
        stdout, stderr = p.communicate(timeout=300)
        outs[c] = parse(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr), f"{c} (concurrent)")
    if not outs["mkl"]["mkl"]:
        pytest.skip(f"MKL is not installed here ({outs['mkl']['why']})")
    assert not outs["numpy"]["mkl"]
    for c in CHOICES:
        again = run(tmp_path, c)
        assert again["mkl"] == (c == "mkl") and not compiled(again), (c, again)


def gemm_files(cache, choice):
    index, = glob.glob(os.path.join(cache, "*", f"blas.gemm-*-{choice}.py*.nbi"))
    with open(index, "rb") as f:
        pickle.load(f)  # Numba's version
        _, overloads = pickle.loads(f.read())
    return index, overloads


@pytest.mark.parametrize("damage", ["garbled index", "truncated data", "swapped data"])
def test_unreadable_cache_file_costs_a_recompile(filled, tmp_path, damage):
    """A garbled index, a truncated data file, or two data files swapped (the index then names the
    float64 code for the float32 signature: Numba alone fails on it) are compiled again, correctly."""
    cache = copy_of(filled("numpy"), tmp_path)
    index, overloads = gemm_files(cache, "numpy")
    folder = os.path.dirname(index)
    names = {str(key[0][0].dtype): name for key, name in overloads.items()}  # dtype of A -> data file
    if damage == "garbled index":
        with open(index, "wb") as f:
            f.write(b"\x80\x04garbage")
    elif damage == "truncated data":
        path = os.path.join(folder, names["float32"])
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) // 2)
    else:
        a, b = (os.path.join(folder, names[d]) for d in ("float32", "float64"))
        os.rename(a, a + ".tmp")
        os.rename(b, a)
        os.rename(a + ".tmp", b)
    hurt = run(cache, "numpy")
    assert compiled(hurt), hurt
    healed = run(cache, "numpy")
    assert not compiled(healed), healed


def test_a_changed_kernel_source_recompiles_what_took_it_in(filled, tmp_path):
    """Numba keys a cached kernel on its own file alone, but a kernel compiles in helpers of other modules
    (gemm.py, rows.py, threads.py, batchnorm.py, blas.py) and config.py's constants: lnrnn adds their stamp
    (compiling.kernel_stamp) to every kernel's key, so a process that sees another stamp, as after an
    edit or an upgrade, compiles afresh, and the next one with that stamp loads what it wrote."""
    tmp_path = copy_of(filled("numpy"), tmp_path)
    edited = run(tmp_path, "numpy", ("--kernel-stamp", "edited"))
    assert compiled(edited), edited
    again = run(tmp_path, "numpy", ("--kernel-stamp", "edited"))
    assert not compiled(again), again


def test_kernel_stamp_follows_every_kernel_source(tmp_path):
    """compiling.kernel_sources names every module of lnrnn/kernels and config.py, and sources_stamp
    changes when one of them is rewritten (size or mtime)."""
    from lnrnn import compiling
    names = {os.path.basename(p) for p in compiling.kernel_sources()}
    assert {"gemm.py", "batchnorm.py", "blas.py", "lstm.py", "bn_lstm.py", "config.py"} <= names
    kernels = os.path.join(os.path.dirname(compiling.__file__), "kernels")
    every = {os.path.relpath(os.path.join(d, f), kernels) for d, _, fs in os.walk(kernels)
             for f in fs if f.endswith(".py")}  # cpu/ and cuda/ included
    assert every == {os.path.relpath(p, kernels) for p in compiling.kernel_sources() if p.startswith(kernels)}
    files = [tmp_path / "a.py", tmp_path / "b.py"]
    for f in files:
        f.write_text("x = 1\n")
    before = compiling.sources_stamp([str(f) for f in files])
    files[1].write_text("x = 22\n")
    assert compiling.sources_stamp([str(f) for f in files]) != before


SHARED_COMPILE = """
import numpy as np
from numba import njit

import lnrnn.kernels.cpu.blas  # noqa: F401  (installs lnrnn's cache locator and compile_once)
from lnrnn import config  # a global of lnrnn: this module's functions are cached as lnrnn's


@njit(cache=True)
def twice(x):
    return x * (config.EPS * 0.0) + 2.0 * x
"""


def test_a_compilation_waits_for_anothers_lock_then_runs(tmp_path, monkeypatch):
    """compiling.compile_once: while another process (here: this test, through a second file handle)
    holds the lock file of a (function, signature), a process that needs it waits, and then compiles or
    loads it once the lock is released. Processes started together on a cold cache thus compile each
    kernel once between them."""
    import fcntl
    import importlib
    import threading

    from numba import types

    from lnrnn import compiling
    (tmp_path / "shared_compile_probe.py").write_text(SHARED_COMPILE)
    # another process compiles and caches it first: here, loading it takes a fraction of a second, so
    # a call that does not wait for the lock is over long before the check below
    r = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                        "import shared_compile_probe as p; assert p.twice(1.5) == 3.0", str(tmp_path)],
                       env={**os.environ, "PYTHONPATH": testpaths.ROOT}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "shared_compile_probe", raising=False)
    probe = importlib.import_module("shared_compile_probe")
    path = compiling.compile_lock_path(probe.twice, (types.float64,))
    assert path is not None and path.endswith(".lock"), path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    holder = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    got = []
    t = threading.Thread(target=lambda: got.append(probe.twice(1.5)), daemon=True)
    t.start()
    t.join(10.0)
    assert t.is_alive() and not got, "the call did not wait for the lock another process holds"
    os.close(holder)  # released: the waiting compilation goes on
    t.join(120.0)
    assert got == [3.0]
    assert compiling.compile_lock_path(probe.twice, (types.float64,)) is None  # compiled here now
