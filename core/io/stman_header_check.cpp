#include "core/io/stman_header_check.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/util/input_error.h"

// On-disk facts used here (casacore 3.5, SSMBase::readHeader, ISMBase::readIndex,
// TiledStMan::headerFileGet, TSMFile::getObject, StManArrayFile::resync; AipsIO::getstart):
//  - an AipsIO object starts with the magic 0xbebebebe, the object's length in bytes (counting
//    itself, not the magic), its type name (a 32-bit length and the characters) and a version;
//  - StandardStMan and IncrementalStMan headers continue with an endian flag (SSM version 3 and
//    up, ISM version 5 and up), the bucket size and the number of buckets; the buckets follow
//    a 512-byte header block (ISM's index comes after them);
//  - the tiled storage managers' header file holds their subclass's object with a nested
//    TiledStMan object, always big-endian, which lists the data files table.f<N>_TSM<k> with the
//    length of each;
//  - an indirect-array file (table.f<N>i) starts with a version (uInt) and the length in use
//    (Int64) in the table's byte order.

namespace apertura {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kAipsIoMagic = 0xbebebebe;
constexpr std::uint64_t kBucketStart = 512;
constexpr std::uint64_t kArrayFileHeader = 16;  // version, length in use, padding
constexpr std::size_t kHeadBytes = 65536;       // far more than the headers read here take

std::vector<unsigned char> readHead(const std::string& file, std::size_t max_bytes) {
  std::vector<unsigned char> head(max_bytes);
  std::ifstream in(file, std::ios::binary);
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return head;
}

// Reads casacore's canonical encoding (fixed-size integers of either byte order, one-byte bools,
// strings as a 32-bit length and the characters); every read fails rather than run past the end.
class CanonicalReader {
 public:
  CanonicalReader(const std::vector<unsigned char>& bytes, std::size_t pos, bool big_endian)
      : bytes_(bytes), pos_(std::min(pos, bytes.size())), big_(big_endian) {}

  bool u32(std::uint32_t& v) { return integer(4, v); }
  bool u64(std::uint64_t& v) { return integer(8, v); }
  bool byte(unsigned char& v) {
    if (pos_ >= bytes_.size())
      return false;
    v = bytes_[pos_++];
    return true;
  }
  bool skip(std::uint64_t n) {
    if (n > bytes_.size() - pos_)
      return false;
    pos_ += static_cast<std::size_t>(n);
    return true;
  }
  bool text(std::string& s) {
    std::uint32_t n = 0;
    if (!u32(n) || n > bytes_.size() - pos_)
      return false;
    s.assign(bytes_.begin() + static_cast<long>(pos_),
             bytes_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
    return true;
  }

 private:
  template <typename T>
  bool integer(std::size_t size, T& v) {
    if (size > bytes_.size() - pos_)
      return false;
    v = 0;
    for (std::size_t i = 0; i < size; ++i)
      v = static_cast<T>((v << 8) | bytes_[pos_ + (big_ ? i : size - 1 - i)]);
    pos_ += size;
    return true;
  }

  const std::vector<unsigned char>& bytes_;
  std::size_t pos_;
  bool big_;
};

[[noreturn]] void truncated(const std::string& file, std::uint64_t size, const std::string& says) {
  throw InputError(
      file, "truncated storage-manager file (" + std::to_string(size) + " bytes, " + says + ")");
}

// "table.f<N>" (kind 'f') or "table.f<N>i" (kind 'i'); anything else gives 0.
char fileKind(const std::string& name) {
  const std::string prefix = "table.f";
  if (name.compare(0, prefix.size(), prefix) != 0)
    return 0;
  std::size_t i = prefix.size();
  const std::size_t digits = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])))
    ++i;
  if (i == digits)
    return 0;
  if (i == name.size())
    return 'f';
  return i + 1 == name.size() && name[i] == 'i' ? 'i' : 0;
}

void checkBuckets(const std::string& file, std::uint64_t size, CanonicalReader& r,
                  const std::string& type, bool has_endian_flag) {
  std::uint32_t bucket_size = 0, buckets = 0;
  if ((has_endian_flag && !r.skip(1)) || !r.u32(bucket_size) || !r.u32(buckets))
    truncated(file, size, "shorter than its " + type + " header");
  const std::uint64_t required = kBucketStart + std::uint64_t{buckets} * bucket_size;
  if (size < required) {
    truncated(file, size,
              "the " + type + " header says " + std::to_string(required) + ": " +
                  std::to_string(kBucketStart) + " + " + std::to_string(buckets) + " buckets of " +
                  std::to_string(bucket_size) + " bytes");
  }
}

// The data files a tiled storage manager's header file lists must hold the length it gives them.
// A header of a layout not known here is left to casacore.
void checkTiledDataFiles(const std::string& file, const std::vector<unsigned char>& head) {
  static const std::vector<unsigned char> nested = {0,   0,   0,   10,  'T', 'i', 'l',
                                                    'e', 'd', 'S', 't', 'M', 'a', 'n'};
  const auto at = std::search(head.begin(), head.end(), nested.begin(), nested.end());
  if (at == head.end())
    return;
  CanonicalReader r(head, static_cast<std::size_t>(at - head.begin()) + nested.size(), true);
  std::uint32_t version = 0, columns = 0;
  std::string hypercolumn;
  if (!r.u32(version) || version < 1 || version > 3)
    return;
  const std::uint64_t wide = version >= 3 ? 8 : 4;  // row, cache and file counts grew to 64 bits
  std::uint64_t nfiles = 0;
  std::uint32_t nfiles32 = 0;
  // endian flag, sequence number, rows, columns and their types, hypercolumn, cache size, nrdim
  if ((version >= 2 && !r.skip(1)) || !r.skip(4) || !r.skip(wide) || !r.u32(columns) ||
      !r.skip(4 * std::uint64_t{columns}) || !r.text(hypercolumn) || !r.skip(wide) || !r.skip(4) ||
      !(wide == 8 ? r.u64(nfiles) : r.u32(nfiles32))) {
    return;
  }
  if (wide == 4)
    nfiles = nfiles32;
  const std::string header_name = fs::path(file).filename().string();
  for (std::uint64_t i = 0; i < nfiles; ++i) {
    unsigned char present = 0;
    std::uint32_t file_version = 0, seqnr = 0, length32 = 0;
    std::uint64_t length = 0;
    if (!r.byte(present))
      return;
    if (present == 0)
      continue;
    if (!r.u32(file_version) || !r.u32(seqnr))
      return;
    if (file_version == 1 ? !r.u32(length32) : !r.u64(length))
      return;
    if (file_version == 1)
      length = length32;
    const std::string data = file + "_TSM" + std::to_string(seqnr);
    std::error_code ec;
    const fs::file_status status = fs::status(data, ec);
    if (status.type() == fs::file_type::not_found) {
      if (length > 0) {
        throw InputError(data, "missing storage-manager file (" + header_name + " lists it with " +
                                   std::to_string(length) + " bytes)");
      }
      continue;
    }
    if (!fs::is_regular_file(status))
      continue;  // the table-tree check reports it
    const std::uintmax_t got = fs::file_size(data, ec);
    if (!ec && got < length)
      truncated(data, got, header_name + " says " + std::to_string(length));
  }
}

// table.f<N>: an AipsIO header of a storage manager.
void checkHeaderFile(const std::string& file, std::uint64_t size) {
  const std::vector<unsigned char> head = readHead(file, kHeadBytes);
  std::uint32_t magic = 0;  // the same in either byte order
  if (!CanonicalReader(head, 0, true).u32(magic) || magic != kAipsIoMagic)
    return;  // not an AipsIO file: another kind of storage manager
  if (head.size() < 12)
    truncated(file, size, "shorter than its header");
  // The type name is short, so its length read in the wrong byte order is 2^24 or more.
  std::uint32_t name_le = 0, name_be = 0;
  CanonicalReader(head, 8, false).u32(name_le);
  CanonicalReader(head, 8, true).u32(name_be);
  CanonicalReader r(head, 4, name_be <= name_le);
  std::uint32_t object_length = 0, version = 0;
  std::string type;
  r.u32(object_length);
  const std::uint64_t header_bytes = 4 + std::uint64_t{object_length};
  if (size < header_bytes)
    truncated(file, size, "its header alone takes " + std::to_string(header_bytes));
  if (!r.text(type) || !r.u32(version))
    return;
  if (type == "StandardStMan") {
    checkBuckets(file, size, r, type, version >= 3);
  } else if (type == "IncrementalStMan") {
    checkBuckets(file, size, r, type, version >= 5);
  } else if (type.compare(0, 5, "Tiled") == 0) {
    checkTiledDataFiles(file, head);
  }
}

// table.f<N>i. It carries no byte-order mark of its own (its table's order applies), so the
// smaller of the two readings of the length is taken: the other reading of a sound length is
// far beyond any file's size.
void checkArrayFile(const std::string& file, std::uint64_t size) {
  if (size == 0)
    return;  // casacore reports an empty one itself
  if (size < kArrayFileHeader)
    truncated(file, size, "shorter than its " + std::to_string(kArrayFileHeader) + "-byte header");
  const std::vector<unsigned char> head = readHead(file, kArrayFileHeader);
  std::uint64_t length_le = 0, length_be = 0;
  CanonicalReader(head, 4, false).u64(length_le);
  CanonicalReader(head, 4, true).u64(length_be);
  const std::uint64_t length = std::min(length_le, length_be);
  if (size < length)
    truncated(file, size, "the header says " + std::to_string(length));
}

}  // namespace

void checkStorageManagerFile(const std::string& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    return;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec)
    return;
  switch (fileKind(fs::path(file).filename().string())) {
    case 'f':
      checkHeaderFile(file, size);
      break;
    case 'i':
      checkArrayFile(file, size);
      break;
    default:
      break;
  }
}

}  // namespace apertura
