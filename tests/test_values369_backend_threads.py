"""The CPU namespace of lnrnn/backend.py and the process set-up of lnrnn/threadscope.py against their docstrings,
with no kernel run: on the CPU no array is a device array and the moves are identities (the same object back);
zeros(shape, dtype) all zero in the dtype asked for (float32 stays float32); the training and inference BatchNorm
forwards bound to the batchnorm module's functions of those names and no two ops of OPS sharing one function.
_reuse_freed_memory calling glibc's mallopt with its own parameter numbers (malloc.h: M_TRIM_THRESHOLD -1,
M_MMAP_THRESHOLD -3) and config's thresholds, on a libc stood in; prepare_process doing its work once and
returning what it did."""
import ctypes
import os
import sys

import numba
import numpy as np
import pytest

from lnrnn import backend, config, threadscope
from lnrnn.kernels import batchnorm

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h


# ---- the CPU namespace ----
def test_on_the_cpu_nothing_is_on_a_device_and_moves_are_identities():
    k = backend.kernels("cpu")
    a = np.arange(6.0).reshape(2, 3)
    assert k.device == "cpu"
    assert k.is_device(a) is False
    assert k.is_device(np.zeros(0, np.float32)) is False
    assert k.to_host(a) is a and k.to_device(a) is a


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_zeros_in_the_dtype_asked_for(dtype):
    z = backend.kernels("cpu").zeros((3, 5), dtype)
    assert z.shape == (3, 5) and z.dtype == np.dtype(dtype)
    assert not z.any()


def test_batchnorm_train_and_infer_bound_by_name_and_no_op_shared():
    k = backend.kernels("cpu")
    assert k.batchnorm_forward_train is batchnorm.batchnorm_forward_train
    assert k.batchnorm_forward_infer is batchnorm.batchnorm_forward_infer
    fns = [getattr(k, op) for op in backend.OPS]
    assert len({id(f) for f in fns}) == len(backend.OPS), "each op its own function"


# ---- glibc's allocator ----
class _Libc:
    def __init__(self, answers):
        self.calls, self.answers = [], list(answers)

    def mallopt(self, param, value):
        self.calls.append((param, value))
        return self.answers.pop(0)


def test_mallopt_gets_glibcs_parameter_numbers_and_configs_thresholds(monkeypatch):
    libc = _Libc([1, 1])
    monkeypatch.delenv("LNRNN_KEEP_MALLOC", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: libc)
    assert threadscope._reuse_freed_memory() is True
    assert set(libc.calls) == {(M_MMAP_THRESHOLD, config.MALLOC_MMAP_THRESHOLD),
                               (M_TRIM_THRESHOLD, config.MALLOC_TRIM_THRESHOLD)}


# ---- once per process ----
def test_prepare_process_works_once_and_says_what_it_did(monkeypatch):
    done = []
    monkeypatch.setattr(threadscope, "_prepared", {})
    monkeypatch.setattr(threadscope, "_reuse_freed_memory", lambda: done.append("malloc") or True)
    monkeypatch.setattr(threadscope, "_start_kernel_threads", lambda: done.append("threads") or "omp")
    first = threadscope.prepare_process()
    assert first == {"MALLOC_TUNED": True, "THREADING_LAYER": "omp"}
    assert threadscope.prepare_process() == first
    assert sorted(done) == ["malloc", "threads"], "the second call does nothing again"


def test_start_kernel_threads_sets_passive_waiting_only_while_the_layer_starts(monkeypatch):
    seen = []
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setattr(numba, "get_num_threads", lambda: seen.append(dict(os.environ)) or 2)
    monkeypatch.setattr(numba, "threading_layer", lambda: "omp")
    assert threadscope.start_kernel_threads() == "omp"
    assert seen[0]["OMP_WAIT_POLICY"] == "passive"
    assert "OMP_WAIT_POLICY" not in os.environ
    monkeypatch.setenv("OMP_WAIT_POLICY", "active")
    threadscope.start_kernel_threads()
    assert seen[1]["OMP_WAIT_POLICY"] == "active" and os.environ["OMP_WAIT_POLICY"] == "active"

