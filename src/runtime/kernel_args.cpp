// Out-of-line error paths of ascsim/kernel_launcher.h (argument conversion).
#include <string>

#include "ascsim/error.h"
#include "ascsim/kernel_launcher.h"

namespace ascsim {

void ThrowNullStructArgument(const char* kernel, size_t index) {
  throw InvalidArgument(std::string(kernel != nullptr ? kernel : "kernel") + ": argument " +
                        std::to_string(index) +
                        " is a struct taken by value and was given as a null pointer (a struct "
                        "parameter may be passed by pointer, as to aclrtlaunch_<kernel>, and is "
                        "copied from there)");
}

}  // namespace ascsim
