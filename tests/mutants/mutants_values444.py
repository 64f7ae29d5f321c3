"""Planted bugs, round 444 (format: tests/mutants/mutants.py): the real survivors of a seventeenth random sample
(tests/mutants/random_sample.py --seed 17 --count 40 --all-named, on the tree after round 443: 34 of 40 caught) and
their neighbours, thirty-ninth pass.

Seed 17's 6 missed: 3 equivalent (predict_io's IDX images check behind read_idx's magic number 2051, which fixes
uint8 and three dimensions, with 'or' as 'and'; hershey's rng.random() < MARK as <=; the beam's label order
returning 2 for 1, read only by its sign), 1 on a CUDA-only line (the window layer's state taken as device arrays,
rnd17-17, planted here with the synthesis CUDA files as its tests), 2 real: config.ROWS compiled with nogil=False
(rnd17-10: every chunk of a call would take turns on one core, the same numbers in twice the time) and the stroke-3
check's 'or' as 'and' (rnd17-22: a prime of numerals as text, of booleans, of bytes passed as numbers). The planted
bugs: ROWS, the LSTM backward's, the window forward's and bn_sync's sums compiled without nogil; the stroke-3 check
with 'and', with any number (complex ones), with any dtype; the window layer's state and dL/dh refused as device
arrays. 9 mutants. The old files named after each module (OLD_CONFIG, OLD_SAMPLE; the kernels' by the topic,
OLD_THREADS) catch none of the 7 with a new file; the new files alone catch 7 of 7. The two CUDA-only ones are
caught by the synthesis CUDA files, under the simulator (NEW + OLD: 9 of 9).

    python tests/mutants/run.py --only 'v444-*'
"""
CONFIG = "lnrnn/config.py"
LSTM = "lnrnn/kernels/lstm.py"
WINDOW_KERNEL = "lnrnn/kernels/window.py"
BN_SYNC = "lnrnn/kernels/bn_sync.py"
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
NEW_THREADS = ["tests/kernels/test_values444_threads.py"]
NEW_SAMPLE = ["tests/test_values444_sample.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges; the kernels' own
# by the topic, threads)
OLD_CONFIG = ["tests/commands/test_cli_train_config.py", "tests/commands/test_values142_runconfig.py",
              "tests/commands/test_values236_runconfig.py", "tests/commands/test_values421_config_numbers.py",
              "tests/commands/test_values426_runconfig.py", "tests/kernels/test_values439_config.py",
              "tests/test_values186_config.py", "tests/test_values_config.py",
              "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py",
              "tests/training/test_values13_runconfig.py", "tests/training/test_values209_runconfig.py",
              "tests/training/test_values266_runconfig.py", "tests/training/test_values283_runconfig.py",
              "tests/training/test_values321_runconfig.py", "tests/training/test_values348_runconfig.py",
              "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values427_runconfig.py",
              "tests/training/test_values_runconfig.py"]
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
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values52_sample_cli.py",
              "tests/commands/test_values52_sampler.py", "tests/commands/test_values69_sample_errors.py",
              "tests/commands/test_values99_sample_cli.py", "tests/commands/test_values_sampler_rule.py",
              "tests/model/test_values272_sampler_window.py", "tests/model/test_values337_sampler.py",
              "tests/test_values109_sampler.py", "tests/test_values120_sampler.py", "tests/test_values126_sampler.py",
              "tests/test_values133_sampler.py", "tests/test_values162_sampler.py", "tests/test_values198_sampler.py",
              "tests/test_values213_sampler.py", "tests/test_values221_sampler.py", "tests/test_values226_sampler.py",
              "tests/test_values238_sampler.py", "tests/test_values360_sampler.py", "tests/test_values378_sampler.py",
              "tests/test_values76_sampler.py", "tests/test_values87_sampler.py", "tests/test_values99_sampler.py"]
OLD_THREADS = ["tests/kernels/test_threads.py", "tests/kernels/test_values141_threads.py",
               "tests/kernels/test_values178_threads.py", "tests/kernels/test_values205_threads.py",
               "tests/kernels/test_values254_blas_threads.py", "tests/kernels/test_values271_backend_threads.py",
               "tests/kernels/test_values27_threads.py", "tests/kernels/test_values284_mkl_threads.py",
               "tests/kernels/test_values347_threads.py", "tests/kernels/test_values71_threads.py",
               "tests/kernels/test_values9_threads.py", "tests/test_threads_scope.py",
               "tests/test_values216_threadscope.py", "tests/test_values369_backend_threads.py",
               "tests/test_values9_threadscope.py"]
# the CUDA files that run a synthesis model's device update in chunks (its state carried on the device)
CUDA_SYNTHESIS = ["tests/model/test_synthesis_cuda.py", "tests/model/test_values441_synthesis_cuda.py"]

STROKE3 = "    if a.dtype == object or not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):"
STATE = "        state = tuple(_check_array(n, s, 2, dt, (B, w), device_ok=True) for n, s, w in"
DY = "        dy = _check_array(\"dy\", dy, 3, self.dtype, (T, B, self.H), device_ok=True)"

MUTANTS = [
    dict(name="v444-rows-hold-the-gil", file=CONFIG, old="ROWS = dict(JIT, nogil=True)",
         new="ROWS = dict(JIT, nogil=False)", tests=NEW_THREADS + OLD_CONFIG,
         why="every time loop on the threads holds the GIL (rnd17-10): the chunks take turns on one core"),
    dict(name="v444-lstm-backward-holds-the-gil", file=LSTM, old="@njit(**ROWS)\ndef _backward_rows(",
         new="@njit(**JIT)\ndef _backward_rows(", tests=NEW_THREADS + OLD_THREADS,
         why="the (LN-)LSTM backward's chunks take turns on one core"),
    dict(name="v444-window-forward-holds-the-gil", file=WINDOW_KERNEL, old="@njit(**ROWS)\ndef _forward_chunk(",
         new="@njit(**JIT)\ndef _forward_chunk(", tests=NEW_THREADS + OLD_THREADS,
         why="the window layer's forward chunks take turns on one core"),
    dict(name="v444-bn-sync-sums-hold-the-gil", file=BN_SYNC, old="@njit(**ROWS)\ndef _seq_sums(",
         new="@njit(**JIT)\ndef _seq_sums(", tests=NEW_THREADS + OLD_THREADS,
         why="a data-parallel group's BatchNorm sums take turns on one core"),
    dict(name="v444-stroke3-and", file=SAMPLE, old=STROKE3, new=STROKE3.replace("object or not", "object and not"),
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="numerals as text, booleans and bytes pass as stroke-3 numbers (rnd17-22); letters a traceback"),
    dict(name="v444-stroke3-any-number", file=SAMPLE, old=STROKE3,
         new=STROKE3.replace("np.issubdtype(a.dtype, np.integer)", "np.issubdtype(a.dtype, np.number)"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="complex points pass, their imaginary parts dropped"),
    dict(name="v444-stroke3-generic", file=SAMPLE, old=STROKE3,
         new=STROKE3.replace("np.issubdtype(a.dtype, np.integer)", "np.issubdtype(a.dtype, np.generic)"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="every dtype but object passes: booleans as 0 and 1"),
    dict(name="v444-window-state-host-only", file=WINDOW, old=STATE,
         new=STATE.replace("device_ok=True", "device_ok=False"), tests=CUDA_SYNTHESIS,
         why="a window layer's state carried on the device refused as not a NumPy array (rnd17-17; CUDA only)"),
    dict(name="v444-window-dy-host-only", file=WINDOW, old=DY, new=DY.replace("device_ok=True", "device_ok=False"),
         tests=CUDA_SYNTHESIS, why="the window layer's dL/dh from the device refused (CUDA only)"),
]
