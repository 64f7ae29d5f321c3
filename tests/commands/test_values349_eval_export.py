"""Round 349: lnrnn eval and lnrnn export through click's CliRunner on checkpoints built here. eval's sentence
counts the sequences of the set it scored, worked out from --split A/B by hand (B validation, A training
sequences; one is 'sequence'), and --json gives lnrnn.api.evaluate_run's figures for that split; export with no
--format writes safetensors under PyTorch's nn.LSTM names, with the shapes an LSTM of I inputs and H units has,
and the file loads into torch.nn.LSTM and nn.Linear as they are."""
import json

import numpy as np
import pytest
import torch

from lnrnn.api import evaluate_run, load_run
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import invoke
from test_values_eval_predict import _run


@pytest.fixture(scope="module")
def digits_run(tmp_path_factory):
    return str(_run(tmp_path_factory.mktemp("r349") / "clf", {"task": "digits"}, 1, 10))


@pytest.mark.parametrize("split, which, n, word", [("7/11", "val", 11, "sequences"),
                                                   ("7/11", "train", 7, "sequences"),
                                                   ("13/1", "val", 1, "sequence")])
def test_eval_sentence_counts_the_sequences_of_the_set_scored(digits_run, split, which, n, word):
    r = invoke("eval", "--checkpoint", digits_run, "--split", split, "--set", which)
    assert r.exit_code == 0, r.output
    line = r.stdout.strip()
    assert line.endswith(f" ({n} {word}).") and f", on {which} of " in line, line


def test_eval_json_gives_the_apis_figures_for_the_split(digits_run):
    r = invoke("eval", "--checkpoint", digits_run, "--split", "7/11", "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    want = evaluate_run(load_run(digits_run), "val", split="7/11")
    assert got["sequences"] == 11 == want.sequences
    assert got["set"] == "val" and got["loss"] == pytest.approx(want.metrics["loss"], rel=1e-6)
    assert got["accuracy"] == pytest.approx(want.metrics["acc"]) and got["epoch"] == 2 and got["step"] == 7


I, H, C = 3, 5, 4
DTYPES = {"F64": "<f8", "F32": "<f4"}


def load_file(path):
    """A .safetensors file read by its definition: 8 bytes of header length, a JSON header naming each tensor's
    dtype, shape and byte range, then the data."""
    with open(path, "rb") as f:
        raw = f.read()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    header.pop("__metadata__", None)
    return {k: np.frombuffer(raw[8 + n + h["data_offsets"][0]:8 + n + h["data_offsets"][1]],
                             DTYPES[h["dtype"]]).reshape(h["shape"]) for k, h in header.items()}


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory):
    m = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", C)), seed=3)
    folder = tmp_path_factory.mktemp("r349") / "plain"
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 3, "epoch": 1, "task": {"task": "digits"}, "train": {"cell": "lstm"}})
    return str(folder)


def test_export_default_format_is_safetensors_under_pytorch_names(plain_run, tmp_path):
    out = tmp_path / "w.safetensors"
    r = invoke("export", "--checkpoint", plain_run, "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Wrote 6 tensors of lstm (hidden 5, 1 layer) after 1 finished epoch, 3 updates ")
    assert r.stdout.endswith(f" to {out}; the rnn.* tensors load into torch.nn.LSTM.\n")
    t = load_file(str(out))
    # an LSTM of I inputs and H units: four gates stacked; a Linear head from H to C
    assert {k: v.shape for k, v in t.items()} == {
        "rnn.weight_ih_l0": (4 * H, I), "rnn.weight_hh_l0": (4 * H, H), "rnn.bias_ih_l0": (4 * H,),
        "rnn.bias_hh_l0": (4 * H,), "head.weight": (C, H), "head.bias": (C,)}
    lstm, head = torch.nn.LSTM(I, H, batch_first=True).double(), torch.nn.Linear(H, C).double()
    lstm.load_state_dict({k[4:]: torch.tensor(v) for k, v in t.items() if k.startswith("rnn.")})
    head.load_state_dict({k[5:]: torch.tensor(v) for k, v in t.items() if k.startswith("head.")})
    assert np.array_equal(head.weight.detach().numpy(), t["head.weight"])
