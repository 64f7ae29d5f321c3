"""Planted bugs in bidirectional stacks: the reversal (lnrnn/model/functional.py), the stack's two
directions (lnrnn/model/layers.py), what the heads read (lnrnn/model/models.py) and the run's checks
(lnrnn/training/plan.py) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'bidir-*'
"""

T = "tests/model/test_layers_models_bidirectional.py"
REV = f"{T}::test_reverse_valid_reverses_each_rows_valid_steps_and_is_its_own_inverse"
EQ = f"{T}::test_bidirectional_stack_equals_two_directions_run_by_hand"
GRAD = f"{T}::test_gradients_of_every_parameter_the_input_and_the_states"
HEADS = f"{T}::test_model_gradients_through_the_heads"
LAST = f"{T}::test_last_step_head_reads_forward_at_the_last_step_and_backward_at_the_first"
RUN = f"{T}::test_train_resume_and_eval_a_bidirectional_run"
REFUSE = f"{T}::test_train_refuses_bidirectional_with_tbptt_window_and_next_point_prediction"

MUTANTS = [
    dict(name="bidir-reverse-whole-rows", file="lnrnn/model/functional.py",
         old="    idx = np.where(t < L, L - 1 - t, t)",
         new="    idx = np.broadcast_to(T - 1 - t, (T, B))",
         tests=[REV, EQ],
         why="every row reversed over all T steps, its padding first: the backward direction reads padding"),
    dict(name="bidir-output-not-reversed-back", file="lnrnn/model/layers.py",
         old="            h = kn.join_columns([hf, rev(hb)])                                 # (T,B,2H)",
         new="            h = kn.join_columns([hf, hb])                                 # (T,B,2H)",
         tests=[EQ],
         why="the backward direction's outputs left in reversed time: step t pairs with step L_b-1-t"),
    dict(name="bidir-dy-not-reversed", file="lnrnn/model/layers.py",
         old="            db, dsb = bwd.backward(rev(kn.take_columns(dyk, H, W)), on_device=dev)",
         new="            db, dsb = bwd.backward(kn.take_columns(dyk, H, W), on_device=dev)",
         tests=[GRAD],
         why="dL/dy of the backward direction handed to it in the input's time order"),
    dict(name="bidir-dx-not-reversed", file="lnrnn/model/layers.py",
         old="            d_in = _add(df, rev(db), dev)                                       # dL/d(layer k's input)",
         new="            d_in = _add(df, db, dev)                                       # dL/d(layer k's input)",
         tests=[GRAD],
         why="the backward direction's dL/dx added in reversed time"),
    dict(name="bidir-state-gradients-swapped", file="lnrnn/model/layers.py",
         old="            dstate += [dsb, dsf]",
         new="            dstate += [dsf, dsb]",
         tests=[GRAD],
         why="dstate0 lists the backward direction's initial-state gradient where the forward's belongs"),
    dict(name="bidir-last-head-reads-the-last-step", file="lnrnn/model/models.py",
         old="            return np.where(self.reverse_columns, y[0], y[idx, np.arange(B)]), valid, idx",
         new="            return y[idx, np.arange(B)], valid, idx",
         tests=[LAST, HEADS],
         why="a last-step head reads the backward direction at the row's last step, after one step of it"),
    dict(name="bidir-scatter-to-the-last-step", file="lnrnn/model/models.py",
         old="            dy[0] += np.where(rev, dh, 0)",
         new="            dy[where, rows] += np.where(rev, dh, 0)",
         tests=[HEADS],
         why="the head's gradient for the backward columns goes to the last step, not step 0 they were read at"),
    dict(name="bidir-inference-in-chunks", file="lnrnn/model/models.py",
         old="        chunk = max(T, 1) if self.reverse_columns is not None else infer_chunk_steps(x.shape[1], T)",
         new="        chunk = infer_chunk_steps(x.shape[1], T)",
         tests=[LAST],
         why="inference in time chunks from a carried state, which a backward direction cannot run"),
    dict(name="bidir-tbptt-let-through", file="lnrnn/training/plan.py",
         old="    checks.append((not (cfg.bidirectional and cfg.tbptt),",
         new="    checks.append((True,",
         tests=[REFUSE],
         why="--bidirectional --tbptt reaches the model, whose refusal is a traceback, not one line"),
    dict(name="bidir-mdn-let-through", file="lnrnn/training/plan.py",
         old='        if config["head"].get("kind") == "mdn":',
         new='        if config["head"].get("kind") == "none":',
         tests=[REFUSE],
         why="next-point prediction trained with a backward direction that has read the next point"),
    dict(name="bidir-not-in-model-config", file="lnrnn/model/models.py",
         old='        for k in ("skip", "bidirectional"):',
         new='        for k in ("skip",):',
         tests=[RUN],
         why="the checkpoint's model config forgets the backward directions: eval and resume rebuild another model"),
    dict(name="bidir-predict-reads-the-last-step", file="lnrnn/api.py",
         old="                out[s:e] = head.linear(model._select(y, T, L[s:e], 0)[0]).astype(np.float64)  # each row's last",
         new="                out[s:e] = head.linear(y[L[s:e] - 1, np.arange(e - s)]).astype(np.float64)  # each row's last",
         tests=[RUN],
         why="lnrnn.predict reads every column at the row's last step, not the backward ones at step 0"),
]
