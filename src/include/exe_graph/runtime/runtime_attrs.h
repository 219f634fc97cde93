// gert::RuntimeAttrs (CANN metadef inc/external/exe_graph/runtime/runtime_attrs.h): an operator's
// attributes by their index in the OpDef (declaration order). Each getter returns nullptr for an
// index past the last attribute; like CANN's, it does not check the attribute's type (each value
// is stored in at least 8 zeroed bytes, so reading one as a wider scalar stays in bounds).
//   Int -> const int64_t*        Float -> const float*          Bool -> const bool*
//   String -> const char*        ListInt -> TypedContinuousVector<int64_t>
//   ListFloat -> TypedContinuousVector<float>   ListBool -> TypedContinuousVector<bool>
//   ListListInt -> ContinuousVectorVector (of int64_t)
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {

class RuntimeAttrs {
 public:
  template <typename T>
  const T* GetAttrPointer(size_t index) const {
    return reinterpret_cast<const T*>(GetPointerByIndex(index));
  }
  const int64_t* GetInt(const size_t index) const { return GetAttrPointer<int64_t>(index); }
  const TypedContinuousVector<int64_t>* GetListInt(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
  }
  const ContinuousVectorVector* GetListListInt(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  const char* GetStr(const size_t index) const { return GetAttrPointer<char>(index); }
  const Tensor* GetTensor(const size_t index) const { return GetAttrPointer<Tensor>(index); }
  const float* GetFloat(const size_t index) const { return GetAttrPointer<float>(index); }
  const bool* GetBool(const size_t index) const { return GetAttrPointer<bool>(index); }
  const TypedContinuousVector<float>* GetListFloat(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<float>>(index);
  }
  const ContinuousVectorVector* GetListListFloat(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  size_t GetAttrNum() const;

  RuntimeAttrs(const RuntimeAttrs&) = delete;
  RuntimeAttrs(RuntimeAttrs&&) = delete;
  RuntimeAttrs& operator=(const RuntimeAttrs&) = delete;
  RuntimeAttrs& operator=(RuntimeAttrs&&) = delete;

  // The attribute's bytes (any type); nullptr past the last attribute.
  const void* GetPointerByIndex(size_t index) const;

 protected:
  RuntimeAttrs() = default;

 private:
  uint64_t placeholder_ = 0;
};
static_assert(std::is_standard_layout<RuntimeAttrs>::value, "This class must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
