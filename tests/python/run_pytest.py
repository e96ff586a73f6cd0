"""Runs pytest on one rank of an mpiexec job, as CTest's python tests do, and exits 77 (CTest's
"skipped") when every test skipped, so that GPU tests without a GPU never count as passed.

    mpiexec -n 2 python tests/python/run_pytest.py tests/python/test_gpu.py
"""

import sys

import pytest


class Outcomes:
    """Counts the outcomes of the tests' call phase (and of skips at set-up)."""

    def __init__(self):
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome == "skipped" or report.failed:
            self.counts[report.outcome] = self.counts.get(report.outcome, 0) + 1


if __name__ == "__main__":
    outcomes = Outcomes()
    status = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", "--color=no", *sys.argv[1:]],
                         plugins=[outcomes])
    c = outcomes.counts
    if status == 0 and c["passed"] == 0 and c["skipped"] > 0:
        status = 77
    sys.exit(int(status))
