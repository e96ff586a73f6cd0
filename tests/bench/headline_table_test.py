#!/usr/bin/env python3
"""scripts/tables/headline_table.py on raw data the test writes, as scripts/bench/bench_headline.sh leaves it:
the rows and numbers of the two-GPU headline (the fastest baseline, a named one, a failed row,
the link's rows measured and fitted), the same table from the folder, its archive and one member
of it, data that contradicts itself or cannot be read named in a non-zero exit; and
scripts/bench/bench_headline.sh's usage: --help, and a missing or misplaced OUT_DIR refused.

    headline_table_test.py --script scripts/tables/headline_table.py --bench scripts/bench/bench_headline.sh
"""

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path

SCRIPT = None
BENCH = None
BYTES = {200: 374592, 800: 5817792}


def halo_bench_report(cube, rows, wrong=()):
    """rows: (strategy, transport used, median us); `wrong`: strategies whose check failed."""
    strategies = []
    for strategy, transport, median in rows:
        strategies.append({
            "name": strategy if strategy == "nccl" else f"{strategy}/{transport}",
            "strategy": strategy, "transport": "auto" if strategy == "nccl" else transport,
            "transport_used": transport, "tuned": False,
            "summary_us": {"median": median},
            "verification": {"passed": strategy not in wrong,
                             "wrong_exchanges": 1 if strategy in wrong else 0}})
    return {"format": "haloflag-halo-bench", "date": f"2026-12-01T00:00:{cube % 60:02d}Z",
            "backend": {"name": "cuda", "emulated_on_cpu": False}, "model": {},
            "machine": {"gpus": [{"name": "NVIDIA H200", "pci_bus_id": "0000:00:06.0"},
                                 {"name": "NVIDIA H200", "pci_bus_id": "0000:00:07.0"}]},
            "mpi": {"library": "Open MPI v4.1.6, package: Debian OpenMPI"},
            "nccl": {"description": "NCCL 2.28.9 loaded (/some/path)"},
            "workload": {"config_file": f"comb_configs/comb_{cube}_np2_reduced.cfg",
                         "messages": {"send_bytes_per_rank": [BYTES[cube], BYTES[cube]]}},
            "strategies": strategies}


def peer_copy_file():
    """200 GB/s per direction and 10 us fixed; cube 200's bytes measured, cube 800's not."""
    return {"format": "haloflag-peer-copy", "version": 1, "date": "2026-12-01T00:01:00Z",
            "gpus": ["GPU 0: NVIDIA H200 [0000:00:06.0]", "GPU 1: NVIDIA H200 [0000:00:07.0]"],
            "sizes": [{"bytes": 65536, "wall_us": {"median": 10.4}},
                      {"bytes": BYTES[200], "wall_us": {"median": 12.5}}],
            "fit": {"wall": {"fixed_us": 10.0, "rate_bytes_per_s": 200e9,
                             "min_bytes": 65536, "max_bytes": 33554432}}}


def write_json(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


class HeadlineTable(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.run_dir = Path(self.scratch.name) / "headline"
        # Cube 200: comb_graph over node (27 us) is the fastest baseline, nccl slower (54 us);
        # resident over node 18 us: 1.50x. stacked_notify over mpi failed its check.
        write_json(self.run_dir / "halo_bench_200.json", halo_bench_report(200, [
            ("comb_fused", "node", 36.0), ("comb_fused", "mpi", 160.0),
            ("comb_graph", "node", 27.0), ("resident", "node", 18.0), ("resident", "mpi", 150.0),
            ("stacked_notify", "mpi", 10.0), ("nccl", "nccl", 54.0)], wrong=("stacked_notify",)))
        # Cube 800: nccl (80 us) is the fastest baseline; resident over node 64 us: 1.25x.
        write_json(self.run_dir / "halo_bench_800.json", halo_bench_report(800, [
            ("comb_fused", "node", 100.0), ("comb_fused", "mpi", 1600.0),
            ("comb_graph", "node", 90.0), ("resident", "node", 64.0), ("resident", "mpi", 1500.0),
            ("stacked_notify", "mpi", 1900.0), ("nccl", "nccl", 80.0)]))
        write_json(self.run_dir / "peer_copy.json", peer_copy_file())
        # Other JSON in the folder (the node calibration) is passed over.
        write_json(self.run_dir / "node_calibration.json", {"format": "haloflag-node-calibration"})

    def tearDown(self):
        self.scratch.cleanup()

    def generate(self, *arguments):
        return subprocess.run([sys.executable, SCRIPT, *map(str, arguments)],
                              capture_output=True, text=True, check=False)

    def table(self, *arguments):
        result = self.generate(*arguments)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def archive(self):
        path = Path(self.scratch.name) / "headline.tar.gz"
        with tarfile.open(path, "w:gz") as tar:
            tar.add(self.run_dir, arcname="headline")
        return path

    def test_rows_ratios_and_the_link(self):
        text = self.table(self.run_dir)
        lines = text.splitlines()
        self.assertEqual(lines[0], "| strategy | transport | cube 200 µs | × comb_graph/node | "
                                   "cube 800 µs | × nccl |")
        # Node rows first, then mpi, then nccl; conventional strategies before haloflag's.
        rows = [line.split(" | ")[0].lstrip("| ") + "/" + line.split(" | ")[1]
                for line in lines[2:9]]
        self.assertEqual(rows, ["comb_fused/node", "comb_graph/node", "resident/node",
                                "comb_fused/mpi", "stacked_notify/mpi", "resident/mpi",
                                "nccl/nccl"])
        self.assertIn("| resident | node | **18.0** | 1.50× | **64.0** | 1.25× |", text)
        self.assertIn("| comb_graph | node | 27.0 | 1.00× | 90.0 | 0.89× |", text)
        self.assertIn("| nccl | nccl | 54.0 | 0.50× | 80.0 | 1.00× |", text)
        # A failed row is shown as such and is never the fastest.
        self.assertIn("| stacked_notify | mpi | FAILED | – | 1900.0 | 0.04× |", text)
        # 374592 B / 200 GB/s = 1.87 us; measured at that size 12.5; cube 800 from the fit:
        # 5817792 B / 200 GB/s = 29.09 us, + 10 fixed.
        self.assertIn("| the same bytes at NVLink's measured rate | – | 1.9 | – | 29.1 | – |",
                      text)
        self.assertIn("| the same bytes by the copy engines, fixed cost included | – | 12.5 | – "
                      "| 39.1 (fit) | – |", text)
        self.assertIn("cube 200: 374592 B, cube 800: 5817792 B", text)
        self.assertIn("GPUs: 2 × NVIDIA H200, one rank each", text)
        self.assertIn("200.0 GB/s per direction and a fixed 10.0 µs", text)
        self.assertIn("halo_bench_200.json` (2026-12-01T00:00:20Z)", text)

    def test_a_named_baseline(self):
        text = self.table("--baseline", "comb_fused/node", self.run_dir)
        self.assertIn("| cube 200 µs | × comb_fused/node | cube 800 µs | × comb_fused/node |",
                      text)
        self.assertIn("| resident | node | **18.0** | 2.00× | **64.0** | 1.56× |", text)

    def test_the_archive_and_one_member_give_the_same_table(self):
        folder = self.table(self.run_dir)
        archive = self.archive()
        from_archive = self.table(archive)
        self.assertEqual(folder.split("\n\n")[0], from_archive.split("\n\n")[0])
        self.assertIn(f"{archive}:headline/halo_bench_800.json", from_archive)
        # One member alone: cube 800 only, and the link not measured.
        alone = self.table(f"{archive}:headline/halo_bench_800.json")
        self.assertNotIn("cube 200", alone.splitlines()[0])
        self.assertIn("| the same bytes at NVLink's measured rate | – | not measured | – |",
                      alone)

    def test_nccl_from_a_run_of_its_own(self):
        nccl = Path(self.scratch.name) / "nccl_200.json"
        write_json(nccl, halo_bench_report(200, [("nccl", "nccl", 20.0)]))
        report = json.loads((self.run_dir / "halo_bench_200.json").read_text())
        report["strategies"] = [s for s in report["strategies"] if s["strategy"] != "nccl"]
        write_json(self.run_dir / "halo_bench_200.json", report)
        text = self.table(self.run_dir, nccl)
        self.assertIn("× nccl | cube 800", text)
        self.assertIn("| nccl | nccl | 20.0 | 1.00× |", text)
        self.assertIn("| resident | node | **18.0** | 1.11× |", text)
        self.assertIn(f"- cube 200: `{nccl}` (2026-12-01T00:00:20Z): nccl/nccl", text)

    def test_a_row_in_two_runs_is_refused(self):
        result = self.generate(self.run_dir, self.run_dir / "halo_bench_200.json")
        self.assertEqual(result.returncode, 1)
        self.assertIn("comb_fused over node at cube 200 is also in", result.stderr)

    def test_unreadable_and_missing_data(self):
        bad = self.run_dir / "bad.json"
        bad.write_text("{not json")
        result = self.generate(bad)
        self.assertEqual(result.returncode, 1)
        self.assertIn("bad.json", result.stderr)
        other = Path(self.scratch.name) / "other.json"
        write_json(other, {"format": "something else"})
        result = self.generate(other)
        self.assertEqual(result.returncode, 1)
        self.assertIn("neither a halo_bench report nor a peer copy file", result.stderr)
        result = self.generate(self.run_dir / "peer_copy.json")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no halo_bench report among the sources", result.stderr)
        result = self.generate(Path(self.scratch.name) / "absent")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no such file or folder", result.stderr)

    def test_bad_arguments(self):
        result = self.generate()
        self.assertEqual(result.returncode, 2)
        result = self.generate("--baseline", "resident", self.run_dir)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--baseline resident", result.stderr)

    def test_the_bench_script_usage(self):
        def bench(*arguments):
            return subprocess.run(["bash", BENCH, *arguments], capture_output=True, text=True,
                                  check=False)
        result = bench("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("usage: bench_headline.sh OUT_DIR", result.stdout)
        result = bench()
        self.assertEqual(result.returncode, 2)
        self.assertIn("no OUT_DIR", result.stderr)
        result = bench("--rounds", "3")
        self.assertEqual(result.returncode, 2)
        self.assertIn("OUT_DIR comes first, not the option '--rounds'", result.stderr)


def main():
    global SCRIPT, BENCH
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--bench", required=True)
    args, rest = parser.parse_known_args()
    SCRIPT, BENCH = args.script, args.bench
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
