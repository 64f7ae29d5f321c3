"""A random sample of single-token bugs, each judged by the test files a developer who changed its module would
run: an estimate of how many fresh bugs, planted by someone else, those files catch. On demand, not in CI:

    python tests/mutants/random_sample.py --seed 1 --count 40           # plant and judge them (run.py's way)
    python tests/mutants/random_sample.py --seed 1 --count 40 --list    # the bugs and their tests; nothing run
    python tests/mutants/random_sample.py --seed 1 --count 40 --all-named  # judged by all files named after each

Where. lnrnn's modules outside lnrnn/kernels (the kernels' twins have their catalogue of hand-planted bugs, and
their gradient checks), a module drawn with its line count as weight, then one of its sites at random. Kinds: a
comparison turned (< and <=, > and >=, == and !=), ``is`` and ``is not``, + and -, * and /, // and *, ``and`` and
``or``, a ``not`` dropped, a small integer (0 to 3) one larger, min and max, True and False. Lines that raise or
build an error are left out: a changed word there is caught by any test that reads the sentence, which says nothing
about the code. Some planted bugs are equivalent (the code does the same either way); read the missed ones.

Tests. The files whose name holds the module's name, then those that import the module by its dotted name, the
most mentions first, at most MAX_TESTS; the files slow by design (child processes, MPI, notebooks, CUDA under the
simulator) are left out, as a developer's quick run leaves them out. With ``--all-named``, every file named after
the module (what ``pytest -k <name>`` runs, less the slow ones), then importers up to MAX_TESTS in all: most
modules have more than MAX_TESTS such files, and a check that sits in one past the first MAX_TESTS is one a
developer's run of the module's files finds. The sample is ``rnd<seed>-<n>`` in run.py's report; the same seed
plants the same bugs in the same tree, with either choice of files.
"""
import argparse
import ast
import glob
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

MAX_TESTS = 8
LEFT_OUT = ("lnrnn/kernels/", "lnrnn/pretrained/")
SLOW = ("test_reproducible", "test_mpi", "test_cache_blas", "test_notebooks", "test_jax.py", "test_docs",
        "test_structure", "cuda")
SWAP = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
        ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
ARITH = {"+": "-", "-": "+", "*": "/", "//": "*"}


def modules():
    return sorted(p for p in glob.glob("lnrnn/**/*.py", recursive=True)
                  if not p.startswith(LEFT_OUT) and os.path.basename(p) not in ("__init__.py", "version.py"))


def between(line, a, b, old, new):
    """(start, end, text) replacing ``old`` by ``new`` in line[a:b] when that is all the gap holds, else None."""
    gap = line[a:b]
    return (a, b, gap.replace(old, new, 1)) if gap.strip() == old else None


def site(node, line):
    """The single-token change node allows on its own line: (start, end, replacement) or None."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b, op = node.left.end_col_offset, node.comparators[0].col_offset, type(node.ops[0])
        if op in SWAP:
            return between(line, a, b, *SWAP[op])
        if op in (ast.Is, ast.IsNot):
            return between(line, a, b, *(("is not", "is") if op is ast.IsNot else ("is", "is not")))
    if isinstance(node, ast.BinOp) and not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
        gap = line[node.left.end_col_offset:node.right.col_offset].strip()
        if gap in ARITH:
            return between(line, node.left.end_col_offset, node.right.col_offset, gap, ARITH[gap])
    if isinstance(node, ast.BoolOp) and len(node.values) == 2:
        a, b = node.values[0].end_col_offset, node.values[1].col_offset
        return between(line, a, b, "and", "or") or between(line, a, b, "or", "and")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):  # "not (" keeps its parenthesis
        a, b = node.col_offset, node.operand.col_offset
        return a, b, line[a:b].replace("not", "", 1).lstrip()
    if isinstance(node, ast.Constant) and line[node.col_offset:node.end_col_offset] == repr(node.value):
        if type(node.value) is int and 0 <= node.value <= 3:
            return node.col_offset, node.end_col_offset, str(node.value + 1)
        if type(node.value) is bool:
            return node.col_offset, node.end_col_offset, str(not node.value)
    if isinstance(node, ast.Name) and node.id in ("min", "max") and isinstance(node.ctx, ast.Load):
        return node.col_offset, node.end_col_offset, "max" if node.id == "min" else "min"
    return None


def sites(path):
    """(lines, [(line index, start, end, replacement)]) of one module."""
    with open(path) as f:
        src = f.read()
    lines = src.splitlines(keepends=True)
    tree = ast.parse(src)
    in_fstring = {id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    found = []
    for node in ast.walk(tree):
        if id(node) in in_fstring or getattr(node, "lineno", None) is None or node.lineno != node.end_lineno:
            continue
        i = node.lineno - 1
        if lines[i].lstrip().startswith(("raise", "#")) or "Error(" in lines[i]:
            continue
        change = site(node, lines[i])
        if change is not None:
            found.append((i, *change))
    return lines, found


def targeted(path, texts, all_named=False):
    """The test files a developer who changed ``path`` would run (module docstring, Tests); ``all_named``: every
    file named after the module, as ``pytest -k <name>`` picks them, then importers up to MAX_TESTS in all."""
    dotted = path[:-3].replace("/", ".")
    package, _, name = dotted.rpartition(".")
    ranked = []
    for t, text in texts.items():
        if any(s in t for s in SLOW):
            continue
        mentions = text.count(dotted) + len(re.findall(rf"from {re.escape(package)} import [^\n]*\b{name}\b", text))
        named = name in os.path.basename(t)
        if named or mentions:
            ranked.append((-(mentions + 5 * named), t, named))
    ranked.sort()
    if not all_named:
        return [t for _, t, _ in ranked[:MAX_TESTS]]
    first = [t for _, t, named in ranked if named]
    return first + [t for _, t, named in ranked if not named][:max(0, MAX_TESTS - len(first))]


def plant(seed, count, all_named=False):
    """``count`` mutants in run.py's form, the same for the same seed and tree (the same bugs whatever
    ``all_named``: only their test files differ)."""
    rng = random.Random(seed)
    texts = {}
    for t in sorted(glob.glob("tests/**/test_*.py", recursive=True)):
        if "mutants" not in t:
            with open(t) as f:
                texts[t] = f.read()
    weights = {}
    for m in modules():
        with open(m) as f:
            weights[m] = sum(1 for _ in f)
    names, sizes = list(weights), list(weights.values())
    chosen, seen, tries = [], set(), 0
    while len(chosen) < count and tries < 100 * count:
        tries += 1
        path = rng.choices(names, weights=sizes)[0]
        lines, found = sites(path)
        tests = targeted(path, texts, all_named)
        if not found or not tests:
            continue
        i, a, b, new_text = rng.choice(found)
        if (path, i) in seen:
            continue
        seen.add((path, i))
        src = "".join(lines)
        k = 1  # lines in the snippet: enough for it to occur once in the file
        while src.count("".join(lines[i:i + k])) != 1 and i + k < len(lines):
            k += 1
        old = "".join(lines[i:i + k])
        new = lines[i][:a] + new_text + lines[i][b:] + "".join(lines[i + 1:i + k])
        if old != new:
            chosen.append(dict(name=f"rnd{seed}-{len(chosen):02d}", file=path, old=old, new=new, tests=tests,
                               why=f"line {i + 1}: {lines[i].strip()[:60]!r} -> {new.splitlines()[0].strip()[:60]!r}"))
    return chosen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--list", action="store_true", help="print the bugs and their tests; run nothing")
    ap.add_argument("--all-named", action="store_true",
                    help=f"judge by every test file named after the module, not the {MAX_TESTS} most relevant")
    ap.add_argument("--timeout", type=float, default=400, help="seconds per bug's test run (default 400)")
    args = ap.parse_args(argv)
    os.chdir(run.ROOT)
    sample = plant(args.seed, args.count, args.all_named)
    if args.list:
        for m in sample:
            print(f"{m['name']}  {m['file']}  {m['why']}\n    {' '.join(m['tests'])}")
        return 0
    run.MUTANTS.extend(sample)
    return run.main(["--only", f"rnd{args.seed}-*", "--timeout", str(args.timeout)])


if __name__ == "__main__":
    sys.exit(main())
