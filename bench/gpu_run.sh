#!/usr/bin/env bash
# The GPU machine's prepared run: everything lnrnn measures on a CUDA GPU, in one call.
#
#   bash bench/gpu_run.sh OUTDIR [MNIST_DIR]
#
# Writes one log per part into OUTDIR (env, step, tests-new, tests, torch-step, bn, synthesis, train-strokes, blstm-ctc; train
# with MNIST_DIR; barrier, persist and tests-values with LIMIT_BARRIER, LIMIT_PERSIST, LIMIT_TESTS_VALUES > 0) and
# prints a summary last.
# Each part runs under its own time limit, so one that hangs or fails leaves the others' figures.
# MNIST_DIR: folder with MNIST's t10k IDX files for the `lnrnn train --device cuda` throughput (skipped
# without it). Run from the repository root; needs numba-cuda, a CUDA GPU and (for the PyTorch rows)
# torch with CUDA. Nothing here asserts a time: the parts print figures.
set -u
out=${1:?usage: bash bench/gpu_run.sh OUTDIR [MNIST_DIR]}
mnist=${2:-}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" NUMBA_ENABLE_CUDASIM=0
# Numba warns at every launch of fewer blocks than SMs (most of ours: one block per batch row)
export NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
py=${PYTHON:-python3}
# each part's limit in seconds; together at most 460, so that one call stays under 8 minutes and the device
# time left holds a rerun (a limit of 0 skips its part)
# (seen on an H200: step 86 s; the old tests 68 s; torch-step 36 s; synthesis, blstm-ctc and the new tests did not
# end in 65, 30 and 75 s, mostly compiling)
# (the stroke and BLSTM-CTC parts spend their limits compiling: a second call can give them the time of the parts
# already measured, e.g. LIMIT_STEP=0 LIMIT_TESTS_NEW=0 LIMIT_TESTS=0 LIMIT_TORCH=0 LIMIT_BN=0 LIMIT_SYNTH=0
# LIMIT_TRAIN_STROKES=200 LIMIT_CTC=160 LIMIT_TESTS_VALUES=80 bash bench/gpu_run.sh OUT2)
# (tests-values, off unless given a limit: the CUDA twins' value tests, every option on against the CPU twins, that
# CI runs under the simulator, on the GPU)
# (persist, off unless given a limit: dev/lstm_persistent_cuda.py on 16-64 blocks instead of one per SM, forward and
# BPTT alone beside the graph path's; one per SM it took ~120 us a step at S1)
# (the step part adds the RNN rows and the graph path's overhead breakdown: events, host time, cProfile, the
# GPU's timeline, with the arrays from PyTorch's cache and from numba's allocator; seen: step 106-137 s, the graph
# tests 56 in ~70 s)
: "${LIMIT_STEP:=130}" "${LIMIT_TESTS_NEW:=100}" "${LIMIT_TESTS:=40}" "${LIMIT_TORCH:=45}" "${LIMIT_BN:=45}"
: "${LIMIT_SYNTH:=55}" "${LIMIT_TRAIN_STROKES:=30}" "${LIMIT_CTC:=15}" "${LIMIT_TRAIN:=30}" "${LIMIT_BARRIER:=0}"
: "${LIMIT_PERSIST:=0}" "${LIMIT_TESTS_VALUES:=0}"

part() {  # part NAME LIMIT CMD...: run CMD under LIMIT seconds, log to OUTDIR/NAME.txt (LIMIT 0: skipped)
  local name=$1 limit=$2; shift 2
  [ "$limit" -gt 0 ] || return 0
  local t0=$SECONDS
  echo "=== $name: $*" | tee "$out/$name.txt"
  timeout --kill-after=10 "$limit" "$@" >>"$out/$name.txt" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$out/$name.txt"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  "$py" -c "import sys, numpy, numba, importlib.metadata as m; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', m.version('numba-cuda'))"
  "$py" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())"
  nproc; grep -m1 'model name' /proc/cpuinfo
  "$py" -m lnrnn.cli info | grep CUDA
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

# the S1-S3 table first (the figures the GPU is lent for): the graph path on each library, the sequence
# kernels, cuDNN and eager PyTorch
part step "$LIMIT_STEP" "$py" bench/gpu_step.py --reps 10 ${GPU_STEP_ARGS:---overhead --rnn}
# the real-GPU tests, the newest paths first (each test's line as it ends, so that a part stopped at its limit
# still says what passed): the graph path on torch and cupy, the PyTorch binding on CUDA tensors; then the
# twins, the device update and the synthesis network
# (the step kernels' local rows: a thread owning several hidden units, a lane several batch rows; the BN cells' and
# the synthesis window's graph paths, the PyTorch binding's tests that have not yet run on a GPU, then the LSTM's
# and RNN's graph path)
# 8 test files at once (pyproject's addopts stop at 4 workers; the machine has 16 CPUs, and the tests' time is
# mostly each file's compiling): GPU_XDIST="-n 0" runs them in this process
xdist=${GPU_XDIST:--n 8 --maxprocesses 8}
new_tests=""
for t in tests/kernels/test_cuda_blocksizes.py::test_lstm_threads_owning_several_units \
  tests/kernels/test_cuda_blocksizes.py::test_lane_sums_several_values_odd_lanes \
  tests/kernels/test_cuda_blocksizes.py::test_bn_cells_lanes_owning_three_rows_with_masks \
  tests/kernels/test_cuda_bn_graphs.py tests/kernels/test_cuda_window_graphs.py \
  tests/interop/test_torch_cuda.py::test_cuda_tensors_reach_the_kernels_as_views_and_the_forward_copies_nothing_to_the_host \
  tests/interop/test_torch_cuda.py::test_a_call_on_a_busy_side_stream_gives_the_default_streams_results \
  tests/interop/test_torch_cuda.py::test_compiled_fullgraph_on_cuda_equals_eager tests/kernels/test_cuda_graphs.py; do
  [ -e "${t%%::*}" ] && new_tests="$new_tests $t"
done
part tests-new "$LIMIT_TESTS_NEW" "$py" -m pytest -v -p no:cacheprovider $xdist ${GPU_TESTS_NEW:-$new_tests}
part tests "$LIMIT_TESTS" "$py" -m pytest -q -p no:cacheprovider $xdist ${GPU_TESTS:-tests/kernels/test_cuda_kernels.py tests/training/test_device_update.py tests/model/test_synthesis_cuda.py tests/model/test_cuda_layers.py tests/kernels/test_window_cuda.py tests/training/test_device_batches.py tests/training/test_device_update_more.py tests/kernels/test_cuda_gpu_typing.py}
part tests-values "$LIMIT_TESTS_VALUES" "$py" -m pytest -q -p no:cacheprovider $xdist ${GPU_TESTS_VALUES:-$(ls tests/*/test_values*cuda*.py)}
# a PyTorch user's training step on CUDA tensors: lnrnn.torch against nn.LSTM (cuDNN) and an eager LN-LSTM
part torch-step "$LIMIT_TORCH" "$py" bench/torch_cuda_step.py --reps 5
# the BN cells (batch rows meet at every step): the graph path against per-step launches and cuDNN
part bn "$LIMIT_BN" "$py" bench/gpu_step.py --bn-only --reps 5
# Graves's synthesis network (3 x 400 LN-LSTM, K=10, B=32, T=500): one update on the GPU against the CPU's
part synthesis "$LIMIT_SYNTH" "$py" bench/synthesis_step.py --device cuda --batch 32 --reps 3
# strokes (S3's width, the mixture density head, ragged batches: the update on the device for lines of different
# lengths) against the bare forward + backward of the same stack over a batch of the same lines
part train-strokes "$LIMIT_TRAIN_STROKES" "$py" bench/train_throughput.py --device cuda --task strokes-synthetic \
  --hidden 400 --batch-size 32 --split 512/64 --epochs 3
# a bidirectional LSTM reader (CTC head, ragged lines): the update on the device against the one that ran the head,
# the reversals and the joins on the host (its first update checks that both give the same loss)
part blstm-ctc "$LIMIT_CTC" "$py" bench/blstm_ctc_update.py --norm none --hidden 128 --batch 32 --steps 300 --reps 3
if [ -n "$mnist" ]; then
  part train "$LIMIT_TRAIN" "$py" bench/train_throughput.py --device cuda --data-dir "$mnist" --split 768/128 --epochs 3
fi
part barrier "$LIMIT_BARRIER" "$py" bench/gpu_barrier.py
# the persistent variant's cost per step against its number of blocks (S1: 16, 32, 64; S2: 64 is the fewest that fit)
part persist "$LIMIT_PERSIST" "$py" bench/gpu_step.py --shapes S1 S2 --reps 5 --persistent-only \
  --persistent-blocks 16 32 64

echo "=== summary"
grep -h "ms \|check\|^S\|FAILED\|first step\|us a step\|not available\|replay alone\|timeline\|idle" "$out/step.txt"
grep -h "FAILED\|ERROR\| passed\| failed" "$out/tests-new.txt" 2>/dev/null | tail -n 30
tail -n 3 "$out/tests.txt" 2>/dev/null
tail -n 3 "$out/tests-values.txt" 2>/dev/null
grep -h "FAILED\|x torch\|check" "$out/torch-step.txt" 2>/dev/null | tail -n 20
grep -h "^S\|check\|ms " "$out/bn.txt" 2>/dev/null
grep -h -A2 "cuda ms" "$out/synthesis.txt" 2>/dev/null
grep -h "samples/s\|x  (" "$out/train-strokes.txt" 2>/dev/null
grep -h "check\|ms per update\|x$" "$out/blstm-ctc.txt" 2>/dev/null
[ -n "$mnist" ] && grep -h "samples/s\|x  (" "$out/train.txt"
[ -f "$out/barrier.txt" ] && tail -n 9 "$out/barrier.txt"
[ -f "$out/persist.txt" ] && grep -h "^S\|graph\|persistent" "$out/persist.txt"
exit 0
