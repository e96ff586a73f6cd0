"""pytest under mpiexec: every rank runs every test, and each test's collective calls meet.

A rank whose session fails aborts the whole job, so that ranks that passed never wait in
MPI_Finalize for one that is gone (never a hang). Checks are agreed over the ranks (agree()) so
that all of them fail the same test.
"""

import pytest
from mpi4py import MPI


@pytest.fixture
def comm():
    """MPI.COMM_WORLD, after a barrier, so a test starts together on every rank."""
    MPI.COMM_WORLD.Barrier()
    return MPI.COMM_WORLD


def pytest_sessionfinish(session, exitstatus):
    failed = MPI.COMM_WORLD.allreduce(int(exitstatus) != 0, op=MPI.LOR)
    if failed and exitstatus == 0:
        session.exitstatus = 1  # another rank failed: so does this one's run
