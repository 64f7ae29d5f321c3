"""Damaged ``lnrnn export`` files read by ``lnrnn.torch.load_exported`` and ``lnrnn.jax.load_export``.

An exported file carries its model's config as JSON in the metadata; a torch loader builds the stack that config
describes, so a damaged config built the wrong module (a KeyError, an AttributeError, torch's multi-line
state_dict RuntimeError) or, with a size of 2**70, hung or asked for terabytes. ``export.exported_config`` now
checks the config's fields and its sizes against the tensors' shapes before anything is built, and both loaders
refuse in one ValueError that names the file. The judges: a file written here from a model built by
``build_model`` (LN-LSTM, 2 layers, float32; a bidirectional BN-LSTM in float64; a skip stack; an LN-RNN without
forget_bias; a synthesis config) loads unchanged, with torch's outputs equal to the stack read back through
lnrnn's own layer; then one field or one tensor at a time is damaged and the refusal is read word for word
(or for the words that name the file, the field and the value)."""
import json
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
    import torch
else:
    jax = pytest.importorskip("jax")
    torch = pytest.importorskip("torch")

import lnrnn.jax as lj  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import exported_config, exported_tensors, read_safetensors, write_safetensors  # noqa: E402
from lnrnn.model.models import build_model  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

LN2 = dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=2, dtype="float32", forget_bias=1.0,
           head={"kind": "classifier", "outputs": 5, "per_step": False})


def _file(tmp_path, config=LN2, name="w.safetensors", edit_config=None, edit_tensors=None):
    """-> path of an export of a fresh model of ``config``, its metadata's config and its tensors edited."""
    model = build_model(config, seed=3, max_steps=4)
    cfg = json.loads(json.dumps(model.config))
    if edit_config:
        edit_config(cfg)
    tensors = exported_tensors(model)
    if edit_tensors:
        edit_tensors(tensors)
    path = str(tmp_path / name)
    meta = {"format": "lnrnn-export", "model_config": cfg if isinstance(cfg, str) else json.dumps(cfg)}
    write_safetensors(path, tensors, meta)
    return path, model


def _both_refuse(path, text):
    """Both loaders raise one ValueError, one line, that starts with '<path> is damaged: ' and holds text."""
    for load in (lt.load_exported, lj.load_export):
        with pytest.raises(ValueError) as e:
            load(path)
        msg = str(e.value)
        assert msg.startswith(f"{path} is damaged: ") and msg.endswith("; export the run again."), msg
        assert text in msg, (text, msg)
        assert "\n" not in msg


# ---- a good file loads, unchanged ----

def test_a_good_file_loads_in_both_and_torch_computes_what_the_lnrnn_stack_does(tmp_path):
    path, model = _file(tmp_path)
    tensors, meta = read_safetensors(path)
    assert exported_config(path, meta, tensors) == json.loads(meta["model_config"])
    stack, head = lt.load_exported(path)
    assert (type(stack), stack.num_layers, stack.hidden_size, stack.input_size) == (lt.LSTM, 2, 4, 3)
    x = np.random.default_rng(0).standard_normal((5, 2, 3)).astype(np.float32)
    want = model.stack.forward(x, training=False, keep=False)[0]                        # lnrnn's own layers
    y, _ = stack(torch.from_numpy(x))
    np.testing.assert_allclose(y.detach().numpy(), np.asarray(want), rtol=1e-5, atol=1e-6)
    W, b = model.params["head.W"], model.params["head.b"]
    np.testing.assert_allclose(head(y[-1]).detach().numpy(), y[-1].detach().numpy() @ W + b, rtol=1e-5, atol=1e-6)
    params, stats, cfg = lj.load_export(path)
    assert cfg == json.loads(meta["model_config"]) and stats == {}
    assert sorted(params) == sorted(k[len("rnn."):] for k in tensors if k.startswith("rnn."))


@pytest.mark.parametrize("config", [
    dict(LN2, norm="bn", dtype="float64", bidirectional=True),
    dict(LN2, skip=True, num_layers=3),
    dict(LN2, cell="rnn", norm="none"),
])
def test_good_files_of_other_stacks_load_with_a_head_of_their_width(tmp_path, config):
    """A bidirectional stack's head reads 2H, a skip stack's L*H: both pass the head's check and load in torch."""
    path, model = _file(tmp_path, config)
    stack, head = lt.load_exported(path)
    assert head.in_features == stack.output_size == model.stack.output_size
    assert stack.skip == bool(config.get("skip")) and stack.bidirectional == bool(config.get("bidirectional"))


def test_an_rnn_config_without_forget_bias_is_not_damaged(tmp_path):
    """forget_bias is the LSTM's: an RNN config without one loads; torch refuses an LSTM config without one (it
    builds the stack with it), JAX returns it as it is (it builds nothing from the config)."""
    path, _ = _file(tmp_path, dict(LN2, cell="rnn"), edit_config=lambda c: c.pop("forget_bias"))
    assert type(lt.load_exported(path)[0]) is lt.RNN
    path, _ = _file(tmp_path, name="l.safetensors", edit_config=lambda c: c.pop("forget_bias"))
    with pytest.raises(ValueError) as e:
        lt.load_exported(path)
    assert str(e.value) == (f"{path} is damaged: the model config's forget_bias is missing; an LSTM stack is built "
                            "with it; export the run again.")
    assert "forget_bias" not in lj.load_export(path)[2]


def test_a_norm_of_null_is_the_bindings_none(tmp_path):
    """norm null (the bindings' norm=None) is no norm: a plain stack's file with it loads as LSTM(norm=None)."""
    path, _ = _file(tmp_path, dict(LN2, norm="none"), edit_config=lambda c: c.__setitem__("norm", None))
    stack, _ = lt.load_exported(path)
    assert stack.norm is None and stack.cell == "lstm"
    assert lj.load_export(path)[2]["norm"] is None


def test_a_synthesis_config_passes_the_check_and_torch_says_what_it_is(tmp_path):
    """The window's layer 0 reads [x | window] (wider than input_size): not damaged; torch's refusal is its own."""
    cfg = dict(LN2, window=2, alphabet_size=6, head={"kind": "mdn", "components": 3, "per_step": True})
    path, _ = _file(tmp_path, cfg)
    tensors, meta = read_safetensors(path)
    assert exported_config(path, meta, tensors)["window"] == 2
    with pytest.raises(ValueError, match="^this run is a synthesis network"):
        lt.load_exported(path)


def test_a_file_without_a_model_config_is_left_to_the_user(tmp_path):
    path, _ = _file(tmp_path)
    tensors, _ = read_safetensors(path)
    write_safetensors(path, tensors, {"format": "other"})
    with pytest.raises(ValueError, match="carries no lnrnn model config: load it with lnrnn.torch.LSTM"):
        lt.load_exported(path)
    assert lj.load_export(path)[2] == {}


# ---- a damaged config ----

@pytest.mark.parametrize("raw", ["not json", "[1, 2]", "null", "3", '"lstm"'])
def test_a_model_config_that_is_not_a_json_object(tmp_path, raw):
    path, _ = _file(tmp_path)
    tensors, meta = read_safetensors(path)
    write_safetensors(path, tensors, {**meta, "model_config": raw})
    _both_refuse(path, "its model_config is not a JSON object")


@pytest.mark.parametrize("key,value,words", [
    ("cell", "gru", "the model config's cell is 'gru', not one of rnn, lstm"),
    ("cell", None, "the model config's cell is None, not one of rnn, lstm"),
    ("cell", ["lstm"], "the model config's cell is ['lstm'], not one of rnn, lstm"),
    ("norm", "None", "the model config's norm is 'None', not one of none, ln, bn"),
    ("norm", "layer", "the model config's norm is 'layer', not one of none, ln, bn"),
    ("dtype", "float16", "the model config's dtype is 'float16', not one of float32, float64"),
    ("input_size", 1.5, "the model config's input_size is 1.5, not a whole number of at least 1"),
    ("input_size", 0, "the model config's input_size is 0, not a whole number of at least 1"),
    ("hidden_size", True, "the model config's hidden_size is True, not a whole number of at least 1"),
    ("hidden_size", "4", "the model config's hidden_size is '4', not a whole number of at least 1"),
    ("num_layers", -1, "the model config's num_layers is -1, not a whole number of at least 1"),
    ("num_layers", None, "the model config's num_layers is None, not a whole number of at least 1"),
    ("forget_bias", float("nan"), "the model config's forget_bias is nan, not a finite number"),
    ("forget_bias", float("inf"), "the model config's forget_bias is inf, not a finite number"),
    ("forget_bias", "1.0", "the model config's forget_bias is '1.0', not a finite number"),
    ("forget_bias", False, "the model config's forget_bias is False, not a finite number"),
    ("skip", "yes", "the model config's skip is 'yes', not true or false"),
    ("bidirectional", 1, "the model config's bidirectional is 1, not true or false"),
])
def test_a_damaged_field_is_named_with_its_value(tmp_path, key, value, words):
    path, _ = _file(tmp_path, edit_config=lambda c: c.__setitem__(key, value))
    _both_refuse(path, words)


@pytest.mark.parametrize("key", ["cell", "norm", "dtype", "input_size", "hidden_size", "num_layers"])
def test_a_missing_field_is_refused_by_torch_which_builds_from_it_and_returned_by_jax(tmp_path, key):
    path, _ = _file(tmp_path, edit_config=lambda c: c.pop(key))
    with pytest.raises(ValueError) as e:
        lt.load_exported(path)
    assert str(e.value) == (f"{path} is damaged: the model config's {key} is missing; lnrnn.torch builds the stack "
                            "from it; export the run again.")
    params, _, config = lj.load_export(path)
    assert key not in config and len(config) > 5 and "weight_hh_l1" in params


def test_jax_checks_what_a_partial_config_names(tmp_path):
    """A config of the cell and norm alone passes JAX's check; a wrong size beside them is still refused."""
    path, _ = _file(tmp_path, edit_config=lambda c: [c.pop(k) for k in list(c) if k not in ("cell", "norm")])
    assert lj.load_export(path)[2] == {"cell": "lstm", "norm": "ln"}
    path, _ = _file(tmp_path, name="h.safetensors",
                    edit_config=lambda c: [c.pop(k) for k in list(c) if k not in ("cell", "hidden_size")] + [
                        c.__setitem__("hidden_size", 5)])
    with pytest.raises(ValueError, match=r"needs rnn\.weight_hh_l0 of shape \(20, 5\), the file has shape \(16, 4\)"):
        lj.load_export(path)


def test_a_long_damaged_value_is_shortened(tmp_path):
    path, _ = _file(tmp_path, edit_config=lambda c: c.__setitem__("cell", "x" * 500))
    for load in (lt.load_exported, lj.load_export):
        with pytest.raises(ValueError) as e:
            load(path)
        assert "x" * 60 not in str(e.value) and "\u2026" in str(e.value)


# ---- sizes against the tensors: checked before anything is built ----

@pytest.mark.parametrize("key,value,words", [
    ("hidden_size", 2 ** 70, f"needs rnn.weight_hh_l0 of shape ({4 * 2 ** 70}, {2 ** 70}), the file has shape (16, 4)"),
    ("hidden_size", 5, "its model config (lstm, input 3, hidden 5) needs rnn.weight_hh_l0 of shape (20, 5), the file "
                       "has shape (16, 4)"),
    ("input_size", 2 ** 70, f"needs rnn.weight_ih_l0 of shape (16, {2 ** 70}), the file has shape (16, 3)"),
    ("input_size", 2, "its model config (lstm, input 2, hidden 4) needs rnn.weight_ih_l0 of shape (16, 2), the file "
                      "has shape (16, 3)"),
    ("num_layers", 2 ** 70, f"its model config says num_layers {2 ** 70}, but the file holds 2 rnn.weight_hh_l{{k}} "
                            "tensors"),
    ("num_layers", 1, "its model config says num_layers 1, but the file holds 2 rnn.weight_hh_l{k} tensors"),
    ("num_layers", 3, "its model config says num_layers 3, but the file holds 2 rnn.weight_hh_l{k} tensors"),
    ("cell", "rnn", "its model config (rnn, input 3, hidden 4) needs rnn.weight_hh_l0 of shape (4, 4), the file has "
                    "shape (16, 4)"),
])
def test_sizes_that_disagree_with_the_tensors_are_refused_before_a_module_is_built(tmp_path, key, value, words):
    """A size of 2**70 used to build (or try to build) the module it described: hours, or a MemoryError."""
    path, _ = _file(tmp_path, edit_config=lambda c: c.__setitem__(key, value))
    _both_refuse(path, words)


def test_a_missing_weight_ih_l0_is_named(tmp_path):
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.pop("rnn.weight_ih_l0"))
    _both_refuse(path, "needs rnn.weight_ih_l0 of shape (16, 3), the file has no such tensor")


def test_a_missing_weight_hh_l0_counts_the_layers_the_file_holds(tmp_path):
    """Without l0's weight_hh, the layers counted from l0 upwards are none."""
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.pop("rnn.weight_hh_l0"))
    _both_refuse(path, "its model config says num_layers 2, but the file holds 0 rnn.weight_hh_l{k} tensors")


# ---- the head ----

@pytest.mark.parametrize("drop", ["head.weight", "head.bias"])
def test_half_a_head(tmp_path, drop):
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.pop(drop))
    _both_refuse(path, "it holds one of head.weight and head.bias without the other")


@pytest.mark.parametrize("config,weight,bias,width", [
    (LN2, (5, 3), (5,), 4),
    (LN2, (5, 4), (4,), 4),
    (LN2, (20,), (5,), 4),
    (dict(LN2, bidirectional=True), (5, 4), (5,), 8),
    (dict(LN2, skip=True), (5, 4), (5,), 8),
])
def test_a_head_of_the_wrong_width_or_rank(tmp_path, config, weight, bias, width):
    def edit(t):
        t["head.weight"] = np.zeros(weight, np.float32)
        t["head.bias"] = np.zeros(bias, np.float32)
    path, _ = _file(tmp_path, config, edit_tensors=edit)
    _both_refuse(path, f"its head (head.weight {weight}, head.bias {bias}) does not read the stack's {width} "
                       f"outputs: it should be (outputs, {width}) and (outputs,)")


# ---- each tensor's dtype and values ----

@pytest.mark.parametrize("name", ["rnn.weight_ih_l1", "rnn.norm_cell_bias_l0", "head.bias"])
def test_a_tensor_of_another_dtype(tmp_path, name):
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.__setitem__(name, t[name].astype(np.float64)))
    _both_refuse(path, f"{name} is float64, but the model config says float32")


@pytest.mark.parametrize("name,bad", [("rnn.weight_hh_l1", np.nan), ("rnn.norm_ih_weight_l0", np.inf),
                                      ("head.weight", -np.inf)])
def test_a_tensor_with_nan_or_infinite_values(tmp_path, name, bad):
    def edit(t):
        a = t[name].copy()
        a.flat[-1] = bad
        t[name] = a
    path, _ = _file(tmp_path, edit_tensors=edit)
    _both_refuse(path, f"{name} holds NaN or infinite values")


# ---- torch: tensors that do not fit the stack the config describes ----

def test_torch_names_what_does_not_fit_in_one_line(tmp_path):
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.pop("rnn.norm_hh_bias_l1"))
    with pytest.raises(ValueError) as e:
        lt.load_exported(path)
    assert str(e.value) == (f"{path} is damaged: its tensors do not fit the ln-lstm stack its model config describes "
                            "(rnn.norm_hh_bias_l1 missing, unexpected or of another shape); export the run again.")


def test_torch_names_an_unexpected_tensor_and_a_wrong_shape(tmp_path):
    path, _ = _file(tmp_path, edit_tensors=lambda t: t.__setitem__("rnn.extra_l0", np.zeros(3, np.float32)))
    with pytest.raises(ValueError, match=r"\(rnn\.extra_l0 missing, unexpected or of another shape\)"):
        lt.load_exported(path)
    path, _ = _file(tmp_path, name="s.safetensors",
                    edit_tensors=lambda t: t.__setitem__("rnn.norm_cell_weight_l1", np.ones(5, np.float32)))
    with pytest.raises(ValueError, match=r"\(rnn\.norm_cell_weight_l1 missing, unexpected or of another shape\)"):
        lt.load_exported(path)


def test_torch_shows_three_names_and_says_there_are_more(tmp_path):
    def edit(t):
        for k in ("rnn.norm_ih_bias_l1", "rnn.norm_hh_bias_l1", "rnn.norm_cell_bias_l1", "rnn.bias_hh_l1"):
            t.pop(k)
    path, _ = _file(tmp_path, edit_tensors=edit)
    with pytest.raises(ValueError) as e:
        lt.load_exported(path)
    assert ("(rnn.bias_hh_l1, rnn.norm_cell_bias_l1, rnn.norm_hh_bias_l1 ... missing, unexpected or of another shape)"
            in str(e.value))
