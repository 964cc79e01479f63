// Device-side headers from resources/ embedded at build time (cmake/EmbedResources.cmake), so
// tilec and the IDE need no files at run time and NVRTC gets them as in-memory headers.
#pragma once
#include <string_view>

namespace ts::resources {
/// Contents of resources/<name> (e.g. "ts_device.cuh"); empty if there is no such resource.
std::string_view find(std::string_view name);
}  // namespace ts::resources
