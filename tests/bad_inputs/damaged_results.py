#!/usr/bin/env python3
"""Damaged results files against every command that reads one: byte flips, zeroed blocks and
truncations of a good file, drawn from a fixed seed, so the same cases come out every time.

Each must end with exit 0 (the damage hit bytes nothing reads) or 2 (a message naming the file),
never a signal, exit 1 or a hang. `compare` and `export --csv` read every case; `plot speedup`
and `run --resume` (which start Python or a sweep, and so take longer) every tenth.

usage: damaged_results.py PLACESIM_BINARY FIXTURES_DIR [--cases N] [--seed S]
"""

import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_S = 60


def damaged(good, rng, n):
    """n (name, bytes): a third flips of 1 to 8 bytes, a third zeroed blocks, a third cuts."""
    for i in range(n):
        data = bytearray(good)
        kind = i % 3
        if kind == 0:
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] ^= rng.randint(1, 255)
            yield f"flip-{i}", bytes(data)
        elif kind == 1:
            size = rng.choice([8, 64, 512, 4096])
            start = rng.randrange(len(data))
            data[start:start + size] = bytes(len(data[start:start + size]))
            yield f"zero-{i}", bytes(data)
        else:
            yield f"cut-{i}", bytes(data[: rng.randrange(1, len(data))])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("fixtures")
    ap.add_argument("--cases", type=int, default=411)
    ap.add_argument("--seed", type=int, default=20261206)
    args = ap.parse_args()
    failures, counts = [], {0: 0, 2: 0}
    crashed = hung = 0  # what reading in a child process caught (sim/core/child_call.hpp)
    with tempfile.TemporaryDirectory(prefix="placesim-damaged-") as work:
        scenario = os.path.join(args.fixtures, "lstm.yaml")
        good_path = os.path.join(work, "good.h5")
        subprocess.run([args.binary, "run", scenario, "-o", good_path], check=True, capture_output=True)
        good = open(good_path, "rb").read()
        rng = random.Random(args.seed)
        cases = [(k, name, data) for k, (name, data) in enumerate(damaged(good, rng, args.cases))]

        def check(case):
            k, name, data = case
            path = os.path.join(work, name + ".h5")
            with open(path, "wb") as f:
                f.write(data)
            commands = [["compare", path], ["export", path, "--csv"]]
            if k % 10 == 0:
                commands.append(["plot", "speedup", path, "-o", os.path.join(work, name + ".png")])
                resumed = os.path.join(work, name + "-resume.h5")
                shutil.copy(path, resumed)
                commands.append(["run", scenario, "--resume", "-o", resumed])
            outcomes = []
            for words in commands:
                try:
                    done = subprocess.run([args.binary, *words], capture_output=True, timeout=TIMEOUT_S)
                    outcomes.append((words, done.returncode, done.stderr.decode("utf-8", "replace").strip()))
                except subprocess.TimeoutExpired:
                    outcomes.append((words, None, f"still running after {TIMEOUT_S} s"))
            os.remove(path)
            return name, outcomes

        # Two at a time: a case that hangs HDF5 waits out the reader's time bound (3 s).
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for name, outcomes in pool.map(check, cases):
                for words, code, err in outcomes:
                    command = f"{name}: placesim {' '.join(words)}"
                    if code is None:
                        failures.append(f"{command}: {err}")
                        continue
                    if code in counts:
                        counts[code] += 1
                    crashed += "reading it crashed" in err
                    hung += "reading it did not end" in err
                    if code not in (0, 2):
                        why = f"signal {-code}" if code < 0 else f"exit {code}"
                        failures.append(f"{command}: {why}: {err[-500:]}")
                    elif code == 2 and "h5" not in err:
                        failures.append(f"{command}: exit 2 without naming the file: {err}")
    print(f"{args.cases} damaged files (seed {args.seed}): {counts[2]} commands refused them (exit 2), "
          f"{counts[0]} read them (exit 0), {len(failures)} failed; of the refusals, {crashed} crashed HDF5 and "
          f"{hung} hung it in the reading child")
    for f in failures:
        print("FAILED", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
