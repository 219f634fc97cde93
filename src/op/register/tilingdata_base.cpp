// optiling::TilingDef and its registries (register/tilingdata_base.h). The layout rules are
// CANN's (metadef base/asc/tilingdata_base_impl.cc): a field is aligned to its own size by a
// uint8_t placeholder "<name>PH" in front of it; SaveToBuffer copies the whole buffer.
#include "register/tilingdata_base.h"

#include <cstring>
#include <string>

#include "ascsim/error.h"
#include "op/framework.h"

namespace optiling {

using ascsim::op::OpFramework;

StructSizeInfoBase& StructSizeInfoBase::GetInstance() {
  static StructSizeInfoBase* instance = new StructSizeInfoBase;
  return *instance;
}

void StructSizeInfoBase::SetStructSize(const char* structType, const size_t structSize) {
  OpFramework::Get().SetStructSize(structType, structSize);
}

size_t StructSizeInfoBase::GetStructSize(const char* structType) {
  return OpFramework::Get().StructSize(structType);
}

void TilingDef::SaveToBuffer(void* pdata, size_t capacity) {
  if (inited_data_ptr) return;  // a nested struct lives inside its parent's buffer already
  if (pdata == nullptr || capacity < data_size_) {
    OpFramework::Get().RecordError(
        std::string("TilingDef::SaveToBuffer: tiling struct ") +
        (class_name_ != nullptr ? class_name_ : "?") + " needs " + std::to_string(data_size_) +
        " B but the tiling buffer " +
        (pdata == nullptr ? "is nullptr" : "holds " + std::to_string(capacity) + " B") +
        " (nothing was copied)");
    return;
  }
  std::memcpy(pdata, data_ptr_, data_size_);
}

std::vector<FieldInfo> TilingDef::GetFieldInfo() const { return field_info_; }

const char* TilingDef::GetTilingClassName() const { return class_name_; }

size_t TilingDef::GetDataSize() const { return data_size_; }

void TilingDef::SetDataPtr(void* dataPtr) {
  if (!inited_data_ptr && data_ptr_ != nullptr) delete[] data_ptr_;
  inited_data_ptr = true;
  data_ptr_ = static_cast<uint8_t*>(dataPtr);
  for (const auto& nested : saveBufferPtr) {
    static_cast<TilingDef*>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
  }
}

void TilingDef::CheckAlignAndGenPlaceHolder(const char* name, size_t typeSize) {
  if (typeSize == 0 || data_size_ % typeSize == 0) return;
  const size_t pad = typeSize - data_size_ % typeSize;
  field_info_.emplace_back(FieldInfo("uint8_t", name, pad));
  data_size_ += pad;
}

void TilingDef::InitData() {
  data_ptr_ = new uint8_t[data_size_ == 0 ? 1 : data_size_]();
  for (const auto& nested : saveBufferPtr) {
    static_cast<TilingDef*>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
  }
}

void TilingDef::GeLogError(const char* str) const {
  OpFramework::Get().RecordError(std::string(class_name_ != nullptr ? class_name_ : "tiling") +
                                 ": " + (str != nullptr ? str : ""));
}

CTilingDataClassFactory& CTilingDataClassFactory::GetInstance() {
  static CTilingDataClassFactory* instance = new CTilingDataClassFactory;
  return *instance;
}

void CTilingDataClassFactory::RegisterTilingData(const char* op_type,
                                                 const TilingDataConstructor constructor) {
  OpFramework::Get().RegisterTilingData(op_type, constructor);
}

std::shared_ptr<TilingDef> CTilingDataClassFactory::CreateTilingDataInstance(const char* op_type) {
  const TilingDataConstructor ctor = OpFramework::Get().TilingDataOf(op_type);
  return ctor == nullptr ? nullptr : ctor();
}

TilingDataStructBase& TilingDataStructBase::GetInstance() {
  static TilingDataStructBase* instance = new TilingDataStructBase;
  return *instance;
}

uint32_t TilingDataStructBase::RecordTilingStruct(const char*, const char*, uint32_t) { return 0; }

}  // namespace optiling
