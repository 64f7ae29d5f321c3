"""lnrnn/commands/info.py against the values it reports, set here: 'threads: X in use of Y' gives
numba.get_num_threads() as in use and NUMBA_NUM_THREADS as the limit (get_num_threads made to differ from the
limit); each BLAS pool threadpoolctl lists gives its API, version, thread count and the library's file name
(other pools are left out); 'numpy built against' names numpy's BLAS from its build configuration (a BLAS
and a LAPACK of different names); each thread variable reads as its value, or 'unset' when it is not set."""
import numba
import numpy
import pytest
import threadpoolctl

from lnrnn.commands import info


def test_threads_in_use_and_the_limit(monkeypatch):
    limit = numba.config.NUMBA_NUM_THREADS
    monkeypatch.setattr(numba, "get_num_threads", lambda: limit + 5)
    _, in_use, most = info._threading()
    assert (in_use, most) == (limit + 5, limit)
    line = next(ln for ln in info.info_lines() if ln.startswith("numba threading layer"))
    assert line.endswith(f"threads: {limit + 5} in use of {limit} (NUMBA_NUM_THREADS)"), line


def test_blas_pools_name_their_library_file(monkeypatch):
    pools = [dict(user_api="blas", internal_api="openblas", version="0.3.99", num_threads=3,
                  filepath="/opt/x/lib/libopenblasp-r0.3.99.so"),
             dict(user_api="openmp", internal_api="openmp", version=None, num_threads=9,
                  filepath="/opt/y/libgomp.so.1"),
             dict(user_api="blas", internal_api="mkl", version=None, num_threads=1, filepath="/m/libmkl_rt.so.2")]
    monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda: pools)
    got = info._blas()
    blas_lines = [ln for ln in got if ", lib" in ln]
    assert blas_lines == ["openblas 0.3.99 (3 threads, libopenblasp-r0.3.99.so)", "mkl  (1 thread, libmkl_rt.so.2)"]
    assert not any("libgomp" in ln or "/opt" in ln for ln in got)


def test_numpy_built_against_its_blas(monkeypatch):
    build = {"Build Dependencies": {"blas": {"name": "fakeblas", "version": "1.2.3"},
                                    "lapack": {"name": "fakelapack", "version": "9.9"}}}
    monkeypatch.setattr(numpy, "show_config", lambda mode=None: build)
    got = [ln for ln in info._blas() if ln.startswith("numpy built against")]
    assert got == ["numpy built against fakeblas 1.2.3"]


def test_thread_variables_read_as_set_or_unset(monkeypatch):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    monkeypatch.setenv("OMP_NUM_THREADS", "")
    line = next(ln for ln in info.info_lines() if ln.startswith("thread variables: "))
    assert line == ("thread variables: OPENBLAS_NUM_THREADS=unset, MKL_NUM_THREADS=3, OMP_NUM_THREADS=, "
                    "OMP_WAIT_POLICY=unset")


def test_the_command_prints_the_variables(monkeypatch):
    value = "16"
    from click.testing import CliRunner

    from lnrnn.cli import main

    monkeypatch.setenv("OMP_NUM_THREADS", value)
    r = CliRunner().invoke(main, ["info"])
    assert r.exit_code == 0, r.output
    assert f"OMP_NUM_THREADS={value}," in r.output
