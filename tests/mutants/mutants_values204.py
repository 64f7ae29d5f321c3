"""Planted bugs, round 204 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates in the cell registry, the functional API and the synthesis window model: a parameter's width read from
the other kind ('G' for 'H'), the orthogonal blocks drawn as the QR of uniform instead of Gaussian matrices,
lookup's unknown-cell refusal listing the norms, the LN cells taken to save a mode flag, the recurrent_init
refusal naming the bad value unquoted; layer_forward's kernels told keep instead of keeps() (an LSTM's inference
forward with lengths keeps no c sequence), dL/dh_n of the empty rows added into every row's dh0, full rows
taken to end at step T - 1 (dL/dc_n refused), the BN-LSTM's tanh(c) declared G wide in residual_layout, the
clip_gates refusal no longer saying 0 is off; the window stack taking K for the alphabet, a masked forward's
final kappa and w read from each other's sequences, the window layer's refusal naming the cell kind instead of
the cell, the window's Wp drawn without its 0.01.

14 mutants. Against the existing targeted tests alone 10 were measured: 7 caught and 3 missed (the full lists for
the first six; for the next three the two most direct functional files, test_values169_functional and
test_values108_layouts, the full lists running over 200 s a mutant): missed the unquoted recurrent_init (no old
test passes a bad one), dL/dc_n of full rows refused without lengths (the old tests pass lengths) and the BN-LSTM's
tanh(c) layout (no old test holds a BN-LSTM's layout against its residuals). The last five (the clip refusal and
the four window mutants) were not measured against the old tests, for time. The new value tests catch every mutant
on their own (checked with the old tests taken off the lists): test_values204_cells (every row's initial parameters
against the draws replayed here from the same seed: Glorot-uniform Wx, each Wh block the QR of a Gaussian matrix
signed by diag(R) and orthogonal, b zero but the forget block at forget_bias and the normalized cells' candidate
bias, gains and biases at their values and widths; float32 and identity blocks; names, shapes, buffers and the mode
flag by hand; the refusals word for word), test_values204_functional (residual_layout against what layer_forward
returns for the LSTM, LN-RNN and BN-LSTM; an LN-RNN's backward through its residuals, dL/dh_n with an empty row and
dL/dc_n of full rows without lengths against central differences; an LSTM's inference forward with lengths against
the reference row by row; the gate-clip refusals word for word), test_values204_window_model (a two-layer stack
against the reference's window LSTM under its LSTM fed [x | h | w] for texts of 0, 1 and U characters, and against
central differences with K != C; two chunks carrying (h, c, kappa, w) against one forward; each row's final state
under lengths, with and without keep, against the reference over its own steps; the window's initial Wp and bp
replayed from the seed; the refusals word for word). The three files run in about 9 s on one core. Dropped as
equivalent: state_names cut at blocks instead of nstate (("h0", "c0")[:4] is both names); _buffer_rows' T <= Ts as
T < Ts (at T == Ts the rows stat_rows picks are all of them, in order); forward handing every cell the lengths
instead of the BN cells only (the other adapters ignore them); the zero-length rows' dh0 assigned instead of added
(their dy is masked, so the kernel's dh0 there is zero).

    python tests/mutants/run.py --only 'v204-*'
"""
CELLS = "lnrnn/model/cells.py"
FUNC = "lnrnn/model/functional.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules
CELLS_OLD = ["tests/model/test_values169_cells.py", "tests/model/test_values13_cells.py",
             "tests/model/test_values67_cells.py", "tests/model/test_values88_cells.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values169_functional.py",
            "tests/model/test_values148_functional.py", "tests/model/test_values108_layouts.py"]
WINDOW_OLD = ["tests/model/test_values120_window_model.py", "tests/model/test_values162_window_model.py",
              "tests/model/test_values133_window_model.py", "tests/model/test_values52_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/model/test_values204_cells.py"]
FUNC_NEW = ["tests/model/test_values204_functional.py"]
WINDOW_NEW = ["tests/model/test_values204_window_model.py"]

MUTANTS = [
    # ---- the cell registry: initial parameters, widths, refusals ----
    dict(name="v204-width-kinds-swapped", file=CELLS,
         old='        return self.blocks * H if kind == "G" else H',
         new='        return self.blocks * H if kind == "H" else H',
         tests=CELLS_NEW + CELLS_OLD,
         why="a parameter of kind 'G' gets H entries and one of kind 'H' gets G: the LN-LSTM's gx is (H,), gc (4H,)"),
    dict(name="v204-orthogonal-from-uniform-draws", file=CELLS,
         old="        q, r = np.linalg.qr(rng.standard_normal((n, n)))",
         new="        q, r = np.linalg.qr(rng.uniform(-1.0, 1.0, (n, n)))",
         tests=CELLS_NEW + CELLS_OLD,
         why="the orthogonal blocks come from the QR of uniform draws: still orthogonal, but not the Gaussian "
             "(Haar) matrices the docstring and the interop's parameter draws promise"),
    dict(name="v204-lookup-cell-refusal-lists-norms", file=CELLS,
         old="""        raise ValueError(f"unknown cell {cell!r}; expected one of {', '.join(KINDS)}")""",
         new="""        raise ValueError(f"unknown cell {cell!r}; expected one of {', '.join(NORMS)}")""",
         tests=CELLS_NEW + CELLS_OLD,
         why="an unknown cell kind is refused with the list of norms"),
    dict(name="v204-saved-flag-for-every-norm", file=CELLS,
         old='        return self.norm == "bn"',
         new='        return self.norm != "none"',
         tests=CELLS_NEW + FUNC_NEW + CELLS_OLD + FUNC_OLD,
         why="the LN cells' saved tuples are taken to end with a mode flag: their residuals lose rstd and the "
             "backward reads a bool for it"),
    dict(name="v204-recurrent-init-refusal-unquoted", file=CELLS,
         old="not {recurrent_init!r}\")",
         new="not {recurrent_init}\")",
         tests=CELLS_NEW + CELLS_OLD,
         why="the recurrent_init refusal names the bad value unquoted: 'not Orthogonal' instead of "
             "\"not 'Orthogonal'\""),
    # ---- the functional API ----
    dict(name="v204-forward-keep-ignores-masked-final", file=FUNC,
         old="                                         keeps(spec, keep, lengths))",
         new="                                         keep)",
         tests=FUNC_NEW + FUNC_OLD,
         why="an LSTM's inference forward with lengths keeps no c sequence: the masked final state has nothing "
             "to read a row's c_n from"),
    dict(name="v204-dh-n-of-empty-rows-added-to-all", file=FUNC,
         old="        dh0[z] += dh_n[z]",
         new="        dh0 += dh_n",
         tests=FUNC_NEW + FUNC_OLD,
         why="dL/dh_n of the rows with no steps (whose h_n is h0) is added into every row's dh0"),
    dict(name="v204-full-rows-last-step-off-by-one", file=FUNC,
         old="        last = np.full(B, T, np.int64) if lengths is None else lengths\n        inner",
         new="        last = np.full(B, T - 1, np.int64) if lengths is None else lengths\n        inner",
         tests=FUNC_NEW + FUNC_OLD,
         why="without lengths every row is taken to end at step T - 1: dL/dc_n of full rows is refused as an "
             "inner row's"),
    dict(name="v204-residual-layout-bn-lstm-tc-gate-wide", file=FUNC,
         old="((T, H), dt), ((T, H), dt), ((T, B, H), dt)]",
         new="((T, H), dt), ((T, H), dt), ((T, B, G), dt)]",
         tests=FUNC_NEW + FUNC_OLD,
         why="the BN-LSTM's saved tanh(c) is declared (T,B,G) in the residual layout: the interop's declared "
             "residuals differ from what layer_forward returns"),
    dict(name="v204-clip-refusal-drops-zero", file=FUNC,
         old='raise ValueError(f"clip_gates must be 0 (off) or positive, got {clip}")',
         new='raise ValueError(f"clip_gates must be positive, got {clip}")',
         tests=FUNC_NEW + FUNC_OLD,
         why="the clip_gates refusal no longer says that 0 turns the bound off"),
    # ---- the synthesis window model ----
    dict(name="v204-stack-alphabet-and-window-swapped", file=WINDOW,
         old="        self.I, self.H, self.C, self.K = L1.I_x, L1.H, L1.C, L1.K",
         new="        self.I, self.H, self.C, self.K = L1.I_x, L1.H, L1.K, L1.C",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the stack takes the window's K for the alphabet: with K != C the upper layers' dL/dw columns are "
             "cut at K, and config's window and alphabet_size are swapped"),
    dict(name="v204-masked-final-kappa-and-w-swapped", file=WINDOW,
         old="(y, c_seq, kappa_seq, w), state, lengths)",
         new="(y, c_seq, w, kappa_seq), state, lengths)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="a masked forward reads each short row's final kappa from the w sequence and its w from kappa's"),
    dict(name="v204-window-refusal-names-cell-kind", file=WINDOW,
         old="(lstm, ln-lstm, bn-lstm), not {self.spec.name}",
         new="(lstm, ln-lstm, bn-lstm), not {self.spec.cell}",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer refuses an LN-RNN naming its kind ('rnn') instead of the cell asked for"),
    dict(name="v204-window-init-std-dropped", file=WINDOW,
         old='self.params["Wp"] = (WINDOW_INIT_STD * rng.standard_normal((H, 3 * K))).astype(self.dtype)',
         new='self.params["Wp"] = (rng.standard_normal((H, 3 * K))).astype(self.dtype)',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window's Wp starts at N(0, 1) instead of 0.01 N(0, 1): the first alpha, beta and kappa steps "
             "swing by e^(+-several)"),
]
