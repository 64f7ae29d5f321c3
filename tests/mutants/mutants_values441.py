"""Planted bugs, round 441 (format: tests/mutants/mutants.py): the real survivors of the twelfth, thirteenth and
fourteenth random samples (tests/mutants/random_sample.py --seed N --count 40 --all-named) and their neighbours,
thirty-sixth pass.

Seed 12: 38 of 40 caught, the 2 missed equivalent. Seed 13: 36 of 40; missed: the reading task's step count of an
empty split (equivalent: make_task refuses an empty split), a BN window layer's second BPTT chunk on the device
(rnd13-02, reachable under the simulator), evaluate dealing batches out only from three ranks (rnd13-32), a plotted
row without the x axis's value drawn at x = 0 (rnd13-35; such rows are now left out, and that is tested). Seed 14:
34 of 40; missed: 2 CUDA-only lines caught by the device-update and CUDA model files, which are named after neither
module (rnd14-12, rnd14-39: planted here with those files as their tests), 1 equivalent (the CTC head's log_probs
with an unused label column, rnd14-33), 3 real: predict's noise draw (rnd14-30), strokes-synthetic's training stream
(rnd14-25: train on the validation lines), the synthetic words' advance (rnd14-16). The planted bugs: the device
statistics of a BN window layer's and a BN layer's second chunk (another layer's, from row 0); evaluate dealing
batches from three ranks, or over a group of one; plotted rows without x or with a NaN x; predict's noise draw (the
sampler's, batch 0's for every batch); strokes-synthetic's training stream and its words' advance (from the height,
from the word's first point); the device heads' metric rows three wide; the stack's lower layers' outputs sent to
the host on CUDA. 14 mutants. The old files named after each module (OLD_*) catch 1 of the 12 that have new files (a
group of one); the new files alone catch 12 of 12, so NEW + OLD does too (run: 14 of 14, the two CUDA-only ones by
their listed files).

    python tests/mutants/run.py --only 'v441-*'
"""
WINDOW = "lnrnn/model/window.py"
LAYERS = "lnrnn/model/layers.py"
EVALUATION = "lnrnn/training/evaluation.py"
PLOT = "lnrnn/training/plot.py"
API = "lnrnn/api.py"
STROKES = "lnrnn/data/strokes.py"
HEADS = "lnrnn/model/heads.py"
NEW_SYNTHESIS_CUDA = ["tests/model/test_values441_synthesis_cuda.py"]
NEW_EVALUATION = ["tests/training/test_values441_evaluation.py"]
NEW_PLOT = ["tests/training/test_values441_plot.py"]
NEW_API = ["tests/test_values441_api.py"]
NEW_STROKES = ["tests/data/test_values441_strokes.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_WINDOW = ["tests/model/test_values103_window_model.py", "tests/model/test_values10_window.py",
              "tests/model/test_values120_window_model.py", "tests/model/test_values204_window_model.py",
              "tests/model/test_values221_window_model.py", "tests/model/test_values226_window_model.py",
              "tests/model/test_values238_window_model.py", "tests/model/test_values24_window.py",
              "tests/model/test_values256_window.py", "tests/model/test_values292_window.py",
              "tests/model/test_values308_window.py", "tests/model/test_values333_window_model.py",
              "tests/model/test_values378_window.py", "tests/model/test_values52_window.py",
              "tests/model/test_values67_window.py", "tests/model/test_values_window.py",
              "tests/kernels/test_values103_window.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values120_window.py", "tests/kernels/test_values146_window.py",
              "tests/kernels/test_values167_window.py", "tests/kernels/test_values189_window.py",
              "tests/kernels/test_values22_window_graphs.py", "tests/kernels/test_values261_window.py",
              "tests/kernels/test_values285_window.py", "tests/kernels/test_values293_window.py",
              "tests/kernels/test_values303_window.py", "tests/kernels/test_values318_window.py",
              "tests/kernels/test_values31_window.py", "tests/kernels/test_values333_window.py",
              "tests/kernels/test_values42_window_text.py", "tests/kernels/test_values45_window.py",
              "tests/kernels/test_values57_window.py", "tests/kernels/test_values73_window.py",
              "tests/kernels/test_values84_window.py", "tests/kernels/test_window.py",
              "tests/model/test_values133_window_model.py", "tests/model/test_values14_window.py",
              "tests/model/test_values162_window_model.py", "tests/model/test_values16_window.py",
              "tests/model/test_values272_sampler_window.py", "tests/model/test_values360_window.py",
              "tests/model/test_values42_window.py"]
OLD_LAYERS = ["tests/interop/test_values46_layers_sizes.py", "tests/model/test_values363_layers.py",
              "tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values101_layers.py", "tests/model/test_values13_layers.py",
              "tests/model/test_values148_layers.py", "tests/model/test_values163_layers.py",
              "tests/model/test_values193_layers_stacks.py", "tests/model/test_values211_layers.py",
              "tests/model/test_values231_layers.py", "tests/model/test_values242_layers_stacks.py",
              "tests/model/test_values24_layers.py", "tests/model/test_values257_layers_stacks.py",
              "tests/model/test_values295_layers_stacks.py", "tests/model/test_values297_layers_stacks.py",
              "tests/model/test_values313_layers.py", "tests/model/test_values33_layers.py",
              "tests/model/test_values341_layers_stacks.py", "tests/model/test_values385_layers_stacks.py",
              "tests/model/test_values428_layers.py", "tests/model/test_values77_layers.py",
              "tests/model/test_values9_layers.py"]
OLD_EVALUATION = ["tests/training/test_values10_evaluation.py", "tests/training/test_values130_evaluation.py",
                  "tests/training/test_values157_evaluation_logs.py", "tests/training/test_values15_evaluation.py",
                  "tests/training/test_values185_evaluation.py", "tests/training/test_values218_evaluation.py",
                  "tests/training/test_values21_evaluation.py",
                  "tests/training/test_values248_evaluation_finetune.py",
                  "tests/training/test_values279_plan_setup_evaluation.py",
                  "tests/training/test_values326_evaluation_finetune.py",
                  "tests/training/test_values352_evaluation_finetune.py",
                  "tests/training/test_values434_evaluation.py", "tests/training/test_values64_evaluation.py",
                  "tests/training/test_values_evaluation.py"]
OLD_PLOT = ["tests/commands/test_plot.py", "tests/commands/test_values173_plot.py",
            "tests/commands/test_values215_predict_plot.py", "tests/training/test_values118_plot.py",
            "tests/training/test_values145_plot.py", "tests/training/test_values185_plot.py",
            "tests/training/test_values20_plot.py", "tests/training/test_values222_plot.py",
            "tests/training/test_values251_plot.py", "tests/training/test_values266_plot.py",
            "tests/training/test_values283_plot.py", "tests/training/test_values323_plot.py",
            "tests/training/test_values34_plot.py", "tests/training/test_values353_plot.py",
            "tests/training/test_values372_plot.py", "tests/training/test_values433_plot.py",
            "tests/training/test_values95_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values_plot.py", "tests/commands/test_values131_plot.py",
            "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py",
            "tests/commands/test_values372_cli_plot.py", "tests/commands/test_values426_plot.py",
            "tests/commands/test_values46_plot_runs.py", "tests/commands/test_values69_plot_info.py"]
OLD_API = ["tests/test_values15_api.py", "tests/test_values46_api.py", "tests/test_values196_api.py",
           "tests/test_values392_api.py", "tests/commands/test_values277_api.py",
           "tests/commands/test_values305_api.py", "tests/test_values140_api.py", "tests/test_values161_api.py",
           "tests/test_values214_api.py", "tests/test_values234_api.py", "tests/test_values252_api.py",
           "tests/test_values27_api.py", "tests/test_values315_api.py", "tests/test_values343_api.py",
           "tests/test_values364_api.py", "tests/test_values50_api.py", "tests/test_values77_api.py",
           "tests/test_values83_api.py", "tests/test_values101_api.py", "tests/test_values10_api.py",
           "tests/test_values117_api.py", "tests/test_values392_api_read.py", "tests/test_values439_api.py",
           "tests/test_values_api.py", "tests/test_values_api_read.py"]
OLD_STROKES = ["tests/data/test_values_strokes.py", "tests/data/test_values12_strokes.py",
               "tests/data/test_values200_strokes.py", "tests/data/test_values220_strokes.py",
               "tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values109_strokes.py", "tests/data/test_values126_strokes.py",
               "tests/data/test_values164_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values232_strokes.py",
               "tests/data/test_values244_strokes.py", "tests/data/test_values246_kanjivg_strokes.py",
               "tests/data/test_values258_strokes.py", "tests/data/test_values299_strokes.py",
               "tests/data/test_values311_strokes.py", "tests/data/test_values339_strokes.py",
               "tests/data/test_values366_strokes_text.py", "tests/data/test_values433_strokes.py",
               "tests/data/test_values44_strokes.py", "tests/data/test_values53_strokes.py",
               "tests/data/test_values76_strokes.py", "tests/data/test_values89_strokes.py"]
OLD_HEADS = ["tests/model/test_values108_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values129_heads.py", "tests/model/test_values12_heads.py",
             "tests/model/test_values151_heads.py", "tests/model/test_values166_heads.py",
             "tests/model/test_values16_heads.py", "tests/model/test_values199_heads.py",
             "tests/model/test_values223_heads.py", "tests/model/test_values235_heads.py",
             "tests/model/test_values250_heads.py", "tests/model/test_values256_heads.py",
             "tests/model/test_values292_heads.py", "tests/model/test_values310_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_values343_heads.py",
             "tests/model/test_values364_heads.py", "tests/model/test_values381_heads.py",
             "tests/model/test_values428_heads.py", "tests/model/test_values438_heads.py",
             "tests/model/test_values48_heads.py", "tests/model/test_values57_heads.py",
             "tests/model/test_values67_heads.py", "tests/model/test_values_heads.py",
             "tests/test_values150_reference_heads.py", "tests/test_values176_reference_heads.py",
             "tests/test_values191_reference_heads.py", "tests/test_values288_reference_heads.py",
             "tests/test_values304_reference_heads.py", "tests/test_values330_reference_heads.py",
             "tests/test_values355_reference_heads.py"]

STATS = ("            bufs = self.device_views[2] if t0 == 0 else {n: v[t0:t0 + T] for n, v in "
         "self.device_views[2].items()}")
DEAL = "    if group is not None and group.size > 1:"
POINTS = ("    pts = [(float(r[x]), float(r[key]) * scale) for r in rows if r.get(key) is not None and "
          "r.get(x) is not None]")
FINITE = "    return [p for p in pts if math.isfinite(p[0]) and math.isfinite(p[1])]"
DRAW = "            state = model.noise_state(e - s, (2, i))  # evaluate's draw for batch i"
STREAM = "    train, s_train = synthetic_lines(np.random.default_rng([DATA_SEED, 0]), n_train)"
ADVANCE = "        x0 = word[:, 0].max() + rng.uniform(0.6, 1.4) * h           # pen-up advance to the next word"
ROWS = "        rows = arrays_cuda.empty((N, 2), np.float64)                                # (N,2) [loss, acc] per row"
PASS = "x, s = layer.forward(x, None if state is None else state[k], training, on_device or k < last,"

MUTANTS = [
    dict(name="v441-window-device-statistics-of-another-layer", file=WINDOW, old=STATS,
         new=STATS.replace("self.device_views[2].items()", "self.device_views[3].items()"),
         tests=NEW_SYNTHESIS_CUDA + OLD_WINDOW,
         why="a BN window layer's second BPTT chunk on the device reads statistics it does not have (rnd13-02)"),
    dict(name="v441-window-device-statistics-from-row-0", file=WINDOW, old=STATS,
         new=STATS.replace("v[t0:t0 + T]", "v[:T]"), tests=NEW_SYNTHESIS_CUDA + OLD_WINDOW,
         why="the window layer's second chunk updates the running statistics of steps 0.. again, not its own"),
    dict(name="v441-layer-device-statistics-from-row-0", file=LAYERS, old=STATS,
         new=STATS.replace("v[t0:t0 + T]", "v[:T]"), tests=NEW_SYNTHESIS_CUDA + OLD_LAYERS,
         why="a BN layer's second chunk on the device updates the statistics of steps 0.. again"),
    dict(name="v441-evaluate-deals-from-three-ranks", file=EVALUATION, old=DEAL,
         new=DEAL.replace("> 1", "> 2"), tests=NEW_EVALUATION + OLD_EVALUATION,
         why="two ranks each evaluate every batch: twice the work, nothing shared (rnd13-32)"),
    dict(name="v441-evaluate-deals-over-one-rank", file=EVALUATION, old=DEAL,
         new=DEAL.replace("> 1", ">= 1"), tests=NEW_EVALUATION + OLD_EVALUATION,
         why="a group of one process goes through the group's allreduce for nothing"),
    dict(name="v441-plot-rows-without-x-at-zero", file=PLOT, old=POINTS,
         new=POINTS.replace("float(r[x])", "float(r.get(x, 0))").replace(" and r.get(x) is not None", ""),
         tests=NEW_PLOT + OLD_PLOT, why="a row without the axis's value is drawn at x = 0 (rnd13-35)"),
    dict(name="v441-plot-nan-x-drawn", file=PLOT, old=FINITE, new=FINITE.replace("math.isfinite(p[0]) and ", ""),
         tests=NEW_PLOT + OLD_PLOT, why="a row whose x is NaN is kept: the line breaks there"),
    dict(name="v441-predict-draws-the-samplers-noise", file=API, old=DRAW, new=DRAW.replace("(2, i)", "(3, i)"),
         tests=NEW_API + OLD_API,
         why="predict starts a noisy model from another draw than evaluation: it scores another loss (rnd14-30)"),
    dict(name="v441-predict-draws-one-noise-for-every-batch", file=API, old=DRAW,
         new=DRAW.replace("(2, i)", "(2, 0)"), tests=NEW_API + OLD_API,
         why="every batch of predict starts from batch 0's draw"),
    dict(name="v441-synthetic-train-from-the-validation-stream", file=STROKES, old=STREAM,
         new=STREAM.replace("DATA_SEED, 0", "DATA_SEED, 1"), tests=NEW_STROKES + OLD_STROKES,
         why="strokes-synthetic trains on its validation lines (rnd14-25)"),
    dict(name="v441-synthetic-words-advance-from-the-height", file=STROKES, old=ADVANCE,
         new=ADVANCE.replace("word[:, 0]", "word[:, 1]"), tests=NEW_STROKES + OLD_STROKES,
         why="the next word starts past the last word's highest point, not its rightmost: words overlap (rnd14-16)"),
    dict(name="v441-synthetic-words-advance-from-the-start", file=STROKES, old=ADVANCE,
         new=ADVANCE.replace("word[:, 0].max()", "word[0, 0]"), tests=NEW_STROKES + OLD_STROKES,
         why="the next word starts an advance past the last word's first point: words overlap"),
    dict(name="v441-head-device-rows-three-wide", file=HEADS, old=ROWS, new=ROWS.replace("(N, 2)", "(N, 3)"),
         tests=["tests/training/test_device_update.py", "tests/training/test_device_update_more.py",
                "tests/training/test_device_batches.py", "tests/training/test_values289_update.py"],
         why="the device heads' per-row metrics get a third, unwritten column: its sum lands past the two sums"),
    dict(name="v441-stack-lower-layers-to-the-host", file=LAYERS, old=PASS,
         new=PASS.replace(" or k < last", " and k < last"),
         tests=["tests/model/test_values139_models_cuda.py", "tests/model/test_values20_models_cuda.py",
                "tests/model/test_synthesis_cuda.py", "tests/model/test_values292_window.py"],
         why="on 'cuda' each layer's output goes to the host and back to the next layer (rnd14-39)"),
]
