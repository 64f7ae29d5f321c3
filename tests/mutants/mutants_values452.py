"""Planted bugs, round 452 (format: tests/mutants/mutants.py): the real survivors of a twenty-seventh random sample
(tests/mutants/random_sample.py --seed 27 --count 40 --all-named, on 55fceec: 36 of 40 caught) and their neighbours,
forty-seventh pass.

Seed 27's 4 missed: 2 equivalent (rnd27-06: a synthetic line's spike planted when a uniform draw in [0, 1) is at
most the glitch rate rather than below it, which differ only on a draw of exactly the rate; rnd27-38: the JAX
binding naming bias_hh "transposed", a 1-D vector whose transpose is itself, its shape checked against b's either
way), 2 caught by tests not named after their modules: lnrnn predict's --batch-size default no longer shown in its
help (rnd27-21: tests/commands/test_values446_sample_cli_defaults.py, which checks every command's help, fails; the
predict file now calls its check) and the RNN rows' infer_seqs off, so a masked forward without a backward runs the
full forward (rnd27-36: tests/model/test_infer_path.py counts the kernels and fails; the new cells file calls its
count_kernels).

The planted bugs: lnrnn predict's --batch-size, lnrnn read's --beam and lnrnn sample's --steps with their defaults
left out of --help; the RNN rows' infer_seqs off, the LSTM rows' on, and keeps() choosing the full forward for the
wrong rows. 6 mutants. The old files named after the modules (OLD_*) catch 4 (read's and sample's defaults, the LSTM
rows' flag, the wrong rows); the new files alone catch 6 of 6.

    python tests/mutants/run.py --only 'v452-*'
"""
PREDICT = "lnrnn/commands/predict.py"
READ = "lnrnn/commands/read.py"
SAMPLE = "lnrnn/commands/sample.py"
CELLS = "lnrnn/model/cells.py"
FUNCTIONAL = "lnrnn/model/functional.py"
NEW_HELP = ["tests/commands/test_values452_predict_cli.py", "tests/commands/test_values446_sample_cli_defaults.py"]
NEW_CELLS = ["tests/model/test_values452_cells.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_PREDICT = ["tests/commands/test_values131_predict.py", "tests/commands/test_values156_predict_io.py",
               "tests/commands/test_values183_predict_io.py", "tests/commands/test_values215_predict_plot.py",
               "tests/commands/test_values229_files_predict_io_paths.py",
               "tests/commands/test_values240_predict_io.py", "tests/commands/test_values258_predict_io.py",
               "tests/commands/test_values277_predict_io.py",
               "tests/commands/test_values305_files_predict_io_outputs.py",
               "tests/commands/test_values319_predict_io.py",
               "tests/commands/test_values336_files_predict_io_outputs.py",
               "tests/commands/test_values349_predict_read.py",
               "tests/commands/test_values37_predict_read_gradcheck.py", "tests/commands/test_values440_predict.py",
               "tests/commands/test_values_eval_predict.py", "tests/interop/test_predict_export.py",
               "tests/test_values112_predict_io.py", "tests/test_values131_predict_io.py",
               "tests/test_values14_predict_io.py", "tests/test_values214_predict_io.py",
               "tests/test_values219_predict_io.py", "tests/test_values21_predict_io.py",
               "tests/test_values34_predict_io.py", "tests/test_values365_predict_io.py",
               "tests/test_values394_predict_io.py", "tests/test_values429_predict_io.py",
               "tests/test_values54_predict_io.py", "tests/test_values80_predict_io.py",
               "tests/test_values91_predict_io.py", "tests/test_values9_predict_io.py",
               "tests/test_values_predict_io.py"]
OLD_READ = ["tests/commands/test_reading.py", "tests/commands/test_values125_read_eval.py",
            "tests/commands/test_values26_read.py", "tests/commands/test_values349_predict_read.py",
            "tests/commands/test_values37_predict_read_gradcheck.py", "tests/commands/test_values437_read.py",
            "tests/commands/test_values448_read.py", "tests/commands/test_values62_read.py",
            "tests/commands/test_values_read.py", "tests/test_values392_api_read.py", "tests/test_values48_read.py",
            "tests/test_values_api_read.py"]
OLD_SAMPLE = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values10_sample.py", "tests/commands/test_values126_sample_cli.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values143_sample_cli.py",
              "tests/commands/test_values14_sample.py", "tests/commands/test_values208_sample_cli.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py",
              "tests/commands/test_values221_sample_cli.py", "tests/commands/test_values237_train_sample.py",
              "tests/commands/test_values256_sampler.py", "tests/commands/test_values272_sample_cli.py",
              "tests/commands/test_values292_sample_text.py", "tests/commands/test_values300_sampler.py",
              "tests/commands/test_values308_sampler.py", "tests/commands/test_values322_data_sample.py",
              "tests/commands/test_values367_sample.py", "tests/commands/test_values400_sample_command.py",
              "tests/commands/test_values427_sample.py", "tests/commands/test_values428_sample.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values446_sample_cli_defaults.py",
              "tests/commands/test_values52_sample_cli.py", "tests/commands/test_values52_sampler.py",
              "tests/commands/test_values69_sample_errors.py", "tests/commands/test_values99_sample_cli.py",
              "tests/commands/test_values_sampler_rule.py", "tests/model/test_values272_sampler_window.py",
              "tests/model/test_values337_sampler.py", "tests/test_values109_sampler.py",
              "tests/test_values120_sampler.py", "tests/test_values126_sampler.py", "tests/test_values133_sampler.py",
              "tests/test_values162_sampler.py", "tests/test_values198_sampler.py", "tests/test_values213_sampler.py",
              "tests/test_values221_sampler.py", "tests/test_values226_sampler.py", "tests/test_values238_sampler.py",
              "tests/test_values360_sampler.py", "tests/test_values378_sampler.py", "tests/test_values444_sample.py",
              "tests/test_values76_sampler.py", "tests/test_values87_sampler.py", "tests/test_values99_sampler.py"]
OLD_CELLS = ["tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py",
             "tests/kernels/test_values154_bn_cells.py", "tests/kernels/test_values177_bn_cells.py",
             "tests/kernels/test_values201_bn_cells.py", "tests/kernels/test_values22_bn_cells.py",
             "tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values338_bn_cells.py",
             "tests/model/test_values13_cells.py", "tests/model/test_values169_cells.py",
             "tests/model/test_values204_cells.py", "tests/model/test_values282_cells.py",
             "tests/model/test_values313_cells.py", "tests/model/test_values347_cells.py",
             "tests/model/test_values382_cells.py", "tests/model/test_values439_cells.py",
             "tests/model/test_values67_cells.py", "tests/model/test_values88_cells.py",
             "tests/test_values150_reference_cells.py", "tests/test_values176_reference_cells.py",
             "tests/test_values191_reference_cells.py", "tests/test_values288_reference_cells.py",
             "tests/test_values304_reference_cells.py", "tests/test_values330_reference_cells.py",
             "tests/test_values355_reference_cells.py"]
OLD_FUNCTIONAL = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values148_functional.py", "tests/model/test_values169_functional.py",
                  "tests/model/test_values16_functional.py", "tests/model/test_values204_functional.py",
                  "tests/model/test_values22_functional.py", "tests/model/test_values234_functional.py",
                  "tests/model/test_values252_functional.py", "tests/model/test_values310_functional.py",
                  "tests/model/test_values343_functional.py", "tests/model/test_values364_functional.py",
                  "tests/model/test_values384_functional.py", "tests/model/test_values438_functional.py",
                  "tests/model/test_values440_functional.py", "tests/model/test_values51_functional.py",
                  "tests/model/test_values77_functional.py"]

MUTANTS = [
    dict(name="v452-predict-batch-size-default-hidden", file=PREDICT,
         old='@click.option("--batch-size", type=int, default=500, show_default=True,',
         new='@click.option("--batch-size", type=int, default=500, show_default=False,',
         tests=NEW_HELP + OLD_PREDICT, why="rnd27-21: lnrnn predict --help no longer says 500 sequences a pass"),
    dict(name="v452-read-beam-default-hidden", file=READ,
         old='@click.option("--beam", type=int, default=1, show_default=True,',
         new='@click.option("--beam", type=int, default=1, show_default=False,',
         tests=NEW_HELP + OLD_READ, why="lnrnn read --help no longer says the beam is 1 (greedy) by default"),
    dict(name="v452-sample-steps-default-hidden", file=SAMPLE,
         old='@click.option("--steps", type=int, default=700, show_default=True,',
         new='@click.option("--steps", type=int, default=700, show_default=False,',
         tests=NEW_HELP + OLD_SAMPLE, why="lnrnn sample --help no longer says 700 points a drawing"),
    dict(name="v452-rnn-rows-infer-seqs-off", file=CELLS,
         old="    infer_seqs: bool = True      # forward(keep=False)",
         new="    infer_seqs: bool = False      # forward(keep=False)",
         tests=NEW_CELLS + OLD_CELLS, why="rnd27-36: a masked RNN forward without a backward runs the full forward"),
    dict(name="v452-lstm-infer-seqs-on", file=CELLS,
         old="saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=False),",
         new="saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=True),",
         tests=NEW_CELLS + OLD_CELLS, why="a masked LSTM forward without a backward runs the infer kernel (no c_t)"),
    dict(name="v452-keeps-for-the-wrong-rows", file=FUNCTIONAL,
         old="    return keep or (lengths is not None and not spec.infer_seqs)",
         new="    return keep or (lengths is not None and spec.infer_seqs)",
         tests=NEW_CELLS + OLD_FUNCTIONAL, why="masked inference: the full forward for the RNNs, infer for the LSTMs"),
]
