#!/usr/bin/env python3
"""The links of Jacobi3D's resident iteration, from scripts/bench/jacobi_resident_breakdown.sh's runs.txt:
each run prints, per rank, the median over its epochs of the device clock at 15 points of the
iteration, in us after the iteration's start (s1 ... s15; s16 is the next iteration's start).
This turns them into the time of each link: one table per tree label, a column per stencil and
setting, the median over ranks and rounds.

    scripts/tables/resident_links_table.py RUNS.txt [RUNS.txt ...]
"""
import re
import statistics
import sys

# (name, end stamp, start stamp); 0 is the iteration's start.
LINKS = [
    ("boundary update and grid barrier", 1, 0),
    ("epoch check", 2, 1),
    ("block 0 announces ghosts free (lines: nothing to announce)", 3, 2),
    ("piece 0's wait for the peer's ghosts free (lines: the look at its set's word)", 4, 3),
    ("piece 0 moved (gather, stores across NVLink; lines: as flagged words)", 5, 4),
    ("piece 0 counted (release add into the peer, work count; lines: work count)", 6, 5),
    ("the peer's count seen by this rank's receiving block (lines: its words seen, unpacked)", 8, 6),
    ("the receiving block's completion (slot, work count, pieces_done; lines: set freed, "
     "work count)", 9, 8),
    ("to the end of the grid barrier", 13, 9),
    ("the whole iteration", 16, 0),
]
HEADER = re.compile(r"^== (\S+) round (\d+) stencil (\d+) exp (\d+)")
STAMPS = re.compile(r"^stamps gpu (\d+) exp \S+:(.*)$")


def parse(paths):
    """{(tree, stencil, setting): [ {stamp: us}, ... ]}, one dict per rank and run."""
    runs = {}
    for path in paths:
        key = None
        for line in open(path, encoding="utf-8"):
            header = HEADER.match(line)
            if header:
                key = (header.group(1), int(header.group(3)), int(header.group(4)))
                continue
            stamps = STAMPS.match(line)
            if stamps and key is not None:
                values = {}
                for field in stamps.group(2).split():
                    name, value = field.split("=")
                    if value != "-":
                        values[int(name[1:])] = float(value)
                values[0] = 0.0
                runs.setdefault(key, []).append(values)
    return runs


def link_time(samples, end, start):
    deltas = [s[end] - s[start] for s in samples if end in s and start in s]
    return statistics.median(deltas) if deltas else None


def main(paths):
    runs = parse(paths)
    if not runs:
        print("resident_links_table.py: no stamps in " + ", ".join(paths), file=sys.stderr)
        return 1
    for tree in sorted({key[0] for key in runs}):
        keys = sorted(key for key in runs if key[0] == tree)
        print(f"\n{tree}: us, median over ranks and rounds (device clock, 256 ns steps)\n")
        print("| link | " + " | ".join(f"{k[1]}-point, setting {k[2]}" for k in keys) + " |")
        print("| --- |" + " ---: |" * len(keys))
        for name, end, start in LINKS:
            cells = []
            for key in keys:
                value = link_time(runs[key], end, start)
                cells.append("–" if value is None else f"{value:.2f}")
            print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    sys.exit(main(sys.argv[1:]))
