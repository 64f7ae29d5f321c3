"""lnrnn/interop/export.py against the safetensors definition, with the reader and writer of
test_values183_export / test_values212_export (an 8-byte little-endian header length, a UTF-8 JSON object
padded to 8 bytes, data_offsets counted from the first data byte, back to back): a file written here with a
(2,3) F32 and a (3,) I64 tensor comes back from read_safetensors with those shapes and values; write_safetensors'
offsets start at 0; export_weights' metadata says the gate order of PyTorch's layout ([i | f | g | o]) and
pytorch_compatible as true/false (true only for a plain cell without skip connections); its refusals of a
folder and of a name without .safetensors name the option it is given, word for word, and write nothing."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.interop.export import export_weights, read_safetensors, write_safetensors
from lnrnn.model.models import build_model, head_config
from test_values183_export import read_by_definition
from test_values212_export import bn_lstm, write_by_definition


def test_a_file_written_by_the_definition_reads_back_with_its_shapes(tmp_path):
    a = np.arange(6, dtype="<f4").reshape(2, 3) - 2.5                       # (2,3): not its own transpose
    k = np.array([-1, 2, 2 ** 40], dtype="<i8")
    blob = a.tobytes() + k.tobytes()
    header = {"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
              "k": {"dtype": "I64", "shape": [3], "data_offsets": [24, 48]},
              "__metadata__": {"note": "héllo"}}
    back, meta = read_safetensors(write_by_definition(tmp_path / "t.safetensors", header, blob))
    assert back["a"].shape == (2, 3) and back["a"].dtype == np.float32
    np.testing.assert_array_equal(back["a"], a)
    np.testing.assert_array_equal(back["k"], k)
    assert meta == {"note": "héllo"}


def test_the_writers_offsets_count_from_the_first_data_byte(tmp_path):
    t = {"x": np.arange(3, dtype=np.float64), "y": np.ones((2, 2), np.float32)}
    write_safetensors(tmp_path / "w.safetensors", t, {"k": 1})
    back, meta = read_by_definition(tmp_path / "w.safetensors")            # asserts 0, back to back, to the end
    for name, v in t.items():
        np.testing.assert_array_equal(back[name], v)
    assert meta == {"k": "1"}


def plain_lstm():
    return build_model(dict(cell="lstm", norm="none", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head_config("mse", 2, False)), seed=219)


@pytest.mark.parametrize("model, compatible", [(plain_lstm, "true"), (bn_lstm, "false")])
def test_the_metadata_names_pytorchs_gate_order_and_compatibility(tmp_path, model, compatible):
    m = model()
    export_weights(SimpleNamespace(model=m, step=7), tmp_path / "w.safetensors")
    _, meta = read_by_definition(tmp_path / "w.safetensors")
    assert meta["gate_order"] == "i,f,g,o"                                 # torch.nn.LSTM's [i | f | g | o]
    assert meta["pytorch_compatible"] == compatible


def test_refusals_of_the_path_name_the_option_given_and_write_nothing(tmp_path):
    run = SimpleNamespace(model=plain_lstm(), step=0)
    folder = tmp_path / "d"
    folder.mkdir()
    with pytest.raises(UserError) as e:
        export_weights(run, folder, option="path")
    assert str(e.value) == f"path {folder} is a folder; give a file name inside it."
    bad = tmp_path / "w.pt"
    with pytest.raises(UserError) as e:
        export_weights(run, bad, option="path")
    assert str(e.value) == (f"path {bad} ends in .pt, but lnrnn export writes safetensors (read it with "
                            f"safetensors.torch.load_file, not torch.load): name it {tmp_path / 'w'}.safetensors.")
    assert os.listdir(tmp_path) == ["d"] and os.listdir(folder) == []
