"""A stand-in for CANN's `tbe` Python package, as far as a custom-operator project's own build
scripts import it (cmake/util/ascendc_impl_build.py: `from tbe.common.platform import
get_soc_spec`). ascsim's opc compiles kernels itself, so nothing here compiles anything."""
