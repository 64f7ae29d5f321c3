"""The devices lnrnn.torch's check (lnrnn/interop/torch.py: check_tensors) takes, without a GPU: stand-ins that
carry a CUDA device as a torch tensor does (dtype, device). Tensors on one CUDA device pass, as tensors on the
CPU do; a CPU tensor beside a CUDA one, or tensors on two CUDA devices, are refused in one sentence naming each
tensor's device (the kernels run on one device; a mix would copy or fail inside the launch)."""
import os
from types import SimpleNamespace

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from lnrnn.interop.torch import check_tensors  # noqa: E402

F32 = torch.float32


def on(device):
    return SimpleNamespace(dtype=F32, device=torch.device(device))


def refusal(**tensors):
    with pytest.raises(RuntimeError) as e:
        check_tensors("LSTM", **tensors)
    return str(e.value)


@pytest.mark.parametrize("devices", [("cpu", "cpu", "cpu"), ("cuda:0", "cuda:0", "cuda:0"),
                                     ("cuda:1", "cuda:1", "cuda:1")])
def test_tensors_on_one_device_pass(devices):
    x, h, c = (on(d) for d in devices)
    assert check_tensors("LSTM", x=x, h=h, c=c, lengths=None) is None


@pytest.mark.parametrize("devices", [("cpu", "cuda:0", "cuda:0"), ("cuda:0", "cpu", "cuda:0"),
                                     ("cuda:0", "cuda:0", "cpu"), ("cuda:0", "cuda:1", "cuda:1")])
def test_a_mix_of_devices_is_refused_naming_each(devices):
    x, h, c = (on(d) for d in devices)
    assert refusal(x=x, h=h, c=c) == (
        f"LSTM: tensors on x on {devices[0]}, h on {devices[1]}, c on {devices[2]}: lnrnn runs on the CPU or on "
        "one CUDA device; move the input and states to the module's device (x.to(m.weight_ih_l0.device)).")


def test_a_tensor_left_out_is_not_counted():
    assert check_tensors("LSTM", x=on("cuda:0"), h=None, c=on("cuda:0")) is None
    assert refusal(x=on("cuda:0"), h=None, c=on("cpu")).startswith("LSTM: tensors on x on cuda:0, c on cpu: ")
