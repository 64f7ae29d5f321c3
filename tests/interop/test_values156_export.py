"""lnrnn export (click's CliRunner) and lnrnn/interop/export.py against a safetensors reader written here from the
format's definition (8-byte little-endian header length, a JSON header padded so the data start 8-byte aligned,
each entry's dtype code, shape and data_offsets, the offsets covering the data back to back in order from 0,
__metadata__ holding strings only): an LN-LSTM, a BN-LSTM, an LN-RNN and a plain LSTM, every parameter and
BatchNorm statistic set to its own random values, come out under the documented names with the model's values
(transposed where the docstring says), the message counts the tensors written and promises torch.nn only for
a plain stack; lnrnn's own reader gives back what the definition's reader gives and refuses a gap between
tensors; a plain LSTM's exported tensors, run here through PyTorch's LSTM equations in the metadata's gate
order and the head, give lnrnn.api.predict's probabilities; an --out that ends in a separator, is a folder, has
another suffix or lies in a read-only folder is refused before the run is loaded, and one in folders that do
not exist yet is written."""
import contextlib
import json
import os
import re
import stat
import struct

import numpy as np
import pytest

import lnrnn.api
from lnrnn.interop.export import read_safetensors
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke

CODES = {"F16": "<f2", "F32": "<f4", "F64": "<f8", "I32": "<i4", "I64": "<i8", "U8": "u1"}

# the docstring's table: lnrnn parameter -> (exported stem, transposed)
NAMES = {"Wx": ("weight_ih", True), "Wh": ("weight_hh", True), "b": ("bias_ih", False),
         "gx": ("norm_ih_weight", False), "bx": ("norm_ih_bias", False),
         "gh": ("norm_hh_weight", False), "bh": ("norm_hh_bias", False),
         "gc": ("norm_cell_weight", False), "bc": ("norm_cell_bias", False), "g": ("norm_weight", False),
         "rmx": ("norm_ih_running_mean", False), "rvx": ("norm_ih_running_var", False),
         "rmh": ("norm_hh_running_mean", False), "rvh": ("norm_hh_running_var", False),
         "rmc": ("norm_cell_running_mean", False), "rvc": ("norm_cell_running_var", False)}


def parse(path):
    """The format's definition, read strictly: -> ({name: array}, metadata)."""
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    assert (8 + n) % 8 == 0                                               # the data start 8-byte aligned
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in meta.items())
    data = raw[8 + n:]
    out, spans = {}, []
    for name, info in header.items():
        assert set(info) == {"dtype", "shape", "data_offsets"}
        b, e = info["data_offsets"]
        dt = np.dtype(CODES[info["dtype"]])
        assert e - b == dt.itemsize * int(np.prod(info["shape"], dtype=np.int64))
        out[name] = np.frombuffer(data[b:e], dtype=dt).reshape(info["shape"])
        spans.append((b, e))
    spans.sort()
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == c[0] for a, c in zip(spans, spans[1:]))
    return out, meta


def make_run(folder, cell, norm, seed):
    m = build_model(dict(cell=cell, norm=norm, input_size=2, hidden_size=3, num_layers=2, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", 4)), seed=seed)
    rng = np.random.default_rng(seed + 156)
    for v in m.params.values():
        v[...] = rng.uniform(-0.9, 0.9, v.shape)
    for k, v in m.buffers.items():                                       # every statistic its own value
        v[...] = rng.uniform(0.5, 2.0, v.shape) if ".rv" in k else rng.uniform(-1.0, 1.0, v.shape)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 11, "epoch": 1, "task": {"task": "digits"},
                                          "train": {"cell": f"{norm}-{cell}", "eval_batch_size": 100}})
    return m


def expected(m):
    want = {"head.weight": m.params["head.W"].T, "head.bias": m.params["head.b"]}
    for key, a in {**m.params, **m.buffers}.items():
        if key.startswith("rnn."):
            _, layer, name = key.split(".")
            stem, t = NAMES[name]
            want[f"rnn.{stem}_{layer}"] = a.T if t else a
            if name == "b":
                want[f"rnn.bias_hh_{layer}"] = np.zeros_like(a)
    return want


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("lstm", "bn"), ("rnn", "ln"), ("lstm", "none")])
def test_every_tensor_under_its_documented_name_and_the_message(tmp_path, cell, norm):
    m = make_run(tmp_path / "run", cell, norm, seed=len(cell) + len(norm))
    out = tmp_path / "w.safetensors"
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    got, meta = parse(out)
    want = expected(m)
    assert sorted(got) == sorted(want)
    for k, a in want.items():
        np.testing.assert_array_equal(got[k], a, err_msg=k)
    assert meta["gate_order"] == "i,f,g,o" and meta["step"] == "11"
    assert json.loads(meta["model_config"]) == m.config
    plain = norm == "none"
    assert meta["pytorch_compatible"] == ("true" if plain else "false")
    said = re.search(r"Wrote (\d+) tensors", r.stdout)
    assert said and int(said.group(1)) == len(want), r.stdout
    assert ("torch.nn.LSTM" in r.stdout) == plain, r.stdout
    back, back_meta = read_safetensors(str(out))                         # lnrnn's reader: the same
    assert back_meta == meta and sorted(back) == sorted(got)
    for k in got:
        assert back[k].dtype == got[k].dtype
        np.testing.assert_array_equal(back[k], got[k])


def test_a_plain_lstms_tensors_through_pytorchs_equations_give_the_runs_probabilities(tmp_path):
    make_run(tmp_path / "run", "lstm", "none", seed=4)
    out = tmp_path / "w.safetensors"
    assert invoke("export", "--checkpoint", tmp_path / "run", "--out", out).exit_code == 0
    w, meta = parse(out)
    order = meta["gate_order"].split(",")                                # blocks of H rows each
    x = np.random.default_rng(9).uniform(-1, 1, (3, 5, 2))
    N, T, _ = x.shape
    inp = x
    for k in range(2):
        H = w[f"rnn.weight_hh_l{k}"].shape[1]
        h, c, hs = np.zeros((N, H)), np.zeros((N, H)), []
        for t in range(T):
            z = (inp[:, t] @ w[f"rnn.weight_ih_l{k}"].T + w[f"rnn.bias_ih_l{k}"]
                 + h @ w[f"rnn.weight_hh_l{k}"].T + w[f"rnn.bias_hh_l{k}"])
            gate = {name: z[:, j * H:(j + 1) * H] for j, name in enumerate(order)}
            sig = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
            c = sig(gate["f"]) * c + sig(gate["i"]) * np.tanh(gate["g"])
            h = sig(gate["o"]) * np.tanh(c)
            hs.append(h)
        inp = np.stack(hs, axis=1)
    logits = inp[:, -1] @ w["head.weight"].T + w["head.bias"]
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    want = lnrnn.api.predict(lnrnn.api.load_run(str(tmp_path / "run")), x)
    np.testing.assert_allclose(want.probabilities, p, rtol=1e-9, atol=1e-12)


def _file(path, header, data):
    text = json.dumps(header).encode("utf-8")
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return str(path)


def test_the_reader_refuses_a_gap_between_tensors_and_reads_the_back_to_back_file(tmp_path):
    a, b = np.array([1.5, -2.0], "<f4"), np.array([7], "<i8")
    good = _file(tmp_path / "g.safetensors", {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                              "b": {"dtype": "I64", "shape": [1], "data_offsets": [8, 16]}},
                 a.tobytes() + b.tobytes())
    t, meta = read_safetensors(good)
    assert meta == {} and t["a"].tolist() == [1.5, -2.0] and t["b"].tolist() == [7]
    gap = _file(tmp_path / "gap.safetensors", {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                               "b": {"dtype": "I64", "shape": [1], "data_offsets": [16, 24]}},
                a.tobytes() + bytes(8) + b.tobytes())
    with pytest.raises(ValueError, match="do not cover the data buffer back to back"):
        read_safetensors(gap)


@pytest.fixture
def no_loading(monkeypatch):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda *a, **k: pytest.fail("the run was loaded"))


def test_a_trailing_separator_is_refused_before_the_run_is_loaded(tmp_path, no_loading):
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", str(tmp_path / "w") + os.sep)
    assert_clean_error(r, "names a folder")
    assert os.listdir(tmp_path) == []


def test_a_folder_is_refused_before_the_run_is_loaded(tmp_path, no_loading):
    (tmp_path / "w.safetensors").mkdir()
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", tmp_path / "w.safetensors")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "w.safetensors" in r.stderr and ("folder" in r.stderr or "directory" in r.stderr), r.stderr


def test_another_suffix_is_refused_before_the_run_is_loaded(tmp_path, no_loading):
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", tmp_path / "new" / "w.pt")
    line = assert_clean_error(r, "ends in .pt")
    assert str(tmp_path / "new" / "w.safetensors") in line
    assert os.listdir(tmp_path) == []


@contextlib.contextmanager
def read_only_folder(parent):
    """parent/ro, which this user may read and enter but not write to; writable again afterwards. The test is
    skipped where the user writes to it all the same (root)."""
    ro = parent / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("this user writes to read-only folders (root)")
        yield ro
    finally:
        ro.chmod(stat.S_IRWXU)


def test_a_read_only_folder_is_refused_before_the_run_is_loaded(tmp_path, no_loading):
    with read_only_folder(tmp_path) as ro:
        r = invoke("export", "--checkpoint", tmp_path / "run", "--out", ro / "w.safetensors")
        assert_clean_error(r, f"cannot write to {ro}")


def test_folders_that_do_not_exist_yet_are_created(tmp_path):
    m = make_run(tmp_path / "run", "rnn", "ln", seed=1)
    out = tmp_path / "a" / "b" / "w.safetensors"
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    got, _ = parse(out)
    assert sorted(got) == sorted(expected(m))
