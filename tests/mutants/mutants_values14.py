"""Planted bugs in the bindings, the synthesis stack and sampler, the checkpoints, the prediction files and
the resumed schedule (format: tests/mutants/mutants.py): the torch binding's unbatched initial states of a
two-layer stack, dropout on the skip path and mixed dtypes; the synthesis stack's dL/dx through the layers
above the window; the sampler's codes past the alphabet, the prime's last point read twice, a written
line's text and the space between the prime's text and a line's; a checkpoint of another version, another
model's settings named in the refusal, an arrays file holding more than its description lists; a uint8 .npy
of a non-MNIST task, the CSV's significant digits; the decay named in a schedule change. Each is a
single-line slip of a kind that happens: an option not passed down one path, a bound one off, the wrong
axis, a forgotten case, a check that lets bad input through.

14 mutants, each caught by the new value tests: an unbatched two-layer stack against a batch of one,
the skip path's dropped-out h against the layer run on [x | 0], mixed dtypes refused by name
(test_values14_torch); the synthesis stack's dL/dx against central differences (test_values14_window); a
code past the alphabet, a one-point prime against the unprimed line started there, a primed line's text,
the prime's separator (test_values14_sample); versions, extra arrays, the mismatch's keys
(test_values14_checkpoint); the uint8 scale and the CSV's digits (test_values14_predict_io); the change
line's decay (test_values14_finetune). No mutant was dropped as equivalent.

    python tests/mutants/run.py --only 'v14-*'
"""

TORCH = "tests/interop/test_torch.py"
TORCH_BIDIR = "tests/interop/test_torch_bidirectional.py"
TORCH_CELL = "tests/interop/test_torch_cell.py"
TORCH_V = "tests/interop/test_values_torch.py"
SYN = "tests/model/test_synthesis.py"
WINDOW_V = "tests/model/test_values_window.py"
WINDOW10 = "tests/model/test_values10_window.py"
SAMPLE = "tests/commands/test_sample.py"
SAMPLE_TEXT = "tests/commands/test_sample_text.py"
SAMPLER_RULE = "tests/commands/test_values_sampler_rule.py"
SAMPLING_V = "tests/commands/test_values_sampling.py"
SAMPLE10 = "tests/commands/test_values10_sample.py"
SAMPLE12 = "tests/commands/test_values12_sample.py"
CKPT = "tests/training/test_checkpoint.py"
CKPT_BEST = "tests/training/test_checkpoints_best.py"

TORCHPY = "lnrnn/interop/torch.py"
WINDOWPY = "lnrnn/model/window.py"
SAMPLEPY = "lnrnn/sample.py"
CKPTPY = "lnrnn/training/checkpoint.py"
PIOPY = "lnrnn/predict_io.py"
FINETUNEPY = "lnrnn/training/finetune.py"

# value tests written for the bugs below
TORCH_T = "tests/interop/test_values14_torch.py"
WINDOW_T = "tests/model/test_values14_window.py"
SAMPLE_T = "tests/commands/test_values14_sample.py"
CKPT_T = "tests/training/test_values14_checkpoint.py"
PIO_T = "tests/test_values14_predict_io.py"
FINETUNE_T = "tests/training/test_values14_finetune.py"

T_TESTS = [TORCH, TORCH_BIDIR, TORCH_CELL, TORCH_V, TORCH_T]
W_TESTS = [SYN, WINDOW_V, WINDOW10, WINDOW_T]
S_TESTS = [SAMPLE, SAMPLE_TEXT, SAMPLER_RULE, SAMPLING_V, SAMPLE10, SAMPLE12, SAMPLE_T]
C_TESTS = [CKPT, CKPT_BEST, CKPT_T]
P_TESTS = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py", "tests/commands/test_values_eval_predict.py",
           PIO_T]
F_TESTS = ["tests/training/test_finetune.py", "tests/training/test_values_finetune.py", FINETUNE_T]

MUTANTS = [
    # ---- interop/torch.py ----
    dict(name="v14-torch-unbatched-hx-batch-axis-first", file=TORCHPY,
         old="tuple(s.unsqueeze(1) for s in ((hx,) if isinstance(hx, Tensor) else hx))",
         new="tuple(s.unsqueeze(0) for s in ((hx,) if isinstance(hx, Tensor) else hx))",
         tests=T_TESTS,
         why="an unbatched (L,H) hx gets its batch axis in front: right for one layer, refused or misread for two"),
    dict(name="v14-torch-skip-input-without-dropout", file=TORCHPY,
         old="inp = torch.cat([x, inp], dim=2)",
         new="inp = torch.cat([x, y], dim=2)",
         tests=T_TESTS,
         why="with skip connections the layer above reads h_{k-1} before dropout: dropout=p changes nothing"),
    dict(name="v14-torch-mixed-dtypes-let-through", file=TORCHPY,
         old="    if len(dtypes) > 1:",
         new="    if len(dtypes) > 2:",
         tests=T_TESTS,
         why="a float32 input to a float64 module is not refused with the sentence that says what to pass"),
    # ---- model/window.py ----
    dict(name="v14-window-dx-from-upper-layers-dropped", file=WINDOWPY,
         old="dx = d1 if dx is None else k.take_columns(d1, 0, I, dx)",
         new="dx = d1 if dx is None else k.take_columns(d1, 0, I)",
         tests=W_TESTS,
         why="dL/dx keeps layer 1's part only: the upper layers read x too"),
    # ---- sample.py ----
    dict(name="v14-sample-code-c-allowed", file=SAMPLEPY,
         old="c.min() < 0 or c.max() >= C:",
         new="c.min() < 0 or c.max() > C:",
         tests=S_TESTS,
         why="a code one past the alphabet passes the sampler's check (the window refuses it later, not by name)"),
    dict(name="v14-sample-prime-last-point-read-twice", file=SAMPLEPY,
         old="for t in range(len(pre_pts) - 1):",
         new="for t in range(len(pre_pts)):",
         tests=S_TESTS,
         why="priming steps over every prime point and then over the last again as the first written step's input"),
    dict(name="v14-sample-written-text-holds-the-prime", file=SAMPLEPY,
         old="join(show(lines[b]))",
         new="join(show(full[b]))",
         tests=S_TESTS,
         why="Written.text of a primed line starts with the prime's text (the caption shows it)"),
    dict(name="v14-sample-prime-separator-always-space", file=SAMPLEPY,
         old='sep = " " if " " in alphabet else ""',
         new='sep = " "',
         tests=S_TESTS,
         why="an alphabet without a space gets code 0 (unknown) between the prime's text and the line"),
    # ---- training/checkpoint.py ----
    dict(name="v14-ckpt-older-version-read", file=CKPTPY,
         old='if meta.get("version") != VERSION:',
         new='if meta.get("version", 0) > VERSION:',
         tests=C_TESTS,
         why="a description of an older format version (or none) is read as today's"),
    dict(name="v14-ckpt-mismatch-names-saved-keys-only", file=CKPTPY,
         old="for k in sorted(set(saved) | set(expected))",
         new="for k in sorted(set(saved))",
         tests=C_TESTS,
         why="another model's refusal does not name a setting the checkpoint lacks but the request has"),
    dict(name="v14-ckpt-extra-arrays-accepted", file=CKPTPY,
         old="if set(arrays) != set(listing):",
         new="if not set(listing) <= set(arrays):",
         tests=C_TESTS,
         why="an arrays file holding arrays its description does not list is loaded"),
    # ---- predict_io.py ----
    dict(name="v14-pio-uint8-npy-scaled-for-every-task", file=PIOPY,
         old="x = x.astype(np.float32) * np.float32(_task_scale(task))",
         new="x = x.astype(np.float32) * np.float32(1.0 / 255.0)",
         tests=P_TESTS,
         why="a uint8 .npy of sequences of a task other than MNIST's is divided by 255"),
    dict(name="v14-pio-csv-fixed-point", file=PIOPY,
         old='f"{v:.6g}"',
         new='f"{v:.6f}"',
         tests=P_TESTS,
         why="the CSV writes six decimals, not six significant digits: small values lose their digits"),
    # ---- training/finetune.py ----
    dict(name="v14-finetune-decay-change-said-on-lr-change", file=FINETUNEPY,
         old="    if da != db:",
         new="    if a != b:",
         tests=F_TESTS,
         why="a resume that changes only --lr-decay says nothing of the decay (and one that changes --lr names an unchanged decay)"),
]
