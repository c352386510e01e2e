// pdbgen: builds, inspects and verifies loyd's pattern databases. See `pdbgen --help`.
// Under mpirun every rank runs this; rank 0 alone prints, and a failure every rank shares
// (Collective::agree) ends them all normally with its exit status; a failure of one rank alone
// aborts the job (MPI_Abort) with it (program/process.h).
#include "pdbgen/program.h"
#include "program/process.h"

int main(int argc, char** argv) {
    return loyd::program::run_program("pdbgen", argc, argv, loyd::pdbgen::run_pdbgen);
}
