"""``lnrnn export``: a run's weights in the safetensors format, under names a PyTorch user can load.

The format (https://huggingface.co/docs/safetensors), written here without the ``safetensors`` package:
8 bytes little-endian unsigned length N, then N bytes of UTF-8 JSON (padded with spaces to a multiple of
8), then the raw little-endian data. The JSON maps each name to ``{"dtype": "F32"|"F64", "shape": [...],
"data_offsets": [begin, end]}`` (byte offsets into the data, which the tensors cover back to back), plus
``"__metadata__"``: string values only (here: format, lnrnn version, the model config as JSON, the gate order).

Names (k = layer, 0-based; G = 4H for the LSTM, gate blocks [i | f | g | o] as in PyTorch; G = H for the RNN).
The recurrent weights use ``torch.nn.LSTM`` / ``torch.nn.RNN``'s names and layouts under the prefix ``rnn.``:

    rnn.weight_ih_l{k}  (G, I_k)   = Wx.T     (I_k: I for layer 0, H above; I + H with skip connections)
    rnn.weight_hh_l{k}  (G, H)     = Wh.T
    rnn.bias_ih_l{k}    (G,)       = b
    rnn.bias_hh_l{k}    (G,)       = 0        (PyTorch adds the two biases; lnrnn has one)

A bidirectional stack's backward directions export as ``rnn.weight_ih_l{k}_reverse`` etc. (their lnrnn names
are ``l{k}_reverse.*``), the names of ``nn.LSTM(..., bidirectional=True)``; layer k > 0 reads 2H inputs.

so that for plain LSTM/RNN cells without skip connections the ``rnn.*`` tensors load into
``nn.LSTM(I, H, num_layers=L)`` (``nn.RNN(..., nonlinearity='tanh')``) with ``load_state_dict(strict=True)``
after the prefix is stripped, and the head into ``nn.Linear(H_out, O)``:

    head.weight  (O, H_out)  = W.T    (H_out: H, or L*H with skip connections: [h_0 | ... | h_{L-1}])
    head.bias    (O,)        = b

The normalization parameters of LN/BN cells (``lnrnn/model/cells.py``, README "Conventions") keep lnrnn's
meaning under descriptive names:

    rnn.norm_ih_weight_l{k}, rnn.norm_ih_bias_l{k}      (G,)  gx, bx: gain and bias of the norm of x Wx
    rnn.norm_hh_weight_l{k}, rnn.norm_hh_bias_l{k}      (G,)  gh, bh: of h Wh
    rnn.norm_cell_weight_l{k}, rnn.norm_cell_bias_l{k}  (H,)  gc, bc: of the cell c (LSTM)
    rnn.norm_weight_l{k}                                (H,)  g: the LN-RNN's one joint norm
    rnn.norm_{ih,hh,cell}_running_mean_l{k}, ..._running_var_l{k}  (Ts, width)  BN population statistics per step

A mixture density head (strokes) exports ``head.weight``/``head.bias`` too (6M + 1 outputs in the layout of
``lnrnn.kernels.mdn``); its ``scale`` is in the metadata's model config.

The synthesis network (``lnrnn.model.window``; the config's ``window`` K and ``alphabet_size`` C) exports
its window under lnrnn's meaning (p_t = h1_t Wp + bp = [a_hat | b_hat | k_hat]):

    rnn.window_weight_l0  (3K, H)  = Wp.T
    rnn.window_bias_l0    (3K,)    = bp

and its layers read wider inputs: layer 0's weight_ih is (G, I + C) over [x_t | w_{t-1}], layer k > 0's
(G, I + H + C) over [x_t | h(k-1)_t | w_t]; the alphabet is in the run's checkpoint (meta "text"). No
PyTorch module has this stack: the names are for reading the weights, not for ``nn.LSTM``.
"""
import json
import math
import struct

import numpy as np

from lnrnn.errors import UserError, whole_number

FORMATS = ("safetensors",)
DTYPES = {np.dtype("float32"): "F32", np.dtype("float64"): "F64", np.dtype("int64"): "I64",
          np.dtype("int32"): "I32", np.dtype("uint8"): "U8", np.dtype("float16"): "F16"}
NUMPY_DTYPES = {v: k for k, v in DTYPES.items()}

# lnrnn's parameter and buffer names of one layer -> (exported name stem, transpose)
PARAM_NAMES = {
    "Wx": ("weight_ih", True), "Wh": ("weight_hh", True), "b": ("bias_ih", False),
    "gx": ("norm_ih_weight", False), "bx": ("norm_ih_bias", False),
    "gh": ("norm_hh_weight", False), "bh": ("norm_hh_bias", False),
    "gc": ("norm_cell_weight", False), "bc": ("norm_cell_bias", False), "g": ("norm_weight", False),
    "rmx": ("norm_ih_running_mean", False), "rvx": ("norm_ih_running_var", False),
    "rmh": ("norm_hh_running_mean", False), "rvh": ("norm_hh_running_var", False),
    "rmc": ("norm_cell_running_mean", False), "rvc": ("norm_cell_running_var", False),
    "Wp": ("window_weight", True), "bp": ("window_bias", False),
}


def exported_tensors(model):
    """{exported name: array} of a SequenceModel (see the module docstring), C-contiguous."""
    out = {}
    for key, arr in {**model.params, **model.buffers}.items():
        part, _, rest = key.partition(".")
        if part == "head":
            out["head.weight" if rest == "W" else "head.bias"] = arr.T if rest == "W" else arr
            continue
        layer, _, name = rest.partition(".")                 # 'l0', 'Wx'
        if name not in PARAM_NAMES:
            raise ValueError(f"no exported name for parameter {key}")
        stem, transpose = PARAM_NAMES[name]
        out[f"rnn.{stem}_{layer}"] = arr.T if transpose else arr
        if name == "b":
            out[f"rnn.bias_hh_{layer}"] = np.zeros_like(arr)
    return {k: np.ascontiguousarray(v) for k, v in out.items()}


def write_safetensors(path, tensors, metadata=None):
    """Write {name: ndarray} (and string metadata) to ``path`` in the safetensors layout, atomically (missing
    folders above it are created; ``lnrnn.files.write_output_file``)."""
    from lnrnn.files import write_output_file

    header, offset, blobs = {}, 0, []
    for name in sorted(tensors):
        a = np.asarray(tensors[name])
        if a.dtype not in DTYPES:
            raise ValueError(f"{name}: dtype {a.dtype} has no safetensors code here")
        data = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": DTYPES[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data start 8-byte aligned

    def write(f):
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
    write_output_file(path, write)


def read_safetensors(path):
    """-> ({name: ndarray}, metadata dict) of a safetensors file; ValueError when it is malformed."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path} is too short for a safetensors file")
    (n,) = struct.unpack("<Q", raw[:8])
    if 8 + n > len(raw):
        raise ValueError(f"{path}: header length {n} runs past the end of the file")
    header = json.loads(raw[8:8 + n].decode("utf-8"))  # not JSON, not UTF-8: ValueError
    if not isinstance(header, dict):
        raise ValueError(f"{path}: the header is not a JSON object")
    data = memoryview(raw)[8 + n:]
    meta = header.pop("__metadata__", {}) or {}
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: __metadata__ is not a JSON object")
    tensors, spans = {}, []
    for name, info in header.items():
        b, e, shape = _entry(path, name, info)
        dtype = NUMPY_DTYPES[info["dtype"]].newbyteorder("<")
        if e - b != math.prod(shape) * dtype.itemsize or e > len(data):  # Python ints: no wrap-around
            raise ValueError(f"{path}: {name} has offsets {b}..{e} that do not fit shape {shape} {dtype}")
        tensors[name] = np.frombuffer(data[b:e], dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))
        spans.append((b, e))
    spans.sort()
    if [s for s in spans if s[0] != s[1]] and (spans[0][0] != 0 or spans[-1][1] != len(data)
                                              or any(a[1] != b[0] for a, b in zip(spans, spans[1:]))):
        raise ValueError(f"{path}: the tensors do not cover the data buffer back to back")
    return tensors, meta


def _entry(path, name, info):
    """(begin, end, shape) of one tensor's header entry, checked: ValueError for a dtype lnrnn does not read (a
    file of BF16 weights, say) or an entry that is not {"dtype", "shape": [n >= 0, ...], "data_offsets":
    [begin, end]} of whole numbers with 0 <= begin <= end."""
    if not isinstance(info, dict):
        raise ValueError(f"{path}: tensor {name!r} has no dtype, shape and data_offsets")
    if info.get("dtype") not in NUMPY_DTYPES:
        raise ValueError(f"{path}: tensor {name!r} has dtype {info.get('dtype')!r}; lnrnn reads "
                         f"{', '.join(sorted(NUMPY_DTYPES))}")
    shape, offsets = info.get("shape"), info.get("data_offsets")
    whole = lambda v: whole_number(v) and v >= 0  # noqa: E731
    if not (isinstance(shape, list) and all(whole(s) for s in shape)):
        raise ValueError(f"{path}: tensor {name!r} has shape {shape!r}, not a list of sizes")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(whole(v) for v in offsets)
            and offsets[0] <= offsets[1]):
        raise ValueError(f"{path}: tensor {name!r} has data_offsets {offsets!r}, not [begin, end] with "
                         "0 <= begin <= end")
    return offsets[0], offsets[1], tuple(shape)


# the dtypes an exported model config may say (its cells and norms: lnrnn.model.cells.KINDS and NORMS; a norm of
# null is the bindings' None, no norm)
FLOATS = ("float32", "float64")
BUILT_FROM = ("cell", "norm", "dtype", "input_size", "hidden_size", "num_layers")


def exported_config(path, meta, tensors, complete=True):
    """The model config an ``lnrnn export`` file carries (its metadata's model_config), checked against the
    file's tensors before anything is built from it; None where the file carries none (weights saved from a
    ``torch.nn.LSTM``, say). ValueError naming the file for a config that is not a JSON object, a field that is
    not one lnrnn writes (cell, norm, dtype, whole sizes of at least 1, a finite forget_bias for an LSTM,
    true/false skip and bidirectional), sizes that disagree with the shapes of rnn.weight_ih_l0 and
    rnn.weight_hh_l{k} (a damaged size would otherwise build a model of terabytes), a head of one tensor without
    the other or of the wrong width, and a tensor of another dtype or with NaN or infinite values.

    complete: the fields a stack is built from (``BUILT_FROM``) must be there, as lnrnn.torch builds one; lnrnn.jax
    builds nothing from the config and checks the fields the file has. A synthesis network's config (``window``)
    is checked field by field only: its layers read wider inputs than input_size and no binding builds it."""
    from lnrnn.errors import SHOWN
    from lnrnn.model.cells import KINDS, NORMS
    from lnrnn.sample import shortened

    if "model_config" not in meta:
        return None

    def refuse(what):
        raise ValueError(f"{path} is damaged: {what}; export the run again.")

    try:
        config = json.loads(meta["model_config"])
    except ValueError:
        config = None
    if not isinstance(config, dict):
        refuse("its model_config is not a JSON object")
    for key in BUILT_FROM:
        if key not in config and complete:
            refuse(f"the model config's {key} is missing; lnrnn.torch builds the stack from it")
    said = lambda key: shortened(config[key], SHOWN)  # noqa: E731
    for key, allowed in (("cell", KINDS), ("norm", NORMS + (None,)), ("dtype", FLOATS)):
        if key in config and not any(config[key] == a for a in allowed):
            refuse(f"the model config's {key} is {said(key)}, not one of {', '.join(a for a in allowed if a)}")
    for key in ("input_size", "hidden_size", "num_layers"):
        v = config.get(key)
        if key in config and not (whole_number(v) and v >= 1):
            refuse(f"the model config's {key} is {said(key)}, not a whole number of at least 1")
    fb = config.get("forget_bias")
    if config.get("cell") == "lstm" and "forget_bias" not in config and complete:
        refuse("the model config's forget_bias is missing; an LSTM stack is built with it")
    if "forget_bias" in config and (isinstance(fb, bool) or not isinstance(fb, (int, float)) or not math.isfinite(fb)):
        refuse(f"the model config's forget_bias is {said('forget_bias')}, not a finite number")
    for key in ("skip", "bidirectional"):
        if key in config and not isinstance(config[key], bool):
            refuse(f"the model config's {key} is {said(key)}, not true or false")
    if ("head.weight" in tensors) != ("head.bias" in tensors):
        refuse("it holds one of head.weight and head.bias without the other")
    if not config.get("window"):
        _check_sizes(config, tensors, refuse)
    for name, a in tensors.items():
        if "dtype" in config and a.dtype != np.dtype(config["dtype"]):
            refuse(f"{name} is {a.dtype}, but the model config says {config['dtype']}")
        if not np.all(np.isfinite(a)):
            refuse(f"{name} holds NaN or infinite values")
    return config


def _check_sizes(config, tensors, refuse):
    """The sizes a (checked) config gives, against the shapes of the tensors: the layers counted from
    rnn.weight_hh_l0 upwards, layer 0's two weights, the head's width; each where the config names them."""
    I, H, L = config.get("input_size"), config.get("hidden_size"), config.get("num_layers")
    if L is not None:
        layers = 0                              # l0, l1, ... up to the first missing
        while f"rnn.weight_hh_l{layers}" in tensors:
            layers += 1
        if layers != L:
            refuse(f"its model config says num_layers {L}, but the file holds {layers} rnn.weight_hh_l{{k}} "
                   "tensors")
    if H is None or "cell" not in config:
        return
    G = 4 * H if config["cell"] == "lstm" else H
    wanted = {"rnn.weight_hh_l0": (G, H)}
    if I is not None:
        wanted["rnn.weight_ih_l0"] = (G, I)
    for name, shape in wanted.items():
        if name not in tensors or tensors[name].shape != shape:
            has = "no such tensor" if name not in tensors else f"shape {tensors[name].shape}"
            refuse(f"its model config ({config['cell']}, input {I}, hidden {H}) needs {name} of shape {shape}, "
                   f"the file has {has}")
    if "head.weight" in tensors and (L is not None or not config.get("skip")):
        W, b = tensors["head.weight"], tensors["head.bias"]
        D = 2 if config.get("bidirectional") else 1
        width = D * H * (L if config.get("skip") else 1)
        if W.ndim != 2 or W.shape[1] != width or b.shape != W.shape[:1]:
            refuse(f"its head (head.weight {W.shape}, head.bias {b.shape}) does not read the stack's {width} "
                   f"outputs: it should be (outputs, {width}) and (outputs,)")


SUFFIX = ".safetensors"  # an exported file's name says what it holds


def check_suffix(path, option="--out"):
    """UserError unless ``path`` ends in .safetensors: a weights.pt would hold safetensors bytes that
    torch.load cannot read."""
    import os

    from lnrnn.files import named_suffix

    text = str(path)
    if named_suffix(text, (SUFFIX,), option) is None:
        ext = os.path.splitext(text)[1]
        said = f"ends in {ext}" if ext else "has no suffix"
        raise UserError(f"{option} {text} {said}, but lnrnn export writes safetensors (read it with "
                        f"safetensors.torch.load_file, not torch.load): name it "
                        f"{os.path.splitext(text)[0] if ext else text}{SUFFIX}.")
    return text


def export_weights(run, path, fmt="safetensors", option="path"):
    """Write a loaded run's weights to ``path``; -> {name: shape} of what was written. ``option``: what a
    refusal of ``path`` calls it (lnrnn export's checks name --out before they get here)."""
    from lnrnn.files import check_output_file
    from lnrnn.version import __version__

    if fmt not in FORMATS:
        raise UserError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    check_output_file(path, option)  # first: a folder is named as one, not as a name without a suffix
    check_suffix(path, option)
    tensors = exported_tensors(run.model)
    meta = {"format": "lnrnn-export", "lnrnn_version": __version__, "gate_order": "i,f,g,o",
            "model_config": json.dumps(run.model.config, sort_keys=True),
            "step": run.step, "pytorch_compatible": str(pytorch_compatible(run.model.config)).lower()}
    write_safetensors(str(path), tensors, meta)
    return {k: v.shape for k, v in tensors.items()}


def pytorch_compatible(config):
    """True when the rnn.* tensors load into torch.nn.LSTM / nn.RNN as they are: plain cells, no skip."""
    return config["norm"] == "none" and not config.get("skip", False)
