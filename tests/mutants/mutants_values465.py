"""Planted bugs, round 465 (format: tests/mutants/mutants.py): the real survivors of a forty-fifth random sample
(tests/mutants/random_sample.py --seed 45 --count 40 --all-named, on 35820a0: 32 of 40 caught) and their neighbours,
sixtieth pass.

Seed 45's 8 missed: 3 equivalent (rnd45-14: the split line's smaller shard taken from rank size + 1, whose formula
gives the last rank's base rows too; rnd45-34: lnrnn data mnist --dest taking a file path, which lnrnn's own folder
check then refuses in one line, exit 2; rnd45-35: lnrnn train --config taking a folder, which lnrnn's reading then
refuses in one line, exit 2), 1 caught by a file named after another module (rnd45-20: the LN-LSTM cell without
gate_clip, tests/model/test_values252_functional.py fails), 2 CUDA-only lines caught by the CUDA files (rnd45-24: a
bidirectional chunked refusal at chunk <= T; rnd45-30: the device update's chunk sums filled with 1;
tests/model/test_values139_models_cuda.py fails), 2 real: lnrnn predict without --out reaching its own file-name
check and saying 'not None' (rnd45-27); gradcheck's bar line cleared only under --quiet (rnd45-28).

The planted bugs: each required option of a command made optional (predict's --out and --input, read's --input,
export's --out, data mnist's --dest, every run-reading command's --checkpoint); gradcheck's clearing of the bar's
line done only under --quiet, into a log, under --quiet too, or returned to without erasing. 10 mutants. The old
files named after the modules (OLD_*) catch 4 (predict's and read's --input, export's --out, --checkpoint); the new
files alone catch 10 of 10.

    python tests/mutants/run.py --only 'v465-*'
"""
PREDICT = "lnrnn/commands/predict.py"
GC = "lnrnn/commands/gradcheck.py"
NEW_REQUIRED = ["tests/commands/test_values465_required_options.py"]
NEW_GC = ["tests/commands/test_values465_gradcheck_bar.py"]
# the sample's own files for the two modules (every file named after the module, then importers up to 8)
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
               "tests/commands/test_values452_predict_cli.py", "tests/commands/test_values_eval_predict.py",
               "tests/interop/test_predict_export.py", "tests/test_values112_predict_io.py",
               "tests/test_values131_predict_io.py", "tests/test_values14_predict_io.py",
               "tests/test_values214_predict_io.py", "tests/test_values219_predict_io.py",
               "tests/test_values21_predict_io.py", "tests/test_values34_predict_io.py",
               "tests/test_values365_predict_io.py", "tests/test_values394_predict_io.py",
               "tests/test_values429_predict_io.py", "tests/test_values54_predict_io.py",
               "tests/test_values80_predict_io.py", "tests/test_values91_predict_io.py",
               "tests/test_values9_predict_io.py", "tests/test_values_predict_io.py"]
OLD_GC = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
          "tests/commands/test_values173_gradcheck_plan.py", "tests/commands/test_values215_gradcheck.py",
          "tests/commands/test_values253_gradcheck.py", "tests/commands/test_values281_gradcheck_cli.py",
          "tests/commands/test_values37_predict_read_gradcheck.py", "tests/commands/test_values437_gradcheck.py",
          "tests/commands/test_values440_gradcheck.py", "tests/commands/test_values96_gradcheck_plan.py",
          "tests/test_values118_gradcheck.py", "tests/test_values184_gradcheck.py",
          "tests/test_values214_gradcheck_files.py", "tests/test_values267_gradcheck.py",
          "tests/test_values27_gradcheck.py", "tests/test_values281_gradcheck.py",
          "tests/test_values373_gradcheck.py", "tests/test_values409_gradcheck_problems.py",
          "tests/test_values430_gradcheck.py", "tests/test_values433_gradcheck.py",
          "tests/test_values435_gradcheck.py", "tests/test_values439_gradcheck.py",
          "tests/test_values440_gradcheck_model.py", "tests/test_values449_gradcheck.py",
          "tests/test_values463_gradcheck_texts.py", "tests/test_values83_gradcheck.py",
          "tests/test_values9_gradcheck.py", "tests/test_values_gradcheck.py"]
# every file named after the module, then importers up to 8 (the thread files, named for "read" alone, left out)
OLD_DATA = ["tests/commands/test_values131_data.py", "tests/commands/test_values173_info_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values208_data.py",
            "tests/commands/test_values237_data.py", "tests/commands/test_values245_train_data.py",
            "tests/commands/test_values263_train_data.py", "tests/commands/test_values322_data_sample.py",
            "tests/commands/test_values367_data.py", "tests/commands/test_values37_data.py",
            "tests/commands/test_values408_data_download.py", "tests/commands/test_values425_other_data.py",
            "tests/commands/test_values461_data_download_bar.py", "tests/commands/test_values69_data.py",
            "tests/commands/test_values9_data.py", "tests/commands/test_values_data.py", "tests/data/test_data.py",
            "tests/data/test_data_alignment.py", "tests/data/test_own_data.py", "tests/data/test_strokes_data.py",
            "tests/data/test_values186_data.py", "tests/data/test_values249_idx_taskdata.py",
            "tests/data/test_values25_data.py", "tests/data/test_values40_data.py",
            "tests/data/test_values_data_counts.py", "tests/data/test_values_taskdata.py"]
OLD_EXPORT = ["tests/commands/test_values349_eval_export.py", "tests/commands/test_values428_export.py",
              "tests/commands/test_values437_export.py", "tests/interop/test_predict_export.py",
              "tests/interop/test_values10_export.py", "tests/interop/test_values116_export.py",
              "tests/interop/test_values128_export.py", "tests/interop/test_values13_export.py",
              "tests/interop/test_values156_export.py", "tests/interop/test_values183_export.py",
              "tests/interop/test_values212_export.py", "tests/interop/test_values219_export.py",
              "tests/interop/test_values225_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_values267_export.py", "tests/interop/test_values273_export.py",
              "tests/interop/test_values365_export.py", "tests/interop/test_values41_export.py",
              "tests/interop/test_values422_export_files.py", "tests/interop/test_values63_export.py",
              "tests/interop/test_values_export.py"]
OLD_READ = ["tests/commands/test_reading.py", "tests/commands/test_values125_read_eval.py",
            "tests/commands/test_values26_read.py", "tests/commands/test_values349_predict_read.py",
            "tests/commands/test_values37_predict_read_gradcheck.py", "tests/commands/test_values437_read.py",
            "tests/commands/test_values448_read.py", "tests/commands/test_values62_read.py",
            "tests/commands/test_values_read.py", "tests/data/test_values21_readers.py",
            "tests/data/test_values34_readers.py", "tests/test_values392_api_read.py", "tests/test_values48_read.py",
            "tests/test_values_api_read.py"]
OLD_OPTIONS = ["tests/commands/test_values125_train_options.py", "tests/commands/test_values208_train_options.py",
               "tests/commands/test_values229_options.py", "tests/commands/test_values271_options_info.py",
               "tests/commands/test_values322_info_options.py", "tests/commands/test_values32_options_errors.py",
               "tests/commands/test_values367_train_options.py", "tests/commands/test_values401_train_options.py",
               "tests/commands/test_values428_options_help.py", "tests/commands/test_values69_train_options.py",
               "tests/commands/test_values_options.py", "tests/training/test_values_distributed_options.py",
               "tests/training/test_values_distributed_options2.py"]

CLEAR = '            click.echo("\\r\\033[K", err=True, nl=False)'

MUTANTS = [
    dict(name="v465-predict-out-optional", file=PREDICT,
         old='@click.option("--out", required=True,', new='@click.option("--out", required=False,',
         tests=NEW_REQUIRED + OLD_PREDICT, why="rnd45-27: lnrnn predict without --out says '... not None'"),
    dict(name="v465-predict-input-optional", file=PREDICT,
         old='"--data-dir", "inputs", required=True,', new='"--data-dir", "inputs", required=False,',
         tests=NEW_REQUIRED + OLD_PREDICT,
         why="lnrnn predict without --input reads the run first (never told --input)"),
    dict(name="v465-read-input-optional", file="lnrnn/commands/read.py",
         old='@click.option("--input", "inputs", required=True,',
         new='@click.option("--input", "inputs", required=False,',
         tests=NEW_REQUIRED + OLD_READ, why="lnrnn read without --input reads the run first (never told --input)"),
    dict(name="v465-export-out-optional", file="lnrnn/commands/export.py",
         old='@click.option("--out", required=True,', new='@click.option("--out", required=False,',
         tests=NEW_REQUIRED + OLD_EXPORT, why="lnrnn export without --out: 'name it None.safetensors'"),
    dict(name="v465-data-dest-optional", file="lnrnn/commands/data.py",
         old='@click.option("--dest", required=True,', new='@click.option("--dest", required=False,',
         tests=NEW_REQUIRED + OLD_DATA, why="lnrnn data mnist without --dest: a traceback"),
    dict(name="v465-checkpoint-optional", file="lnrnn/commands/options.py",
         old='"--checkpoint", "path", required=True,', new='"--checkpoint", "path", required=False,',
         tests=NEW_REQUIRED + OLD_OPTIONS,
         why="a command that reads a run, without --checkpoint: 'no checkpoint at None'"),
    dict(name="v465-gradcheck-clear-when-quiet", file=GC,
         old="        if bar.tty and not quiet:", new="        if bar.tty and quiet:",
         tests=NEW_GC + OLD_GC, why="rnd45-28: the bar's line cleared only under --quiet, on a terminal"),
    dict(name="v465-gradcheck-clear-into-logs", file=GC,
         old="        if bar.tty and not quiet:", new="        if not quiet:",
         tests=NEW_GC + OLD_GC, why="the clearing sequence written into a log too"),
    dict(name="v465-gradcheck-clear-quiet-too", file=GC,
         old="        if bar.tty and not quiet:", new="        if bar.tty:",
         tests=NEW_GC + OLD_GC, why="--quiet on a terminal still writes the clearing sequence"),
    dict(name="v465-gradcheck-return-only", file=GC,
         old=CLEAR, new=CLEAR.replace("\\033[K", ""),
         tests=NEW_GC + OLD_GC, why="the bar's line returned to, not erased: its tail stays beside the results"),
]
