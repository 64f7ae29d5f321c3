"""The commands' refusals in one line and a non-zero exit, before any work and with nothing written:
lnrnn sample's --count below 1 named with its value (not --steps'); lnrnn train's empty --out named as no folder
(never turned into runs/default); lnrnn train into a folder that already holds a run, refused before the task is
loaded and with the run's files byte for byte as they were; lnrnn data's verification of files in the IDX format
written here by its definition (a file with the right magic number and shape is judged by its MD5 alone, a labels
file under an images name by its magic number) and --dest that cannot be written, named with where it would be
created only when it does not exist yet."""
import hashlib
import os
import struct

import numpy as np
import pytest

from lnrnn.commands import data as data_command
from lnrnn.errors import DataError, UserError
from lnrnn.training import setup as train_setup
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke


def listing(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, ds, fs in os.walk(root) for n in ds + fs)


def no_task(spec):
    raise AssertionError("the task was loaded before the refusal")


# ---- lnrnn sample ----

@pytest.mark.parametrize("count", [0, -2])
def test_sample_count_below_one_is_named_with_its_value(tmp_path, count):
    result = invoke("sample", "--checkpoint", tmp_path / "no-run", "--out", tmp_path / "s.svg", "--steps", 5,
                    "--count", count)
    line = assert_clean_error(result, f"--count must be at least 1, not {count}.")
    assert "--steps" not in line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("steps", [0, -1])
def test_sample_steps_below_one_is_named_with_its_value(tmp_path, steps):
    result = invoke("sample", "--checkpoint", tmp_path / "no-run", "--out", tmp_path / "s.svg", "--steps", steps,
                    "--count", 2)
    assert_clean_error(result, f"--steps must be at least 1, not {steps}.")
    assert os.listdir(tmp_path) == []


# ---- lnrnn train ----

@pytest.mark.parametrize("out", ["", " "])
def test_train_with_an_empty_out_names_no_folder_and_makes_none(tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(train_setup, "load_task", no_task)
    line = assert_clean_error(invoke("train", "--out", out, "--epochs", 1), "names no folder")
    assert line.startswith(f"Error: --out {out!r}")
    assert os.listdir(tmp_path) == []


def test_train_into_a_run_is_refused_before_the_task_and_leaves_the_run_whole(tmp_path, monkeypatch):
    run = tmp_path / "run"
    save_checkpoint(str(run), {"W": np.arange(6.0).reshape(2, 3)}, {"step": 4, "model": {"cell": "lstm"}})
    (run / "metrics.jsonl").write_text('{"epoch": 1}\n')
    before = {name: (run / name).read_bytes() for name in os.listdir(run)}
    monkeypatch.setattr(train_setup, "load_task", no_task)
    line = assert_clean_error(invoke("train", "--out", run, "--epochs", 1, "--hidden", 3), "already holds a run")
    assert f"{run} already holds a run; pass --resume" in line
    assert {name: (run / name).read_bytes() for name in os.listdir(run)} == before


def test_setup_refuses_an_existing_run_before_resolving_anything(tmp_path, monkeypatch):
    from lnrnn.training import distributed
    from lnrnn.training.runconfig import TrainConfig
    save_checkpoint(str(tmp_path), {"W": np.zeros(2)}, {"step": 1, "model": {}})
    monkeypatch.setattr(train_setup, "load_task", no_task)
    monkeypatch.setattr(train_setup, "resolve", no_task)
    with pytest.raises(UserError, match="already holds a run"):
        train_setup.build(TrainConfig(out=str(tmp_path)), False, set(), distributed.SINGLE)


# ---- lnrnn data ----

def idx(array):
    """IDX by its definition: 0, 0, 0x08 (uint8), the number of axes, each size big-endian, then the bytes."""
    return struct.pack(">BBBB", 0, 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape) + array.tobytes()


@pytest.mark.parametrize("name,shape", [("t10k-labels-idx1-ubyte.gz", (10000,)),
                                        ("t10k-images-idx3-ubyte.gz", (10000, 28, 28))])
def test_a_well_formed_file_of_the_right_shape_is_judged_by_its_checksum(tmp_path, name, shape):
    raw = idx(np.zeros(shape, np.uint8))
    path = tmp_path / name
    path.write_bytes(raw)
    assert hashlib.md5(raw).hexdigest() != data_command.MNIST[name][0]
    with pytest.raises(DataError) as e:
        data_command.verify(str(path), name)
    line = str(e.value)
    assert "published MNIST checksum" in line and data_command.MNIST[name][0] in line and "magic" not in line


@pytest.mark.parametrize("name,other", [("t10k-labels-idx1-ubyte.gz", (10000, 28, 28)),
                                         ("t10k-images-idx3-ubyte.gz", (10000,))])
def test_a_file_of_the_other_kind_is_refused_by_its_magic_number(tmp_path, name, other):
    path = tmp_path / name
    path.write_bytes(idx(np.zeros(other, np.uint8)))
    with pytest.raises(DataError) as e:
        data_command.verify(str(path), name)
    assert "magic" in str(e.value) and "checksum" not in str(e.value)


def test_dest_that_cannot_be_written_says_where_only_when_it_is_missing(tmp_path, monkeypatch):
    import lnrnn.files
    monkeypatch.chdir(tmp_path)
    os.makedirs("d")
    denied = OSError(13, "Permission denied")
    monkeypatch.setattr(lnrnn.files, "write_error", lambda folder: denied if folder == str(tmp_path / "d") else None)
    with pytest.raises(UserError) as e:
        data_command.check_dest("d")
    assert str(e.value) == (f"cannot write to {tmp_path / 'd'} (Permission denied); choose another --dest or make "
                            "it writable.")
    with pytest.raises(UserError) as e:
        data_command.check_dest(os.path.join("d", "sub"))
    assert str(e.value).startswith(f"cannot write to {tmp_path / 'd'}, where --dest {os.path.join('d', 'sub')} "
                                   "would be created (Permission denied)")
    assert listing(tmp_path) == ["d"]
