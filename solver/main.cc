// solver: optimal sliding-tile puzzle solver. See README.md and `solver --help`.
// Under mpirun every rank runs this (ranks/run.h): rank 0 reads the input, searches with the
// others and prints; the others serve it; every rank exits with the status rank 0 decides.
// Ctrl-C or SIGTERM stops the searches with what they proved: the records, the summary and
// status 130 (program/signals.h).
#include "program/process.h"
#include "solver/program.h"

int main(int argc, char** argv) {
    return loyd::program::run_program("solver", argc, argv, loyd::solver::run_solver);
}
