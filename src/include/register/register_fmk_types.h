// The AI framework types of framework-adapter plugins (CANN metadef
// inc/external/register/register_fmk_types.h).
#ifndef ASCSIM_REGISTER_REGISTER_FMK_TYPES_H_
#define ASCSIM_REGISTER_REGISTER_FMK_TYPES_H_

namespace domi {
enum FrameworkType {
  CAFFE = 0,
  MINDSPORE = 1,
  TENSORFLOW = 3,
  ANDROID_NN = 4,
  ONNX = 5,
  FRAMEWORK_RESERVED = 6
};
}  // namespace domi

#endif  // ASCSIM_REGISTER_REGISTER_FMK_TYPES_H_
