#include "cuda/adapter_names.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "model/errors.hpp"

namespace hostcb {

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string real_path(const std::string& path) {
  char buffer[PATH_MAX];
  return ::realpath(path.c_str(), buffer) ? std::string(buffer) : path;
}

// Where the Python adapter libraries may be, in order.
std::vector<std::string> library_folders() {
  std::vector<std::string> folders;
  if (const char* dir = std::getenv("HOSTCB_ADAPTER_DIR"); dir && *dir) folders.emplace_back(dir);
  char exe[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string path(exe, static_cast<std::size_t>(n));
    std::string bin = path.substr(0, path.rfind('/'));
    folders.push_back(bin);
    folders.push_back(bin + "/../" HOSTCB_INSTALL_LIBDIR "/hostcb");
  }
  return folders;
}

// The layer modules in a hostcb_layers/ folder: its *.py but the helpers (_*.py).
std::vector<std::string> modules_in(const std::string& folder) {
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(folder.c_str())) {
    while (dirent* entry = ::readdir(dir)) {
      std::string file = entry->d_name;
      if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0 && file[0] != '_')
        names.push_back(file.substr(0, file.size() - 3));
    }
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool is_ready_name(const std::string& spec) {
  // A loop, not std::regex: regex_match recurses once per character and a long argument
  // ran it out of stack (SIGSEGV on 30,000 letters).
  const std::string name = spec.substr(0, spec.find('@'));
  const std::size_t colon = name.find(':');
  auto word = [](const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
  };
  return colon != std::string::npos && word(name.substr(0, colon)) && word(name.substr(colon + 1)) && !exists(name);
}

std::string python_adapters_folder(const std::string& asked_for) {
  // The first folder holding the Python adapters; their package is python/ beside them.
  const std::vector<std::string> folders = library_folders();
  for (const auto& candidate : folders)
    if (exists(candidate + "/libhostcb_python_runtime.so")) return candidate;
  std::string looked;
  for (const auto& candidate : folders) looked += (looked.empty() ? "" : ", ") + candidate;
  throw UsageError(str("adapter '", asked_for, "': ready names need the Python adapters (libhostcb_python_runtime.so), found in none of ",
                       looked, " (build with python3-dev, or set HOSTCB_ADAPTER_DIR)"));
}

std::string resolve_ready_name(const std::string& spec, const std::vector<std::string>& loaded) {
  std::size_t at = spec.find('@');
  std::string name = spec.substr(0, at), options = at == std::string::npos ? "" : spec.substr(at + 1);
  std::size_t colon = name.find(':');
  std::string layer = name.substr(0, colon), entry = name.substr(colon + 1);
  std::string module = layer + "_" + entry;
  auto fail = [&](const std::string& why) { return UsageError(str("adapter '", name, "': ", why)); };
  if (at != std::string::npos && options.empty())
    throw fail("nothing follows its '@': give OPTIONS after it, or leave the '@' out");

  const std::string folder = python_adapters_folder(name);
  const std::string package = folder + "/python/hostcb_layers";
  if (!exists(package + "/" + module + ".py")) {
    std::string known;
    for (const auto& m : modules_in(package)) known += (known.empty() ? "" : ", ") + m;
    throw fail(str("no such ready name: no ", module, ".py in ", package, "; there are ",
                   known.empty() ? std::string("none") : known, " (LAYER:ENTRY loads LAYER_ENTRY.py)"));
  }

  // One state per library: take the other one when the natural one is in use.
  std::vector<std::string> libraries = {folder + "/libhostcb_python_runtime.so", folder + "/libhostcb_python_driver.so"};
  if (ends_with(entry, "driver")) std::swap(libraries[0], libraries[1]);
  auto in_use = [&](const std::string& library) {
    return std::any_of(loaded.begin(), loaded.end(),
                       [&](const std::string& path) { return real_path(path) == real_path(library); });
  };
  auto free_library = std::find_if(libraries.begin(), libraries.end(), [&](const auto& l) { return !in_use(l); });
  if (free_library == libraries.end())
    throw fail(str("both Python adapter libraries are loaded already; one process runs at most two Python layers"));
  return str(*free_library, "@module=hostcb_layers.", module, options.empty() ? "" : ",", options);
}

}  // namespace hostcb
