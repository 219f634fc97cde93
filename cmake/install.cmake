# cmake --install <build> --prefix P: headers, libascsim.so, the shipped kernels, the CMake package
# (P/lib/cmake/ascsim: find_package(ascsim) -> ascsim::ascsim, ascsim::kernels) and pkg-config
# (P/lib/pkgconfig/ascsim.pc). Test-only code (faulty kernels, white-box internals) stays out.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ASCSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ascsim)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/src/generated/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernel/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ascsim/kernels)
install(TARGETS ascsim ascsim_headers ascsim_kernels EXPORT ascsimTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ascsimTargets NAMESPACE ascsim:: DESTINATION ${ASCSIM_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ascsimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/ascsimConfig.cmake INSTALL_DESTINATION ${ASCSIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/ascsimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/ascsimConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/ascsimConfigVersion.cmake
        DESTINATION ${ASCSIM_INSTALL_CMAKEDIR})

# The .pc file finds the prefix relative to itself, so `cmake --install --prefix P` can choose P.
file(RELATIVE_PATH ASCSIM_PC_TO_PREFIX /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(${PROJECT_SOURCE_DIR}/cmake/ascsim.pc.in ${PROJECT_BINARY_DIR}/cmake/ascsim.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/ascsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ascsim_add_kernel_module() and its generator (python/ascsim/_codegen.py, standard library only).
install(FILES ${PROJECT_SOURCE_DIR}/cmake/ascsimKernelModule.cmake DESTINATION ${ASCSIM_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/python/ascsim/_codegen.py DESTINATION ${ASCSIM_INSTALL_CMAKEDIR}
        RENAME ascsim_codegen.py)
