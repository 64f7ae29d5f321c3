"""Mutation check: plant each bug of tests/mutants/mutants.py in a scratch copy of the repository, run
the tests that must catch it there, and print caught/missed and a score. On demand, not in CI:

    python tests/mutants/run.py                 # every mutant (slow: kernels compile in the copy)
    python tests/mutants/run.py --list          # names, files and tests, nothing run
    python tests/mutants/run.py --only 'race-*' --only adam-bias   # names or fnmatch patterns

How it runs
    1. The files git knows of (tracked, and untracked ones not ignored: ``git ls-files -co
       --exclude-standard``) are copied from the working tree into a scratch directory.
    2. Baseline: the tests of the selected mutants run once on the unmodified copy; a mutant whose
       tests fail there cannot be judged and is reported as such. This run fills a Numba cache
       (NUMBA_CACHE_DIR inside the scratch directory; the real tree's cache is never read).
    3. Per mutant: its snippet must occur exactly once in its file, else it is reported loudly as
       NOT APPLIED (the code moved: update the mutant). The file is rewritten, its tests run with the
       copy as cwd and first on PYTHONPATH, and the file is restored (with its old mtime, so that
       cached kernels of untouched modules stay valid). Each mutant gets a copy of the baseline cache
       without the entries of the mutated module and of every lnrnn module that imports it,
       directly or not: Numba's cache does not notice that a function it compiled in calls changed.
    A mutant is CAUGHT when its tests fail (pytest exit status 1, or 2 for an error during
    collection) or exceed --timeout (a planted deadlock); MISSED when they pass.
Exit status: 0 when every selected mutant was applied and caught, 1 otherwise.
"""
import argparse
import ast
import fnmatch
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutants import MUTANTS  # noqa: E402


def select(patterns):
    if not patterns:
        return list(MUTANTS)
    chosen = [m for m in MUTANTS if any(fnmatch.fnmatchcase(m["name"], p) for p in patterns)]
    unknown = [p for p in patterns if not any(fnmatch.fnmatchcase(m["name"], p) for m in MUTANTS)]
    if unknown:
        sys.exit(f"no mutant matches {', '.join(unknown)}; see --list")
    return chosen


def copy_repo(dest):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):  # deleted in the working tree
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, rel))


def module_name(rel):
    return rel[:-3].replace("/", ".").removesuffix(".__init__")


def importers(tree, target):
    """Modules of the lnrnn package in ``tree`` that import module ``target`` (e.g. lnrnn.kernels.cpu.gemm),
    directly or through others, and target itself."""
    graph = {}
    for folder, _, names in os.walk(os.path.join(tree, "lnrnn")):
        for n in names:
            if n.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, n), tree)
                deps = set()
                for node in ast.walk(ast.parse(open(os.path.join(tree, rel)).read())):
                    if isinstance(node, ast.ImportFrom) and node.module:
                        deps.add(node.module)
                        deps.update(f"{node.module}.{a.name}" for a in node.names)
                    elif isinstance(node, ast.Import):
                        deps.update(a.name for a in node.names)
                graph[module_name(rel)] = deps
    found, todo = {target}, [target]
    while todo:
        t = todo.pop()
        for mod, deps in graph.items():
            if mod not in found and t in deps:
                found.add(mod)
                todo.append(mod)
    return found


def prune_cache(cache, modules):
    """Delete Numba cache entries (<module stem>.<function>-<line>.pyXY.nbi/.nbc) of these modules."""
    stems = {m.rsplit(".", 1)[-1] for m in modules}
    for folder, _, names in os.walk(cache):
        for n in names:
            if n.split(".", 1)[0] in stems and (n.endswith(".nbi") or n.endswith(".nbc")):
                os.unlink(os.path.join(folder, n))


def pytest_run(tree, tests, cache, timeout, log, first_failure=True):
    env = dict(os.environ, PYTHONPATH=tree + os.pathsep + os.environ.get("PYTHONPATH", ""),
               NUMBA_CACHE_DIR=cache, PYTHONDONTWRITEBYTECODE="1")
    env.pop("LNRNN_NO_CACHE", None)
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *(["-x"] if first_failure else []),
           *tests]
    t0 = time.perf_counter()
    with open(log, "w") as f:
        # Its own process group, killed whole afterwards: a mutant that crashes pytest (a compiled read out of
        # bounds) or runs past the timeout leaves no xdist worker or child process running into the next mutant.
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = "timeout"
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:  # the group is already empty
                pass
            proc.wait()
    return rc, time.perf_counter() - t0


def first_error(log):
    """The first 'E   ...' line pytest printed: what the tests noticed."""
    with open(log) as f:
        for line in f:
            if line.startswith("E   "):
                return "\n    " + line[4:].strip()[:160]
    return ""


def tail(path, n=15):
    with open(path) as f:
        return "".join(f.readlines()[-n:])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", action="append", metavar="NAME", help="run only these mutants (names or fnmatch "
                    "patterns; repeatable)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--check", action="store_true", help="only check that every snippet applies (exactly once) "
                    "and every test id exists (collected, not run)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per mutant's test run (default 900)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the run on the unmodified copy")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory (its path is printed)")
    args = ap.parse_args(argv)
    chosen = select(args.only)
    if args.list:
        for m in chosen:
            print(f"{m['name']:28s} {m['file']}\n{'':28s} {' '.join(m['tests'])}")
        print(f"{len(chosen)} mutants")
        return 0
    if args.check:
        bad = 0
        for m in chosen:
            path = os.path.join(ROOT, m["file"])
            count = open(path).read().count(m["old"]) if os.path.isfile(path) else 0
            missing = [t for t in m["tests"] if not os.path.isfile(os.path.join(ROOT, t.split("::")[0]))]
            if count != 1 or missing:
                bad += 1
                print(f"{m['name']}: NOT APPLICABLE !!! snippet found {count} times in {m['file']}"
                      + (f"; missing test files {missing}" if missing else ""))
        # every test id names a test that exists (a renamed test or parameter would make pytest run nothing)
        ids = sorted({t for m in chosen for t in m["tests"]})
        r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                            *ids], cwd=ROOT, capture_output=True, text=True)
        gone = [line for line in r.stdout.splitlines() + r.stderr.splitlines() if line.startswith("ERROR: not found")]
        for line in gone:
            print(f"NOT APPLICABLE !!! a mutant's test id {line[len('ERROR: '):]}")
        if r.returncode != 0 and not gone:
            print(f"NOT APPLICABLE !!! collecting the mutants' tests failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        bad += r.returncode != 0                               # 4 where an id is not found
        print(f"{len(chosen) - bad}/{len(chosen)} mutants apply")
        return 1 if bad else 0

    scratch = tempfile.mkdtemp(prefix="lnrnn-mutants-")
    tree, base_cache = os.path.join(scratch, "repo"), os.path.join(scratch, "numba-baseline")
    print(f"scratch copy: {tree}", flush=True)
    copy_repo(tree)
    shared = os.path.join(os.path.dirname(ROOT), "shared")  # tests read ../shared/data/mnist beside the repo
    if os.path.isdir(shared):
        os.symlink(shared, os.path.join(scratch, "shared"))
    results = {}
    try:
        if not args.no_baseline:
            tests = sorted({t for m in chosen for t in m["tests"]})
            log = os.path.join(scratch, "baseline.log")
            rc, secs = pytest_run(tree, tests, base_cache, args.timeout * 2, log, first_failure=False)
            print(f"baseline: {len(tests)} test ids, exit {rc} in {secs:.0f} s", flush=True)
            if rc != 0:
                print(tail(log, 30))
                print("BASELINE FAILS: fix the tests (or the code) before judging mutants; judging anyway, but a "
                      "mutant whose tests already fail is not counted as caught.", flush=True)
                failed = [line.split()[1] for line in open(log) if line.startswith(("FAILED ", "ERROR "))]
                broken = {m["name"] for m in chosen
                          if any(f == t or f.startswith(t + "[") or f.startswith(t + "::") or f == t.split("::")[0]
                                 for f in failed for t in m["tests"])}
            else:
                broken = set()
        else:
            broken = set()
        os.makedirs(base_cache, exist_ok=True)
        for k, m in enumerate(chosen, 1):
            name, path = m["name"], os.path.join(tree, m["file"])
            label = f"[{k}/{len(chosen)}] {name}"
            if not os.path.isfile(path):
                results[name] = "not applied"
                print(f"{label}: NOT APPLIED !!! {m['file']} does not exist", flush=True)
                continue
            src = open(path).read()
            count = src.count(m["old"])
            if count != 1:
                results[name] = "not applied"
                print(f"{label}: NOT APPLIED !!! its snippet occurs {count} times in {m['file']} (must be once): "
                      f"update the mutant\n    {m['old']!r}", flush=True)
                continue
            st = os.stat(path)
            cache = os.path.join(scratch, f"numba-{k}")
            shutil.copytree(base_cache, cache)
            prune_cache(cache, importers(tree, module_name(m["file"])))
            with open(path, "w") as f:
                f.write(src.replace(m["old"], m["new"]))
            log = os.path.join(scratch, f"{name}.log")
            try:
                rc, secs = pytest_run(tree, m["tests"], cache, args.timeout, log)
            finally:
                with open(path, "w") as f:
                    f.write(src)
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
                shutil.rmtree(cache, ignore_errors=True)
            if name in broken:
                results[name] = "baseline fails"
                print(f"{label}: UNJUDGED (its tests fail without the mutant)", flush=True)
            elif rc in (1, 2, "timeout"):
                results[name] = "caught"
                how = {1: "tests failed", 2: "tests failed or collection error", "timeout": "timed out"}[rc]
                print(f"{label}: caught ({how}, {secs:.0f} s){first_error(log)}", flush=True)
            elif rc == 0:
                results[name] = "missed"
                print(f"{label}: MISSED ({secs:.0f} s): {m.get('why', '')}", flush=True)
            else:
                results[name] = "error"
                print(f"{label}: ERROR pytest exit {rc} (a test id not found?)\n{tail(log)}", flush=True)
    finally:
        if args.keep:
            print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    caught = sum(v == "caught" for v in results.values())
    judged = sum(v in ("caught", "missed") for v in results.values())
    print(f"\nmutation score: {caught}/{judged} caught"
          + "".join(f", {sum(v == s for v in results.values())} {s}" for s in ("missed", "not applied", "error",
                                                                             "baseline fails")
                    if any(v == s for v in results.values())))
    for s in ("missed", "not applied", "error", "baseline fails"):
        names = [n for n, v in results.items() if v == s]
        if names:
            print(f"{s}: {', '.join(names)}")
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
