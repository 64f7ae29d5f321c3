"""Planted bugs in the synthesis network's model (lnrnn/model/window.py), the text of its batches and the
--window setting (format: tests/mutants/mutants.py)."""

SYN = "tests/model/test_synthesis.py"
GRAD = f"{SYN}::test_whole_model_gradients_equal_central_differences"

MUTANTS = [
    dict(name="syn-upper-layers-drop-dw", file="lnrnn/model/window.py",
         old="            dw = k.take_columns(d_in, I + H, I + H + self.C, dw)",
         new="            dw = None",
         tests=[GRAD],
         why="the layers above read w_t, but their gradient never reaches the window"),
    dict(name="syn-upper-layers-read-no-window", file="lnrnn/model/window.py",
         old="            h, s = layer.forward(k.join_columns([x, h, w]), st(j), training, on_device=True, lengths=lengths,",
         new="            h, s = layer.forward(k.join_columns([x, h, 0 * w]), st(j), training, on_device=True, lengths=lengths,",
         tests=[GRAD],
         why="layers above layer 1 no longer see the window vector (Graves's wiring broken)"),
    dict(name="syn-dh-from-above-skips-layer-1", file="lnrnn/model/window.py",
         old="        d1, ds = self.layers[0].backward_text(k.take_columns(dy, 0, H, dh_above), dw, on_device=True)",
         new="        d1, ds = self.layers[0].backward_text(k.take_columns(dy, 0, H), dw, on_device=True)",
         tests=[GRAD],
         why="layer 2's gradient with respect to h1 is dropped"),
    dict(name="syn-masked-final-state-takes-step-T", file="lnrnn/model/window.py",
         old="        if lengths is not None:\n            out = self._masked_final(out, y, w, saved, state, lengths)",
         new="        if False:\n            out = self._masked_final(out, y, w, saved, state, lengths)",
         tests=[f"{SYN}::test_masked_final_state_is_each_rows_last_step"],
         why="a row that ended early hands on the state of padded steps"),
    dict(name="syn-text-batch-pads-with-its-own-codes", file="lnrnn/data/strokes.py",
         old="        ulen = np.array([len(t) for t in texts], np.int64)                  # (B,)",
         new="        ulen = np.full(len(texts), max(len(t) for t in texts), np.int64)",
         tests=[f"{SYN}::test_text_batches_carry_each_lines_own_length"],
         why="every row reads the longest text's length: padding codes become characters"),
    dict(name="syn-window-default-off", file="lnrnn/training/plan.py",
         old="    K = (WINDOW_DEFAULT if has_text and cfg.head != \"ctc\" else 0) if cfg.window is None else int(cfg.window)",
         new="    K = 0 if cfg.window is None else int(cfg.window)",
         tests=[f"{SYN}::test_train_writes_a_text_task_with_the_window_and_eval_reproduces"],
         why="a text task trains the unconditional model unless --window is given"),
    dict(name="syn-evaluation-forgets-the-text", file="lnrnn/training/evaluation.py",
         old="    return out + (task.text_batch(which, idx),) if text else out",
         new="    return out",
         tests=[f"{SYN}::test_train_writes_a_text_task_with_the_window_and_eval_reproduces"],
         why="batches of a synthesis run come without their texts"),
    dict(name="syn-stop-rule-past-end-position", file="lnrnn/model/window.py",
         old="        u = (np.asarray(ulen, np.float64) + 1.0)[:, None]",
         new="        u = np.asarray(ulen, np.float64)[:, None]",
         tests=[f"{SYN}::test_step_end_is_phi_just_past_the_text"],
         why="the stop rule reads phi at the last character instead of just past it"),
]

# the LSTM's wide-input backward in blocks of gathered rows (what the synthesis network's upper layers run)
MUTANTS += [
    dict(name="syn-lstm-x-block-flush-only-when-full", file="lnrnn/kernels/lstm.py",
         old="        if not fold and (nkx == nbx or nk == nb or t == 0):",
         new="        if not fold and (nkx == nbx or t == 0):",
         tests=["tests/kernels/test_kernels.py::test_lstm_wide_input_gradients_in_blocks_of_few_rows"],
         why="an x block that reaches the end of a dWh block is not flushed: its rows are overwritten"),
    dict(name="syn-lstm-dx-rows-in-step-order", file="lnrnn/kernels/lstm.py",
         old="                copy_rows(dx[t + nkx - 1 - k, lo:hi], Xb[k * Bc:(k + 1) * Bc])",
         new="                copy_rows(dx[t + k, lo:hi], Xb[k * Bc:(k + 1) * Bc])",
         tests=["tests/kernels/test_kernels.py::test_lstm_wide_input_gradients_in_blocks_of_few_rows"],
         why="a block's dx rows go back to the steps in the wrong order (the block is gathered backwards in time)"),
]
