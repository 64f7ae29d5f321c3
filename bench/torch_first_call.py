"""What a first use of lnrnn.torch costs: `import torch`, `import lnrnn.torch`, building an LN-LSTM, its first
forward and first backward, each in a fresh process (best of --reps), as process CPU seconds and wall seconds.
The kernel cache should be warm (run it once first): a first run after installing compiles the kernels.

    python bench/torch_first_call.py --reps 3

Prints one row per stage; docs/bindings.md ("The cost of a first use") holds the figures and the hardware."""
import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
def now():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), r.ru_utime + r.ru_stime
marks = [now()]
import torch
marks.append(now())
import lnrnn.torch
marks.append(now())
m = lnrnn.torch.LSTM(28, 128, num_layers=2, batch_first=True, norm="ln")
x = torch.randn(8, 50, 28)
marks.append(now())
out, _ = m(x)
marks.append(now())
out.sum().backward()
marks.append(now())
print(json.dumps({"stages": [[b[0] - a[0], b[1] - a[1]] for a, b in zip(marks, marks[1:])],
                  "torch._dynamo loaded": "torch._dynamo" in sys.modules}))
"""
STAGES = ("import torch", "import lnrnn.torch", "build LSTM(28, 128, 2 layers, ln)", "first forward (8,50,28)",
          "first backward")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3, help="fresh processes; the best of them is printed")
    args = ap.parse_args()
    runs = [json.loads(subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                                      check=True).stdout.splitlines()[-1]) for _ in range(args.reps)]
    print(f"{'stage':36s} {'wall s':>8s} {'CPU s':>8s}   (best of {args.reps} fresh processes)")
    for i, name in enumerate(STAGES):
        print(f"{name:36s} {min(r['stages'][i][0] for r in runs):8.2f} {min(r['stages'][i][1] for r in runs):8.2f}")
    print("torch._dynamo loaded by the first forward and backward:", any(r["torch._dynamo loaded"] for r in runs))


if __name__ == "__main__":
    main()
