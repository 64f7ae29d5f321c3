"""lnrnn/training/setup.py's choice of where an update runs: a single process with --device cuda (the Numba
simulator stands in for the GPU) trains its whole update on the device, a stack on the device with a head whose
loss runs there; the same run with --device cpu trains on the host. Built only: nothing is trained or written."""
import os

import pytest

from test_values260_setup import ONE, digits
from lnrnn.training.setup import build


@pytest.mark.parametrize("device", ["cuda", "cpu"])
def test_one_process_trains_on_the_device_it_names(tmp_path, device):
    setup = build(digits(tmp_path, device=device), False, set(), ONE)
    assert setup.on_device == (device == "cuda")
    assert setup.model.device_refusal() == (None if device == "cuda" else "the stack runs on the CPU")
    assert not os.path.exists(tmp_path / "run")
