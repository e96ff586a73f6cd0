#!/usr/bin/env python3
"""scripts/model_report.py on two small halo_bench reports (tests/model/data): the markdown table
holds every strategy and cube with measured/model, the plot is a PNG, --params predicts with
haloflag_model, --strategies picks and orders the strategies, gzipped reports read, and bad
inputs end with a message naming the file. Exits 77 (CTest: skipped) with the reason when no
python3 with matplotlib is found.

    model_report_test.py --report-script scripts/model_report.py --model-cli haloflag_model \\
        --data tests/model/data --params model/params/power9_v100.json
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


class ModelReport(unittest.TestCase):
    python = None

    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="haloflag_model_report_test_")
        self.out = Path(self.scratch.name) / "report"
        self.reports = [OPTIONS.data / "halo_bench_fixture_200.json",
                        OPTIONS.data / "halo_bench_fixture_400.json"]

    def tearDown(self):
        self.scratch.cleanup()

    def report(self, *arguments):
        # The guard keeps the script on the interpreter chosen here.
        env = {**os.environ, "HALOFLAG_MODEL_REPORT_REEXEC": "1"}
        return subprocess.run([self.python, str(OPTIONS.report_script), *map(str, arguments)],
                              capture_output=True, text=True, env=env)

    def test_table_and_plot_from_the_bounds_in_the_reports(self):
        run = self.report(*reversed(self.reports), "--out-dir", self.out)  # any order
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "model_report.md").read_text()
        self.assertIn("| comb_fused | 200 | 100.0 | 90.0 – 120.0 | 20.0 | 5.00x |", text)
        self.assertIn("| stream_notify | 400 | 200.0 | 180.0 – 240.0 | 40.0 | 5.00x |", text)
        self.assertIn("| resident (not verified) | 200 | - | - | 20.0 | - |", text)
        self.assertIn("| comb_fused | 5.00x | 7.50x |", text)
        self.assertIn("| *model bound (µs)* | 20.0 | 40.0 |", text)
        self.assertIn("2 x Fixture GPU (cuda backend)", text)
        self.assertIn("![time per exchange against cube size](model_report.png)", text)
        self.assertTrue(text.index("cube 200") < text.index("cube 400"))
        png = (self.out / "model_report.png").read_bytes()
        self.assertTrue(png.startswith(b"\x89PNG"), "model_report.png is not a PNG")
        summary = json.loads((self.out / "model_report.json").read_text())
        self.assertEqual([run["cube"] for run in summary["runs"]], [200, 400])
        self.assertEqual(len(summary["rows"]), 6)

    def test_params_predict_each_config_with_haloflag_model(self):
        # The reports name configs under /elsewhere; the shipped ones of the same name are used.
        run = self.report(*self.reports, "--out-dir", self.out, "--params", OPTIONS.params,
                          "--model-cli", OPTIONS.model_cli, "--no-plot")
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "model_report.md").read_text()
        # The paper's parameters: 18.764 us for the 200 cube, 43.446 us for the 400 cube.
        self.assertIn("| comb_fused | 200 | 100.0 | 90.0 – 120.0 | 18.8 | 5.33x |", text)
        self.assertIn("| comb_fused | 400 | 300.0 | 270.0 – 360.0 | 43.4 | 6.91x |", text)
        self.assertIn("IBM Power9 + NVIDIA V100", text)
        self.assertFalse((self.out / "model_report.png").exists())
        summary = json.loads((self.out / "model_report.json").read_text())
        self.assertAlmostEqual(summary["runs"][0]["model_bound_us"], 18.764, places=3)

    def test_strategies_filter_and_gzipped_reports(self):
        packed = Path(self.scratch.name) / "halo_bench_fixture_200.json.gz"
        with gzip.open(packed, "wt") as sink:
            sink.write(self.reports[0].read_text())
        run = self.report(packed, self.reports[1], "--out-dir", self.out, "--no-plot",
                          "--strategies", "stream_notify,comb_fused")
        self.assertEqual(run.returncode, 0, run.stderr)
        text = (self.out / "model_report.md").read_text()
        self.assertIn("| comb_fused | 200 | 100.0 | 90.0 – 120.0 | 20.0 | 5.00x |", text)
        self.assertLess(text.index("| stream_notify | 200 |"), text.index("| comb_fused | 200 |"))
        self.assertNotIn("resident", text)

        run = self.report(packed, "--out-dir", self.out, "--no-plot", "--strategies", "nonesuch")
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{packed}: no strategy nonesuch", run.stderr)

    def test_bad_inputs_are_named(self):
        not_a_report = Path(self.scratch.name) / "other.json"
        not_a_report.write_text(json.dumps({"format": "something-else"}))
        run = self.report(self.reports[0], not_a_report, "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{not_a_report}: not a halo_bench report", run.stderr)

        run = self.report(self.reports[0], self.reports[0], "--out-dir", self.out)
        self.assertEqual(run.returncode, 1)
        self.assertIn("more than one report for cube 200", run.stderr)

        run = self.report(self.reports[0], "--out-dir", self.out, "--params",
                          Path(self.scratch.name) / "missing.json", "--model-cli",
                          OPTIONS.model_cli)
        self.assertEqual(run.returncode, 1)
        self.assertIn("missing.json: no such file", run.stderr)

        run = self.report("--out-dir", self.out)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("reports", run.stderr)


def main():
    global OPTIONS
    parser = argparse.ArgumentParser()
    parser.add_argument("--report-script", type=Path, required=True)
    parser.add_argument("--model-cli", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--params", type=Path, required=True)
    OPTIONS, rest = parser.parse_known_args()
    python = python_with_matplotlib()
    if python is None:
        print(f"SKIPPED: neither {sys.executable} nor /usr/bin/python3 can import matplotlib "
              "(Debian: python3-matplotlib, installed by scripts/setup.sh)")
        return SKIPPED
    ModelReport.python = python
    result = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
