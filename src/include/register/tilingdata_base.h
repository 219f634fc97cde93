// Tiling data declared on the host (CANN metadef inc/external/register/tilingdata_base.h):
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(AddTilingData)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);         // set_totalLength / get_totalLength
//     TILING_DATA_FIELD_DEF_ARR(uint16_t, 8, tiles);        // set_tiles(uint16_t*) / get_tiles()
//     TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);        // a nested tiling struct, `mm.set_...`
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddTilingData)  // the op's default tiling struct
//   }
//
// The bytes SaveToBuffer writes are the layout CANN defines (base/asc/tilingdata_base_impl.cc): the
// fields in order, each aligned to its own size (arrays to their element, nested structs to 8) with
// padding bytes before it, and the whole struct padded to a multiple of 8. The kernel reads them
// with GET_TILING_DATA through a struct the build generates with the same layout (ascsim::op::
// KernelTilingStruct, and CANN's get_op_tiling.py). Nested structs are registered under
// "<Struct>Op" (user structs) or "<Struct>OpApi" (the API's, such as TCubeTiling).
//
// Compiles as C++11. (get_x() is const here, so it also reads a const tiling struct; CANN's is
// not, and code written for it compiles unchanged.) Out-of-line members live in libascsim
// (libregister), and take no std::string, so operator code built with either libstdc++ ABI links
// against it.
#ifndef ASCSIM_REGISTER_TILINGDATA_BASE_H_
#define ASCSIM_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#if defined(__has_include)
#if __has_include("securec.h")
#include "securec.h"  // CANN's header brings securec: TilingFuncs call memcpy_s unannounced
#endif
#endif

#include "graph/ascend_string.h"

namespace optiling {
class TilingDefImpl;

struct CharPtrCmp {
  bool operator()(const char* strLeft, const char* strRight) const {
    return std::strcmp(strLeft, strRight) < 0;
  }
};

// Sizes of the tiling structs defined so far, by class name (nested structs take theirs from here).
class StructSizeInfoBase {
 public:
  static StructSizeInfoBase& GetInstance();
  void SetStructSize(const char* structType, const size_t structSize);
  size_t GetStructSize(const char* structType);

 private:
  StructSizeInfoBase() {}
  ~StructSizeInfoBase() {}
  StructSizeInfoBase(const StructSizeInfoBase&);
  StructSizeInfoBase& operator=(const StructSizeInfoBase&);
};

// One field: classType_ "0" a scalar, "1" an array (also the padding placeholders, uint8_t[n]),
// "2" a nested struct.
class FieldInfo {
 public:
  FieldInfo(const char* dtype, const char* name) : dtype_(dtype), name_(name), classType_("0") {}
  FieldInfo(const char* dtype, const char* name, size_t arrSize)
      : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
  FieldInfo(const char* dtype, const char* name, const char* structType, size_t structSize)
      : dtype_(dtype),
        name_(name),
        structType_(structType),
        structSize_(structSize),
        classType_("2") {}

 public:
  const char* dtype_;
  const char* name_;
  size_t arrSize_ = 0;
  const char* structType_ = nullptr;
  size_t structSize_ = 0;
  const char* classType_;
};

class TilingDef {
 public:
  ~TilingDef() {
    if (!inited_data_ptr && data_ptr_ != nullptr) delete[] data_ptr_;
    data_ptr_ = nullptr;
    class_name_ = nullptr;
  }
  // Copies GetDataSize() bytes to `pdata`; a capacity smaller than that copies nothing and
  // records an error (memcpy_s refuses it in CANN).
  void SaveToBuffer(void* pdata, size_t capacity);
  std::vector<FieldInfo> GetFieldInfo() const;
  const char* GetTilingClassName() const;
  size_t GetDataSize() const;
  void SetDataPtr(void* dataPtr);
  void CheckAlignAndGenPlaceHolder(const char* name, size_t typeSize);

 protected:
  void InitData();
  // (CANN takes a const std::string&; a const char* keeps the old-ABI callers linkable.)
  void GeLogError(const char* str) const;
  std::vector<FieldInfo> field_info_;
  uint8_t* data_ptr_ = nullptr;
  size_t data_size_ = 0;
  const char* class_name_ = nullptr;
  std::vector<std::pair<void*, size_t>> saveBufferPtr;
  size_t struct_size_ = 0;
  bool inited_data_ptr = false;
  uint32_t feature_bit_flag = 0;
  uint8_t reserved_buf[128] = {0};
  friend class TilingDefImpl;
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

// op type -> the constructor of its tiling struct (REGISTER_TILING_DATA_CLASS).
class CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory& GetInstance();
  void RegisterTilingData(const char* op_type, const TilingDataConstructor constructor);
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type);

 private:
  CTilingDataClassFactory() {}
  ~CTilingDataClassFactory() {}
  CTilingDataClassFactory(const CTilingDataClassFactory&);
  CTilingDataClassFactory& operator=(const CTilingDataClassFactory&);
};

class TilingDataStructBase {
 public:
  static TilingDataStructBase& GetInstance();
  uint32_t RecordTilingStruct(const char* name, const char* file, uint32_t line);

 private:
  TilingDataStructBase() {}
  ~TilingDataStructBase() {}
  TilingDataStructBase(const TilingDataStructBase&);
  TilingDataStructBase& operator=(const TilingDataStructBase&);
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                     \
  class class_name : public TilingDef {                                                       \
   public:                                                                                    \
    size_t FieldHandler(const char* dtype, const char* name, size_t typeSize,                 \
                        const char* namePh) {                                                 \
      CheckAlignAndGenPlaceHolder(namePh, typeSize);                                          \
      field_info_.emplace_back(FieldInfo(dtype, name));                                       \
      size_t ret_val = data_size_;                                                            \
      data_size_ += typeSize;                                                                 \
      return ret_val;                                                                         \
    }                                                                                         \
    size_t FieldHandler(const char* dtype, const char* name, size_t typeSize, size_t arrSize, \
                        const char* namePh) {                                                 \
      CheckAlignAndGenPlaceHolder(namePh, typeSize);                                          \
      field_info_.emplace_back(FieldInfo(dtype, name, arrSize));                              \
      size_t ret_val = data_size_;                                                            \
      data_size_ += typeSize * arrSize;                                                       \
      return ret_val;                                                                         \
    }                                                                                         \
    size_t FieldHandler(const char* dtype, const char* name, const char* structType,          \
                        size_t structSize, void* ptr, const char* namePh) {                   \
      CheckAlignAndGenPlaceHolder(namePh, 8);                                                 \
      field_info_.emplace_back(FieldInfo(dtype, name, structType, structSize));               \
      size_t ret_val = data_size_;                                                            \
      data_size_ += structSize;                                                               \
      saveBufferPtr.emplace_back(std::make_pair(ptr, ret_val));                               \
      struct_size_ += structSize;                                                             \
      return ret_val;                                                                         \
    }                                                                                         \
                                                                                              \
   public:                                                                                    \
    class_name() {                                                                            \
      class_name_ = #class_name;                                                              \
      CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                       \
      StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);               \
      InitData();                                                                             \
    }                                                                                         \
    explicit class_name(void* ptr) {                                                          \
      class_name_ = #class_name;                                                              \
      CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                       \
      StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);               \
      if (ptr == nullptr) {                                                                   \
        return;                                                                               \
      }                                                                                       \
      SetDataPtr(ptr);                                                                        \
    }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                               \
 public:                                                                           \
  void set_##field_name(data_type field_name) {                                    \
    field_name##_ = field_name;                                                    \
    std::memcpy(data_ptr_ + field_name##_offset_, &field_name, sizeof(data_type)); \
  }                                                                                \
  data_type get_##field_name() const { return field_name##_; }                     \
                                                                                   \
 private:                                                                          \
  data_type field_name##_ = 0;                                                     \
  size_t field_name##_offset_ =                                                    \
      FieldHandler(#data_type, #field_name, sizeof(data_type), #field_name "PH");  \
  uint8_t field_name##_reserve_buf_[16] = {0};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                         \
 public:                                                                                  \
  void set_##field_name(arr_type* field_name) {                                           \
    const size_t offset = field_name##_offset_;                                           \
    if (data_ptr_ + offset == reinterpret_cast<uint8_t*>(field_name)) {                   \
      return;                                                                             \
    }                                                                                     \
    if (field_name == nullptr || (arr_size) * sizeof(arr_type) > data_size_ - offset) {   \
      GeLogError("tilingdata_base.h TILING_DATA_FIELD_DEF_ARR memcpy is failed !");       \
      return;                                                                             \
    }                                                                                     \
    std::memcpy(data_ptr_ + offset, field_name, (arr_size) * sizeof(arr_type));           \
  }                                                                                       \
  arr_type* get_##field_name() {                                                          \
    return reinterpret_cast<arr_type*>(data_ptr_ + field_name##_offset_);                 \
  }                                                                                       \
                                                                                          \
 private:                                                                                 \
  arr_type* field_name##_ = nullptr;                                                      \
  size_t field_name##_offset_ =                                                           \
      FieldHandler(#arr_type, #field_name, sizeof(arr_type), arr_size, #field_name "PH"); \
  uint8_t field_name##_reserve_buf_[16] = {0};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                     \
 public:                                                                          \
  struct_type field_name{nullptr};                                                \
                                                                                  \
 private:                                                                         \
  size_t field_name##_offset_ =                                                   \
      FieldHandler("struct", #field_name, #struct_type,                           \
                   StructSizeInfoBase::GetInstance().GetStructSize(#struct_type), \
                   (void*)&field_name, #field_name "PH");                         \
  uint8_t field_name##_reserve_buf_[16] = {0};

#define END_TILING_DATA_DEF \
  }                         \
  ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                          \
  namespace {                                                                    \
  class op_type##class_name##Helper {                                            \
   public:                                                                       \
    op_type##class_name##Helper() {                                              \
      CTilingDataClassFactory::GetInstance().RegisterTilingData(                 \
          #op_type, op_type##class_name##Helper::CreateTilingDataInstance);      \
    }                                                                            \
    static std::shared_ptr<TilingDef> CreateTilingDataInstance() {               \
      return std::make_shared<class_name>();                                     \
    }                                                                            \
  };                                                                             \
  static class_name g_##op_type##class_name##init;                               \
  static op_type##class_name##Helper g_tilingdata_##op_type##class_name##helper; \
  }

#endif  // ASCSIM_REGISTER_TILINGDATA_BASE_H_
