#!/usr/bin/env python3
"""The two-GPU headline: every strategy over each transport, and nccl, at each cube, beside the
time of the same bytes at the link's measured rate (the table the top-level README opens its
results with).

    scripts/tables/headline_table.py [-o FILE] [--baseline best|STRATEGY/TRANSPORT] SOURCE...

SOURCE: halo_bench reports (one run per cube; nccl may come from a run of its own), at most one
peer copy file of haloflag_calibrate_node --peer-out, given as files, folders, .tar.gz archives
or ARCHIVE.tar.gz:MEMBER (scripts/tables/headline_sources.py). scripts/bench/bench_headline.sh writes all of
them into one archive: `scripts/tables/headline_table.py OUT_DIR/headline.tar.gz` regenerates its table.

Times are the slowest rank's median per exchange, each from the run its cube's note names. The
ratio is the baseline's median over the row's, same cube (> 1: faster). The baseline is, by
default, the fastest of the conventional designs in the same data (comb_fused, comb_graph and
stream_base over either transport, and nccl), so that no ratio is taken against a baseline
weaker than the best one measured; --baseline comb_fused/node fixes one instead.
The last two rows move each cube's halo bytes per direction (what each rank sends) over the link:
at the rate fitted to copies in both directions at once (the copies' fixed cost left out), and
as the copy engines took them with that fixed cost (the median measured at that size, or the
fit's fixed cost plus bytes over the rate where that size was not measured).

Writes Markdown to FILE (default: standard output). Exit status 1, naming the source, for data
it cannot read or that contradicts itself (a row in two runs of one cube); 2 for bad arguments.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from headline_sources import PEER_COPY_FORMAT, SourceError, load_sources  # noqa: E402
from model_report import ReportError, cube_of, transport_of  # noqa: E402

# halo_bench's order; haloflag's strategies after the conventional ones.
STRATEGY_ORDER = ("comb_fused", "comb_graph", "stream_base", "stream_notify", "stacked_notify",
                  "resident", "nccl")
BASELINES = ("comb_fused", "comb_graph", "stream_base", "nccl")
TRANSPORT_ORDER = ("node", "mpi", "nccl")
TUNED_SUFFIX = ":tuned"


class HeadlineError(Exception):
    """Data that cannot make a table, named with its source."""


def row_key(entry):
    strategy = entry.get("strategy") or entry.get("name", "?").split("/")[0]
    name = strategy + (TUNED_SUFFIX if entry.get("tuned") else "")
    return name, transport_of(entry)


def verified_median(entry):
    """The median, or None with why not: never timed, or a verified exchange was wrong."""
    verification = entry.get("verification") or {}
    if verification.get("wrong_exchanges") or verification.get("passed") is False:
        return None, "FAILED"
    median = (entry.get("summary_us") or {}).get("median")
    return (median, None) if median is not None else (None, "not timed")


def bytes_per_direction(report, name):
    sent = ((report.get("workload") or {}).get("messages") or {}).get("send_bytes_per_rank")
    if not sent:
        raise HeadlineError(f"{name}: no workload.messages.send_bytes_per_rank")
    return max(sent)


class Cube:
    """One cube's rows, each with the source it came from."""

    def __init__(self, edge):
        self.edge = edge
        self.rows = {}  # (name, transport) -> {"median", "why", "source"}
        self.bytes = None
        self.sources = {}  # source name -> (date, [row labels])

    def add(self, source):
        report = source.data
        sent = bytes_per_direction(report, source.name)
        if self.bytes is not None and sent != self.bytes:
            raise HeadlineError(f"{source.name}: cube {self.edge} sends {sent} B per rank, "
                                f"another run of it {self.bytes} B")
        self.bytes = sent
        labels = []
        for entry in report.get("strategies", []):
            key = row_key(entry)
            if key in self.rows:
                raise HeadlineError(f"{source.name}: {key[0]} over {key[1]} at cube {self.edge} "
                                    f"is also in {self.rows[key]['source']}: give one run per row")
            median, why = verified_median(entry)
            self.rows[key] = {"median": median, "why": why, "source": source.name}
            labels.append(f"{key[0]}/{key[1]}")
        self.sources[source.name] = (report.get("date", "?"), labels)


def collect(sources):
    cubes, peer, gpus, notes = {}, None, set(), set()
    for source in sources:
        if source.format == PEER_COPY_FORMAT:
            if peer is not None:
                raise HeadlineError(f"{source.name}: a second peer copy file (the first: "
                                    f"{peer.name})")
            peer = source
            continue
        report = source.data
        try:
            edge = cube_of(report, Path(source.name))
        except ReportError as error:
            raise HeadlineError(str(error)) from error
        cubes.setdefault(edge, Cube(edge)).add(source)
        for gpu in (report.get("machine") or {}).get("gpus") or []:
            gpus.add((gpu.get("name", "?"), gpu.get("pci_bus_id", gpu.get("rank"))))
        backend = report.get("backend") or {}
        if backend.get("emulated_on_cpu"):
            notes.add("host backend: CPU threads stood in for the GPUs; these are not GPU results")
        notes.add("MPI: " + ((report.get("mpi") or {}).get("library") or "?").split(",")[0])
        nccl = (report.get("nccl") or {}).get("description")
        if nccl:
            notes.add("NCCL: " + nccl.split(" (")[0])
    if not cubes:
        raise HeadlineError("no halo_bench report among the sources")
    return cubes, peer, gpus, sorted(notes)


def order_of(key):
    name, transport = key
    strategy = name.removesuffix(TUNED_SUFFIX)
    rank = STRATEGY_ORDER.index(strategy) if strategy in STRATEGY_ORDER else len(STRATEGY_ORDER)
    known = transport in TRANSPORT_ORDER
    place = TRANSPORT_ORDER.index(transport) if known else len(TRANSPORT_ORDER)
    return place, rank, name


def pick_baseline(cube, wanted):
    """(label, median) of the baseline at this cube, or (label, None) when it is missing."""
    if wanted != "best":
        strategy, _, transport = wanted.partition("/")
        row = cube.rows.get((strategy, transport or "node"))
        return wanted, row["median"] if row else None
    best = None
    for (name, transport), row in cube.rows.items():
        if name in BASELINES and row["median"] is not None:
            if best is None or row["median"] < best[1]:
                best = (f"{name}/{transport}" if name != "nccl" else "nccl", row["median"])
    return best or ("none measured", None)


def peer_times(peer, nbytes):
    """(at the rate, with the fixed cost and how it was had) for `nbytes` per direction."""
    fit = ((peer.data.get("fit") or {}).get("wall")) or {}
    rate = fit.get("rate_bytes_per_s")
    if not rate:
        raise HeadlineError(f"{peer.name}: no fit.wall.rate_bytes_per_s")
    at_rate = nbytes / rate * 1e6
    measured = next((s for s in peer.data.get("sizes", []) if s.get("bytes") == nbytes), None)
    if measured:
        return at_rate, measured["wall_us"]["median"], "measured"
    return at_rate, fit.get("fixed_us", 0.0) + at_rate, "fit"


def fmt(value):
    return "–" if value is None else f"{value:.1f}"


def table_lines(cubes, peer, baselines):
    edges = sorted(cubes)
    keys = sorted({key for cube in cubes.values() for key in cube.rows}, key=order_of)
    fastest = {e: min((r["median"] for r in cubes[e].rows.values() if r["median"] is not None),
                      default=None) for e in edges}
    head = "| strategy | transport | " + " | ".join(
        f"cube {e} µs | × {baselines[e][0]}" for e in edges) + " |"
    lines = [head, "| --- | --- | " + " | ".join("---: | ---:" for _ in edges) + " |"]
    for key in keys:
        cells = []
        for e in edges:
            row = cubes[e].rows.get(key)
            if row is None or row["median"] is None:
                cells.append(f"{row['why'] if row else '–'} | –")
                continue
            time = fmt(row["median"])
            if row["median"] == fastest[e]:
                time = f"**{time}**"
            base = baselines[e][1]
            cells.append(f"{time} | {base / row['median']:.2f}×" if base else f"{time} | –")
        lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
    at_rate, engines = [], []
    for e in edges:
        if peer is None:
            at_rate.append("not measured | –")
            engines.append("not measured | –")
            continue
        rate_us, engine_us, how = peer_times(peer, cubes[e].bytes)
        at_rate.append(f"{fmt(rate_us)} | –")
        engines.append(f"{fmt(engine_us)}{'' if how == 'measured' else ' (fit)'} | –")
    lines.append("| the same bytes at NVLink's measured rate | – | " + " | ".join(at_rate) + " |")
    lines.append("| the same bytes by the copy engines, fixed cost included | – | " +
                 " | ".join(engines) + " |")
    return lines


def note_lines(cubes, peer, baselines, gpus, notes):
    edges = sorted(cubes)
    names = sorted({name for name, _ in gpus})
    cards = ", ".join(f"{sum(1 for n, _ in gpus if n == name)} × {name}" for name in names)
    lines = ["", f"GPUs: {cards or '?'}, one rank each; " + "; ".join(notes) + ".",
             "µs per exchange, the slowest rank's median; × X: X's median over the row's, same "
             "cube (> 1: faster than X); the fastest time per cube in bold. Halo bytes per "
             "direction: " + ", ".join(f"cube {e}: {cubes[e].bytes} B" for e in edges) + "."]
    best = [f"cube {e}: {baselines[e][0]}" for e in edges]
    lines.append("Baseline: " + ", ".join(best) + " (the fastest of comb_fused, comb_graph, "
                 "stream_base and nccl, unless --baseline named one).")
    if peer is None:
        lines.append("NVLink: no peer copy file among the sources (scripts/bench/bench_headline.sh "
                     "measures one with haloflag_calibrate_node --peer-gpu).")
    else:
        fit = peer.data["fit"]["wall"]
        lines.append(
            f"NVLink: {', '.join(peer.data.get('gpus', []))}, copies in both directions at once: "
            f"{fit['rate_bytes_per_s'] / 1e9:.1f} GB/s per direction and a fixed "
            f"{fit['fixed_us']:.1f} µs (issue and synchronisation of both copies), fitted over "
            f"{fit['min_bytes']}–{fit['max_bytes']} B ({peer.name}, "
            f"{peer.data.get('date', '?')}). "
            "The first row leaves the fixed cost out; the second is the median measured at that "
            "size, or the fit where marked.")
    lines.append("")
    lines.append("Runs:")
    for e in edges:
        for name, (date, labels) in cubes[e].sources.items():
            lines.append(f"- cube {e}: `{name}` ({date}): {describe_rows(labels)}")
    return lines


def describe_rows(labels):
    """"nccl", or "comb_fused, ..., resident over node, mpi" for a run of every pair."""
    pairs = [label.split("/") for label in labels]
    names = list(dict.fromkeys(name for name, _ in pairs))
    transports = list(dict.fromkeys(transport for _, transport in pairs))
    if len(pairs) == len(names) * len(transports) and len(transports) > 1:
        return f"{', '.join(names)} over {', '.join(transports)}"
    return ", ".join(labels)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="headline_table.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", metavar="SOURCE")
    parser.add_argument("-o", "--output", type=Path, help="Markdown file (default: stdout)")
    parser.add_argument("--baseline", default="best",
                        help="best (default), or STRATEGY/TRANSPORT, e.g. comb_fused/node")
    args = parser.parse_args(argv)
    if args.baseline != "best" and "/" not in args.baseline and args.baseline != "nccl":
        parser.error(f"--baseline {args.baseline}: best, nccl or STRATEGY/TRANSPORT")
    if args.baseline == "nccl":
        args.baseline = "nccl/nccl"
    return args


def main(argv):
    args = parse_arguments(argv)
    try:
        cubes, peer, gpus, notes = collect(load_sources(args.sources))
        baselines = {e: pick_baseline(cube, args.baseline) for e, cube in cubes.items()}
        lines = table_lines(cubes, peer, baselines) + note_lines(cubes, peer, baselines, gpus,
                                                                 notes)
    except (SourceError, HeadlineError) as error:
        print(f"headline_table: error: {error}", file=sys.stderr)
        return 1
    text = "\n".join(lines) + "\n"
    if args.output:
        args.output.write_text(text)
        print(f"headline_table: wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
