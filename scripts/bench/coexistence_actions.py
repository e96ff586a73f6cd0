"""Issue 57's table: what the array libraries' device-wide waits cost beside haloflag's exchanges.

For CuPy and PyTorch, and each action a program does between two exchanges,
  device_sync    cupy.cuda.runtime.deviceSynchronize() / torch.cuda.synchronize()
  first_launch   a new kernel, compiled and loaded at its first launch (CuPy: an
                 ElementwiseKernel, PyTorch: a jiterator kernel, each of a source of its own),
                 so that every configuration pays the same
  first_op       a library function not run before in the process (torch.special's,
                 cupyx.scipy.special's): loaded, or first compiled, at its first launch; each
                 configuration gets another one, named under the table
  free           1 GiB allocated, dropped, and the library's cache given back to the driver
                 (free_all_blocks() / torch.cuda.empty_cache())
  write_fields   new values written into the fields, synchronizing the stream only
this times the action right after an exchange, then, after a barrier, the next exchange
(checking every ghost cell), in each configuration:
  alone          no Exchange open: the action's own time
  resident       strategy "resident", run()
  stream form    strategy "resident", start(stream)/wait(stream) on the library's stream
  stream_notify  strategy "stream_notify" (kernels launched per exchange), run()
  never          (--with-never) strategy "resident", idle_exit="never", run(): the kernels of
                 before issue 57, which stay on the GPU and wait at most the timeout for the
                 next start: a device-wide wait beside them holds until then
It prints a markdown table per library (the slowest rank's times in seconds, "ok" or the
exception's class, the relaunch count) and with --json writes the machine, the versions, the
command line and every rank's raw times.

    mpiexec -n 2 python scripts/bench/coexistence_actions.py [--json PATH] [--with-never]
    scripts/gpu/run_with_mps.sh 2 mpiexec -n 2 python ...     (two ranks on one GPU, under MPS)

One rank per GPU, or ranks that share one under MPS. PYTHONPATH must hold the built package
(<build>/python); scripts/bench/bench_coexistence.sh sets it up.
"""

import argparse
import contextlib
import faulthandler
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from mpi4py import MPI

import haloflag

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from ghost_check import fill, wrong_cells  # noqa: E402  (the tests' ghost-cell check)

ACTIONS = ["device_sync", "first_launch", "first_op", "free", "write_fields"]
CONFIGS = {  # name: (heading, Exchange options, form)
    "alone": ("alone", None, None),
    "resident": ("resident", {"strategy": "resident"}, "run"),
    "stream": ("stream form", {"strategy": "resident", "progress": "thread"}, "stream"),
    "stream_notify": ("stream_notify", {"strategy": "stream_notify"}, "run"),
    "never": ("never", {"strategy": "resident", "idle_exit": "never"}, "run"),
}
BIG_BYTES = 1 << 30
# An action or exchange still going this long past the timeout is aborted (abort() from a
# thread), and the cell says so: nothing should last that long.
WATCHDOG_S = 2.0
# Library functions run nowhere else in this script, one per first_op.
TORCH_FIRSTS = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
                "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
                "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "airy_ai",
                "spherical_bessel_j0", "chebyshev_polynomial_t", "chebyshev_polynomial_u",
                "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
                "legendre_polynomial_p"]
POLYNOMIALS = ("chebyshev", "hermite", "laguerre", "legendre")
CUPY_FIRSTS = ["j0", "j1", "y0", "y1", "i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e",
               "erfcx", "erfinv", "ndtr", "log_ndtr", "gammaln", "digamma", "expit", "logit",
               "entr", "rgamma"]


class Library:
    """An array library on this rank's GPU: its arrays, its stream and the actions."""

    def __init__(self, name, device):
        self.name, self.device = name, device
        self.serial = itertools.count()
        if name == "cupy":
            import cupy
            import cupyx.scipy.special
            self.xp, self.special = cupy, cupyx.scipy.special
            cupy.cuda.Device(device).use()
            self.stream = cupy.cuda.Stream(non_blocking=True)
            firsts = CUPY_FIRSTS
        else:
            import torch
            self.xp, self.special = torch, torch.special
            torch.cuda.set_device(device)
            self.stream = torch.cuda.Stream(device=device)
            firsts = TORCH_FIRSTS
        self.firsts = iter([f for f in firsts if hasattr(self.special, f)])
        self.small = self.array(np.linspace(0.1, 1.0, 16))
        self.first_launch()  # NVRTC (and PyTorch's jiterator) loaded before any Exchange exists
        self.synchronize(None)

    def array(self, host):
        if self.name == "cupy":
            return self.xp.asarray(host)
        return self.xp.from_numpy(host).to(f"cuda:{self.device}")

    def to_host(self, array):
        return self.xp.asnumpy(array) if self.name == "cupy" else array.cpu().numpy()

    def on(self, stream):
        if stream is None:
            return contextlib.nullcontext()
        return stream if self.name == "cupy" else self.xp.cuda.stream(stream)

    def synchronize(self, stream):
        if stream is not None:
            stream.synchronize()
        elif self.name == "cupy":
            self.xp.cuda.get_current_stream().synchronize()
        else:
            self.xp.cuda.current_stream().synchronize()

    def gpu_name(self):
        if self.name == "torch":
            return self.xp.cuda.get_device_name(self.device)
        name = self.xp.cuda.runtime.getDeviceProperties(self.device)["name"]
        return name.decode() if isinstance(name, bytes) else name

    # The actions. Each returns what it did, in words.
    def device_sync(self, field, host, stream):
        if self.name == "cupy":
            self.xp.cuda.runtime.deviceSynchronize()
            return "cupy.cuda.runtime.deviceSynchronize()"
        self.xp.cuda.synchronize()
        return "torch.cuda.synchronize()"

    def first_launch(self, field=None, host=None, stream=None):
        n = next(self.serial)
        name = f"haloflag_first_{os.getpid()}_{n}_{time.monotonic_ns()}"
        if self.name == "cupy":
            kernel = self.xp.ElementwiseKernel("T x", "T y", f"y = x * {n + 2}.0 + 1.0", name)
            kernel(self.small)
            what = f"ElementwiseKernel {name}"
        else:
            code = f"template <typename T> T {name}(T x) {{ return x * T({n + 2}) + T(1); }}"
            self.xp.cuda.jiterator._create_jit_fn(code)(self.small)
            what = f"jiterator {name}"
        self.synchronize(None)
        return what

    def first_op(self, field=None, host=None, stream=None):
        op = next(self.firsts, None)
        if op is None:
            raise RuntimeError(f"every listed {self.name} function ran already")
        function = getattr(self.special, op)
        if op.startswith(POLYNOMIALS):
            function(self.small, 3)
        else:
            function(self.small)
        self.synchronize(None)
        prefix = "torch.special" if self.name == "torch" else "cupyx.scipy.special"
        return f"{prefix}.{op}"

    def free(self, field, host, stream):
        if self.name == "cupy":
            big = self.xp.empty(BIG_BYTES, self.xp.uint8)
            assert big.nbytes == BIG_BYTES
            del big
            self.xp.get_default_memory_pool().free_all_blocks()
            return "1 GiB cupy.empty, del, free_all_blocks()"
        big = self.xp.empty(BIG_BYTES, dtype=self.xp.uint8, device=f"cuda:{self.device}")
        assert big.nbytes == BIG_BYTES
        del big
        self.xp.cuda.empty_cache()
        return "1 GiB torch.empty, del, torch.cuda.empty_cache()"

    def write_fields(self, field, host, stream):
        with self.on(stream):
            if self.name == "cupy":
                field[...] = self.xp.asarray(host)
            else:
                field.copy_(self.xp.from_numpy(host).cuda())
        self.synchronize(stream)
        if self.name == "cupy":
            return "a[...] = cupy.asarray(h)"
        return "t.copy_(torch.from_numpy(h).cuda())"


def exchange_once(exchange, lib, form):
    if form == "run":
        exchange.run()
    else:
        exchange.start(lib.stream)
        exchange.wait(lib.stream)
        lib.synchronize(lib.stream)


def outcome_of(error):
    return type(error).__name__


def measure(lib, geometry, config, action, args):
    """One action in one configuration on this rank: its time, the next exchange's outcome and
    time, and the relaunches."""
    _, options, form = CONFIGS[config]
    stream = lib.stream if form == "stream" else None
    host = np.zeros(geometry.field_shape)
    fill(host, geometry, 0, 1, whole=True)
    field = lib.array(host)
    fill(host, geometry, 0, 2, whole=True)
    lib.synchronize(None)
    result = {"config": config, "action": action, "rank": geometry.comm.rank, "took_s": None,
              "action_outcome": "ok", "next": None, "next_s": None, "relaunches": None}
    act = getattr(lib, action)
    if options is None:
        began = time.perf_counter()
        result["what"] = act(field, host, stream)
        result["took_s"] = time.perf_counter() - began
        return result
    # A hang ends: abort() from a thread, and as a last resort faulthandler's exit.
    faulthandler.dump_traceback_later(4 * args.timeout + 60, exit=True)
    exchange = haloflag.Exchange(geometry, [field], timeout=args.timeout,
                                 **dict({"idle_exit": args.idle_exit}, **options))
    fired = threading.Event()

    def abort():
        fired.set()
        exchange.abort("coexistence_actions' watchdog: the action or the exchange hung")

    watchdog = threading.Timer(args.timeout + WATCHDOG_S, abort)
    watchdog.daemon = True
    watchdog.start()
    try:
        exchange_once(exchange, lib, form)
        began = time.perf_counter()
        try:
            result["what"] = act(field, host, stream)
        except Exception as error:  # the library's own error (a failed synchronize, say)
            result["action_outcome"] = outcome_of(error)
        result["took_s"] = time.perf_counter() - began
        if action != "write_fields":
            lib.write_fields(field, host, stream)
        geometry.comm.Barrier()  # the next exchange's time without the other rank's action
        began = time.perf_counter()
        exchange_once(exchange, lib, form)
        result["next_s"] = time.perf_counter() - began
        wrong = wrong_cells(lib.to_host(field), geometry, 0, 2)
        result["next"] = "wrong cells" if wrong else "ok"
        if wrong:
            result["wrong"] = wrong
    except Exception as error:  # haloflag's, or the library's after a failed exchange
        result["next"] = outcome_of(error)
        result["error"] = str(error)[:500]
    finally:
        watchdog.cancel()
        result["watchdog"] = fired.is_set()
        result["relaunches"] = None if exchange.closed else exchange.relaunches
        try:
            exchange.close()
        except haloflag.Error as error:
            result["close"] = outcome_of(error)
        faulthandler.cancel_dump_traceback_later()
    return result


def cell_time(results, key):
    """The median over repeats of the slowest rank's time."""
    per_repeat = [max(r[key] for r in ranks) for ranks in results
                  if all(r[key] is not None for r in ranks)]
    return f"{statistics.median(per_repeat):.3f}" if per_repeat else "-"


def cell_outcome(results, key):
    """ "ok", or each failure's class with the number of repeats it happened in."""
    counts = {}
    for ranks in results:
        worst = next((r[key] for r in ranks if r[key] not in ("ok", None)), "ok")
        counts[worst] = counts.get(worst, 0) + 1
    failures = {k: v for k, v in counts.items() if k != "ok"}
    if not failures:
        return "ok"
    return ", ".join(f"{k}" + (f" ({v}/{len(results)})" if len(results) > 1 else "")
                     for k, v in failures.items())


def cell_relaunches(results):
    values = sorted({r["relaunches"] for ranks in results for r in ranks
                     if r["relaunches"] is not None})
    if not values:
        return "-"
    return str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"


def table(library, actions, configs, collected):
    """The markdown table of one library: a row per action, and what first_op ran in each
    configuration."""
    head = ["action"]
    for config in configs:
        name = CONFIGS[config][0]
        if config == "alone":
            head.append("alone: action took")
            continue
        head += [f"{name}: action took", f"{name}: next exchange"]
        if CONFIGS[config][1].get("strategy") == "resident":
            head.append(f"{name}: relaunches")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for action in actions:
        row = [action]
        for config in configs:
            results = collected.get((library, action, config), [])
            took = cell_time(results, "took_s")
            failed = cell_outcome(results, "action_outcome")
            if any(r.get("watchdog") for ranks in results for r in ranks):
                failed = "aborted by the watchdog" if failed == "ok" else f"{failed}, watchdog"
            row.append(took if failed == "ok" else f"{took} ({failed})")
            if config == "alone":
                continue
            nxt = cell_outcome(results, "next")
            row.append(f"ok {cell_time(results, 'next_s')}" if nxt == "ok" else nxt)
            if CONFIGS[config][1].get("strategy") == "resident":
                row.append(cell_relaunches(results))
        lines.append("| " + " | ".join(row) + " |")
    if "first_op" in actions:
        ran = [f"{CONFIGS[c][0]}: " + ", ".join(sorted({r.get("what", "?") for ranks in
                                                       collected.get((library, "first_op", c), [])
                                                       for r in ranks}))
               for c in configs]
        lines.append("\nfirst_op ran " + "; ".join(ran) + ".")
    return "\n".join(lines)


def versions(libraries):
    found = {"python": platform.python_version(),
             "mpi": MPI.Get_library_version().strip().splitlines()[0], "numpy": np.__version__,
             "haloflag_module": haloflag.__file__, "haloflag_gpu_backend": haloflag.gpu_backend()}
    try:
        from importlib.metadata import version
        found["haloflag"] = version("haloflag")
    except Exception:
        text = (ROOT / "pyproject.toml").read_text()  # a build tree's package, not installed
        found["haloflag"] = next((line.split("=")[1].strip().strip('"')
                                  for line in text.splitlines() if line.startswith("version")), "?")
    try:
        found["commit"] = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                                         check=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        found["commit"] = None
    for lib in libraries.values():
        found[lib.name] = lib.xp.__version__
        if lib.name == "torch":
            found["torch_cuda"] = lib.xp.version.cuda
        else:
            found["cupy_cuda_runtime"] = lib.xp.cuda.runtime.runtimeGetVersion()
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--libraries", nargs="+", default=["cupy", "torch"],
                        choices=["cupy", "torch"])
    parser.add_argument("--actions", nargs="+", default=ACTIONS, choices=ACTIONS)
    parser.add_argument("--shape", type=int, nargs=3, default=(32, 32, 128),
                        metavar=("Z", "Y", "X"))
    parser.add_argument("--timeout", type=float, default=3.0, help="the Exchange's timeout (s)")
    parser.add_argument("--idle-exit", type=float, default=haloflag.DEFAULT_IDLE_EXIT,
                        help="idle_exit of the resident configurations but never (s)")
    parser.add_argument("--with-never", action="store_true",
                        help='also resident with idle_exit="never" (an action that waits for the '
                             "device then waits until the timeout)")
    parser.add_argument("--repeat", type=int, default=1, help="measurements of each cell")
    parser.add_argument("--json", help="write the machine, versions, command and raw times here")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    if not haloflag.gpu_backend() or haloflag._core.gpu_count()[0] == 0:
        if comm.rank == 0:
            print("coexistence_actions: needs a GPU build of haloflag and a GPU", file=sys.stderr)
        sys.exit(77)
    device = haloflag.bind_gpu(comm)
    libraries = {}
    for name in args.libraries:
        try:
            libraries[name] = Library(name, device)
        except ImportError:
            if comm.rank == 0:
                print(f"coexistence_actions: {name} is not installed; left out", file=sys.stderr)
    comm.Barrier()
    geometry = haloflag.Geometry(tuple(args.shape), comm)
    configs = ["alone", "resident", "stream", "stream_notify"]
    configs += ["never"] if args.with_never else []
    collected, raw = {}, []
    for name, lib in libraries.items():
        for action in args.actions:
            for config in configs:
                for repeat in range(args.repeat):
                    comm.Barrier()
                    mine = measure(lib, geometry, config, action, args)
                    ranks = comm.allgather(dict(mine, library=name, repeat=repeat))
                    collected.setdefault((name, action, config), []).append(ranks)
                    raw += ranks
                    if comm.rank == 0:
                        print(f"# {name} {action} {config}: took "
                              f"{max(r['took_s'] or 0 for r in ranks):.3f} s, next "
                              f"{[r['next'] for r in ranks]}", file=sys.stderr, flush=True)
    if comm.rank != 0:
        return
    gpus = haloflag._core.gpu_count()[0]
    machine = {"gpu": next(iter(libraries.values())).gpu_name() if libraries else None,
               "gpus_visible": gpus, "host": socket.gethostname(), "ranks": comm.size,
               "ranks_share_a_gpu": comm.size > gpus,
               "mps_pipe_directory": os.environ.get("CUDA_MPS_PIPE_DIRECTORY")}
    found = versions(libraries)
    print(f"{machine['gpu']}, {comm.size} ranks, global shape {tuple(args.shape)}, timeout "
          f"{args.timeout} s, idle_exit {args.idle_exit} s; haloflag {found['haloflag']} "
          f"({found.get('commit') or 'no commit'}), " +
          ", ".join(f"{n} {found[n]}" for n in libraries))
    print("Times in seconds, the slowest rank's" +
          (f", the median of {args.repeat} runs" if args.repeat > 1 else "") +
          "; next exchange: ok and its time, or the exception's class.\n")
    for name in libraries:
        print(f"**{name}**\n")
        print(table(name, args.actions, configs, collected) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "versions": found, "command": sys.argv,
                       "options": vars(args),
                       "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "results": raw}, f, indent=1)
        print(f"raw times in {args.json}")


if __name__ == "__main__":
    main()
