# Sourced by the tests that start real mpirun ranks (mpi_cli_test.sh, mpi_solver_test.sh).
# mpi_ready TEST PROGRAM: exits 77 (ctest: skipped) when PROGRAM is built without MPI or no
# mpirun is installed; otherwise allows Open MPI to run as root (CI does) and sets `mpi` to the
# launcher's command line (ranks may outnumber the cores here, and are not pinned).
mpi_ready() {
  local name=$1 program=$2
  if "$program" --version | grep -q "MPI: not built in"; then
    echo "$name: $(basename "$program") is built without MPI: skipped" >&2
    exit 77
  fi
  if ! command -v mpirun >/dev/null; then
    echo "$name: no mpirun: skipped" >&2
    exit 77
  fi
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpi=(mpirun --oversubscribe --bind-to none)
}
