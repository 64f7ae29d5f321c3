"""Planted bugs, round 422 (format: tests/mutants/mutants.py): the model config and tensors of an lnrnn export
file as lnrnn.torch.load_exported and lnrnn.jax.load_export read them (lnrnn/interop/export.py: exported_config
and _check_sizes; lnrnn/interop/torch.py: _from_tensors and load_exported; lnrnn/interop/jax.py: load_export),
twentieth pass.

Writing this round's plan found a real bug, by setting each field of an exported file's model config in turn to a
text, null, a list, an object, -1, 0, 2**70, 1.5, true, infinity, NaN and 100000 (or leaving it out), and each
tensor dropped, cut short, reshaped, cast and given a NaN: the torch loader built whatever the config said, so a
damaged file ended in a KeyError, an AttributeError, a NumPy TypeError or torch's multi-line state_dict
RuntimeError, a hidden size of 100000 in a MemoryError and a num_layers of 2**70 in a hang; a float64 or int32
tensor in a float32 file and a NaN weight loaded silently. The planted bugs: a config that is not a JSON object
passing; missing fields refused by the wrong loader; a norm of null refused; a size of true taken as 1; a size of 0
passing; an infinite forget_bias passing; forget_bias required of the RNN instead of the LSTM; skip and
bidirectional unchecked; a long value quoted whole; half a head passing; a synthesis network's wider layer 0
checked; a float64 tensor in a float32 file passing; an infinite weight passing; layers counted wherever they are;
rnn.weight_ih_l0 unchecked; an RNN's gates sized as an LSTM's; a head's width without its directions or without
skip; a head.bias of the wrong length passing; BatchNorm statistics of another row count refused; torch taking a
partial config; JAX refusing one; two names shown where three are said. 23 mutants. The old files that load export
files (OLD) alone catch 7 of 23 (missing fields, norm null, synthesis, RNN gates, bidirectional head, BN rows, JAX
partial configs); missed: every field's check, the dtype and finiteness checks, the layer count, layer 0's input
weights, a skip head's width, half a head. test_values422_export_files writes files from models built by build_model
(LN-LSTM, bidirectional BN-LSTM in float64, skip, RNN, synthesis), loads the good ones in both loaders (torch's
outputs equal to lnrnn's layers), then damages one field or tensor at a time and reads each refusal word for word.
The new file alone catches 23 of 23, so NEW + OLD does too (it was not run separately). Nothing left out as
equivalent.

    python tests/mutants/run.py --only 'v422-*'
"""
NEW = ["tests/interop/test_values422_export_files.py"]
# the old files that load export files or build a stack from exported tensors
OLD = ["tests/interop/test_values225_export.py", "tests/interop/test_values41_torch.py",
       "tests/interop/test_values160_torch.py", "tests/interop/test_values78_jax.py",
       "tests/interop/test_values334_torch.py", "tests/interop/test_values291_jax.py",
       "tests/interop/test_values121_torch.py", "tests/interop/test_values19_jax.py",
       "tests/interop/test_values192_torch.py", "tests/interop/test_values132_torch.py"]
EXPORT = "lnrnn/interop/export.py"
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

MUTANTS = [
    # ---- the config's fields ----
    dict(name="v422-config-not-an-object-passes", file=EXPORT,
         old="    if not isinstance(config, dict):\n        refuse(\"its model_config is not a JSON object\")",
         new="    if config is None:\n        refuse(\"its model_config is not a JSON object\")",
         tests=NEW + OLD,
         why="a model config of a JSON list, number or text passes: an AttributeError follows"),
    dict(name="v422-missing-fields-refused-by-the-wrong-loader", file=EXPORT,
         old="        if key not in config and complete:", new="        if key not in config and not complete:",
         tests=NEW + OLD,
         why="torch builds from a config without its cell (a KeyError) and JAX refuses a config of cell and norm"),
    dict(name="v422-norm-null-refused", file=EXPORT,
         old='("norm", NORMS + (None,))', new='("norm", NORMS)',
         tests=NEW + OLD,
         why="a norm of null, the bindings' norm=None, is refused as damaged"),
    dict(name="v422-size-true-taken-as-one", file=EXPORT,
         old="not (whole_number(v) and v >= 1)", new="not (isinstance(v, int) and v >= 1)",
         tests=NEW + OLD,
         why="a size of true passes as 1 and the refusal that follows names shapes, not the field"),
    dict(name="v422-size-zero-passes", file=EXPORT,
         old="not (whole_number(v) and v >= 1)", new="not (whole_number(v) and v >= 0)",
         tests=NEW + OLD,
         why="an input_size of 0 passes the field check"),
    dict(name="v422-forget-bias-infinite", file=EXPORT,
         old="not isinstance(fb, (int, float)) or not math.isfinite(fb)):",
         new="not isinstance(fb, (int, float))):",
         tests=NEW + OLD,
         why="a forget_bias of NaN or infinity passes"),
    dict(name="v422-forget-bias-required-of-the-rnn", file=EXPORT,
         old='    if config.get("cell") == "lstm" and "forget_bias" not in config and complete:',
         new='    if config.get("cell") == "rnn" and "forget_bias" not in config and complete:',
         tests=NEW + OLD,
         why="an RNN config without forget_bias is refused and an LSTM one without it is built (a KeyError)"),
    dict(name="v422-flags-unchecked", file=EXPORT,
         old="        if key in config and not isinstance(config[key], bool):",
         new="        if key in config and config[key] is None:",
         tests=NEW + OLD,
         why="skip 'yes' or bidirectional 1 pass as true"),
    dict(name="v422-long-value-whole", file=EXPORT,
         old="    said = lambda key: shortened(config[key], SHOWN)", new="    said = lambda key: repr(config[key])",
         tests=NEW + OLD,
         why="a damaged value of 500 characters is quoted whole in the refusal"),
    # ---- the tensors ----
    dict(name="v422-half-a-head-passes", file=EXPORT,
         old='    if ("head.weight" in tensors) != ("head.bias" in tensors):',
         new='    if "head.bias" in tensors and "head.weight" not in tensors:',
         tests=NEW + OLD,
         why="a head.weight without its head.bias passes: a KeyError follows"),
    dict(name="v422-synthesis-sizes-checked", file=EXPORT,
         old='    if not config.get("window"):\n        _check_sizes', new="    if True:\n        _check_sizes",
         tests=NEW + OLD,
         why="a synthesis network's wider layer 0 is refused as damaged instead of torch's own sentence"),
    dict(name="v422-dtype-kind-only", file=EXPORT,
         old='if "dtype" in config and a.dtype != np.dtype(config["dtype"]):',
         new='if "dtype" in config and a.dtype.kind != "f":',
         tests=NEW + OLD,
         why="a float64 tensor in a float32 file passes"),
    dict(name="v422-nan-only", file=EXPORT,
         old="        if not np.all(np.isfinite(a)):", new="        if np.any(np.isnan(a)):",
         tests=NEW + OLD,
         why="an infinite weight passes"),
    dict(name="v422-layers-counted-anywhere", file=EXPORT,
         old="        while f\"rnn.weight_hh_l{layers}\" in tensors:\n            layers += 1\n",
         new="        layers = sum(f\"rnn.weight_hh_l{k}\" in tensors for k in range(len(tensors)))\n",
         tests=NEW + OLD,
         why="layers are counted wherever they are: a file without l0 is said to hold the layers above"),
    dict(name="v422-weight-ih-unchecked", file=EXPORT,
         old="    if I is not None:\n        wanted", new="    if I is None:\n        wanted",
         tests=NEW + OLD,
         why="an input_size that disagrees with rnn.weight_ih_l0 (2**70 too) reaches the module"),
    dict(name="v422-rnn-gates-four", file=EXPORT,
         old='    G = 4 * H if config["cell"] == "lstm" else H', new="    G = 4 * H",
         tests=NEW + OLD,
         why="an RNN file is refused as damaged: its weights are sized as an LSTM's"),
    dict(name="v422-head-width-one-direction", file=EXPORT,
         old='        D = 2 if config.get("bidirectional") else 1', new="        D = 1",
         tests=NEW + OLD,
         why="a bidirectional stack's head, which reads 2H, is refused"),
    dict(name="v422-head-width-without-skip", file=EXPORT,
         old='        width = D * H * (L if config.get("skip") else 1)', new="        width = D * H",
         tests=NEW + OLD,
         why="a skip stack's head, which reads L*H, is refused"),
    dict(name="v422-head-bias-unchecked", file=EXPORT,
         old="W.shape[1] != width or b.shape != W.shape[:1]:", new="W.shape[1] != width:",
         tests=NEW + OLD,
         why="a head.bias of another length than head.weight's rows passes"),
    # ---- the loaders ----
    dict(name="v422-bn-rows-must-match", file=TORCH,
         old='        return a == w or ("_running_" in k', new='        return a == w and ("_running_" in k',
         tests=NEW + OLD,
         why="BatchNorm statistics of as many steps as the run trained on are refused as the wrong shape"),
    dict(name="v422-torch-takes-partial-configs", file=TORCH,
         old="    config = exported_config(path, meta, tensors)\n",
         new="    config = exported_config(path, meta, tensors, complete=False)\n",
         tests=NEW + OLD,
         why="torch builds from a config without a size: a KeyError"),
    dict(name="v422-jax-refuses-partial-configs", file=JAX,
         old="    config = exported_config(path, meta, tensors, complete=False) or {}",
         new="    config = exported_config(path, meta, tensors) or {}",
         tests=NEW + OLD,
         why="JAX, which builds nothing from the config, refuses a file whose config names the cell and norm only"),
    dict(name="v422-two-names-shown", file=TORCH,
         old="join(wrong[:3])}{' ...' if len(wrong) > 3 else ''}",
         new="join(wrong[:2])}{' ...' if len(wrong) > 3 else ''}",
         tests=NEW + OLD,
         why="the refusal shows two of the tensors that do not fit where it says three"),
]
