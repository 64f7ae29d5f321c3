"""The Python API's refusals name what the caller got wrong: an unknown device given to lnrnn.api.load_run is the
caller's argument (it was reported as a checkpoint that "does not describe a model lnrnn can rebuild"), and
lnrnn.api.export_run's destination is checked as a file name first (a folder is named as one, not as a name
without a suffix) and called by the API's parameter name, not by the command's --out."""
import os

import pytest

from lnrnn import api
from lnrnn.errors import UserError


@pytest.mark.parametrize("device", ["tpu", "CPU", "", None, "cuda:0"])
def test_an_unknown_device_is_the_arguments_fault_before_any_checkpoint_is_read(tmp_path, device):
    with pytest.raises(UserError) as e:
        api.load_run(str(tmp_path / "no-run"), device=device)
    assert str(e.value) == f"device must be one of 'cpu', 'cuda', not {device!r}."


def test_a_missing_run_on_a_known_device_is_still_a_missing_run(tmp_path):
    from lnrnn.errors import CheckpointError

    with pytest.raises(CheckpointError, match="no checkpoint at"):
        api.load_run(str(tmp_path / "no-run"), device="cpu")


@pytest.fixture(scope="module")
def reader():
    return api.load_run("pretrained:hershey-reader")


@pytest.mark.parametrize("name, said", [
    ("folder", "path {p} is a folder; give a file name inside it."),
    ("folder" + os.sep, "path {p!r} names a folder; give a file name."),
    ("w.pt", "path {p} ends in .pt, but lnrnn export writes safetensors"),
    (".safetensors", "path {p!r} is a suffix alone"),
    ("w", "path {p} has no suffix"),
])
def test_export_run_refuses_a_bad_destination_by_the_apis_name_and_writes_nothing(tmp_path, reader, name, said):
    (tmp_path / "folder").mkdir()
    p = str(tmp_path) + os.sep + name  # (a Path would drop a trailing separator)
    with pytest.raises(UserError) as e:
        api.export_run(reader, p)
    assert str(e.value).startswith(said.format(p=p)), str(e.value)
    assert sorted(os.listdir(tmp_path)) == ["folder"] and os.listdir(tmp_path / "folder") == []


def test_export_run_writes_the_tensors_it_returns(tmp_path, reader):
    from lnrnn.interop.export import read_safetensors

    p = tmp_path / "new" / "w.SafeTensors"
    shapes = api.export_run(reader, str(p))
    tensors, meta = read_safetensors(str(p))
    assert {k: v.shape for k, v in tensors.items()} == shapes and len(shapes) > 0
    assert meta["format"] == "lnrnn-export"
