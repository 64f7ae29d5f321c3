"""lnrnn/kernels/cuda/arrays_cuda.py's device-array helpers against NumPy: to_device of a nested Python list (a host
object with no copy_to_host) and is_device of host objects; add_into over 7 elements with blocks of 4 threads (the
last element in the second block's tail); take_steps and put_steps with one column (H = 1) whose rev flag is set
(the column reads and writes step 0 whatever the row's step).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda as ac  # noqa: E402

dev, host = ac.to_device, ac.to_host


@pytest.fixture(autouse=True)
def four_threads(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def test_to_device_of_a_list_and_is_device_of_host_objects():
    rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    d = dev(rows)
    assert ac.is_device(d) and not isinstance(d, list)
    assert np.array_equal(host(d), np.array(rows))
    for obj in (rows, (1.0, 2.0), np.zeros(3), 2.5):
        assert not ac.is_device(obj)


def test_add_into_seven_elements_in_two_blocks():
    rng = np.random.default_rng(2033)
    a, b = rng.standard_normal(7), rng.standard_normal(7)
    out = dev(b)
    assert ac.add_into(out, dev(a)) is out
    np.testing.assert_allclose(host(out), b + a, rtol=0, atol=1e-15)


def test_take_and_put_steps_of_a_single_reversed_column():
    T, B = 3, 2
    rng = np.random.default_rng(2034)
    seq = rng.standard_normal((T, B, 1))
    steps = np.array([2, 1], np.int64)
    rev = np.array([1], np.int64)
    got = host(ac.take_steps(dev(seq), dev(steps), dev(rev)))
    assert np.array_equal(got, seq[0])  # every row's value at step 0
    got = host(ac.take_steps(dev(seq), dev(steps), dev(np.array([0], np.int64))))
    assert np.array_equal(got, np.array([[seq[2, 0, 0]], [seq[1, 1, 0]]]))
    rows = rng.standard_normal((B, 1))
    want = np.zeros((T, B, 1))
    want[0] = rows
    assert np.array_equal(host(ac.put_steps(dev(rows), dev(steps), T, dev(rev))), want)
