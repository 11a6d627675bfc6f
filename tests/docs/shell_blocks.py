#!/usr/bin/env python3
"""Runs the shell blocks of README.md and docs/*.md as a reader would, in document order, and
fails when a command fails or an example output no longer matches.

They run in a scratch folder laid out as the repository (build/, scenarios/, models/, scripts/
linked; hw/, docs/ and results/ folders of their own), so whatever they write lands there and the
checkout is left as it was. A YAML block that a paragraph asks the reader to write ("Write
`my-study.yaml`") is written to that file first. A text block preceded by
`<!-- output of: COMMAND -->` is the output COMMAND must print. A few commands cannot run here,
each for the reason SKIPS gives (STAND_INS: one whose file a later command reads is replaced by
a command that makes that file), and the placeholders a reader replaces are replaced as
PLACEHOLDERS says.

usage: shell_blocks.py SOURCE_DIR BUILD_DIR [--list]   (--list: the commands and what is done
with each, running nothing)
"""

import os
import re
import subprocess
import sys
import tempfile
import time

# (pattern in the command, why it is not run here).
SKIPS = [
    (r"^scripts/test\.sh", "the test suite itself, which runs this test"),
    (r"^scripts/fuzz\.sh", "fuzzing: a clang build of its own and minutes per target"),
    (r"--backend cuda", "needs an NVIDIA GPU"),
    (r"about an hour|\(\d+ minutes\)", "minutes or more on 2 cores, as its comment says"),
    (r"build/bench/", "a benchmark (bench/): minutes, and speed is measured there, never as a test"),
]
# Commands that cannot run here but whose output later commands read: (pattern, why, the command
# run instead). calibrate measures this machine and refuses a busy one, which a parallel test
# suite keeps busy; the calibration the checked-in validate results used stands in for its file.
STAND_INS = [
    (r"placesim calibrate .*-o (\S+)", "calibrate refuses a machine a parallel test suite keeps busy",
     r"cp scenarios/validate/local-cpu.yaml \1"),
]
# What a reader puts in place of a document's placeholder: a file an earlier command made.
PLACEHOLDERS = {
    r"^scripts/setup\.sh && ": "",  # the set-up ran before the test suite
    r"\bOTHER\.h5\b": "results/quickstart@model.seq=1024,model.batch=4.h5",
    r"\bmy-gpu-server\.yaml\b": "hw/presets/dgx-a100.yaml",
    r"\bS\.yaml\b": "scenarios/quickstart.yaml",
    r"(?<![\w.])/tmp/": "tmp/",  # the scratch folder's own
}
LINKED = ["build", "scenarios", "models", "scripts"]  # read only: linked whole
COPIED = ["hw", "docs", "results"]  # written into: folders of links, one per entry
TIMEOUT_S = 600


def documents(source):
    docs = sorted(f for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    return ["README.md"] + [os.path.join("docs", d) for d in docs]


def commands(block):
    """A shell block's commands: backslash continuations joined, comment-only lines dropped."""
    out, pending = [], ""
    for line in block.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append(pending + line)
        pending = ""
    return out


def steps(source):
    """(document, line, kind, payload) in document order: kind 'file' (name, text), 'run'
    (command) or 'output' (command, expected text)."""
    fence = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
    for doc in documents(source):
        text = open(os.path.join(source, doc)).read()
        for m in fence.finditer(text):
            lang, body = m.group(1), m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()]
            paragraph = before.rstrip().rsplit("\n\n", 1)[-1]
            if lang == "yaml":
                asked = re.search(r"Write `([^`]+\.yaml)`", paragraph)
                if asked:
                    yield doc, line, "file", (asked.group(1), body)
            elif lang == "sh":
                for cmd in commands(body):
                    yield doc, line, "run", cmd
            elif lang == "text":
                marked = re.search(r"<!-- output of: (.*?) -->\s*$", before)
                if marked:
                    yield doc, line, "output", (marked.group(1), body)


def tracked(source, folder):
    """The entries of a folder a clean clone has (ignored files such as a calibration this
    checkout made would hide a command that fails on one); all of them outside a git checkout."""
    listed = subprocess.run(["git", "-C", source, "ls-files", "--", folder], capture_output=True, text=True)
    if listed.returncode != 0 or not listed.stdout:
        return sorted(os.listdir(os.path.join(source, folder)))
    return sorted({path[len(folder) + 1:].split("/")[0] for path in listed.stdout.splitlines()})


def prepare(source, build, work):
    for name in LINKED:
        target = build if name == "build" else os.path.join(source, name)
        os.symlink(os.path.abspath(target), os.path.join(work, name))
    for name in COPIED:
        os.mkdir(os.path.join(work, name))
        for entry in tracked(source, name):
            os.symlink(os.path.join(source, name, entry), os.path.join(work, name, entry))
    os.mkdir(os.path.join(work, "tmp"))
    # Outputs written into a linked folder of these would reach the checkout: make them real.
    for sub in ["docs/plots", "results/validate"]:
        path = os.path.join(work, sub)
        entries = tracked(source, sub)
        os.unlink(path)
        os.mkdir(path)
        for entry in entries:
            os.symlink(os.path.join(source, sub, entry), os.path.join(path, entry))


def plan_for(cmd, build):
    if "import placesim" in cmd and not os.path.isdir(os.path.join(build, "python")):
        return None, "this build has no Python module (pybind11-dev missing at configure time)"
    for pattern, why in SKIPS:
        if re.search(pattern, cmd):
            return None, why
    for pattern, why, instead in STAND_INS:
        m = re.search(pattern, cmd)
        if m:
            return m.expand(instead), why
    for pattern, value in PLACEHOLDERS.items():
        cmd = re.sub(pattern, value, cmd)
    return cmd, None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    source, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    listing = "--list" in sys.argv[3:]
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"), PYTHONNOUSERSITE="1")
    failures, ran, skipped = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="placesim-docs-") as work:
        prepare(source, build, work)
        for doc, line, kind, payload in steps(source):
            where = f"{doc}:{line}"
            if kind == "file":
                name, text = payload
                print(f"{where}: write {name}", flush=True)
                if not listing:
                    with open(os.path.join(work, name), "w") as f:
                        f.write(text)
                continue
            cmd, why = plan_for(payload if kind == "run" else payload[0], build)
            if why and cmd is None:
                print(f"{where}: skip  {payload}\n    ({why})", flush=True)
                skipped += 1
                continue
            if why:
                print(f"{where}: stand-in for {payload}\n    ({why}): {cmd}", flush=True)
            else:
                print(f"{where}: {'run ' if kind == 'run' else 'check'} {cmd}", flush=True)
            if listing:
                continue
            start = time.monotonic()
            try:
                done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env, text=True,
                                      capture_output=True, timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                failures.append(f"{where}: {cmd}\n    still running after {TIMEOUT_S} s")
                continue
            ran += 1
            print(f"    {time.monotonic() - start:.1f} s, exit {done.returncode}", flush=True)
            if kind == "run" and done.returncode != 0:
                failures.append(f"{where}: {cmd}\n    exit {done.returncode}:\n{done.stderr[-2000:]}")
            if kind == "output":
                expected = payload[1].strip()
                got = (done.stdout + done.stderr).strip()
                if got != expected:
                    failures.append(f"{where}: {cmd}\n    printed:\n{got}\n    where the document shows:\n{expected}")
    print(f"\n{ran} commands run, {skipped} skipped, {len(failures)} failed")
    for f in failures:
        print(f"\nFAILED {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
