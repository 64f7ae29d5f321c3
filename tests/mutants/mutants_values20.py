"""Planted bugs, round 20 (format: tests/mutants/mutants.py): single-line slips in lines that earlier
catalogues left alone, in data preparation (the glitch fix's pen lift, a reader's step count, the text
batch's width, the stroke-3 files' split, the npz task's lengths check, IAM-OnDB's transcriptions), in the
sampler and its pictures (a prime file of one line, the caption's cut and its limit, the rows' common
scale), in quantities computed outside the kernels that drive a decision or a figure (the word error
rate, predict's softmax, best-path decoding, the judge's replay, the memory estimate, the evaluation
batches, the run's eval rows, the curve's title), on the distributed path (the --reproducible blocks, a
rank without blocks under truncated BPTT) and in the model's update paths (a chunk's lengths and the
rows a last-step head scores, on the device and on the host), and in --keep.

29 mutants. Against the existing tests alone 11 were run (the run of the rest was cut short; each of those was then
run with the new tests first): they caught 5 (the pen lift moved past the dropped point, the stroke-3 file split
after its last line, the CSR: header read as a transcription, the memory estimate's deeper layers, the evaluation
batches without lengths) and missed 6 (a reader's steps one short, a text batch of empty texts with no column,
lengths of shape (N, 1), a prime file of one line refused or cut to its last line's length, --keep 0 making and
emptying RUN/checkpoints/). The new value tests catch every mutant: test_values20_strokes (a reader's steps over
both splits, a text batch without text, a packed file's sequences, (N, 1) lengths refused, a dropped point's pen
lift by hand), test_values20_sample (prime files of one and several lines, shortened and the caption limit by hand,
the rows' common width), test_values20_metrics (word errors over any whitespace, softmax row by row in float64),
test_values20_decode (no step past a row's length), test_values20_judge (the replay of a noisy model sees the
sampler's window), test_values20_plot and test_values20_recorder (the title's limit, an eval row's epoch),
test_values20_distributed (--reproducible with one row, two ranks, a BN rank without blocks under truncated BPTT, on
thread ranks), test_values20_models and test_values20_models_cuda (a last-step head scored once per row under
truncated BPTT on the host, and the device update in chunks with lengths, noise and BatchNorm equal to the CPU),
test_values20_recorder_keep (--keep 0 and 2). No mutant was found equivalent; three mutants written for the plot's
limit, the softmax's dtype and shortened's keep came with the tests and were never run against the old tests alone.

    python tests/mutants/run.py --only 'v20-*'
"""

STROKES = "lnrnn/data/strokes.py"
SFILES = "lnrnn/data/stroke_files.py"
SAMPLE = "lnrnn/sample.py"
MODELS = "lnrnn/model/models.py"
DIST = "lnrnn/training/distributed.py"
RECORDER = "lnrnn/training/recorder.py"

# existing tests of these modules
S_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py", "tests/data/test_values12_strokes.py",
         "tests/data/test_text_strokes.py", "tests/data/test_values_data_counts.py"]
SF_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values10_stroke_files.py",
          "tests/data/test_values_stroke_files.py", "tests/commands/test_values16_commands.py"]
SA_OLD = ["tests/commands/test_values12_sample.py", "tests/training/test_edges.py", "tests/commands/test_sample.py",
          "tests/commands/test_values_sampling.py"]
TM_OLD = ["tests/test_values10_textmetrics.py", "tests/test_values_textmetrics.py"]
PI_OLD = ["tests/test_values_predict_io.py", "tests/test_values14_predict_io.py", "tests/test_values9_predict_io.py",
          "tests/training/test_values_eval.py"]
DEC_OLD = ["tests/model/test_values_decode.py", "tests/model/test_beam.py", "tests/test_values_api_read.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/training/test_values_plot.py", "tests/training/test_values9_plot.py"]
IAM_OLD = ["tests/data/test_values9_iamondb.py","tests/data/test_values15_iamondb.py","tests/data/test_text_strokes.py",
           "tests/data/test_values_iamondb.py"]
REC_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
           "tests/training/test_values_train_schedule.py", "tests/training/test_values_train_policies.py"]
DIST_OLD = ["tests/training/test_values_distributed_options.py", "tests/training/test_values_distributed_options2.py",
            "tests/training/test_values16_distributed.py", "tests/training/test_reproducible_ranks.py"]
JUDGE_OLD = ["tests/test_values12_judge.py", "tests/commands/test_values_judge.py"]
DEV_OLD = ["tests/training/test_device_update.py", "tests/training/test_device_update_more.py",
           "tests/training/test_values_cuda_options.py"]
HOST_OLD = ["tests/model/test_models.py", "tests/model/test_combinations.py", "tests/model/test_values16_models.py"]
MEM_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values10_memory.py"]
ARR_OLD = ["tests/data/test_values10_arrays.py", "tests/data/test_own_data.py", "tests/data/test_values_data_counts.py"]
EVAL_OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values10_evaluation.py",
            "tests/training/test_values15_evaluation.py"]
KEEP_OLD = ["tests/training/test_checkpoints_best.py", "tests/training/test_values19_checkpoint.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
S_NEW = ["tests/data/test_values20_strokes.py"]
SA_NEW = ["tests/commands/test_values20_sample.py"]
MET_NEW = ["tests/test_values20_metrics.py"]
DEC_NEW = ["tests/model/test_values20_decode.py"]
JUDGE_NEW = ["tests/test_values20_judge.py"]
PLOT_NEW = ["tests/training/test_values20_plot.py"]
REC_NEW = ["tests/training/test_values20_recorder.py"]
DIST_NEW = ["tests/training/test_values20_distributed.py"]
DEV_NEW = ["tests/model/test_values20_models_cuda.py"]
HOST_NEW = ["tests/model/test_values20_models.py"]
KEEP_NEW = ["tests/training/test_values20_recorder_keep.py"]

MUTANTS = [
    # ---- data preparation ----
    dict(name="v20-strokes-pen-lift-moved-to-next-kept-point", file=STROKES,
         old='out[np.searchsorted(kept, lifted, side="right") - 1, 2] = 1.0',
         new='out[np.searchsorted(kept, lifted, side="right") % len(kept), 2] = 1.0',
         tests=S_NEW + S_OLD,
         why="a dropped point's pen lift moves to the kept point after it (wrapping to row 0 past the end) "
             "instead of the one before it"),
    dict(name="v20-reading-steps-one-short", file=STROKES,
         old="        return max(int(np.diff(s.starts).max()) if len(s) else 0 for s in self.sets.values())",
         new="        return max(int(np.diff(s.starts).max()) - 1 if len(s) else 0 for s in self.sets.values())",
         tests=S_NEW + S_OLD,
         why="a reader's task reports the next-point task's steps (N - 1) though it reads all N points of a line"),
    dict(name="v20-strokes-text-batch-width-unclamped", file=STROKES,
         old="max(1, int(ulen.max()) if len(texts) else 1)), np.int64)  # (B, U)",
         new="int(ulen.max()) if len(texts) else 1), np.int64)  # (B, U)",
         tests=S_NEW + S_OLD + ["tests/model/test_synthesis.py"],
         why="a batch whose lines all have empty texts gets (B, 0) codes instead of one column of code 0"),
    dict(name="v20-stroke-files-split-after-the-last-line", file=SFILES,
         old="    seqs = np.split(strokes, np.cumsum(lengths)[:-1])",
         new="    seqs = np.split(strokes, np.cumsum(lengths))",
         tests=S_NEW + SF_OLD,
         why="packed sequences are split at every end: an empty sequence follows the last one"),
    dict(name="v20-arrays-lengths-size-not-shape", file="lnrnn/data/arrays.py",
         old='    if lengths.dtype.kind not in "iu" or lengths.shape != (N,):',
         new='    if lengths.dtype.kind not in "iu" or len(lengths) != N:',
         tests=S_NEW + ARR_OLD,
         why="lengths of shape (N, 1) pass the check (their length is N)"),
    dict(name="v20-iamondb-transcription-starts-at-csr", file="lnrnn/data/iamondb.py",
         old="            rest = [r.rstrip() for r in lines[i + 1:]]",
         new="            rest = [r.rstrip() for r in lines[i:]]",
         tests=IAM_OLD,
         why="the CSR: header itself becomes line 1's transcription; every line reads the text of the one before"),
    # ---- the sampler and its pictures ----
    dict(name="v20-sample-prime-file-of-one-line-refused", file=SAMPLE,
         old="                not 1 <= lengths[0] <= len(a) or",
         new="                not 1 <= lengths[0] < len(a) or",
         tests=SA_NEW + SA_OLD,
         why="a --prime-strokes .npz of one line (lengths [N], as --npz writes for one sample) is refused"),
    dict(name="v20-sample-prime-reads-last-line-length", file=SAMPLE,
         old="        a = a[:int(lengths[0])]",
         new="        a = a[:int(lengths[-1])]",
         tests=SA_NEW + SA_OLD,
         why="the prime takes as many points as the file's last line has, not its first line"),
    dict(name="v20-sample-shortened-tail-floor-of-negative", file=SAMPLE,
         old='r[len(r) - keep // 3:]',
         new='r[-keep // 3:]',
         tests=SA_NEW + SA_OLD,
         why="-keep // 3 rounds toward minus infinity: the kept tail is one character longer when keep is not "
             "a multiple of 3"),
    dict(name="v20-sample-caption-at-the-limit-shortened", file=SAMPLE,
         old="sum(len(n) + 2 for n in notes) + 1 > CAPTION_CHARS:",
         new="sum(len(n) + 2 for n in notes) + 1 >= CAPTION_CHARS:",
         tests=SA_NEW + SA_OLD,
         why="a caption exactly CAPTION_CHARS long is shortened"),
    dict(name="v20-sample-rows-at-the-narrowest-width", file=SAMPLE,
         old="    W = max(max(b[1] - b[0] for b in boxes), 1e-9)",
         new="    W = max(min(b[1] - b[0] for b in boxes), 1e-9)",
         tests=SA_NEW + SA_OLD,
         why="every row gets the narrowest row's width: a long line runs out of its axis"),
    # ---- quantities outside the kernels ----
    dict(name="v20-textmetrics-wer-split-on-one-space", file="lnrnn/textmetrics.py",
         old="    we = sum(edit_distance(r.split(), h.split()) for r, h in zip(refs, hyps))",
         new='    we = sum(edit_distance(r.split(" "), h.split(" ")) for r, h in zip(refs, hyps))',
         tests=MET_NEW + TM_OLD,
         why="error_rates splits words on single spaces: two spaces make an empty word, which counts as an edit"),
    dict(name="v20-predict-softmax-global-max", file="lnrnn/predict_io.py",
         old="    e = np.exp(z - z.max(axis=-1, keepdims=True))",
         new="    e = np.exp(z - z.max())",
         tests=MET_NEW + PI_OLD,
         why="the softmax subtracts the largest logit of all rows: a row far below it underflows to 0/0"),
    dict(name="v20-decode-best-path-one-step-past-length", file="lnrnn/model/decode.py",
         old="(np.arange(T)[None, :] < lengths[:, None])",
         new="(np.arange(T)[None, :] <= lengths[:, None])",
         tests=DEC_NEW + DEC_OLD,
         why="best-path decoding reads one padded step past each row's length"),
    dict(name="v20-judge-replay-noise-of-training", file="lnrnn/judge.py",
         old="model.noise_state(B, (3, int(seed)))",
         new="model.noise_state(B, (1, int(seed)))",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the judge's replay starts from the training updates' noise, not the sampler's (key 3): kappa_T of a "
             "model with state noise is another run's"),
    dict(name="v20-memory-deeper-layers-read-the-input-width", file="lnrnn/training/memory.py",
         old="for n_in in (I, I + W if skip else W))",
         new="for n_in in (I, I + W if skip else I))",
         tests=MEM_OLD,
         why="the estimate counts a deeper layer's input weights at the task's input width, not the layer below's"),
    dict(name="v20-evaluation-batch-lengths-dropped", file="lnrnn/training/evaluation.py",
         old="    out = (b[0], b[1], b[2] if len(b) > 2 else None)",
         new="    out = (b[0], b[1], b[2] if len(b) > 3 else None)",
         tests=EVAL_OLD,
         why="evaluation batches lose their lengths: padded sequences are scored at their full length"),
    dict(name="v20-plot-long-title-one-over", file="lnrnn/training/plot.py",
         old='title[:159] + "\\u2026"',
         new='title[:160] + "\\u2026"',
         tests=PLOT_NEW + PLOT_OLD,
         why="a long title is cut to 161 characters, one over the limit"),
    # ---- the run's records ----
    dict(name="v20-recorder-eval-row-one-batch-late", file=RECORDER,
         old='        return {"epoch": round(t.epoch + t.batch_in_epoch / nb, 6), "step": t.step,',
         new='        return {"epoch": round(t.epoch + (t.batch_in_epoch + 1) / nb, 6), "step": t.step,',
         tests=REC_NEW + REC_OLD,
         why="an --eval-every row's fractional epoch counts one batch more than the run has done"),
    dict(name="v20-recorder-keep-zero-copies", file=RECORDER,
         old="            if t.group.root and t.cfg.keep > 0:",
         new="            if t.group.root and t.cfg.keep >= 0:",
         tests=KEEP_NEW + KEEP_OLD,
         why="--keep 0 (the default) copies every checkpoint into RUN/checkpoints/ and deletes it again"),
    # ---- the distributed path ----
    dict(name="v20-distributed-data-blocks-clamp-dropped", file=DIST,
         old="    return max(1, batch_blocks(B) // 2)",
         new="    return batch_blocks(B) // 2",
         tests=DIST_NEW + DIST_OLD,
         why="a batch of one row makes zero --reproducible blocks: its update runs nothing"),
    dict(name="v20-distributed-blocks-summed-over-own-only", file=DIST,
         old="    for k in range(1, nb):",
         new="    for k in range(1, k1 - k0):",
         tests=DIST_NEW + DIST_OLD,
         why="the --reproducible update adds only as many gathered blocks as this rank ran"),
    dict(name="v20-distributed-stand-in-without-tbptt", file=DIST,
         old="np.zeros(1, np.int64), tbptt=tbptt,",
         new="np.zeros(1, np.int64), tbptt=None,",
         tests=DIST_NEW + DIST_OLD,
         why="a BN rank without blocks runs its stand-in without truncated BPTT: it reaches the statistics' "
             "reductions in another order than the ranks with blocks"),
    # ---- the model's update paths ----
    dict(name="v20-device-chunk-lengths-from-step-0", file=MODELS,
         old="                lc = None if lengths is None else np.clip(lengths - t0, 0, Tc)",
         new="                lc = None if lengths is None else np.clip(lengths, 0, Tc)",
         tests=DEV_NEW + DEV_OLD,
         why="the device update's later chunks count each row's length from step 0: a row that ended runs on"),
    dict(name="v20-device-last-step-scored-in-every-chunk", file=MODELS,
         old="                    valid = (end >= 0) & (end < Tc)                                  # (B,) in this chunk",
         new="                    valid = end >= 0                                                 # (B,) in this chunk",
         tests=DEV_NEW + DEV_OLD,
         why="under truncated BPTT on the device a last-step head scores a row in every chunk before its end "
             "too, at the chunk's last step"),
    dict(name="v20-host-last-step-scored-in-every-chunk", file=MODELS,
         old="        valid = (last >= 0) & (last < T)                                     # (B,)",
         new="        valid = last >= 0                                                    # (B,)",
         tests=HOST_NEW + HOST_OLD,
         why="under truncated BPTT a last-step head scores a row in every chunk before its end too"),
    # ---- added with the value tests above (never run against the old tests alone) ----
    dict(name="v20-plot-title-of-the-limit-cut", file="lnrnn/training/plot.py",
         old="title if len(title) <= 160 else",
         new="title if len(title) < 160 else",
         tests=PLOT_NEW + PLOT_OLD,
         why="a title of exactly 160 characters is cut and ends in an ellipsis"),
    dict(name="v20-predict-softmax-in-the-input-dtype", file="lnrnn/predict_io.py",
         old="    z = np.asarray(z, np.float64)",
         new="    z = np.asarray(z)",
         tests=MET_NEW + PI_OLD,
         why="the softmax of float32 logits is computed and returned in float32"),
    dict(name="v20-sample-shortened-keeps-one-more", file=SAMPLE,
         old="    keep = max(limit - 3, 2)",
         new="    keep = max(limit - 2, 2)",
         tests=SA_NEW + SA_OLD,
         why="shortened keeps one character more of the repr than its limit allows for the ellipsis and quotes"),
]
