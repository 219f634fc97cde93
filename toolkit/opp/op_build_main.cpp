// P/toolkit/tools/opbuild/op_build: CANN's op_build command for custom-operator projects
// (op_build <ops library> <output dir>); the work is in libascsim (src/op/tools/op_build.cpp).
#include "ascsim/op_tools.h"

int main(int argc, char** argv) { return ascsim_op_build_main(argc, argv); }
