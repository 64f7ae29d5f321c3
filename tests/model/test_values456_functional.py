"""dL/dh_n on the device lands at each row's last step (lnrnn/model/functional.py, ``_device_dy``): layer_backward
on the CUDA twin (the simulator in CI) with rows of length 1 (their last step is step 0), a row of length 0 (its
dL/dh_n goes to dh0), a full row and one in between, equals the CPU's, every cell the device runs, with nothing
of dy's size brought to the host; a row of length 1's dL/dx at step 0 is not zero."""
import numpy as np
import pytest

from test_functional import DEVICE_CELLS, backward_on_both_devices


@pytest.mark.parametrize("name", DEVICE_CELLS)
def test_rows_of_one_step_take_dh_n_at_step_0(name, monkeypatch):
    lengths = np.array([1, 4, 0, 1, 3])
    got, crossed = backward_on_both_devices(name, lengths, monkeypatch)
    assert not crossed
    for a, b in zip(*got):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-12)
    assert np.all(np.any(got[0][0][0, lengths == 1] != 0, axis=1))
