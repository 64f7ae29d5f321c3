"""What the simulator lets through but a GPU's compiler refuses, checked without a GPU.

Numba's simulator runs the CUDA kernels as Python, so it accepts a shared array whose shape is any
integer; the CUDA target types a shape only from constants: literals, or names the kernel reads from
its factory's closure (frozen at compile time), and not sums or products of them (``(R, H + 1)`` is
typed as (Literal[int], int64) and refused). A GPU run of the persistent LN-LSTM failed on exactly
that. Two checks:

- every ``cuda.shared.array`` / ``cuda.local.array`` in the package and its tests takes a shape written as literals
  and names that the enclosing kernel does not assign (read from the source);
- the persistent LN-LSTM's kernels (forward and BPTT, both drivers, float32 and float64) are typed and
  lowered by numba-cuda's compiler for a compute capability 9.0 device, in a child process without the
  simulator. Typing and lowering need no GPU and no CUDA toolkit; only the PTX step (not run) would.
  The device functions' compute capability is what a GPU would report (a stand-in, as no device is
  there to ask).

The reshape rule (a GPU's device arrays reshape only without a copy) is the simulator's own, made
strict in tests/conftest.py.
"""
import ast
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "lnrnn")


def _calls(tree):
    """(function node, call node) of every cuda.shared.array / cuda.local.array call, with its nearest
    enclosing function."""
    out = []

    def walk(node, fn):
        for child in ast.iter_child_nodes(node):
            here = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fn
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and child.func.attr == "array" and isinstance(child.func.value, ast.Attribute)
                    and child.func.value.attr in ("shared", "local")):
                out.append((fn, child))
            walk(child, here)
    walk(tree, None)
    return out


def _assigned(fn):
    """Names the function assigns (its locals), arguments included."""
    names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def shape_problems(source, where):
    """Lines whose shared/local array shape the CUDA target cannot type as constants."""
    bad = []
    for fn, call in _calls(ast.parse(source)):
        shape = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "shape"), None)
        items = shape.elts if isinstance(shape, ast.Tuple) else [shape]
        local = _assigned(fn) if fn is not None else set()
        for item in items:
            if isinstance(item, ast.Constant) and isinstance(item.value, int):
                continue
            if isinstance(item, ast.Name) and item.id not in local:
                continue
            bad.append(f"{where}:{call.lineno}: shape {ast.unparse(shape)}")
            break
    return bad


def test_shared_array_shapes_are_constants():
    bad, seen = [], 0
    for dirpath, _, files in [w for top in (PKG, os.path.join(ROOT, "tests")) for w in os.walk(top)]:
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                with open(path) as f:
                    src = f.read()
                seen += len(_calls(ast.parse(src)))
                bad += shape_problems(src, os.path.relpath(path, ROOT))
    assert seen >= 20, f"found only {seen} shared/local arrays: the walk misses the kernels"
    assert not bad, "shapes a GPU's compiler cannot type (write the sum in the factory, name it here):\n" + \
        "\n".join(bad)


def test_the_shape_rule_refuses_sums_and_kernel_locals():
    """The rule itself: a sum, a product and a name the kernel computes are refused; closure names and
    literals pass."""
    src = textwrap.dedent("""
        def factory(H, R):
            H1 = H + 1
            def kernel(a):
                n = a.shape[0]
                ok1 = cuda.shared.array((R, H1), dt)
                ok2 = cuda.local.array(4, dt)
                bad1 = cuda.shared.array((R, H + 1), dt)
                bad2 = cuda.shared.array(R * H, dt)
                bad3 = cuda.local.array(n, dt)
            return kernel
    """)
    bad = shape_problems(src, "x")
    assert [b.split(":")[1] for b in bad] == ["8", "9", "10"], bad


CHILD = textwrap.dedent("""
    import types as pytypes
    import numpy as np
    from numba import types
    from numba.cuda import compiler, dispatcher
    # device functions are compiled for the current device's compute capability: a Hopper's, here
    dispatcher.get_current_device = lambda: pytypes.SimpleNamespace(compute_capability=(9, 0))
    from lnrnn.kernels import lstm_persistent_cuda as P

    for name, nt in (("float32", types.float32), ("float64", types.float64)):
        a1, a2, a3 = (types.Array(nt, n, "C") for n in (1, 2, 3))
        i64, f64, T = types.int64, types.float64, types.Tuple
        H, B, U, R, tpb = 7, 3, 2, 2, 64  # 7 units over 4 blocks, 2 of 3 rows staged
        fwd = P._kernels(np.dtype(name), tpb, H, B, U, R)
        bwd = P._bwd_kernels(np.dtype(name), tpb, H, B, U, R)
        fargs = (a3, a2, a2, a2, T((a1,) * 7), f64, T((a3,) * 6), a3, T((a3, a3)))
        bargs = (a3, T((a3,) * 6), a2, a3, T((a1,) * 3), a2, f64, T((a3,) * 4), a2, a2, T((a3, a3)))
        for kernel, args in ((fwd[0], fargs), (fwd[1], (i64, i64, i64) + fargs + (a3,)),
                             (bwd[0], bargs), (bwd[1], (i64, i64, i64) + bargs)):
            compiler.compile_cuda(kernel.py_func, types.void, args, cc=(9, 0))
            print("typed", name, kernel.py_func.__qualname__)
""")


def test_persistent_kernels_type_for_a_gpu():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0", PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert r.stdout.count("typed ") == 8, r.stdout
