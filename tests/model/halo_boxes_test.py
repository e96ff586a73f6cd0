#!/usr/bin/env python3
"""scripts/figures/plot_halo_boxes.py on small halo_bench reports written here (samples with known
percentiles): the markdown table holds each box and the speedup over comb_fused, the plot is a
PNG, the whisker choice and the strategy filter apply, gzipped reports read, and bad inputs end
with a message naming the file. Exits 77 (CTest: skipped) with the reason when no python3 with
matplotlib is found.

    halo_boxes_test.py --script scripts/figures/plot_halo_boxes.py
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SKIPPED = 77
OPTIONS = None  # the command line, parsed in main


def python_with_matplotlib():
    """This interpreter or Debian's, whichever can import matplotlib; None if neither."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        if not os.path.exists(candidate):
            continue
        probe = subprocess.run([candidate, "-c", "import matplotlib"], capture_output=True)
        if probe.returncode == 0:
            return candidate
    return None


def strategy(name, samples, passed=True):
    ordered = sorted(samples)
    return {"name": name, "verification": {"possible": True, "exchanges": 6, "passed": passed,
                                           "failures": []},
            "samples_us": samples,
            "summary_us": {"count": len(samples), "median": ordered[len(ordered) // 2],
                           "min": ordered[0], "max": ordered[-1]}}


def report(cube, scale=1.0):
    """101 samples per strategy, so that every percentile used is one sample: comb_fused
    100..200 (median 150, q1 125, q3 175, p10 110, p90 190) and stream_notify 0.8 times that
    (speedup 1.25x), and an untimed resident."""
    fused = [scale * (100.0 + i) for i in range(101)]
    notify = [0.8 * value for value in fused]
    fused.reverse()  # the samples come in run order, not sorted
    untimed = {"name": "resident", "verification": {"possible": True, "exchanges": 0,
                                                    "passed": False, "failures": []},
               "samples_us": [], "summary_us": None}
    return {"format": "haloflag-halo-bench", "version": 1, "date": "2026-01-01T00:00:00Z",
            "machine": {"hosts": ["fixture-node"], "gpus": [{"rank": 0, "name": "Fixture GPU"}]},
            "mpi": {"library": "Fixture MPI 1.0", "ranks": 2},
            "backend": {"name": "cuda", "emulated_on_cpu": False},
            "workload": {"description": f"domain {cube}x{cube}x{cube} on rank grid 4x4x4"},
            "model": {"bound_us": 20.0},
            "strategies": [strategy("comb_fused", fused), strategy("stream_notify", notify),
                           untimed]}


class HaloBoxes(unittest.TestCase):
    python = None

    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="haloflag_halo_boxes_test_")
        self.folder = Path(self.scratch.name)
        self.out = self.folder / "boxes"
        self.reports = [self.write("run_200.json", report(200)),
                        self.write("run_400.json", report(400, scale=2.0))]

    def tearDown(self):
        self.scratch.cleanup()

    def write(self, name, content):
        path = self.folder / name
        path.write_text(json.dumps(content))
        return path

    def plot(self, *arguments):
        # The guard keeps the script on the interpreter chosen here.
        env = {**os.environ, "HALOFLAG_MODEL_REPORT_REEXEC": "1"}
        return subprocess.run([self.python, str(OPTIONS.script), *map(str, arguments)],
                              capture_output=True, text=True, env=env)

    def test_boxes_table_and_plot(self):
        run = self.plot(*reversed(self.reports), "--out-dir", self.out)  # any order
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "halo_boxes.md").read_text()
        self.assertIn("| cube 200 | comb_fused | 101 | 150.0 | 125.0 – 175.0 | 110.0 – 190.0 "
                      "| 1.00x |", text)
        self.assertIn("| cube 200 | stream_notify | 101 | 120.0 | 100.0 – 140.0 | 88.0 – 152.0 "
                      "| 1.25x |", text)
        self.assertIn("| cube 400 | comb_fused | 101 | 300.0 | 250.0 – 350.0 | 220.0 – 380.0 "
                      "| 1.00x |", text)
        self.assertIn("| cube 200 | resident (not verified) | - | not timed | - | - | - |", text)
        self.assertIn("whiskers at p10 and p90", text)
        self.assertIn("Fixture GPU (cuda backend)", text)
        self.assertIn("![time per exchange per strategy, box plots](halo_boxes.png)", text)
        self.assertTrue(text.index("| cube 200 |") < text.index("| cube 400 |"))
        png = (self.out / "halo_boxes.png").read_bytes()
        self.assertTrue(png.startswith(b"\x89PNG"), "halo_boxes.png is not a PNG")
        summary = json.loads((self.out / "halo_boxes.json").read_text())
        self.assertEqual([panel["cube"] for panel in summary["panels"]], [200, 400])
        self.assertAlmostEqual(summary["panels"][0]["rows"][1]["speedup_vs_comb_fused"], 1.25)

    def test_iqr_whiskers_draw_outliers(self):
        outlying = report(200)
        outlying["strategies"][0]["samples_us"][0] = 1000.0  # one slow exchange
        run = self.plot(self.write("outlying.json", outlying), "--out-dir", self.out,
                        "--whiskers", "iqr")
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "halo_boxes.md").read_text()
        # 1000 replaces 200: quartiles stay, the upper whisker ends at the largest sample
        # within q3 + 1.5 IQR (175 + 75 = 250), that is 199.
        self.assertIn("| cube 200 | comb_fused | 101 | 150.0 | 125.0 – 175.0 | 100.0 – 199.0 ",
                      text)
        self.assertIn("within 1.5 IQR", text)
        summary = json.loads((self.out / "halo_boxes.json").read_text())
        self.assertEqual(summary["panels"][0]["rows"][0]["box"]["outliers"], [1000.0])

    def test_strategies_filter_order_and_gzip(self):
        packed = self.folder / "run_200.json.gz"
        with gzip.open(packed, "wt") as sink:
            json.dump(report(200), sink)
        run = self.plot(packed, "--out-dir", self.out, "--strategies",
                        "stream_notify,comb_fused", "--no-plot")
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "halo_boxes.md").read_text()
        self.assertLess(text.index("| stream_notify |"), text.index("| comb_fused |"))
        self.assertNotIn("resident", text)
        self.assertFalse((self.out / "halo_boxes.png").exists())

        run = self.plot(packed, "--out-dir", self.out, "--strategies", "comb_fused,nonesuch")
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{packed}: no strategy nonesuch", run.stderr)

    def test_bad_inputs_are_named(self):
        other = self.write("other.json", {"format": "something-else"})
        run = self.plot(self.reports[0], other, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{other}: not a halo_bench report", run.stderr)

        broken = self.folder / "broken.json"
        broken.write_text("{ not json")
        run = self.plot(broken, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(str(broken), run.stderr)

        no_samples = report(200)
        del no_samples["strategies"][1]["samples_us"]
        path = self.write("no_samples.json", no_samples)
        run = self.plot(path, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{path}: strategy stream_notify has a summary but no samples_us",
                      run.stderr)

        mismatch = report(200)
        mismatch["strategies"][0]["summary_us"]["median"] = 99.0
        path = self.write("mismatch.json", mismatch)
        run = self.plot(path, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{path}: strategy comb_fused: median of samples_us 150.000 differs from "
                      "summary_us.median 99.000", run.stderr)

        no_cube = report(200)
        no_cube["workload"] = {"description": "a config of unknown size"}
        path = self.write("no_cube.json", no_cube)
        run = self.plot(path, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{path}: cannot tell the cube size", run.stderr)

        run = self.plot(self.folder / "missing.json", "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn("missing.json", run.stderr)

        run = self.plot(self.reports[0], "--out-dir", self.out, "--whiskers", "minmax")
        self.assertEqual(run.returncode, 2)
        self.assertIn("--whiskers", run.stderr)

        run = self.plot("--out-dir", self.out)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("reports", run.stderr)
        self.assertFalse(self.out.exists(), "a failed run wrote outputs")


def main():
    global OPTIONS
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", type=Path, required=True)
    OPTIONS, rest = parser.parse_known_args()
    python = python_with_matplotlib()
    if python is None:
        print(f"SKIPPED: neither {sys.executable} nor /usr/bin/python3 can import matplotlib "
              "(Debian: python3-matplotlib, installed by scripts/setup.sh)")
        return SKIPPED
    HaloBoxes.python = python
    result = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
