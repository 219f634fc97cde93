// The entry points of the custom-operator build tools in libascsim, for the toolkit's thin
// executables (P/toolkit/tools/opbuild/op_build, P/bin/opc; docs/custom_ops.md).
#ifndef ASCSIM_OP_TOOLS_H_
#define ASCSIM_OP_TOOLS_H_

#ifdef __cplusplus
extern "C" {
#endif

// op_build <ops library> <output dir>
int ascsim_op_build_main(int argc, char** argv);
// opc <adapter.py | kernel.cpp> --main_func=... --input_param=... --soc_version=... --output=...
int ascsim_opc_main(int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_OP_TOOLS_H_
