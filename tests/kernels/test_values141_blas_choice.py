"""lnrnn/kernels/cpu/blas.py's choice at import: the rule by CPU kind over every AVX-512 / MKL / vendor case
against its statement (the BLAS where the CPU has no AVX-512, or has MKL on an Intel or unidentified CPU;
rgemm otherwise); /proc/cpuinfo's fields read through tab-padded names; LNRNN_DWH_GEMM taken in any case and
only where rgemm runs per step; in fresh processes, the environment overrides deciding REC and DWH, the kernel
cache's tag following the per-step product alone, and ``lnrnn info`` naming that tag."""
import json
import os
import subprocess
import sys

import pytest

import lnrnn
from lnrnn import mkl
from lnrnn.kernels.cpu import blas


@pytest.mark.parametrize("avx512", [False, True])
@pytest.mark.parametrize("have_mkl", [False, True])
@pytest.mark.parametrize("vendor", ["GenuineIntel", "AuthenticAMD", ""])
def test_the_rule_by_cpu_kind(monkeypatch, avx512, have_mkl, vendor):
    monkeypatch.setattr(blas.rg, "AVX512", avx512)
    monkeypatch.setattr(blas, "cpuinfo", lambda field: vendor if field == "vendor_id" else "")
    want = "blas" if not avx512 or (have_mkl and vendor in ("GenuineIntel", "")) else "rgemm"
    choice, why = blas._rule(have_mkl)
    assert choice == want and why
    assert ("no AVX-512" in why) == (not avx512)         # the reason names the case that decided


def test_cpuinfo_fields_behind_tabs(monkeypatch):
    import io
    text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9B45\nflags\t\t: fpu avx512f\n"
    monkeypatch.setattr(blas, "open", lambda path, *a, **k: io.StringIO(text), raising=False)
    assert (blas.cpuinfo("vendor_id"), blas.cpuinfo("model name"), blas.cpuinfo("flags"), blas.cpuinfo("bogus")) \
        == ("AuthenticAMD", "AMD EPYC 9B45", "fpu avx512f", "")


@pytest.mark.parametrize("asked,want", [(" RGEMM ", "rgemm"), ("Blas", "blas"), ("rgemm", "rgemm"), ("", "kept"),
                                        ("fast", "kept")])
def test_the_dwh_override_in_any_case(monkeypatch, asked, want):
    monkeypatch.setenv("LNRNN_DWH_GEMM", asked)
    rec, why, dwh, dwh_why = blas._asked_dwh("rgemm", "w", "measured-dwh", "measured")
    assert (rec, why) == ("rgemm", "w")
    if want == "kept":
        assert (dwh, dwh_why) == ("measured-dwh", "measured")
    else:
        assert (dwh, dwh_why) == (want, f"LNRNN_DWH_GEMM={want} asks for it")
    assert blas._asked_dwh("blas", "w", "rgemm", "x")[2] == "blas"   # the BLAS per step: dWh on the BLAS too


CHILD = ("import json; from lnrnn.kernels.cpu import blas; from lnrnn.compiling import KernelCacheLocator as K; "
         "from lnrnn.commands import info; "
         "line = [l for l in info.info_lines() if 'names ending' in l] if {info} else []; "
         "print(json.dumps([blas.REC, blas.DWH, blas.BLAS_TAG, K.tag, line]))")


def _child(rec, dwh, info):
    root = os.path.dirname(os.path.dirname(os.path.abspath(lnrnn.__file__)))
    env = dict(os.environ, LNRNN_REC_GEMM=rec, LNRNN_DWH_GEMM=dwh, NUMBA_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    p = subprocess.run([sys.executable, "-c", CHILD.format(info=info)], env=env, cwd=root, capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("rec,dwh,info", [("rgemm", "BLAS", True), ("Blas", "rgemm", False)])
def test_the_overrides_decide_and_the_cache_tag_follows_the_step_product(rec, dwh, info):
    got_rec, got_dwh, tag, locator_tag, line = _child(rec, dwh, info)
    want_rec = rec.lower()
    assert (got_rec, got_dwh) == (want_rec, "blas" if want_rec == "blas" else dwh.lower())
    want_tag = ("mkl" if mkl.MKL_PATH is not None else "numpy") + ("-rgemm" if want_rec == "rgemm" else "")
    assert tag == locator_tag == want_tag
    if info:
        assert len(line) == 1 and f"names ending -{want_tag} " in line[0], line
        assert f"LNRNN_REC_GEMM={want_rec} asks for it" in line[0]
