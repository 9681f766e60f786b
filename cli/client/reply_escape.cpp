#include "cli/client/reply_escape.h"

#include <cstdio>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

namespace halma::cli {

namespace {

namespace gp = google::protobuf;

std::string hex_escape(const char* format, unsigned value) {
    char text[12];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

bool bidi_control(char32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069);
}

// The UTF-8 character at text[i] and its length; length 0 if the bytes are not UTF-8.
std::size_t decode(std::string_view text, std::size_t i, char32_t& c) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char b = byte(i);
    std::size_t n = b < 0x80 ? 1
        : (b >> 5) == 0x6    ? 2
        : (b >> 4) == 0xE    ? 3
        : (b >> 3) == 0x1E   ? 4
                             : 0;
    if (n == 0 || i + n > text.size()) return 0;
    c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        c = (c << 6) | (byte(i + k) & 0x3F);
    }
    // Overlong forms and surrogates are not UTF-8 either.
    static constexpr char32_t kLeast[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < kLeast[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    return n;
}

void escape_fields(gp::Message& message) {
    const gp::Reflection* reflection = message.GetReflection();
    std::vector<const gp::FieldDescriptor*> fields;
    reflection->ListFields(message, &fields);
    for (const gp::FieldDescriptor* field : fields) {
        if (field->type() == gp::FieldDescriptor::TYPE_STRING) {
            if (field->is_repeated()) {
                for (int i = 0; i < reflection->FieldSize(message, field); ++i)
                    reflection->SetRepeatedString(&message, field, i,
                        printable(reflection->GetRepeatedString(message, field, i)));
            } else {
                reflection->SetString(
                    &message, field, printable(reflection->GetString(message, field)));
            }
        } else if (field->cpp_type() == gp::FieldDescriptor::CPPTYPE_MESSAGE) {
            if (field->is_repeated()) {
                for (int i = 0; i < reflection->FieldSize(message, field); ++i)
                    escape_fields(*reflection->MutableRepeatedMessage(&message, field, i));
            } else {
                escape_fields(*reflection->MutableMessage(&message, field));
            }
        }
    }
}

} // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t c = 0;
        std::size_t n = decode(text, i, c);
        if (n == 0) {
            out += hex_escape("\\x%02x", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7F)
            out += hex_escape("\\x%02x", static_cast<unsigned>(c));
        else if ((c >= 0x80 && c <= 0x9F) || bidi_control(c))
            out += hex_escape("\\u%04x", static_cast<unsigned>(c));
        else
            out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

void make_printable(gp::Message& message) {
    escape_fields(message);
}

} // namespace halma::cli
