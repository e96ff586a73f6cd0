"""Resident kernels beside the array libraries' device-wide waits (issue 57). Between two
exchanges each test does one thing that waits for the whole device, or one that must not: a
device synchronize, a new kernel's first launch, freeing a large array back to the driver, or
writing new values into the fields with stream synchronisation only. Under strategy "resident"
the kernels leave the GPU once no exchange has started for idle_exit, so the action takes at most
its own time plus that window (a hang would last the 20 s timeout), the next exchange launches
them again (Exchange.relaunches) and fills every ghost cell, and back-to-back exchanges relaunch
nothing. For CuPy and PyTorch, with run() and with start(stream)/wait(stream) on the library's
stream. Also: idle_exit="never" relaunches nothing, and a device synchronize behind a
start(stream) that its busy stream has not reached yet waits for that exchange and the window,
without a relaunch. Each test skips, naming why, without a GPU backend, a GPU or the library.

The action times are printed at the end as a table (rank 0, the slowest rank's time), and written
as JSON to $HALOFLAG_COEXISTENCE_JSON when that is set. scripts/bench/coexistence_actions.py measures
the same actions over every configuration for the issue's table.
"""

import contextlib
import itertools
import json
import os
import threading
import time

import numpy as np
import pytest
from mpi4py import MPI

import haloflag
from ghost_check import agree, fill, wrong_cells
from gpu_libraries import LIBRARIES, cupy, needs_gpu, torch

SHAPE = (16, 16, 32)
TIMEOUT = 20.0  # a hang would last this long
SLACK = 2.0  # seconds over the action's bound before it counts as a hang
# What a first launch may spend compiling on top (CuPy's NVRTC, PyTorch's jiterator: up to about
# 2.5 s for one PyTorch special function on an H200 machine).
COMPILE_S = 3.0
WINDOW = haloflag.DEFAULT_IDLE_EXIT
BIG_BYTES = 1 << 30
LOOP = 50


FORMS = ["run", "stream"]  # host-started run(); start(stream)/wait(stream) on the library's stream
# Actions that wait for the whole device: the kernels must have left, so the next start relaunches.
DEVICE_WAITS = ["device_sync", "first_launch", "free"]
ACTIONS = DEVICE_WAITS + ["write_fields"]

# PyTorch operations that nothing else in this process launches, one per first_launch (each
# loads, and where PyTorch jit-compiles it, compiles a kernel of its own). The first one is
# spent by the warm-up, which only loads NVRTC and the jiterator before any Exchange exists.
_TORCH_FIRSTS = [
    ("special.spherical_bessel_j0", lambda x: torch.special.spherical_bessel_j0(x)),
    ("special.bessel_j0", lambda x: torch.special.bessel_j0(x)),
    ("special.bessel_j1", lambda x: torch.special.bessel_j1(x)),
    ("special.bessel_y0", lambda x: torch.special.bessel_y0(x)),
    ("special.modified_bessel_i0", lambda x: torch.special.modified_bessel_i0(x)),
    ("special.modified_bessel_k1", lambda x: torch.special.modified_bessel_k1(x)),
    ("special.scaled_modified_bessel_k0", lambda x: torch.special.scaled_modified_bessel_k0(x)),
    ("special.airy_ai", lambda x: torch.special.airy_ai(x)),
    ("special.hermite_polynomial_h", lambda x: torch.special.hermite_polynomial_h(x, 3)),
    ("special.laguerre_polynomial_l", lambda x: torch.special.laguerre_polynomial_l(x, 3)),
]
_torch_firsts = iter([(name, op) for name, op in _TORCH_FIRSTS if torch is not None and
                      hasattr(torch.special, name.split(".")[1])])
_cupy_kernels = itertools.count()
RECORDS = []


class Library:
    """One array library on this rank's GPU: its arrays, its stream, and the actions."""

    def __init__(self, name, device):
        self.name, self.device = name, device
        if name == "cupy":
            cupy.cuda.Device(device).use()
            self.stream = cupy.cuda.Stream(non_blocking=True)
        else:
            torch.cuda.set_device(device)
            self.stream = torch.cuda.Stream(device=device)
        self.small = self.array(np.linspace(0.1, 1.0, 16))
        self.first_launch()  # NVRTC and the jiterator loaded before any Exchange exists
        self.synchronize(None)

    def array(self, host):
        if self.name == "cupy":
            return cupy.asarray(host)
        return torch.from_numpy(host).to(f"cuda:{self.device}")

    def to_host(self, array):
        return cupy.asnumpy(array) if self.name == "cupy" else array.cpu().numpy()

    def on(self, stream):
        if stream is None:
            return contextlib.nullcontext()
        return stream if self.name == "cupy" else torch.cuda.stream(stream)

    def synchronize(self, stream):
        """The stream, or the library's current one: never the whole device."""
        if stream is not None:
            stream.synchronize()
        elif self.name == "cupy":
            cupy.cuda.get_current_stream().synchronize()
        else:
            torch.cuda.current_stream().synchronize()

    def write(self, field, host, stream):
        """New values into the whole field, as a program between exchanges would write them."""
        with self.on(stream):
            if self.name == "cupy":
                field[...] = cupy.asarray(host)
            else:
                field.copy_(torch.from_numpy(host).cuda())
        self.synchronize(stream)

    def device_sync(self):
        if self.name == "cupy":
            cupy.cuda.runtime.deviceSynchronize()
        else:
            torch.cuda.synchronize()

    def first_launch(self):
        """A kernel this process never launched before: CuPy compiles and loads a new one; PyTorch
        runs an operation not run before. Returns what it launched."""
        if self.name == "cupy":
            n = next(_cupy_kernels)
            name = f"haloflag_first_{os.getpid()}_{n}_{time.monotonic_ns()}"
            body = f"y = x * {n + 2}.0 + {time.time_ns() % 997}.0"
            kernel = cupy.ElementwiseKernel("T x", "T y", body, name)
            kernel(self.small)
        else:
            name, op = next(_torch_firsts)
            op(self.small)
        self.synchronize(None)
        return name

    def free(self):
        """Allocates 1 GiB, drops it and gives the library's cached memory back to the driver."""
        if self.name == "cupy":
            big = cupy.empty(BIG_BYTES, cupy.uint8)
            assert big.nbytes == BIG_BYTES
            del big
            cupy.get_default_memory_pool().free_all_blocks()
        else:
            big = torch.empty(BIG_BYTES, dtype=torch.uint8, device=f"cuda:{self.device}")
            assert big.nbytes == BIG_BYTES
            del big
            torch.cuda.empty_cache()


_libraries = {}


def _library_on_gpu(name, comm):
    device = haloflag.bind_gpu(comm)
    if name not in _libraries:
        _libraries[name] = Library(name, device)
    return _libraries[name]


def _exchange(exchange, lib, form):
    """One exchange, complete on this rank when it returns."""
    if form == "run":
        exchange.run()
    else:
        exchange.start(lib.stream)
        exchange.wait(lib.stream)
        lib.synchronize(lib.stream)


def _loop(exchange, lib, form):
    """LOOP back-to-back exchanges; the stream form queues them all, then waits once. Returns
    the relaunches of all but the first: the first follows a host synchronisation of the
    previous exchange, which may outlast the window (two ranks time-slicing one GPU without MPS
    saw that in the stream form), and then rightly brings the kernels back."""
    after_first = exchange.relaunches
    for i in range(LOOP):
        if form == "run":
            exchange.run()
        else:
            exchange.start(lib.stream)
            exchange.wait(lib.stream)
        if i == 0:
            after_first = exchange.relaunches
    lib.synchronize(lib.stream if form == "stream" else None)
    return exchange.relaunches - after_first


def _watchdog(exchange):
    """Aborts the exchange if the test outlives the timeout, so that a hang ends as a failure."""
    timer = threading.Timer(TIMEOUT + 5.0, exchange.abort, ["test_coexistence's watchdog: the "
                                                           "action or the exchange hung"])
    timer.daemon = True
    timer.start()
    return timer


def _act(lib, action, field, host, stream):
    if action == "device_sync":
        lib.device_sync()
    elif action == "first_launch":
        return lib.first_launch()
    elif action == "free":
        lib.free()
    else:
        lib.write(field, host, stream)
    return action


@needs_gpu
@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("library", LIBRARIES)
def test_action_between_exchanges(comm, library, form, action):
    lib = _library_on_gpu(library, comm)
    stream = lib.stream if form == "stream" else None
    geometry = haloflag.Geometry(SHAPE, comm)
    host = np.zeros(geometry.field_shape)
    fill(host, geometry, 0, 1, whole=True)
    field = lib.array(host)
    fill(host, geometry, 0, 2, whole=True)  # epoch 2, every ghost cell back to the sentinel
    with haloflag.Exchange(geometry, [field], strategy="resident", timeout=TIMEOUT,
                           progress="thread" if form == "stream" else "caller") as exchange:
        watchdog = _watchdog(exchange)
        try:
            _exchange(exchange, lib, form)
            began = time.perf_counter()
            what = _act(lib, action, field, host, stream)  # at once: the kernels are still there
            took = time.perf_counter() - began
            if action != "write_fields":  # the write replaced epoch 1 with epoch 2
                agree(wrong_cells(lib.to_host(field), geometry, 0, 1))
                lib.write(field, host, stream)
            before = exchange.relaunches
            _exchange(exchange, lib, form)
            relaunches = exchange.relaunches
            looped = _loop(exchange, lib, form)
            agree(wrong_cells(lib.to_host(field), geometry, 0, 2))
        finally:
            watchdog.cancel()
    RECORDS.append({"library": library, "form": form, "action": action, "what": what,
                    "rank": comm.rank, "took_s": took, "relaunches": relaunches,
                    "relaunches_before_next": before, "loop_relaunches": looped})
    problems = []
    bound = WINDOW + SLACK + (COMPILE_S if action == "first_launch" else 0.0)
    if took > bound:
        problems.append(f"{what} took {took:.3f} s, over {bound} s (idle_exit {WINDOW} s)")
    if action in DEVICE_WAITS and relaunches < 1:
        problems.append(f"{what} waited for the device, but relaunches is {relaunches}")
    if looped:
        problems.append(f"{LOOP - 1} back-to-back exchanges after a loop's first relaunched the "
                        f"kernels {looped} times")
    agree("; ".join(problems))


@needs_gpu
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("library", LIBRARIES)
def test_never_keeps_the_kernels(comm, library, form):
    """idle_exit="never": today's kernels that stay; a loop relaunches nothing."""
    lib = _library_on_gpu(library, comm)
    geometry = haloflag.Geometry(SHAPE, comm)
    host = np.zeros(geometry.field_shape)
    fill(host, geometry, 0, 1, whole=True)
    field = lib.array(host)
    with haloflag.Exchange(geometry, [field], strategy="resident", timeout=TIMEOUT,
                           idle_exit="never",
                           progress="thread" if form == "stream" else "caller") as exchange:
        watchdog = _watchdog(exchange)
        try:
            _exchange(exchange, lib, form)
            _loop(exchange, lib, form)
            agree(wrong_cells(lib.to_host(field), geometry, 0, 1))
            _exchange(exchange, lib, form)
            agree("" if exchange.relaunches == 0 else f"relaunches {exchange.relaunches}, not 0")
        finally:
            watchdog.cancel()


_spin = []


def _busy(lib, stream, seconds):
    """Queues on `stream` a kernel that spins for about `seconds`: a stream still busy."""
    if lib.name == "torch":
        hz = getattr(torch.cuda.get_device_properties(lib.device), "clock_rate", 1.5e6) * 1e3
        with torch.cuda.stream(stream):
            torch.cuda._sleep(int(seconds * hz))
        return
    if not _spin:
        _spin.append(cupy.RawKernel(r'''
extern "C" __global__ void haloflag_spin(long long cycles) {
  long long begin = clock64();
  while (clock64() - begin < cycles) {}
}''', "haloflag_spin"))
    hz = cupy.cuda.runtime.getDeviceProperties(lib.device).get("clockRate", 1.5e6) * 1e3
    with stream:
        _spin[0]((1,), (1,), (np.int64(seconds * hz),))


@needs_gpu
@pytest.mark.parametrize("library", LIBRARIES)
def test_device_wait_behind_a_promised_start(comm, library):
    """A start promised on a stream that is still busy keeps the kernels past idle_exit until the
    stream reaches it: a device synchronize issued meanwhile waits for that exchange and the
    window after it, and the exchange fills every ghost cell without a relaunch."""
    lib = _library_on_gpu(library, comm)
    busy, window = 0.3, 0.02  # the start(stream) below is called well within the window
    geometry = haloflag.Geometry(SHAPE, comm)
    host = np.zeros(geometry.field_shape)
    fill(host, geometry, 0, 1, whole=True)
    field = lib.array(host)
    fill(host, geometry, 0, 2, whole=True)
    staged = lib.array(host)  # epoch 2, copied into the field on the stream behind the busy kernel
    _busy(lib, lib.stream, 0.001)  # the spin kernel loaded before the Exchange exists
    lib.synchronize(lib.stream)
    with haloflag.Exchange(geometry, [field], strategy="resident", timeout=TIMEOUT,
                           idle_exit=window, progress="thread") as exchange:
        watchdog = _watchdog(exchange)
        try:
            _exchange(exchange, lib, "stream")
            before = exchange.relaunches
            _busy(lib, lib.stream, busy)
            with lib.on(lib.stream):
                if library == "cupy":
                    field[...] = staged
                else:
                    field.copy_(staged)
            exchange.start(lib.stream)
            exchange.wait(lib.stream)
            began = time.perf_counter()
            lib.device_sync()
            took = time.perf_counter() - began
            relaunched = exchange.relaunches - before
            problems = [wrong_cells(lib.to_host(field), geometry, 0, 2)]
        finally:
            watchdog.cancel()
    if relaunched:
        problems.append(f"the promised start relaunched the kernels {relaunched} times")
    if took > busy + window + SLACK:
        problems.append(f"the device synchronize took {took:.3f} s behind a stream busy for "
                        f"{busy} s")
    agree("; ".join(p for p in problems if p))
    RECORDS.append({"library": library, "form": "stream", "action": "device_sync, start queued",
                    "what": f"stream busy {busy} s", "rank": comm.rank, "took_s": took,
                    "relaunches": relaunched, "relaunches_before_next": before,
                    "loop_relaunches": 0})


@pytest.fixture(scope="module", autouse=True)
def action_times(pytestconfig):
    """After the module: the slowest rank's time of every action, as a table on rank 0."""
    yield
    comm = MPI.COMM_WORLD
    gathered = [r for rank_records in comm.allgather(RECORDS) for r in rank_records]
    if comm.rank != 0 or not gathered:
        return
    rows = {}
    for r in gathered:
        key = (r["library"], r["form"], r["action"])
        row = rows.setdefault(key, dict(r))
        row["took_s"] = max(row["took_s"], r["took_s"])  # the slowest rank
        row["relaunches"] = min(row["relaunches"], r["relaunches"])  # the fewest
    lines = [f"action times beside resident kernels (idle_exit {WINDOW} s), the slowest of "
             f"{comm.size} ranks:",
             "| library | form | action | launched | took (s) | relaunches |",
             "| --- | --- | --- | --- | --- | --- |"]
    for (library, form, action), r in sorted(rows.items()):
        lines.append(f"| {library} | {form} | {action} | {r['what']} | {r['took_s']:.3f} | "
                     f"{r['relaunches']} |")
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():  # pytest's output capture hides prints otherwise
        print("\n" + "\n".join(lines), flush=True)
    path = os.environ.get("HALOFLAG_COEXISTENCE_JSON")
    if path:
        with open(path, "w") as f:
            json.dump({"idle_exit_s": WINDOW, "ranks": comm.size, "records": gathered}, f, indent=1)
