"""The Python module (python/placesim) against the program: the same records as --json, the
results file as a DataFrame, plans, bad input, Ctrl-C, and docs/python.md's example."""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import placesim

SOURCE = os.environ["PLACESIM_SOURCE_DIR"]
BINARY = os.environ["PLACESIM_BINARY"]
QUICKSTART = os.path.join(SOURCE, "scenarios", "quickstart.yaml")
SHORT = {"sweep.model.arch": ["gpt2-large"]}  # the quickstart's first point: the same placers and MILP


def cli_json(*words):
    done = subprocess.run([BINARY, *words, "--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


class Module(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_run_gives_the_records_the_program_prints(self):
        ours = placesim.run(QUICKSTART, set=SHORT, output=self.path("py.h5"))
        theirs = cli_json("run", QUICKSTART, "--set", 'sweep.model.arch=["gpt2-large"]', "-o", self.path("cli.h5"))
        self.assertEqual(ours, theirs)
        self.assertEqual(len(ours["runs"]), 6)  # 1 model x 6 placers
        self.assertTrue(any(r["milp"] for r in ours["runs"]))  # the CBC module loaded in Python

    def test_results_load_into_pandas_or_a_list(self):
        runs = placesim.run(QUICKSTART, set=SHORT, output=self.path("r.h5"))["runs"]
        frame = placesim.results(self.path("r.h5"))
        self.assertEqual(type(frame).__name__, "DataFrame")
        self.assertEqual(len(frame), len(runs))
        self.assertEqual(list(frame["placer"]), [r["placer"] for r in runs])
        self.assertEqual(list(frame["point.model.arch"]), [r["point"]["model.arch"] for r in runs])
        for got, run in zip(frame["makespan_s"], runs):
            if run["makespan_s"] is None:
                self.assertNotEqual(got, got)  # NaN
            else:
                self.assertEqual(got, run["makespan_s"])
        saved = sys.modules.get("pandas")
        sys.modules["pandas"] = None  # import pandas raises ImportError: as without python3-pandas
        try:
            records = placesim.results(self.path("r.h5"))
        finally:
            sys.modules["pandas"] = saved
        self.assertIsInstance(records, list)
        self.assertEqual([r["makespan_s"] for r in records], [r["makespan_s"] for r in runs])

    def test_a_plan_simulated_gives_its_run(self):
        runs = placesim.run(QUICKSTART, set=SHORT, output=self.path("r.h5"))["runs"]
        heft = next(r for r in runs if r["placer"] == "heft")
        placesim.plan(QUICKSTART, "heft", set=SHORT, point=0, output=self.path("plan.json"))
        simulated = placesim.simulate(self.path("plan.json"), scenario=QUICKSTART, set=SHORT, point=0)
        self.assertEqual(simulated["makespan_s"], heft["makespan_s"])

    def test_bad_input_raises_with_file_and_line(self):
        bad = self.path("bad.yaml")
        with open(bad, "w") as f:
            f.write("name: bad\nhardware: sortinghat-v100\nmodel: {generator: transformer, arch: no-such-arch}\n"
                    "placers: [heft]\n")
        with self.assertRaises(placesim.InputError) as caught:
            placesim.run(bad, output=self.path("bad.h5"))
        self.assertIsInstance(caught.exception, ValueError)
        self.assertRegex(str(caught.exception), re.escape(bad) + r":3:\d+")
        self.assertFalse(os.path.exists(self.path("bad.h5")))
        with self.assertRaises(placesim.InputError):
            placesim.run(QUICKSTART, set={"model.batch": "many"}, dry_run=True)

    def test_ctrl_c_stops_the_sweep_and_gives_the_handler_back(self):
        out = self.path("cut.h5")

        def interrupt():  # once the sweep is under way (its lock is taken first)
            while not os.path.exists(out + ".lock"):
                time.sleep(0.01)
            time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGINT)

        threading.Thread(target=interrupt, daemon=True).start()
        with self.assertRaises(KeyboardInterrupt) as caught:
            placesim.run(QUICKSTART, output=out, jobs=1)
        self.assertIn("--resume", str(caught.exception))
        self.assertFalse(os.path.exists(out + ".lock"))
        # Python's own handler is back: a Ctrl-C now is Python's KeyboardInterrupt.
        self.assertIs(signal.getsignal(signal.SIGINT), signal.default_int_handler)
        with self.assertRaises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        # The file is whole: resume runs the rest.
        resumed = placesim.run(QUICKSTART, output=out, resume=True)
        self.assertEqual(len(resumed["runs"]), 12)
        self.assertNotIn("interrupted", [r["status"] for r in resumed["runs"]])

    def test_the_docs_example_runs(self):
        text = open(os.path.join(SOURCE, "docs", "python.md")).read()
        blocks = re.findall(r"```python\n(.*?)```", text, re.S)
        self.assertTrue(blocks)
        os.symlink(os.path.join(SOURCE, "scenarios"), self.path("scenarios"))
        done = subprocess.run([sys.executable, "-c", "\n".join(blocks)], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("heft", done.stdout)
        # The MILP solver's own log stays out of the caller's output (it showed under Python:
        # CbcModel::passInPriorities logs "Cbc0026I ..." at its default level).
        for solver in ["Cbc0", "Clp0", "Coin0"]:
            self.assertNotIn(solver, done.stdout + done.stderr)


if __name__ == "__main__":
    unittest.main()
