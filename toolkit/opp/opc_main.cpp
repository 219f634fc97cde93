// P/bin/opc: the kernel compiler custom-operator projects call per data-type combination (CANN's
// opc command line; g++ against ascsim); the work is in libascsim (src/op/tools/opc.cpp).
#include "ascsim/op_tools.h"

int main(int argc, char** argv) { return ascsim_opc_main(argc, argv); }
