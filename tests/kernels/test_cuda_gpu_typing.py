"""What the simulator lets through but a GPU's compiler refuses, checked without a GPU.

Numba's simulator runs the CUDA kernels as Python, so it accepts a shared array whose shape is any
integer; the CUDA target types a shape only from constants: literals, or names the kernel reads from
its factory's closure (frozen at compile time), and not sums or products of them (``(R, H + 1)`` is
typed as (Literal[int], int64) and refused). A GPU run of the persistent LN-LSTM failed on exactly
that. Here every ``cuda.shared.array`` / ``cuda.local.array`` in the package, the kernel variants in dev/
and the tests must take a shape written as literals and names that the enclosing kernel does not assign
(read from the source, so kernels that tests/kernels/test_cuda_backend.py does not compile are covered too).

Elsewhere: tests/kernels/test_cuda_backend.py types and lowers every kernel for a GPU target without one (PTX
where NVVM is installed); tests/conftest.py makes the simulator's reshape as strict as a device
array's.
"""
import ast
import os
import textwrap
import testpaths

ROOT = testpaths.ROOT
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


def shape_problems(calls, where):
    """Lines whose shared/local array shape the CUDA target cannot type as constants, of calls (_calls)."""
    bad = []
    for fn, call in calls:
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
    for dirpath, _, files in [w for top in (PKG, os.path.join(ROOT, "dev"), os.path.join(ROOT, "tests"))
                              for w in os.walk(top)]:
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                with open(path) as f:
                    src = f.read()
                calls = _calls(ast.parse(src))
                seen += len(calls)
                bad += shape_problems(calls, os.path.relpath(path, ROOT))
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
    bad = shape_problems(_calls(ast.parse(src)), "x")
    assert [b.split(":")[1] for b in bad] == ["8", "9", "10"], bad
