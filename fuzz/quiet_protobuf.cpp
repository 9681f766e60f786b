// Linked into every fuzz target: protobuf logs each string field that is not UTF-8 as an
// error, which millions of fuzzed messages turn into noise that slows the run down. The parse
// result says the same thing to the code under test.
#include <google/protobuf/stubs/logging.h>

namespace {

struct QuietProtobuf {
    QuietProtobuf() { google::protobuf::SetLogHandler(nullptr); }
} quiet_protobuf;

} // namespace
