// An empty library. Official kernel-launch CMakeLists link names such as `register` (operator
// registration) and `ascendalog` (CANN's logging); nothing in a simulated kernel-launch program
// needs them, so the toolkit installs these libraries with no code in them, only to let the
// program's link line resolve unchanged (docs/toolkit.md, "Libraries").
